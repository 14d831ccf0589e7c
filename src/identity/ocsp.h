// Revocation by OCSP (RFC 6960) of certificates a CA vouches for (Peppol
// access points): the question goes to the configured responder, else to the
// one the certificate names; the wait is bounded; a good or revoked answer is
// kept until its nextUpdate (without one, `cache_seconds`), never longer than
// `max_cache_seconds`, so a sender's messages cost one question per answer's
// lifetime; a responder that does not answer (or answers nonsense) refuses
// the message unless the gateway says to accept (a CRL, when configured, was
// checked before).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "src/common/mutex.h"
#include "src/crypto/trust.h"

namespace edihub::identity {

class OcspChecker {
 public:
  struct Options {
    std::string responder;  // empty: the certificate's own (AIA)
    int64_t timeout_ms = 2000;
    bool accept_unreachable = false;
    int64_t cache_seconds = 300;
    int64_t max_cache_seconds = 86400;
    size_t max_entries = 10000;  // distinct certificates remembered; beyond, the oldest go
  };
  explicit OcspChecker(Options options) : o_(std::move(options)) {}

  // Empty when `cert` (issued by `issuer`, both verified by `trust`) is not
  // revoked at `now`, or its responder is unreachable and that is accepted;
  // else why not, for the sender's operator. Thread-safe.
  std::string check(const crypto::TrustStore& trust, const crypto::Certificate& cert, const crypto::Certificate& issuer,
                    int64_t now) EXCLUDES(mu_);

  // Questions sent so far (tests: the cache answers the rest).
  int64_t questions() const EXCLUDES(mu_);

 private:
  struct Entry {
    std::string why;  // empty: good
    int64_t until = 0;
  };
  // The answer, or why there is none: "unreachable: ..." in *unreachable.
  crypto::TrustStore::OcspAnswer ask(const crypto::TrustStore& trust, const crypto::Certificate& cert,
                                     const crypto::Certificate& issuer, int64_t now, std::string* unreachable);
  void remember(const std::string& key, Entry e, int64_t now) EXCLUDES(mu_);

  const Options o_;
  mutable Mutex mu_;
  std::map<std::string, Entry> cache_ GUARDED_BY(mu_);
  int64_t questions_ GUARDED_BY(mu_) = 0;
};

}  // namespace edihub::identity
