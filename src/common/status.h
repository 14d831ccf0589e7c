// Errors as values: a kind that decides what the caller does (and what a
// partner is answered), and a message an operator can act on. Both types are
// [[nodiscard]]: a status that is really ignored says so with ignore().
#pragma once

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

namespace edihub {

class [[nodiscard]] Status {
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
  // For the few calls whose failure changes nothing (a best-effort release).
  void ignore() const {}

 private:
  Status(Kind k, std::string m) : kind_(k), message_(std::move(m)) {}
  Kind kind_ = Kind::Ok;
  std::string message_;
};

// A value or the Status saying why there is none. value() on an error is a
// programming error: it aborts with the status message rather than reading
// an empty optional.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {  // NOLINT
    if (status_.is_ok()) status_ = Status::invalid("Result built from an ok Status without a value");
  }
  bool is_ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() & { return checked(); }
  const T& value() const& { return const_cast<Result*>(this)->checked(); }
  T&& value() && { return std::move(checked()); }
  T* operator->() { return &checked(); }
  const T* operator->() const { return &const_cast<Result*>(this)->checked(); }
  T& operator*() { return checked(); }
  const T& operator*() const { return const_cast<Result*>(this)->checked(); }
  void ignore() const {}

 private:
  T& checked() {
    if (!value_) {
      std::fprintf(stderr, "edihub: value() of a failed Result: %s\n", status_.message().c_str());
      std::abort();
    }
    return *value_;
  }
  std::optional<T> value_;
  Status status_;
};

}  // namespace edihub
