#include "src/identity/ocsp.h"

#include <algorithm>

#include "src/common/event_log.h"
#include "src/http/client.h"

namespace edihub::identity {

namespace {

// An OCSP answer is a few KB; more is not one.
constexpr size_t kMaxAnswerBytes = size_t{256} * 1024;

}  // namespace

crypto::TrustStore::OcspAnswer OcspChecker::ask(const crypto::TrustStore& trust, const crypto::Certificate& cert,
                                                const crypto::Certificate& issuer, int64_t now,
                                                std::string* unreachable) {
  const std::string url = o_.responder.empty() ? crypto::TrustStore::ocsp_url(cert) : o_.responder;
  if (url.empty()) {
    *unreachable = "the certificate names no OCSP responder and none is configured";
    return {};
  }
  const std::string request = crypto::TrustStore::ocsp_request(cert, issuer);
  if (request.empty()) {
    *unreachable = "no OCSP request could be made for the certificate";
    return {};
  }
  {
    MutexLock lock(mu_);
    ++questions_;
  }
  http::Response r =
      http::post_ms(url, "Content-Type: application/ocsp-request\r\n", request, o_.timeout_ms, kMaxAnswerBytes);
  if (r.status != 200) {
    *unreachable = "the OCSP responder " + url + " did not answer (" +
                   (r.status == 0 ? r.error : "HTTP " + std::to_string(r.status)) + ")";
    return {};
  }
  crypto::TrustStore::OcspAnswer a = trust.read_ocsp_response(r.body, cert, issuer, now);
  if (a.status == crypto::TrustStore::OcspAnswer::Status::Invalid)
    *unreachable = "the OCSP responder " + url + " gave no usable answer: " + a.why;
  return a;
}

void OcspChecker::remember(const std::string& key, Entry e, int64_t now) {
  MutexLock lock(mu_);
  if (cache_.size() >= o_.max_entries) {
    // The entry that expires first goes: bounded whatever senders do.
    auto first = std::min_element(cache_.begin(), cache_.end(),
                                  [](const auto& a, const auto& b) { return a.second.until < b.second.until; });
    if (first != cache_.end()) cache_.erase(first);
  }
  e.until = std::min(e.until, now + o_.max_cache_seconds);
  cache_[key] = std::move(e);
}

std::string OcspChecker::check(const crypto::TrustStore& trust, const crypto::Certificate& cert,
                               const crypto::Certificate& issuer, int64_t now) {
  const std::string key = cert.sha256();
  {
    MutexLock lock(mu_);
    auto it = cache_.find(key);
    if (it != cache_.end() && it->second.until > now) return it->second.why;
  }
  std::string unreachable;
  const crypto::TrustStore::OcspAnswer a = ask(trust, cert, issuer, now, &unreachable);
  using Status = crypto::TrustStore::OcspAnswer::Status;
  if (!unreachable.empty()) {
    if (!o_.accept_unreachable) return unreachable + ": revocation cannot be checked";
    LogLine("ocsp", "unreachable").add("subject", cert.subject(), 200).add("detail", unreachable, 300).warning();
    return "";
  }
  const int64_t until = a.next_update != 0 ? a.next_update : now + o_.cache_seconds;
  if (a.status == Status::Good) {
    remember(key, {"", until}, now);
    return "";
  }
  // Revoked for good; unknown until the responder's next word on it.
  std::string why = a.why;
  remember(key, {why, a.status == Status::Revoked ? now + o_.max_cache_seconds : until}, now);
  return why;
}

int64_t OcspChecker::questions() const {
  MutexLock lock(mu_);
  return questions_;
}

}  // namespace edihub::identity
