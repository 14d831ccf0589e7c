// Who is using the console: operators log in with a name and a password
// (PBKDF2, crypto/password.h); a session is a random token in an HttpOnly,
// SameSite=Strict cookie, stored only as its SHA-256; every POST carries the
// session's CSRF token. Failed logins are throttled per client address.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "src/common/failure_throttle.h"
#include "src/common/status.h"
#include "src/http/message.h"
#include "src/store/console.h"

namespace edihub::console {

struct Session {
  std::string token_sha256;
  store::ConsoleSession info;
  bool can_act() const { return info.role == "operator"; }
};

// The session cookie's value in the request (POCO's cookie parsing), empty
// when there is none or it cannot be a token.
std::string session_token(const http::HttpRequest& request);

class Sessions {
 public:
  Sessions(int session_minutes, bool secure_cookie) : minutes_(session_minutes), secure_(secure_cookie) {}

  // A new session for `name` when the password matches: its cookie token.
  // Invalid "wrong name or password"; Transient when `peer` failed too often,
  // then *refused_in_window (when given) is how many logins from `peer` were
  // refused so in this window (1 for the first: the one worth an audit row).
  Result<std::string> log_in(store::ConsoleStore& store, int64_t now_ms, const std::string& name,
                             const std::string& password, const std::string& peer, int* refused_in_window = nullptr);
  // The live session the request's cookie names, if any.
  Result<std::optional<Session>> current(store::ConsoleStore& store, const http::HttpRequest& request) const;
  Status log_out(store::ConsoleStore& store, const Session& session) const;

  // Set-Cookie values: the session, and its removal.
  std::string cookie(const std::string& token) const;
  std::string cleared_cookie() const;
  // Whether the form's token is the session's (constant time).
  static bool csrf_ok(const Session& session, const std::string& sent);

  static constexpr int kMaxFailures = 5;  // per address per window, then 429
  static constexpr std::chrono::minutes kFailureWindow{15};

 private:
  const int minutes_;
  const bool secure_;
  FailureThrottle throttle_{kMaxFailures, kFailureWindow};
};

}  // namespace edihub::console
