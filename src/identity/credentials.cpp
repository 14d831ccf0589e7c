#include "src/identity/credentials.h"

#include <cmath>
#include <ctime>

namespace edihub::identity {

Result<SigningCertificates> load_signing_certificates(const config::Partners& partners) {
  SigningCertificates out;
  for (const auto& p : partners.all()) {
    for (const auto& file : p.certificates.signing) {
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

std::string expired_signer(const config::Partner& partner, const std::string& subject, int64_t signer_not_after,
                           int64_t now_s) {
  if (partner.certificates.allow_expired || signer_not_after >= now_s) return "";
  char day[32];
  const std::time_t t = static_cast<std::time_t>(signer_not_after);
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::strftime(day, sizeof day, "%Y-%m-%d", &tm);
  return "signed with a certificate that expired on " + std::string(day) + " (" + subject + "); partner '" +
         partner.id + "' must sign with its current certificate";
}

Result<std::vector<CertificateInUse>> certificates_in_use(const config::Gateway& gw, const config::Partners& partners) {
  std::vector<CertificateInUse> out;
  auto add = [&](const std::string& owner, const char* use, const std::string& file) -> Status {
    Result<crypto::Certificate> c = crypto::Certificate::load_pem_file(file);
    if (!c.is_ok()) return Status::invalid(owner + " " + use + " certificate: " + c.status().message());
    out.push_back({owner, use, c->subject(), c->serial(), file, c->not_after()});
    return Status::ok();
  };
  for (const auto& id : gw.identities) RETURN_IF_ERROR(add("edihub", "identity", id.cert));
  for (const config::Partner& p : partners.all()) {
    for (const std::string& file : p.certificates.signing) RETURN_IF_ERROR(add(p.id, "signing", file));
    if (!p.certificates.encryption.empty()) RETURN_IF_ERROR(add(p.id, "encryption", p.certificates.encryption));
    for (const std::string& file : p.auth.client_certificates) RETURN_IF_ERROR(add(p.id, "tls-client", file));
  }
  return out;
}

int64_t days_left(const CertificateInUse& c, int64_t now) {
  return static_cast<int64_t>(std::floor(static_cast<double>(c.not_after - now) / 86400.0));
}

}  // namespace edihub::identity
