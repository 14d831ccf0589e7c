#include "src/console/session.h"

#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/NameValueCollection.h>
#include <openssl/crypto.h>

#include "src/crypto/digest.h"
#include "src/crypto/password.h"
#include "src/crypto/random.h"

namespace edihub::console {

namespace {

constexpr const char* kCookie = "edihub_session";

// Checked when the name is unknown, so that a wrong name costs what a wrong password does.
const std::string& decoy_hash() {
  static const std::string h = crypto::hash_password(crypto::random_hex(16));
  return h;
}

}  // namespace

std::string session_token(const http::HttpRequest& request) {
  const std::string header = request.header("Cookie");
  if (header.empty() || header.size() > 4096) return "";
  Poco::Net::HTTPRequest parsed;
  parsed.set("Cookie", header);
  Poco::Net::NameValueCollection cookies;
  parsed.getCookies(cookies);
  const std::string token = cookies.get(kCookie, "");
  return token.size() == 64 && token.find_first_not_of("0123456789abcdef") == std::string::npos ? token : "";
}

Result<std::string> Sessions::log_in(store::ConsoleStore& store, int64_t now_ms, const std::string& name,
                                     const std::string& password, const std::string& peer, int* refused_in_window) {
  if (throttle_.blocked(peer)) {
    const int refused = throttle_.refused(peer);
    if (refused_in_window != nullptr) *refused_in_window = refused;
    return Status::transient("too many failed logins from this address: try again in " +
                             std::to_string(kFailureWindow.count()) + " minutes");
  }
  ASSIGN_OR_RETURN(std::optional<store::Operator> op, store.find_operator(name));
  const bool known = op.has_value();
  const bool match = crypto::verify_password(password, known ? op->password_hash : decoy_hash());
  if (!known || !match || password.empty()) {
    throttle_.failed(peer);
    return Status::invalid("wrong name or password");
  }
  const std::string token = crypto::random_hex(32), csrf = crypto::random_hex(16);
  if (token.empty() || csrf.empty()) return Status::transient("no random bytes for a session: try again");
  RETURN_IF_ERROR(store.put_session(crypto::sha256_hex(token), name, csrf, now_ms + int64_t{minutes_} * 60000));
  return token;
}

Result<std::optional<Session>> Sessions::current(store::ConsoleStore& store, const http::HttpRequest& request) const {
  const std::string token = session_token(request);
  if (token.empty()) return std::optional<Session>();
  Session s;
  s.token_sha256 = crypto::sha256_hex(token);
  ASSIGN_OR_RETURN(std::optional<store::ConsoleSession> found, store.find_session(s.token_sha256));
  if (!found) return std::optional<Session>();
  s.info = *found;
  return std::optional<Session>(std::move(s));
}

Status Sessions::log_out(store::ConsoleStore& store, const Session& session) const {
  return store.end_session(session.token_sha256);
}

std::string Sessions::cookie(const std::string& token) const {
  return std::string(kCookie) + "=" + token +
         "; Path=/; HttpOnly; SameSite=Strict; Max-Age=" + std::to_string(minutes_ * 60) + (secure_ ? "; Secure" : "");
}

std::string Sessions::cleared_cookie() const {
  return std::string(kCookie) + "=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0" + (secure_ ? "; Secure" : "");
}

bool Sessions::csrf_ok(const Session& session, const std::string& sent) {
  const std::string& want = session.info.csrf;
  return !want.empty() && sent.size() == want.size() && CRYPTO_memcmp(sent.data(), want.data(), want.size()) == 0;
}

}  // namespace edihub::console
