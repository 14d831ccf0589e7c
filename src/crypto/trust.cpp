#include "src/crypto/trust.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "src/common/files.h"

namespace edihub::crypto {

namespace {

// A CA or CRL file is configuration, small: bounded all the same.
constexpr size_t kMaxTrustFileBytes = 16 << 20;

using Bio = std::unique_ptr<BIO, decltype(&BIO_free)>;

Bio memory_bio(const std::string& bytes) {
  return Bio(BIO_new_mem_buf(bytes.data(), static_cast<int>(bytes.size())), BIO_free);
}

// Adds every PEM certificate of `bytes` to `store`; the number added.
size_t add_certificates(X509_STORE* store, const std::string& bytes) {
  Bio bio = memory_bio(bytes);
  size_t added = 0;
  while (X509* x = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
    if (X509_STORE_add_cert(store, x) == 1) ++added;
    X509_free(x);
  }
  ERR_clear_error();  // the end of the PEM stream reads as an error
  return added;
}

// Adds the CRLs of `bytes`: PEM (several) or one DER; the number added.
size_t add_crls(X509_STORE* store, const std::string& bytes) {
  size_t added = 0;
  Bio bio = memory_bio(bytes);
  while (X509_CRL* crl = PEM_read_bio_X509_CRL(bio.get(), nullptr, nullptr, nullptr)) {
    if (X509_STORE_add_crl(store, crl) == 1) ++added;
    X509_CRL_free(crl);
  }
  ERR_clear_error();
  if (added > 0) return added;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(bytes.data());
  if (X509_CRL* crl = d2i_X509_CRL(nullptr, &p, static_cast<long>(bytes.size()))) {
    if (X509_STORE_add_crl(store, crl) == 1) ++added;
    X509_CRL_free(crl);
  }
  ERR_clear_error();
  return added;
}

std::string name_text(const X509_NAME* name) {
  if (name == nullptr) return "";
  Bio bio(BIO_new(BIO_s_mem()), BIO_free);
  X509_NAME_print_ex(bio.get(), name, 0, XN_FLAG_RFC2253);
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio.get(), &data);
  return n > 0 ? std::string(data, static_cast<size_t>(n)) : std::string();
}

}  // namespace

Result<TrustStore> TrustStore::load(const std::vector<std::string>& ca_files,
                                    const std::vector<std::string>& crl_files) {
  TrustStore t;
  t.store_.reset(X509_STORE_new(), X509_STORE_free);
  if (!t.store_) return Status::unavailable("cannot make a certificate store");
  for (const std::string& file : ca_files) {
    ASSIGN_OR_RETURN(std::string bytes, read_file_bounded(file, kMaxTrustFileBytes));
    const size_t added = add_certificates(t.store_.get(), bytes);
    if (added == 0) return Status::invalid(file + ": no PEM certificate in it (a CA certificate is expected)");
    t.ca_count_ += added;
  }
  for (const std::string& file : crl_files) {
    ASSIGN_OR_RETURN(std::string bytes, read_file_bounded(file, kMaxTrustFileBytes));
    const size_t added = add_crls(t.store_.get(), bytes);
    if (added == 0) return Status::invalid(file + ": not a CRL (PEM or DER)");
    t.crl_count_ += added;
  }
  // A configured intermediate is an anchor of its own: the sender needs to
  // send only its own certificate, as Peppol access points do.
  unsigned long flags = X509_V_FLAG_PARTIAL_CHAIN;
  if (t.crl_count_ > 0) flags |= X509_V_FLAG_CRL_CHECK;  // the access point's own: its CA's CRL
  X509_STORE_set_flags(t.store_.get(), flags);
  return t;
}

std::string TrustStore::verify(const Certificate& cert, int64_t now) const {
  if (cert.get() == nullptr) return "no certificate";
  std::unique_ptr<X509_STORE_CTX, decltype(&X509_STORE_CTX_free)> ctx(X509_STORE_CTX_new(), X509_STORE_CTX_free);
  if (!ctx || X509_STORE_CTX_init(ctx.get(), store_.get(), cert.get(), nullptr) != 1) {
    ERR_clear_error();
    return "cannot verify the certificate (out of memory)";
  }
  X509_STORE_CTX_set_time(ctx.get(), 0, static_cast<time_t>(now));
  const int ok = X509_verify_cert(ctx.get());
  const int err = X509_STORE_CTX_get_error(ctx.get());
  ERR_clear_error();
  if (ok == 1) return "";
  X509* at = X509_STORE_CTX_get_current_cert(ctx.get());
  const std::string whose =
      at != nullptr && at != cert.get() ? " (at " + name_text(X509_get_subject_name(at)) + ")" : "";
  switch (err) {
    case X509_V_ERR_CERT_REVOKED:
      return "the certificate is revoked" + whose;
    case X509_V_ERR_CERT_HAS_EXPIRED:
      return "the certificate has expired" + whose;
    case X509_V_ERR_CERT_NOT_YET_VALID:
      return "the certificate is not yet valid" + whose;
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
      return "the certificate (issuer " + name_text(X509_get_issuer_name(cert.get())) +
             ") does not chain to a configured access point CA";
    case X509_V_ERR_UNABLE_TO_GET_CRL:
      return "no CRL of the issuing CA is configured, so revocation cannot be checked" + whose;
    case X509_V_ERR_CRL_HAS_EXPIRED:
      return "the issuing CA's CRL is past its nextUpdate: revocation cannot be checked" + whose;
    case X509_V_ERR_CRL_NOT_YET_VALID:
      return "the issuing CA's CRL is not yet valid" + whose;
    default:
      return std::string("the certificate does not verify: ") + X509_verify_cert_error_string(err) + whose;
  }
}

std::string TrustStore::common_name(const Certificate& cert) {
  if (cert.get() == nullptr) return "";
  X509_NAME* name = X509_get_subject_name(cert.get());
  const int at = X509_NAME_get_index_by_NID(name, NID_commonName, -1);
  if (at < 0) return "";
  const ASN1_STRING* value = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, at));
  unsigned char* utf8 = nullptr;
  const int n = ASN1_STRING_to_UTF8(&utf8, value);
  if (n < 0) return "";
  std::string cn(reinterpret_cast<char*>(utf8), static_cast<size_t>(n));
  OPENSSL_free(utf8);
  return cn;
}

}  // namespace edihub::crypto
