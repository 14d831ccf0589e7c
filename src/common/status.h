// Errors as values: a kind that decides what the caller does (retry,
// refuse, give up), a code chosen where the error arises that says what went
// wrong (callers branch on it, never on the text: rewording a message changes
// no MDN disposition), and a message an operator can act on. Both types are
// [[nodiscard]]: a status that is really ignored says so with ignore().
// RETURN_IF_ERROR and ASSIGN_OR_RETURN, below, keep the happy path readable.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

namespace edihub {

// What went wrong, by the domain where it is decided. None: nothing more
// precise than the Kind (most errors: a message is enough for people).
enum class Code {
  None,
  // crypto: CMS and S/MIME (crypto/cms.h)
  DecryptionFailed,      // not addressed to us, or a key we cannot use
  AuthenticationFailed,  // signed by a certificate the partner profile does not list
  IntegrityCheckFailed,  // the signature does not verify
  DecompressionFailed,
  // unwrap: the message's structure (receivers)
  Malformed,  // MIME, CMS or SOAP that cannot be read, or one read two ways
  // store
  StoreBusy,  // no write lock within the bound
  // gate: a transaction its work chose to roll back (never seen outside the gate)
  RolledBack,
  // config: the gateway's own configuration cannot be used (an identity that does not load)
  Configuration,
  // programming errors made visible (a Result built from an ok Status)
  Internal,
};

class [[nodiscard]] Status {
 public:
  enum class Kind {
    Ok,
    Invalid,  // bad input: permanent, retrying the same bytes will not help
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
  // With the code that says what went wrong.
  static Status invalid(Code c, std::string m) { return Status(Kind::Invalid, std::move(m), c); }
  static Status transient(Code c, std::string m) { return Status(Kind::Transient, std::move(m), c); }

  bool is_ok() const { return kind_ == Kind::Ok; }
  Kind kind() const { return kind_; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  // For the few calls whose failure changes nothing (a best-effort release).
  void ignore() const {}

 private:
  Status(Kind k, std::string m, Code c = Code::None) : kind_(k), code_(c), message_(std::move(m)) {}
  Kind kind_ = Kind::Ok;
  Code code_ = Code::None;
  std::string message_;
};

// A Result built from an ok Status has no value: a programming error. It
// becomes an Internal error that says so on stderr (never silently), and
// aborts in the sanitizer builds (EDIHUB_ABORT_ON_MISUSE), where tests run.
[[noreturn]] void abort_on_misuse(const char* what);
inline Status misused_ok_status() {
#ifdef EDIHUB_ABORT_ON_MISUSE
  abort_on_misuse("a Result<T> was built from an ok Status, without a value");
#endif
  std::fprintf(stderr, "edihub: internal error: a Result<T> was built from an ok Status, without a value\n");
  return Status::invalid(Code::Internal, "internal error: a result without a value");
}

// A value or the Status saying why there is none. value() on an error is a
// programming error: it aborts with the status message rather than reading
// an empty optional.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}         // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {  // NOLINT
    if (status_.is_ok()) status_ = misused_ok_status();
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

// The status of a Status or of a Result, for the macros.
inline const Status& status_of(const Status& s) { return s; }
template <typename T>
const Status& status_of(const Result<T>& r) {
  return r.status();
}

}  // namespace edihub

#define EDIHUB_CONCAT_INNER_(a, b) a##b
#define EDIHUB_CONCAT_(a, b) EDIHUB_CONCAT_INNER_(a, b)

// Returns the error of `expr` (a Status or a Result<T>) from the enclosing
// function, or goes on.
#define RETURN_IF_ERROR(expr)                                                      \
  do {                                                                             \
    const auto& edihub_status_or_ = (expr);                                        \
    if (!edihub_status_or_.is_ok()) return ::edihub::status_of(edihub_status_or_); \
  } while (0)

// `lhs` (a declaration or a variable) takes the value of `expr` (a
// Result<T>), or the enclosing function returns its error. `lhs` cannot be
// parenthesized: it may be a declaration ("const int n").
// NOLINTBEGIN(bugprone-macro-parentheses)
#define ASSIGN_OR_RETURN(lhs, expr) ASSIGN_OR_RETURN_IMPL_(EDIHUB_CONCAT_(edihub_result_, __LINE__), lhs, expr)
#define ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                           \
  if (!tmp.is_ok()) return tmp.status();       \
  lhs = std::move(tmp).value()
// NOLINTEND(bugprone-macro-parentheses)
