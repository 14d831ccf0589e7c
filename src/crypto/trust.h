// Certificates trusted because a CA vouches for them, not because a profile
// pins them: a Peppol network's access point certificates chain to its AP
// CAs. A TrustStore holds those CAs and their CRLs, loaded once and shared
// read-only by every receiving thread.
#pragma once

#include <openssl/x509_vfy.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
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
  // With `issuer` not null, the certificate that issued `cert` (for an OCSP
  // question) is set when it verifies.
  std::string verify(const Certificate& cert, int64_t now, Certificate* issuer = nullptr) const;

  // OCSP (RFC 6960), the parts without a network: the DER request for `cert`
  // (issued by `issuer`), and what a DER response says of it.
  static std::string ocsp_request(const Certificate& cert, const Certificate& issuer);
  struct OcspAnswer {
    enum class Status { Good, Revoked, Unknown, Invalid };
    Status status = Status::Invalid;
    int64_t next_update = 0;  // seconds since the epoch; 0: the responder gave none
    std::string why;          // for Revoked, Unknown and Invalid: for people
  };
  // The response must be successful, signed by the issuer or a responder it
  // delegated to (OCSPSigning), name `cert`, and be current at `now` (5
  // minutes of clock skew allowed).
  OcspAnswer read_ocsp_response(std::string_view der, const Certificate& cert, const Certificate& issuer,
                                int64_t now) const;
  // The OCSP responder the certificate names (its AIA), or empty.
  static std::string ocsp_url(const Certificate& cert);

  // The CN of `cert`'s subject, or empty: a Peppol access point's seat id.
  static std::string common_name(const Certificate& cert);

  size_t ca_count() const { return ca_count_; }
  size_t crl_count() const { return crl_count_; }

 private:
  std::shared_ptr<X509_STORE> store_;
  size_t ca_count_ = 0, crl_count_ = 0;
};

}  // namespace edihub::crypto
