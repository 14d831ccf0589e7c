#include "src/receivers/partner_certificates.h"

namespace edihub::receivers {

Result<SigningCertificates> load_signing_certificates(const config::Partners& partners) {
  SigningCertificates out;
  for (const auto& p : partners.all()) {
    for (const auto& file : p.signing_certificates) {
      auto cert = crypto::Certificate::load_pem_file(file);
      if (!cert.is_ok()) return Status::invalid("partner '" + p.id + "': " + cert.status().message());
      out[p.id].push_back(cert.value());
    }
  }
  return out;
}

}  // namespace edihub::receivers
