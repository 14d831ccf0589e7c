#include "src/receivers/credentials.h"

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

Result<std::vector<crypto::Identity>> load_identities(const config::Gateway& gw) {
  std::vector<crypto::Identity> identities;
  for (const auto& id : gw.identities) {
    auto cert = crypto::Certificate::load_pem_file(id.cert);
    if (!cert.is_ok()) return Status::invalid("identity: " + cert.status().message());
    auto key = crypto::PrivateKey::load_pem_file(id.key);
    if (!key.is_ok()) return Status::invalid("identity: " + key.status().message());
    identities.push_back({cert.value(), key.value()});
  }
  return identities;
}

}  // namespace edihub::receivers
