#include "src/crypto/self_signed.h"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>

#include "src/crypto/cms.h"

namespace edihub::crypto {

namespace {

template <typename T, void (*F)(T*)>
struct Deleter {
  void operator()(T* p) const { F(p); }
};
using Key = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using Cert = std::unique_ptr<X509, Deleter<X509, X509_free>>;
using Bio = std::unique_ptr<BIO, Deleter<BIO, BIO_free_all>>;

std::string drain(BIO* b) {
  char* data = nullptr;
  const long n = BIO_get_mem_data(b, &data);
  return n > 0 ? std::string(data, static_cast<size_t>(n)) : std::string();
}

bool add_extension(X509* cert, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
  if (ext == nullptr) return false;
  const bool ok = X509_add_ext(cert, ext, -1) == 1;
  X509_EXTENSION_free(ext);
  return ok;
}

}  // namespace

Result<NewIdentity> make_self_signed(const std::string& common_name, int bits, int days) {
  if (bits < 2048 || bits > 8192) return Status::invalid("an RSA key of 2048 to 8192 bits");
  if (days < 1 || days > 36500) return Status::invalid("a certificate valid for 1 to 36500 days");
  if (common_name.empty() || common_name.size() > 64) return Status::invalid("a common name of 1 to 64 characters");
  Key key(EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<size_t>(bits)));
  if (!key) return Status::invalid("OpenSSL could not make an RSA key");
  Cert cert(X509_new());
  unsigned char serial[16];
  if (!cert || RAND_bytes(serial, sizeof serial) != 1) return Status::invalid("no certificate or no random serial");
  serial[0] &= 0x7f;  // a positive INTEGER
  BIGNUM* bn = BN_bin2bn(serial, sizeof serial, nullptr);
  const bool serial_set = bn != nullptr && BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert.get())) != nullptr;
  BN_free(bn);
  X509_NAME* name = X509_get_subject_name(cert.get());
  const bool built =
      serial_set && X509_set_version(cert.get(), 2) == 1 &&
      X509_gmtime_adj(X509_getm_notBefore(cert.get()), -300) != nullptr &&
      X509_gmtime_adj(X509_getm_notAfter(cert.get()), static_cast<long>(days) * 86400) != nullptr &&
      X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(common_name.c_str()),
                                 -1, -1, 0) == 1 &&
      X509_set_issuer_name(cert.get(), name) == 1 && X509_set_pubkey(cert.get(), key.get()) == 1 &&
      add_extension(cert.get(), NID_basic_constraints, "critical,CA:FALSE") &&
      add_extension(cert.get(), NID_key_usage, "critical,digitalSignature,keyEncipherment") &&
      add_extension(cert.get(), NID_subject_key_identifier, "hash") &&
      X509_sign(cert.get(), key.get(), EVP_sha256()) > 0;
  if (!built) return Status::invalid("OpenSSL could not build the certificate");
  Bio key_out(BIO_new(BIO_s_mem())), cert_out(BIO_new(BIO_s_mem()));
  if (!key_out || !cert_out ||
      PEM_write_bio_PrivateKey(key_out.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1 ||
      PEM_write_bio_X509(cert_out.get(), cert.get()) != 1)
    return Status::invalid("OpenSSL could not write the key or the certificate");
  NewIdentity out;
  out.key_pem = drain(key_out.get());
  out.certificate_pem = drain(cert_out.get());
  ASSIGN_OR_RETURN(Certificate loaded, Certificate::from_pem(out.certificate_pem));
  out.sha256 = loaded.sha256();
  return out;
}

}  // namespace edihub::crypto
