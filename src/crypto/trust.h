// Certificates trusted because a CA vouches for them, not because a profile
// pins them: a Peppol network's access point certificates chain to its AP
// CAs. A TrustStore holds those CAs and their CRLs, loaded once and shared
// read-only by every receiving thread.
#pragma once

#include <openssl/x509_vfy.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/common/status.h"
#include "src/crypto/cms.h"

namespace edihub::crypto {

class TrustStore {
 public:
  // The CA certificates of `ca_files` (PEM, several per file allowed; each
  // is a trust anchor, root or intermediate) and the CRLs of `crl_files`
  // (PEM or DER). Invalid names the file that cannot be used. With CRLs,
  // a verified certificate's issuer must have a current one: a CA whose CRL
  // is missing or past its nextUpdate fails verification (fail closed).
  static Result<TrustStore> load(const std::vector<std::string>& ca_files, const std::vector<std::string>& crl_files);

  // Empty when `cert` chains to one of the CAs (intermediates only from the
  // store), is within its validity at `now` (seconds since the epoch), as
  // is each certificate of its chain, and is not revoked; else why not, for
  // the sender's operator ("certificate revoked (CRL of CN=...)").
  std::string verify(const Certificate& cert, int64_t now) const;

  // The CN of `cert`'s subject, or empty: a Peppol access point's seat id.
  static std::string common_name(const Certificate& cert);

  size_t ca_count() const { return ca_count_; }
  size_t crl_count() const { return crl_count_; }

 private:
  std::shared_ptr<X509_STORE> store_;
  size_t ca_count_ = 0, crl_count_ = 0;
};

}  // namespace edihub::crypto
