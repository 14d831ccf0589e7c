// Credentials loaded once at start: the partners' signing certificates (AS2's
// CMS and AS4's WS-Security check a signer against them) and our identities
// (they decrypt, and the first one signs MDNs and AS4 Receipts).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "src/common/status.h"
#include "src/config/gateway.h"
#include "src/config/partners.h"
#include "src/crypto/cms.h"

namespace edihub::identity {

using SigningCertificates = std::map<std::string, std::vector<crypto::Certificate>>;  // by partner id

// Every <certificate use="signing"> of every partner; Invalid names the partner and file.
Result<SigningCertificates> load_signing_certificates(const config::Partners& partners);

// The gateway's <identity> certificates and keys; Invalid names the file.
Result<std::vector<crypto::Identity>> load_identities(const config::Gateway& gw);

// Why a message signed by `signer_not_after`'s certificate is refused: it
// expired and the partner's <security allow-expired> is not set; empty when
// it is accepted. Rollover: the partner's newer certificate keeps working.
std::string expired_signer(const config::Partner& partner, const std::string& subject, int64_t signer_not_after,
                           int64_t now_s);

// A certificate the gateway uses, for `edihub certs`, `edihub status` and /metrics.
struct CertificateInUse {
  std::string owner;  // "edihub" for our identities, else the partner id
  std::string use;    // identity, signing, encryption, tls-client (<auth client-cert>)
  std::string subject, serial, file;
  int64_t not_after = 0;  // seconds since the epoch
};
// Our identities' and every partner's signing, encryption and pinned TLS client certificates;
// Invalid names the file that cannot be read.
Result<std::vector<CertificateInUse>> certificates_in_use(const config::Gateway& gw, const config::Partners& partners);
// Whole days until `c` expires at `now` (seconds since the epoch), rounded
// down; negative once it has expired. `edihub certs`, `status` and the console.
int64_t days_left(const CertificateInUse& c, int64_t now);
// Certificates closer to their end than this are warned about.
inline constexpr int kCertificateWarnDays = 30;

}  // namespace edihub::identity
