#include "src/crypto/trust.h"

#include <openssl/err.h>
#include <openssl/ocsp.h>
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

std::string TrustStore::verify(const Certificate& cert, int64_t now, Certificate* issuer) const {
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
  if (ok == 1) {
    if (issuer != nullptr) {
      STACK_OF(X509)* chain = X509_STORE_CTX_get0_chain(ctx.get());
      // A certificate that is itself an anchor is its own issuer's question: none to ask.
      if (chain != nullptr && sk_X509_num(chain) > 1) {
        X509* up = sk_X509_value(chain, 1);
        X509_up_ref(up);
        *issuer = Certificate::adopt(up);
      }
    }
    return "";
  }
  X509* at = X509_STORE_CTX_get_current_cert(ctx.get());
  const std::string whose =
      at != nullptr && at != cert.get() ? " (at " + rfc2253_name(X509_get_subject_name(at)) + ")" : "";
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
      return "the certificate (issuer " + rfc2253_name(X509_get_issuer_name(cert.get())) +
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

std::string TrustStore::ocsp_request(const Certificate& cert, const Certificate& issuer) {
  std::unique_ptr<OCSP_REQUEST, decltype(&OCSP_REQUEST_free)> req(OCSP_REQUEST_new(), OCSP_REQUEST_free);
  OCSP_CERTID* id = OCSP_cert_to_id(EVP_sha1(), cert.get(), issuer.get());
  if (!req || id == nullptr || OCSP_request_add0_id(req.get(), id) == nullptr) {
    OCSP_CERTID_free(id);
    ERR_clear_error();
    return "";
  }
  unsigned char* der = nullptr;
  const int n = i2d_OCSP_REQUEST(req.get(), &der);
  std::string out = n > 0 ? std::string(reinterpret_cast<char*>(der), static_cast<size_t>(n)) : std::string();
  OPENSSL_free(der);
  return out;
}

namespace {

int64_t epoch_of(const ASN1_GENERALIZEDTIME* t) {
  if (t == nullptr) return 0;
  struct tm tm {};
  if (ASN1_TIME_to_tm(t, &tm) != 1) return 0;
  return static_cast<int64_t>(timegm(&tm));
}

}  // namespace

// Long on purpose: RFC 6960's checks of a response, in its order.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
TrustStore::OcspAnswer TrustStore::read_ocsp_response(std::string_view der, const Certificate& cert,
                                                      const Certificate& issuer, int64_t now) const {
  using Status = OcspAnswer::Status;
  OcspAnswer a;
  auto invalid = [&](std::string why) {
    ERR_clear_error();
    a.status = Status::Invalid;
    a.why = std::move(why);
    return a;
  };
  const unsigned char* p = reinterpret_cast<const unsigned char*>(der.data());
  std::unique_ptr<OCSP_RESPONSE, decltype(&OCSP_RESPONSE_free)> resp(
      d2i_OCSP_RESPONSE(nullptr, &p, static_cast<long>(der.size())), OCSP_RESPONSE_free);
  if (!resp) return invalid("the OCSP answer is not an OCSP response");
  if (const int st = OCSP_response_status(resp.get()); st != OCSP_RESPONSE_STATUS_SUCCESSFUL)
    return invalid(std::string("the OCSP responder answered ") + OCSP_response_status_str(st));
  std::unique_ptr<OCSP_BASICRESP, decltype(&OCSP_BASICRESP_free)> basic(OCSP_response_get1_basic(resp.get()),
                                                                        OCSP_BASICRESP_free);
  if (!basic) return invalid("the OCSP response has no basic response");
  // Signed by the issuer (in the store, or given here) or a responder it certified for OCSP.
  auto free_stack = [](STACK_OF(X509) * s) { sk_X509_free(s); };  // the certificates are not owned
  std::unique_ptr<STACK_OF(X509), decltype(free_stack)> issuers(sk_X509_new_null(), free_stack);
  sk_X509_push(issuers.get(), issuer.get());
  if (OCSP_basic_verify(basic.get(), issuers.get(), store_.get(), 0) <= 0)
    return invalid("the OCSP response's signature does not verify to the certificate's issuer");
  std::unique_ptr<OCSP_CERTID, decltype(&OCSP_CERTID_free)> id(OCSP_cert_to_id(EVP_sha1(), cert.get(), issuer.get()),
                                                               OCSP_CERTID_free);
  int status = 0, reason = 0;
  ASN1_GENERALIZEDTIME *revoked_at = nullptr, *this_update = nullptr, *next_update = nullptr;
  if (!id ||
      OCSP_resp_find_status(basic.get(), id.get(), &status, &reason, &revoked_at, &this_update, &next_update) != 1)
    return invalid("the OCSP response does not speak of this certificate");
  // OCSP_check_validity reads the system clock: the times are compared with `now` here.
  const int64_t skew = 300, this_at = epoch_of(this_update), next_at = epoch_of(next_update);
  if (this_at == 0 || this_at > now + skew) return invalid("the OCSP response is not yet valid (thisUpdate)");
  if (next_at != 0 && next_at < now - skew) return invalid("the OCSP response is out of date (nextUpdate passed)");
  a.next_update = next_at;
  ERR_clear_error();
  switch (status) {
    case V_OCSP_CERTSTATUS_GOOD:
      a.status = Status::Good;
      break;
    case V_OCSP_CERTSTATUS_REVOKED:
      a.status = Status::Revoked;
      a.why = std::string("the certificate is revoked (OCSP: ") +
              (reason >= 0 ? OCSP_crl_reason_str(reason) : "no reason given") + ")";
      break;
    default:
      a.status = Status::Unknown;
      a.why = "the OCSP responder does not know the certificate";
      break;
  }
  return a;
}

std::string TrustStore::ocsp_url(const Certificate& cert) {
  STACK_OF(OPENSSL_STRING)* urls = X509_get1_ocsp(cert.get());
  std::string url = urls != nullptr && sk_OPENSSL_STRING_num(urls) > 0 ? sk_OPENSSL_STRING_value(urls, 0) : "";
  X509_email_free(urls);
  return url;
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
