// Errors as values: a kind that decides what the caller does (and what a
// partner is answered), and a message an operator can act on.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace edihub {

class Status {
 public:
  enum class Kind {
    Ok,
    Invalid,      // bad input: permanent, retrying the same bytes will not help
    NotFound,
    Conflict,     // same key, different content
    Transient,    // busy, disk full, downstream down: retry later
    Unavailable,  // the store cannot be opened or used at all
    Fenced,       // our lease was taken over: another worker owns the key now
  };

  Status() = default;
  static Status ok() { return Status(); }
  static Status invalid(std::string m) { return Status(Kind::Invalid, std::move(m)); }
  static Status not_found(std::string m) { return Status(Kind::NotFound, std::move(m)); }
  static Status conflict(std::string m) { return Status(Kind::Conflict, std::move(m)); }
  static Status transient(std::string m) { return Status(Kind::Transient, std::move(m)); }
  static Status unavailable(std::string m) { return Status(Kind::Unavailable, std::move(m)); }
  static Status fenced(std::string m) { return Status(Kind::Fenced, std::move(m)); }

  bool is_ok() const { return kind_ == Kind::Ok; }
  Kind kind() const { return kind_; }
  const std::string& message() const { return message_; }

 private:
  Status(Kind k, std::string m) : kind_(k), message_(std::move(m)) {}
  Kind kind_ = Kind::Ok;
  std::string message_;
};

// A value or the Status saying why there is none.
template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {}  // NOLINT
  bool is_ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() { return *value_; }
  const T& value() const { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace edihub
