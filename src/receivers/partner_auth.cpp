#include "src/receivers/partner_auth.h"

#include <algorithm>
#include <mutex>
#include <unordered_set>

#include "parsers/mime/entity.h"
#include "parsers/mime/transfer.h"
#include "src/common/cidr.h"
#include "src/crypto/digest.h"
#include "src/crypto/password.h"

namespace edihub::receivers {

namespace {

// Authorization values that verified, by digest: PBKDF2 costs milliseconds on
// purpose, a partner's every message should not. Bounded; cleared when full.
class Verified {
 public:
  bool contains(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    return seen_.count(key) != 0;
  }
  void add(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    if (seen_.size() >= 1024) seen_.clear();
    seen_.insert(key);
  }

 private:
  std::mutex mu_;
  std::unordered_set<std::string> seen_;
};
Verified& verified() {
  static Verified v;
  return v;
}

HttpAnswer refusal(int status, const std::string& why) {
  HttpAnswer a = text_answer(status, why, Outcome::Rejected);
  if (status == 401) a.headers.push_back({"WWW-Authenticate", "Basic realm=\"edihub\", charset=\"UTF-8\""});
  return a;
}

}  // namespace

std::optional<HttpAnswer> check_partner_auth(const config::Partner& partner, const HttpRequest& request) {
  if (!partner.allow_ips.empty() && !ip_allowed(request.peer, partner.allow_ips))
    return refusal(403, "this address may not send for partner " + partner.id);
  if (!partner.client_cert_sha256.empty()) {
    // Pinned, not chained to a CA: the listener accepted any certificate the
    // client proved it holds the key of; the profile says which one is the partner's.
    const std::string& presented = request.client_cert_sha256;
    if (presented.empty())
      return refusal(403, "partner " + partner.id + " must present its pinned TLS client certificate");
    const auto& pins = partner.client_cert_sha256;
    if (std::find(pins.begin(), pins.end(), presented) == pins.end())
      return refusal(403, "the TLS client certificate presented is not the one pinned for partner " + partner.id +
                              " (sha256 " + presented + ")");
  }
  if (partner.basic_user.empty()) return std::nullopt;
  const std::string header = request.header("Authorization");
  const size_t space = header.find(' ');
  std::string decoded;
  if (header.empty() || space == std::string::npos || !mime::iequals(header.substr(0, space), "Basic") ||
      !mime::base64_decode(mime::trim(header.substr(space + 1)), &decoded))
    return refusal(401, "partner " + partner.id + " must authenticate (HTTP Basic)");
  const std::string key = crypto::sha256_hex(partner.id + "\n" + header);
  if (verified().contains(key)) return std::nullopt;
  const size_t colon = decoded.find(':');
  if (colon == std::string::npos || decoded.substr(0, colon) != partner.basic_user ||
      !crypto::verify_password(std::string_view(decoded).substr(colon + 1), partner.basic_password_hash))
    return refusal(401, "wrong user or password for partner " + partner.id);
  verified().add(key);
  return std::nullopt;
}

}  // namespace edihub::receivers
