#include "src/crypto/cms.h"

#include "parsers/mime/transfer.h"
#include "src/crypto/digest.h"
#include "src/crypto/inflate.h"

#include <openssl/bn.h>
#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <optional>

namespace edihub::crypto {

namespace {

// The reasons OpenSSL queued, oldest first; clears the queue.
std::string openssl_errors() {
  std::string out;
  while (unsigned long e = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    if (!out.empty()) out += "; ";
    out += buf;
  }
  return out.empty() ? "no detail from OpenSSL" : out;
}

using BioPtr = std::unique_ptr<BIO, decltype(&BIO_free)>;
using CmsPtr = std::unique_ptr<CMS_ContentInfo, decltype(&CMS_ContentInfo_free)>;

BioPtr memory_bio(std::string_view data) {
  return BioPtr(BIO_new_mem_buf(data.data(), static_cast<int>(data.size())), BIO_free);
}

BioPtr output_bio() { return BioPtr(BIO_new(BIO_s_mem()), BIO_free); }

std::string contents(BIO* bio) {
  char* data = nullptr;
  long n = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<size_t>(n));
}

Result<CmsPtr> read_der(std::string_view der, const char* what) {
  if (der.size() > INT32_MAX) return Status::invalid(std::string(what) + ": too large");
  BioPtr in = memory_bio(der);
  CmsPtr cms(d2i_CMS_bio(in.get(), nullptr), CMS_ContentInfo_free);
  if (!cms) return Status::invalid(std::string(what) + " is not DER CMS: " + openssl_errors());
  return cms;
}

Result<std::string> read_file(const std::string& path) {
  BioPtr in(BIO_new_file(path.c_str(), "r"), BIO_free);
  if (!in) return Status::invalid(path + ": cannot be read");
  std::string data;
  char buf[4096];
  int n;
  while ((n = BIO_read(in.get(), buf, sizeof buf)) > 0) data.append(buf, static_cast<size_t>(n));
  return data;
}

// "sha-256" / "SHA256" -> "sha256".
std::string digest_name(std::string_view as2_name) {
  std::string out;
  for (char c : as2_name)
    if (c != '-') out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

}  // namespace

Result<Certificate> Certificate::from_pem(std::string_view pem) {
  BioPtr in = memory_bio(pem);
  X509* x = PEM_read_bio_X509(in.get(), nullptr, nullptr, nullptr);
  if (x == nullptr) return Status::invalid("not a PEM certificate: " + openssl_errors());
  Certificate c;
  c.x509_ = std::shared_ptr<X509>(x, X509_free);
  return c;
}

std::string rfc2253_name(const X509_NAME* name) {
  if (name == nullptr) return "";
  std::unique_ptr<BIO, decltype(&BIO_free)> b(BIO_new(BIO_s_mem()), BIO_free);
  X509_NAME_print_ex(b.get(), name, 0, XN_FLAG_RFC2253);
  char* data = nullptr;
  const long n = BIO_get_mem_data(b.get(), &data);
  return n > 0 ? std::string(data, static_cast<size_t>(n)) : std::string();
}

Certificate Certificate::adopt(X509* x) {
  Certificate c;
  c.x509_ = std::shared_ptr<X509>(x, X509_free);
  return c;
}

Result<Certificate> Certificate::load_pem_file(const std::string& path) {
  ASSIGN_OR_RETURN(std::string pem, read_file(path));
  Result<Certificate> c = from_pem(pem);
  if (!c.is_ok()) return Status::invalid(path + ": " + c.status().message());
  return c;
}

std::string Certificate::subject() const {
  char buf[512];
  X509_NAME_oneline(X509_get_subject_name(x509_.get()), buf, sizeof buf);
  return buf;
}

std::string Certificate::serial() const {
  std::unique_ptr<BIGNUM, decltype(&BN_free)> bn(ASN1_INTEGER_to_BN(X509_get0_serialNumber(x509_.get()), nullptr),
                                                 BN_free);
  char* hex = bn ? BN_bn2hex(bn.get()) : nullptr;
  std::string out = hex != nullptr ? hex : "";
  OPENSSL_free(hex);
  return out;
}

int64_t Certificate::not_after() const {
  std::tm tm{};
  if (ASN1_TIME_to_tm(X509_get0_notAfter(x509_.get()), &tm) != 1) return 0;
  return static_cast<int64_t>(timegm(&tm));
}

std::string Certificate::sha256() const { return certificate_sha256(x509_.get()); }

std::string certificate_sha256(const X509* x) {
  if (x == nullptr) return "";
  unsigned char* der = nullptr;
  const int n = i2d_X509(x, &der);
  if (n <= 0) return "";
  std::string out = sha256_hex(std::string_view(reinterpret_cast<const char*>(der), static_cast<size_t>(n)));
  OPENSSL_free(der);
  return out;
}

bool Certificate::operator==(const Certificate& other) const { return X509_cmp(x509_.get(), other.x509_.get()) == 0; }

Result<PrivateKey> PrivateKey::load_pem_file(const std::string& path) {
  ASSIGN_OR_RETURN(std::string pem, read_file(path));
  BioPtr in = memory_bio(pem);
  EVP_PKEY* key = PEM_read_bio_PrivateKey(in.get(), nullptr, nullptr, nullptr);
  if (key == nullptr) return Status::invalid(path + ": not a PEM private key");  // never log the key
  ERR_clear_error();
  PrivateKey k;
  k.key_ = std::shared_ptr<EVP_PKEY>(key, EVP_PKEY_free);
  return k;
}

Result<std::string> decrypt(std::string_view der, const std::vector<Identity>& identities) {
  Result<CmsPtr> cms = read_der(der, "enveloped-data");
  if (!cms.is_ok()) return Status::invalid(Code::DecryptionFailed, "decryption-failed: " + cms.status().message());
  const int type = OBJ_obj2nid(CMS_get0_type(cms->get()));
  if (type != NID_pkcs7_enveloped && type != NID_id_smime_ct_authEnvelopedData)
    return Status::invalid(Code::DecryptionFailed, "decryption-failed: the CMS content is not (auth-)enveloped-data");
  std::string reasons;
  for (const Identity& id : identities) {
    BioPtr out = output_bio();
    if (CMS_decrypt(cms->get(), id.key.get(), id.certificate.get(), nullptr, out.get(), CMS_BINARY) == 1)
      return contents(out.get());
    reasons = openssl_errors();
  }
  return Status::invalid(Code::DecryptionFailed, "decryption-failed: not addressed to any of our " +
                                                     std::to_string(identities.size()) + " certificates (" + reasons +
                                                     ")");
}

namespace {

// One DER TLV (lengths by OpenSSL's encoder).
std::string der(int tag, int xclass, bool constructed, std::string_view content) {
  const int length = static_cast<int>(content.size());
  std::string out(static_cast<size_t>(ASN1_object_size(constructed ? 1 : 0, length, tag)), '\0');
  unsigned char* p = reinterpret_cast<unsigned char*>(out.data());
  ASN1_put_object(&p, constructed ? 1 : 0, length, tag, xclass);
  std::copy(content.begin(), content.end(), p);
  return out;
}

std::string der_oid(int nid) {
  const ASN1_OBJECT* obj = OBJ_nid2obj(nid);
  std::string out(static_cast<size_t>(i2d_ASN1_OBJECT(obj, nullptr)), '\0');
  unsigned char* p = reinterpret_cast<unsigned char*>(out.data());
  i2d_ASN1_OBJECT(obj, &p);
  return out;
}

std::string sequence(std::string_view content) { return der(V_ASN1_SEQUENCE, V_ASN1_UNIVERSAL, true, content); }
std::string explicit0(std::string_view content) { return der(0, V_ASN1_CONTEXT_SPECIFIC, true, content); }

// The SignedData in `der` (a ContentInfo) without its certificates and CRLs,
// in DER: edihub verifies against the partner's pinned certificates alone,
// and OpenSSL decodes every embedded certificate's public key on parsing
// (OpenSSL 3's decoders: a tenth of a message's non-RSA CPU). Nullopt when
// the structure is not the plain definite-length DER this reads (BER with
// indefinite lengths, anything unexpected): then it is parsed as it is.
std::optional<std::string> without_certificates(std::string_view der_in) {
  const auto* p = reinterpret_cast<const unsigned char*>(der_in.data());
  const auto* const end = p + der_in.size();
  // One definite-length TLV at p: its tag, class and content; p moves past it.
  struct Tlv {
    int tag = 0, xclass = 0;
    bool constructed = false;
    std::string_view whole, content;
  };
  auto next = [&](const unsigned char** at, const unsigned char* limit, Tlv* t) {
    const unsigned char* start = *at;
    long length = 0;
    const int ret = ASN1_get_object(at, &length, &t->tag, &t->xclass, limit - start);
    if ((ret & 0x80) != 0 || ret == 0x21 || length < 0 || length > limit - *at) {  // error, indefinite
      // What ASN1_get_object queued is not the signature's reason: OpenSSL parses it as it is next.
      ERR_clear_error();
      return false;
    }
    t->constructed = (ret & V_ASN1_CONSTRUCTED) != 0;
    t->content = std::string_view(reinterpret_cast<const char*>(*at), static_cast<size_t>(length));
    *at += length;
    t->whole = std::string_view(reinterpret_cast<const char*>(start), static_cast<size_t>(*at - start));
    return true;
  };
  Tlv info, oid, wrapper, signed_data;
  if (der_in.size() > INT32_MAX || !next(&p, end, &info) || p != end || info.tag != V_ASN1_SEQUENCE)
    return std::nullopt;
  const auto* q = reinterpret_cast<const unsigned char*>(info.content.data());
  const auto* const q_end = q + info.content.size();
  if (!next(&q, q_end, &oid) || oid.tag != V_ASN1_OBJECT || !next(&q, q_end, &wrapper) || q != q_end ||
      wrapper.xclass != V_ASN1_CONTEXT_SPECIFIC || wrapper.tag != 0)
    return std::nullopt;
  const auto* w = reinterpret_cast<const unsigned char*>(wrapper.content.data());
  const auto* const w_end = w + wrapper.content.size();
  if (!next(&w, w_end, &signed_data) || w != w_end || signed_data.tag != V_ASN1_SEQUENCE) return std::nullopt;
  std::string kept;
  bool dropped = false;
  const auto* f = reinterpret_cast<const unsigned char*>(signed_data.content.data());
  const auto* const f_end = f + signed_data.content.size();
  while (f < f_end) {
    Tlv field;
    if (!next(&f, f_end, &field)) return std::nullopt;
    // certificates [0] IMPLICIT and crls [1] IMPLICIT (RFC 5652 5.1): not read.
    if (field.xclass == V_ASN1_CONTEXT_SPECIFIC && (field.tag == 0 || field.tag == 1)) {
      dropped = true;
      continue;
    }
    kept.append(field.whole);
  }
  if (!dropped) return std::nullopt;  // nothing to gain
  return sequence(std::string(oid.whole) + explicit0(sequence(kept)));
}

}  // namespace

Result<Verified> verify_detached(std::string_view content, std::string_view signature_der,
                                 const std::vector<Certificate>& allowed) {
  const std::optional<std::string> lean = without_certificates(signature_der);
  Result<CmsPtr> cms = read_der(lean ? std::string_view(*lean) : signature_der, "signature");
  if (!cms.is_ok())
    return Status::invalid(Code::IntegrityCheckFailed, "integrity-check-failed: " + cms.status().message());
  if (OBJ_obj2nid(CMS_get0_type(cms->get())) != NID_pkcs7_signed)
    return Status::invalid(Code::AuthenticationFailed, "authentication-failed: the signature is not CMS signed-data");
  std::unique_ptr<STACK_OF(X509), void (*)(STACK_OF(X509)*)> certs(sk_X509_new_null(),
                                                                   [](STACK_OF(X509) * s) { sk_X509_free(s); });
  for (const Certificate& c : allowed) sk_X509_push(certs.get(), c.get());
  std::unique_ptr<X509_STORE, decltype(&X509_STORE_free)> store(X509_STORE_new(), X509_STORE_free);
  // OpenSSL 3.0's CMS_verify copies a memory BIO into a BIO of its own and leaks that copy
  // when the signed-data names a digest it cannot set up (found by partner_mdn_fuzz). A null
  // filter in front of the memory BIO is not a memory BIO, so CMS_verify reads it as it is.
  BioPtr content_bio = memory_bio(content);
  std::unique_ptr<BIO, decltype(&BIO_free_all)> data(BIO_new(BIO_f_null()), BIO_free_all);
  BIO_push(data.get(), content_bio.release());
  // Pinned certificates, not chains: the signer must be one of `allowed`.
  const unsigned flags = CMS_DETACHED | CMS_BINARY | CMS_NO_SIGNER_CERT_VERIFY;
  if (CMS_verify(cms->get(), certs.get(), store.get(), data.get(), nullptr, flags) != 1) {
    if (ERR_GET_REASON(ERR_peek_error()) == CMS_R_SIGNER_CERTIFICATE_NOT_FOUND) {
      ERR_clear_error();
      return Status::invalid(Code::AuthenticationFailed,
                             "authentication-failed: signed by a certificate this partner does not list");
    }
    return Status::invalid(
        Code::IntegrityCheckFailed,
        "integrity-check-failed: the signature does not match the content (" + openssl_errors() + ")");
  }
  std::unique_ptr<STACK_OF(X509), void (*)(STACK_OF(X509)*)> signers(CMS_get0_signers(cms->get()),
                                                                     [](STACK_OF(X509) * s) { sk_X509_free(s); });
  if (!signers || sk_X509_num(signers.get()) != 1)
    return Status::invalid(Code::AuthenticationFailed, "authentication-failed: expected exactly one signer");
  X509* signer = sk_X509_value(signers.get(), 0);
  Verified v;
  bool known = false;
  for (const Certificate& c : allowed) {
    if (X509_cmp(c.get(), signer) == 0) {
      v.signer = c;
      known = true;
    }
  }
  if (!known)
    return Status::invalid(Code::AuthenticationFailed,
                           "authentication-failed: signed by a certificate this partner does not list");
  CMS_SignerInfo* si = sk_CMS_SignerInfo_value(CMS_get0_SignerInfos(cms->get()), 0);
  X509_ALGOR* alg = nullptr;
  CMS_SignerInfo_get0_algs(si, nullptr, nullptr, &alg, nullptr);
  const ASN1_OBJECT* obj = nullptr;
  X509_ALGOR_get0(&obj, nullptr, nullptr, alg);
  v.digest = digest_name(OBJ_nid2sn(OBJ_obj2nid(obj)));
  // -3: exactly one messageDigest attribute, or none found.
  const auto* md = static_cast<const ASN1_OCTET_STRING*>(
      CMS_signed_get0_data_by_OBJ(si, OBJ_nid2obj(NID_pkcs9_messageDigest), -3, V_ASN1_OCTET_STRING));
  if (md != nullptr)
    v.content_digest.assign(reinterpret_cast<const char*>(ASN1_STRING_get0_data(md)),
                            static_cast<size_t>(ASN1_STRING_length(md)));
  return v;
}

Result<std::string> decompress(std::string_view der, Lease& lease) {
  Result<CmsPtr> cms = read_der(der, "compressed-data");
  if (!cms.is_ok())
    return Status::invalid(Code::DecompressionFailed, "decompression-failed: " + cms.status().message());
  if (OBJ_obj2nid(CMS_get0_type(cms->get())) != NID_id_smime_ct_compressedData)
    return Status::invalid(Code::DecompressionFailed, "decompression-failed: the CMS content is not compressed-data");
  // This OpenSSL has no zlib: read the structure with OpenSSL, inflate with zlib.
  ASN1_OCTET_STRING** content = CMS_get0_content(cms->get());
  if (content == nullptr || *content == nullptr)
    return Status::invalid(Code::DecompressionFailed, "decompression-failed: compressed-data without content");
  Result<std::string> out = inflate(std::string_view(reinterpret_cast<const char*>(ASN1_STRING_get0_data(*content)),
                                                     static_cast<size_t>(ASN1_STRING_length(*content))),
                                    Wrapping::Zlib, lease);
  if (!out.is_ok() && out.status().kind() == Status::Kind::Invalid)
    return Status::invalid(Code::DecompressionFailed, "decompression-failed: " + out.status().message());
  return out;
}

std::string compress(std::string_view content) {
  const std::string version = der(V_ASN1_INTEGER, V_ASN1_UNIVERSAL, false, std::string(1, '\0'));
  const std::string algorithm = sequence(der_oid(NID_zlib_compression));
  const std::string encapsulated =
      sequence(der_oid(NID_pkcs7_data) +
               explicit0(der(V_ASN1_OCTET_STRING, V_ASN1_UNIVERSAL, false, deflate(content, Wrapping::Zlib))));
  return sequence(der_oid(NID_id_smime_ct_compressedData) + explicit0(sequence(version + algorithm + encapsulated)));
}

Result<std::string> encrypt(std::string_view content, const Certificate& recipient, std::string_view cipher,
                            KeyTransport transport) {
  const EVP_CIPHER* c = EVP_get_cipherbyname(std::string(cipher).c_str());
  if (c == nullptr) return Status::invalid("unknown cipher '" + std::string(cipher) + "'");
  const unsigned flags = CMS_BINARY | CMS_PARTIAL;
  CmsPtr cms(CMS_encrypt(nullptr, nullptr, c, flags), CMS_ContentInfo_free);
  if (!cms) return Status::invalid("encryption failed: " + openssl_errors());
  const unsigned key_flags = transport == KeyTransport::RsaOaep ? CMS_KEY_PARAM : 0;
  CMS_RecipientInfo* ri = CMS_add1_recipient_cert(cms.get(), recipient.get(), key_flags);
  if (ri == nullptr) return Status::invalid("encryption failed: " + openssl_errors());
  if (transport == KeyTransport::RsaOaep) {
    EVP_PKEY_CTX* ctx = CMS_RecipientInfo_get0_pkey_ctx(ri);
    if (ctx == nullptr || EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) <= 0 ||
        EVP_PKEY_CTX_set_rsa_oaep_md(ctx, EVP_sha256()) <= 0 || EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, EVP_sha256()) <= 0)
      return Status::invalid("RSA-OAEP key transport failed: " + openssl_errors());
  }
  BioPtr data = memory_bio(content);
  if (CMS_final(cms.get(), data.get(), nullptr, flags) != 1)
    return Status::invalid("encryption failed: " + openssl_errors());
  BioPtr out = output_bio();
  if (i2d_CMS_bio(out.get(), cms.get()) != 1) return Status::invalid("encryption failed: " + openssl_errors());
  return contents(out.get());
}

Result<std::string> sign_detached(std::string_view content, const Identity& signer, std::string_view digest,
                                  Capabilities capabilities) {
  const EVP_MD* md = EVP_get_digestbyname(digest_name(digest).c_str());
  if (md == nullptr) return Status::invalid("unknown digest '" + std::string(digest) + "'");
  BioPtr data = memory_bio(content);
  const unsigned flags =
      CMS_DETACHED | CMS_BINARY | CMS_PARTIAL | (capabilities == Capabilities::Omitted ? CMS_NOSMIMECAP : 0U);
  CmsPtr cms(CMS_sign(nullptr, nullptr, nullptr, nullptr, flags), CMS_ContentInfo_free);
  if (!cms || CMS_add1_signer(cms.get(), signer.certificate.get(), signer.key.get(), md, flags) == nullptr ||
      CMS_final(cms.get(), data.get(), nullptr, flags) != 1)
    return Status::invalid("signing failed: " + openssl_errors());
  BioPtr out = output_bio();
  if (i2d_CMS_bio(out.get(), cms.get()) != 1) return Status::invalid("signing failed: " + openssl_errors());
  return contents(out.get());
}

Result<std::string> mic(std::string_view content, std::string_view algorithm) {
  const EVP_MD* md = EVP_get_digestbyname(digest_name(algorithm).c_str());
  if (md == nullptr) return Status::invalid("unknown MIC algorithm '" + std::string(algorithm) + "'");
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(content.data(), content.size(), digest, &len, md, nullptr) != 1)
    return Status::invalid("digest failed: " + openssl_errors());
  return mime::base64_encode({reinterpret_cast<const char*>(digest), len});
}

Result<std::string> mic(std::string_view content, const Verified& verified, std::string_view algorithm) {
  if (verified.content_digest.empty() || digest_name(algorithm) != verified.digest) return mic(content, algorithm);
  return mime::base64_encode(verified.content_digest);
}

}  // namespace edihub::crypto
