#include "src/identity/partner_auth.h"

#include <openssl/crypto.h>

#include <algorithm>
#include <mutex>

#include "src/common/mutex.h"
#include <unordered_set>

#include "parsers/mime/entity.h"
#include "parsers/mime/transfer.h"
#include "src/common/cidr.h"
#include "src/common/failure_throttle.h"
#include "src/crypto/digest.h"
#include "src/crypto/password.h"

namespace edihub::identity {

namespace {

// Authorization values that verified, by digest: PBKDF2 costs milliseconds on
// purpose, a partner's every message should not. Bounded; cleared when full.
class Verified {
 public:
  bool contains(const std::string& key) {
    MutexLock lock(mu_);
    return seen_.count(key) != 0;
  }
  void add(const std::string& key) {
    MutexLock lock(mu_);
    if (seen_.size() >= 1024) seen_.clear();
    seen_.insert(key);
  }

 private:
  Mutex mu_;
  std::unordered_set<std::string> seen_;
};
Verified& verified() {
  static Verified v;
  return v;
}

// Wrong Basic credentials per client address, as the console counts failed logins.
FailureThrottle& throttle() {
  static FailureThrottle t(5, std::chrono::minutes(15));
  return t;
}

class Failures {
 public:
  void add(const std::string& partner, const char* reason) {
    MutexLock lock(mu_);
    ++counts_[{partner, reason}];
  }
  std::map<std::pair<std::string, std::string>, int64_t> snapshot() {
    MutexLock lock(mu_);
    return counts_;
  }

 private:
  Mutex mu_;
  std::map<std::pair<std::string, std::string>, int64_t> counts_;  // configured partner ids only
};
Failures& failures() {
  static Failures f;
  return f;
}

http::HttpAnswer refusal(int status, const std::string& why) {
  http::HttpAnswer a = http::text_answer(status, why, Outcome::Rejected);
  if (status == 401) a.headers.push_back({"WWW-Authenticate", "Basic realm=\"edihub\", charset=\"UTF-8\""});
  if (status == 429) a.headers.push_back({"Retry-After", std::to_string(15 * 60)});
  return a;
}

QuickAuth refused(const config::Partner& partner, const char* reason, int status, const std::string& why) {
  failures().add(partner.id, reason);
  return {QuickAuth::Kind::Refused, refusal(status, why)};
}

// What the cache key of verified credentials is: the partner and the header as sent.
std::string verified_key(const config::Partner& partner, const std::string& header) {
  return crypto::sha256_hex(partner.id + "\n" + header);
}

bool same(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

QuickAuth check_partner_auth_quick(const config::Partner& partner, const http::HttpRequest& request) {
  if (!partner.auth.allow_ips.empty() && !ip_allowed(request.peer, partner.auth.allow_ips))
    return refused(partner, "address", 403, "this address may not send for partner " + partner.id);
  if (!partner.auth.client_cert_sha256.empty()) {
    // Pinned, not chained to a CA: the listener accepted any certificate the
    // client proved it holds the key of; the profile says which one is the partner's.
    const std::string& presented = request.client_cert_sha256;
    if (presented.empty())
      return refused(partner, "client-cert", 403,
                     "partner " + partner.id + " must present its pinned TLS client certificate");
    const auto& pins = partner.auth.client_cert_sha256;
    if (std::find(pins.begin(), pins.end(), presented) == pins.end())
      return refused(partner, "client-cert", 403,
                     "the TLS client certificate presented is not the one pinned for partner " + partner.id +
                         " (sha256 " + presented + ")");
  }
  if (partner.auth.basic_user.empty()) return {};
  const std::string header = request.header("Authorization");
  const size_t space = header.find(' ');
  std::string decoded;
  if (header.empty() || space == std::string::npos || !mime::iequals(header.substr(0, space), "Basic") ||
      !mime::base64_decode(mime::trim(header.substr(space + 1)), &decoded))
    return refused(partner, "basic", 401, "partner " + partner.id + " must authenticate (HTTP Basic)");
  if (verified().contains(verified_key(partner, header))) return {};
  if (throttle().blocked(request.peer))
    return refused(partner, "throttled", 429,
                   "too many failed authentications from this address: try again in " +
                       std::to_string(throttle().window_minutes().count()) + " minutes");
  return {QuickAuth::Kind::NeedsHash, {}};
}

std::optional<http::HttpAnswer> check_partner_auth(const config::Partner& partner, const http::HttpRequest& request) {
  QuickAuth quick = check_partner_auth_quick(partner, request);
  if (quick.kind == QuickAuth::Kind::Passed) return std::nullopt;
  if (quick.kind == QuickAuth::Kind::Refused) return std::move(quick.refusal);
  const std::string header = request.header("Authorization");
  std::string decoded;
  // Decodes: check_partner_auth_quick() read it already.
  (void)mime::base64_decode(mime::trim(std::string_view(header).substr(header.find(' ') + 1)), &decoded);
  const size_t colon = decoded.find(':');
  const std::string_view user = std::string_view(decoded).substr(0, colon);
  const std::string_view password =
      colon == std::string::npos ? std::string_view() : std::string_view(decoded).substr(colon + 1);
  // The PBKDF2 always runs, whatever the user: a wrong user costs what a wrong password does.
  const bool password_ok = crypto::verify_password(password, partner.auth.basic_password_hash);
  if (!(same(user, partner.auth.basic_user) && colon != std::string::npos && password_ok)) {
    throttle().failed(request.peer);
    failures().add(partner.id, "basic");
    return refusal(401, "wrong user or password for partner " + partner.id);
  }
  verified().add(verified_key(partner, header));
  return std::nullopt;
}

std::map<std::pair<std::string, std::string>, int64_t> partner_auth_failures() { return failures().snapshot(); }

}  // namespace edihub::identity
