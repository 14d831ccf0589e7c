#include "src/crypto/ws_security.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/uri.h>
#include <libxml/valid.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <xmlsec/crypto.h>
#include <xmlsec/errors.h>
#include <xmlsec/io.h>
#include <xmlsec/keys.h>
#include <xmlsec/openssl/evp.h>
#include <xmlsec/templates.h>
#include <xmlsec/transforms.h>
#include <xmlsec/xmldsig.h>
#include <xmlsec/xmlsec.h>
#include <xmlsec/xmltree.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <set>

#include "parsers/mime/transfer.h"
#include "src/common/partner_text.h"

namespace edihub::crypto::wss {
namespace {

constexpr const char* kWsu = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
constexpr const char* kDs = "http://www.w3.org/2000/09/xmldsig#";
constexpr const char* kXenc = "http://www.w3.org/2001/04/xmlenc#";
constexpr const char* kSoap12 = "http://www.w3.org/2003/05/soap-envelope";
constexpr const char* kSoap11 = "http://schemas.xmlsoap.org/soap/envelope/";
constexpr const char* kEbms = "http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/";
constexpr const char* kUltimateReceiver = "http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver";
constexpr const char* kSwaContent =
    "http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#Attachment-Content-Signature-Transform";
constexpr const char* kExcC14n = "http://www.w3.org/2001/10/xml-exc-c14n#";
constexpr const char* kXenc11 = "http://www.w3.org/2009/xmlenc11#";
constexpr const char* kRsaOaep11 = "http://www.w3.org/2009/xmlenc11#rsa-oaep";
constexpr const char* kMgf1Sha256 = "http://www.w3.org/2009/xmlenc11#mgf1sha256";
constexpr const char* kSha256 = "http://www.w3.org/2001/04/xmlenc#sha256";
constexpr const char* kAes128Gcm = "http://www.w3.org/2009/xmlenc11#aes128-gcm";
constexpr const char* kContentOnly = "http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#Attachment-Content-Only";
constexpr const char* kCiphertextTransform =
    "http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#Attachment-Ciphertext-Transform";
constexpr size_t kGcmIv = 12, kGcmTag = 16, kMaxEncryptedKeys = 4;
constexpr std::string_view kX509v3 = "#X509v3";
constexpr std::string_view kSkiType = "#X509SubjectKeyIdentifier";

// The eDelivery AS4 profile's algorithms (and the stronger SHA-2 variants).
const std::vector<std::string_view> kSignatureMethods = {
    "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256", "http://www.w3.org/2001/04/xmldsig-more#rsa-sha384",
    "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512", "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256"};
const std::vector<std::string_view> kDigestMethods = {"http://www.w3.org/2001/04/xmlenc#sha256",
                                                      "http://www.w3.org/2001/04/xmldsig-more#sha384",
                                                      "http://www.w3.org/2001/04/xmlenc#sha512"};

bool listed(const std::vector<std::string_view>& list, std::string_view v) {
  return std::find(list.begin(), list.end(), v) != list.end();
}

// --- The SwA Attachment-Content-Signature-Transform: for the binary content
// AS4 carries, the attachment's octets unchanged (xmlsec has no SwA support).
int swa_content_execute(xmlSecTransformPtr t, int last, xmlSecTransformCtxPtr) {
  if (t->status == xmlSecTransformStatusNone) t->status = xmlSecTransformStatusWorking;
  if (t->status == xmlSecTransformStatusWorking) {
    const xmlSecSize n = xmlSecBufferGetSize(&t->inBuf);
    if (n > 0) {
      if (xmlSecBufferAppend(&t->outBuf, xmlSecBufferGetData(&t->inBuf), n) < 0) return -1;
      if (xmlSecBufferRemoveHead(&t->inBuf, n) < 0) return -1;
    }
    if (last) t->status = xmlSecTransformStatusFinished;
    return 0;
  }
  return t->status == xmlSecTransformStatusFinished && xmlSecBufferGetSize(&t->inBuf) == 0 ? 0 : -1;
}

xmlSecTransformKlass swa_content_klass = {sizeof(xmlSecTransformKlass),
                                          sizeof(xmlSecTransform),
                                          BAD_CAST "swa-attachment-content",
                                          BAD_CAST kSwaContent,
                                          xmlSecTransformUsageDSigTransform,
                                          nullptr,
                                          nullptr,
                                          nullptr,
                                          nullptr,
                                          nullptr,
                                          nullptr,
                                          nullptr,
                                          xmlSecTransformDefaultGetDataType,
                                          xmlSecTransformDefaultPushBin,
                                          xmlSecTransformDefaultPopBin,
                                          nullptr,
                                          nullptr,
                                          swa_content_execute,
                                          nullptr,
                                          nullptr};

// --- cid: references read the attachments of the message this thread checks.
// These are xmlsec's only input callbacks: no file, http or ftp reads, ever.
thread_local const std::vector<Attachment>* t_attachments = nullptr;
thread_local std::string t_xmlsec_error;

struct AttachmentReader {
  std::string_view data;
  size_t pos = 0;
};

const Attachment* find_cid(const char* uri) {
  if (t_attachments == nullptr || uri == nullptr || std::strncmp(uri, "cid:", 4) != 0) return nullptr;
  for (const Attachment& a : *t_attachments)
    if (a.content_id == uri + 4) return &a;
  return nullptr;
}
int cid_match(const char* uri) { return find_cid(uri) != nullptr ? 1 : 0; }
void* cid_open(const char* uri) {
  const Attachment* a = find_cid(uri);
  return a != nullptr ? new AttachmentReader{a->bytes} : nullptr;
}
int cid_read(void* context, char* buffer, int len) {
  auto* r = static_cast<AttachmentReader*>(context);
  const size_t n = std::min(static_cast<size_t>(std::max(len, 0)), r->data.size() - r->pos);
  std::memcpy(buffer, r->data.data() + r->pos, n);
  r->pos += n;
  return static_cast<int>(n);
}
int cid_close(void* context) {
  delete static_cast<AttachmentReader*>(context);
  return 0;
}

// The first error xmlsec reports during a check, for the Description.
void capture_error(const char*, int, const char*, const char* object, const char* subject, int reason,
                   const char* msg) {
  if (!t_xmlsec_error.empty()) return;
  const char* reason_text = xmlSecErrorsGetMsg(static_cast<xmlSecSize>(reason));
  t_xmlsec_error = std::string(reason_text ? reason_text : "error");
  if (subject != nullptr && std::strcmp(subject, "unknown") != 0) t_xmlsec_error += std::string(" in ") + subject;
  if (msg != nullptr && *msg != '\0') t_xmlsec_error += std::string(": ") + msg;
  (void)object;
}

// libxml2's own messages (C14N, encoding, parser) while this thread checks
// or signs: the first into the request's error, bounded; none to stderr,
// where partner bytes would go unbounded. libxml2 keeps its handlers per
// thread, so each check installs them on its own thread.
void capture_libxml_error(void*, xmlErrorPtr e) {
  if (!t_xmlsec_error.empty() || e == nullptr || e->message == nullptr) return;
  t_xmlsec_error = "libxml2: " + std::string(e->message).substr(0, 300);
}
void drop_generic_error(void*, const char*, ...) {}
void libxml_errors_to_request() {
  xmlSetStructuredErrorFunc(nullptr, capture_libxml_error);
  xmlSetGenericErrorFunc(nullptr, drop_generic_error);
}

bool xmlsec_ready() {
  static const bool ready = [] {
    xmlInitParser();
    if (xmlSecInit() < 0 || xmlSecCheckVersion() != 1) return false;
    if (xmlSecCryptoAppInit(nullptr) < 0 || xmlSecCryptoInit() < 0) return false;
    xmlSecErrorsSetCallback(capture_error);
    xmlSecIOCleanupCallbacks();
    if (xmlSecIORegisterCallbacks(cid_match, cid_open, cid_read, cid_close) < 0) return false;
    return xmlSecTransformIdsRegister(&swa_content_klass) >= 0;
  }();
  return ready;
}

// --- libxml2 helpers.
using Doc = std::unique_ptr<xmlDoc, decltype(&xmlFreeDoc)>;

bool is(const xmlNode* n, const char* ns, const char* local) {
  return n != nullptr && n->type == XML_ELEMENT_NODE && n->ns != nullptr &&
         std::strcmp(reinterpret_cast<const char*>(n->ns->href), ns) == 0 &&
         std::strcmp(reinterpret_cast<const char*>(n->name), local) == 0;
}

std::vector<xmlNode*> children(xmlNode* n, const char* ns, const char* local) {
  std::vector<xmlNode*> out;
  for (xmlNode* c = n != nullptr ? n->children : nullptr; c != nullptr; c = c->next)
    if (is(c, ns, local)) out.push_back(c);
  return out;
}

xmlNode* child(xmlNode* n, const char* ns, const char* local) {
  std::vector<xmlNode*> all = children(n, ns, local);
  return all.empty() ? nullptr : all.front();
}

std::string attr(const xmlNode* n, const char* name, const char* ns = nullptr) {
  xmlChar* v = ns != nullptr ? xmlGetNsProp(n, BAD_CAST name, BAD_CAST ns) : xmlGetNoNsProp(n, BAD_CAST name);
  std::string out = v != nullptr ? reinterpret_cast<const char*>(v) : "";
  xmlFree(v);
  return out;
}

std::string text(const xmlNode* n) {
  xmlChar* v = xmlNodeGetContent(n);
  std::string out = v != nullptr ? reinterpret_cast<const char*>(v) : "";
  xmlFree(v);
  const size_t b = out.find_first_not_of(" \t\r\n"), e = out.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : out.substr(b, e - b + 1);
}

// Registers every wsu:Id (and unqualified Id) as an XML ID for "#id"
// references. A value that occurs twice is a signature-wrapping attempt.
std::string register_ids(xmlDoc* doc) {
  std::set<std::string> seen;
  std::vector<xmlNode*> stack = {xmlDocGetRootElement(doc)};
  while (!stack.empty()) {
    xmlNode* n = stack.back();
    stack.pop_back();
    for (xmlAttr* a = n->properties; a != nullptr; a = a->next) {
      if (std::strcmp(reinterpret_cast<const char*>(a->name), "Id") != 0) continue;
      if (a->ns != nullptr && std::strcmp(reinterpret_cast<const char*>(a->ns->href), kWsu) != 0) continue;
      xmlChar* v = xmlNodeListGetString(doc, a->children, 1);
      const std::string id = v != nullptr ? reinterpret_cast<const char*>(v) : "";
      if (!seen.insert(id).second) {
        xmlFree(v);
        return "the Id '" + partner_text(id, 100) + "' occurs twice (signature wrapping)";
      }
      if (xmlGetID(doc, v) == nullptr) xmlAddID(nullptr, doc, v, a);
      xmlFree(v);
    }
    for (xmlNode* c = n->children; c != nullptr; c = c->next)
      if (c->type == XML_ELEMENT_NODE) stack.push_back(c);
  }
  return "";
}

xmlNode* by_id(xmlDoc* doc, const std::string& id) {
  xmlAttr* a = xmlGetID(doc, BAD_CAST id.c_str());
  return a != nullptr ? a->parent : nullptr;
}

Failure authentication(std::string detail) { return {"EBMS:0101", std::move(detail)}; }
Failure policy_failure(std::string detail) { return {"EBMS:0103", std::move(detail)}; }

// The wsse:Security header meant for this receiver (no role, or the ultimate
// receiver), or null; more than one is refused.
Failure security_header(xmlNode* header, xmlNode** out) {
  *out = nullptr;
  for (xmlNode* s : children(header, std::string(kWsseNs).c_str(), "Security")) {
    const std::string role = !attr(s, "role", kSoap12).empty() ? attr(s, "role", kSoap12) : attr(s, "actor", kSoap11);
    if (!role.empty() && role != kUltimateReceiver) continue;
    if (*out != nullptr) return policy_failure("more than one wsse:Security header for this receiver");
    *out = s;
  }
  return {};
}

std::string_view tail(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() ? s.substr(s.size() - suffix.size()) : std::string_view();
}

// Issuer names compare without white space after separators and case-blind:
// senders print RFC 2253 names differently.
std::string name_key(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((s[i] == ' ') && i > 0 && (s[i - 1] == ',' || s[i - 1] == '+' || s[i - 1] == '=')) continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])));
  }
  return out;
}

// Whose certificate a ds:KeyInfo names, and the failure when it is none of the candidates.
struct Naming {
  const char* code;     // EBMS:0101 for a signer, EBMS:0102 for a recipient
  const char* whose;    // "the signer's"
  const char* unknown;  // "signed by a certificate this partner does not list"
};
const Naming kSigner{"EBMS:0101", "the signer's", "signed by a certificate this partner does not list"};
const Naming kRecipient{"EBMS:0102", "the recipient's", "encrypted for a certificate that is not ours"};

// Whether `x` encodes to exactly `der`.
bool same_der(X509* x, std::string_view der) {
  unsigned char* mine = nullptr;
  const int n = i2d_X509(x, &mine);
  const bool same = n > 0 && static_cast<size_t>(n) == der.size() && std::memcmp(mine, der.data(), der.size()) == 0;
  OPENSSL_free(mine);
  return same;
}

// The certificate `key_info` names (its wsse:SecurityTokenReference: a
// BinarySecurityToken reference, issuer/serial or SKI) among `candidates`.
Failure find_certificate(xmlDoc* doc, xmlNode* security, xmlNode* key_info, const std::vector<Certificate>& candidates,
                         const Naming& naming, Certificate* out,
                         const std::function<std::string(const Certificate&)>& trust = nullptr) {
  auto failure = [&](std::string detail) { return Failure{naming.code, std::move(detail)}; };
  xmlNode* str = child(key_info, std::string(kWsseNs).c_str(), "SecurityTokenReference");
  if (str == nullptr)
    return failure(std::string("ds:KeyInfo holds no wsse:SecurityTokenReference naming ") + naming.whose +
                   " certificate");
  auto among = [&](const std::function<bool(X509*)>& match, const std::string& what) -> Failure {
    for (const Certificate& c : candidates)
      if (match(c.get())) {
        *out = c;
        return {};
      }
    return failure(std::string(naming.unknown) + " (" + what + ")");
  };
  if (xmlNode* ref = child(str, std::string(kWsseNs).c_str(), "Reference")) {
    const std::string uri = attr(ref, "URI");
    xmlNode* token = uri.size() > 1 && uri[0] == '#' ? by_id(doc, uri.substr(1)) : nullptr;
    if (token == nullptr || !is(token, std::string(kWsseNs).c_str(), "BinarySecurityToken") ||
        token->parent != security)
      return failure("the SecurityTokenReference '" + partner_text(uri, 100) +
                     "' points to no BinarySecurityToken in this wsse:Security");
    if (tail(attr(token, "ValueType"), kX509v3) != kX509v3)
      return policy_failure("the BinarySecurityToken is not an X.509 v3 certificate");
    std::string der;
    if (!mime::base64_decode(text(token), &der)) return failure("the BinarySecurityToken is not valid base64");
    // A listed certificate is recognised by its DER, as X509_cmp would; the
    // token is parsed only to name it when none is (OpenSSL 3's decoders made
    // that parse 6% of an AS4 message's CPU).
    for (const Certificate& c : candidates)
      if (same_der(c.get(), der)) {
        *out = c;
        return {};
      }
    const unsigned char* p = reinterpret_cast<const unsigned char*>(der.data());
    std::unique_ptr<X509, decltype(&X509_free)> cert(d2i_X509(nullptr, &p, static_cast<long>(der.size())), X509_free);
    if (!cert) return failure("the BinarySecurityToken is not a DER X.509 certificate");
    if (trust) {
      const Certificate presented = Certificate::adopt(cert.release());
      if (const std::string why = trust(presented); !why.empty())
        return failure(std::string(naming.whose) + " certificate " +
                       partner_text(rfc2253_name(X509_get_subject_name(presented.get())), 200) +
                       " is not trusted: " + why);
      *out = presented;
      return {};
    }
    return among([&](X509* c) { return X509_cmp(c, cert.get()) == 0; },
                 "BinarySecurityToken " + partner_text(rfc2253_name(X509_get_subject_name(cert.get())), 200));
  }
  if (xmlNode* serial_node =
          child(child(child(str, kDs, "X509Data"), kDs, "X509IssuerSerial"), kDs, "X509SerialNumber")) {
    const std::string issuer = text(child(serial_node->parent, kDs, "X509IssuerName")), serial = text(serial_node);
    BIGNUM* bn = nullptr;
    if (serial.empty() || serial.size() > 100 || BN_dec2bn(&bn, serial.c_str()) != static_cast<int>(serial.size())) {
      BN_free(bn);
      return failure("ds:X509SerialNumber '" + partner_text(serial, 100) + "' is not a decimal number");
    }
    std::unique_ptr<BIGNUM, decltype(&BN_free)> want(bn, BN_free);
    return among(
        [&](X509* c) {
          std::unique_ptr<BIGNUM, decltype(&BN_free)> have(ASN1_INTEGER_to_BN(X509_get0_serialNumber(c), nullptr),
                                                           BN_free);
          return have && BN_cmp(have.get(), want.get()) == 0 &&
                 name_key(rfc2253_name(X509_get_issuer_name(c))) == name_key(issuer);
        },
        "issuer " + partner_text(issuer, 200) + ", serial " + partner_text(serial, 100));
  }
  if (xmlNode* ki = child(str, std::string(kWsseNs).c_str(), "KeyIdentifier");
      ki != nullptr && tail(attr(ki, "ValueType"), kSkiType) == kSkiType) {
    std::string ski;
    if (!mime::base64_decode(text(ki), &ski)) return failure("the SKI KeyIdentifier is not valid base64");
    return among(
        [&](X509* c) {
          const ASN1_OCTET_STRING* id = X509_get0_subject_key_id(c);
          return id != nullptr && static_cast<size_t>(ASN1_STRING_length(id)) == ski.size() &&
                 std::memcmp(ASN1_STRING_get0_data(id), ski.data(), ski.size()) == 0;
        },
        "subject key identifier");
  }
  return failure(std::string("the SecurityTokenReference names ") + naming.whose +
                 " certificate neither by BinarySecurityToken reference, issuer/serial nor subject key identifier");
}

// The content key from an EncryptedKey's CipherValue: RSA-OAEP, SHA-256, MGF1-SHA256.
bool rsa_oaep_sha256_decrypt(EVP_PKEY* key, const std::string& in, std::string* out) {
  std::unique_ptr<EVP_PKEY_CTX, decltype(&EVP_PKEY_CTX_free)> ctx(EVP_PKEY_CTX_new(key, nullptr), EVP_PKEY_CTX_free);
  const auto* data = reinterpret_cast<const unsigned char*>(in.data());
  size_t n = 0;
  bool ok = ctx && EVP_PKEY_decrypt_init(ctx.get()) > 0 &&
            EVP_PKEY_CTX_set_rsa_padding(ctx.get(), RSA_PKCS1_OAEP_PADDING) > 0 &&
            EVP_PKEY_CTX_set_rsa_oaep_md(ctx.get(), EVP_sha256()) > 0 &&
            EVP_PKEY_CTX_set_rsa_mgf1_md(ctx.get(), EVP_sha256()) > 0 &&
            EVP_PKEY_decrypt(ctx.get(), nullptr, &n, data, in.size()) > 0;
  if (ok) {
    out->resize(n);
    ok = EVP_PKEY_decrypt(ctx.get(), reinterpret_cast<unsigned char*>(out->data()), &n, data, in.size()) > 0;
    out->resize(ok ? n : 0);
  }
  ERR_clear_error();  // a wrong key is an answer to the partner, not an error for later OpenSSL calls
  return ok;
}

// An attachment's content under the SwA Attachment-Ciphertext-Transform: IV, ciphertext, tag.
bool aes128_gcm_decrypt(const std::string& key, std::string_view in, std::string* out) {
  if (key.size() != 16 || in.size() < kGcmIv + kGcmTag || in.size() > static_cast<size_t>(INT32_MAX)) return false;
  std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  const auto* bytes = reinterpret_cast<const unsigned char*>(in.data());
  const auto* k = reinterpret_cast<const unsigned char*>(key.data());
  out->resize(in.size() - kGcmIv - kGcmTag);
  auto* o = reinterpret_cast<unsigned char*>(out->data());
  int len = 0, final_len = 0;
  bool ok = ctx && EVP_DecryptInit_ex(ctx.get(), EVP_aes_128_gcm(), nullptr, nullptr, nullptr) == 1 &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, kGcmIv, nullptr) == 1 &&
            EVP_DecryptInit_ex(ctx.get(), nullptr, nullptr, k, bytes) == 1 &&
            EVP_DecryptUpdate(ctx.get(), o, &len, bytes + kGcmIv, static_cast<int>(out->size())) == 1 &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kGcmTag,
                                const_cast<unsigned char*>(bytes + in.size() - kGcmTag)) == 1 &&
            EVP_DecryptFinal_ex(ctx.get(), o + len, &final_len) == 1;
  ERR_clear_error();
  if (!ok) out->clear();
  return ok;
}

// One xenc:DataReference of an EncryptedKey: the EncryptedData it names, its
// algorithms against the policy, and the attachment it decrypts with `key`.
Failure decrypt_reference(xmlDoc* doc, xmlNode* ref, const std::string& key, const std::vector<Attachment>& attachments,
                          std::set<xmlNode*>* listed_data, Checked* out) {
  auto decryption = [](std::string detail) { return Failure{"EBMS:0102", std::move(detail)}; };
  const std::string uri = attr(ref, "URI"), shown = partner_text(uri, 200);
  xmlNode* data = uri.size() > 1 && uri[0] == '#' ? by_id(doc, uri.substr(1)) : nullptr;
  if (data == nullptr || !is(data, kXenc, "EncryptedData"))
    return decryption("the DataReference '" + shown + "' points to no xenc:EncryptedData");
  listed_data->insert(data);
  const std::string type = attr(data, "Type"), content_alg = attr(child(data, kXenc, "EncryptionMethod"), "Algorithm");
  if (type != kContentOnly)
    return policy_failure("xenc:EncryptedData '" + shown + "' of type '" + partner_text(type, 200) +
                          "' is not supported (SwA Attachment-Content-Only)");
  if (content_alg != kAes128Gcm)
    return policy_failure("content encryption '" + partner_text(content_alg, 200) +
                          "' is not allowed by the policy (AES-128-GCM)");
  xmlNode* cref = child(child(data, kXenc, "CipherData"), kXenc, "CipherReference");
  const std::string curi = attr(cref, "URI");
  for (xmlNode* t : children(child(cref, kXenc, "Transforms"), kDs, "Transform"))
    if (attr(t, "Algorithm") != kCiphertextTransform)
      return policy_failure("xenc:CipherReference '" + partner_text(curi, 200) + "': transform '" +
                            partner_text(attr(t, "Algorithm"), 200) + "' is not supported");
  char* unescaped = curi.rfind("cid:", 0) == 0 ? xmlURIUnescapeString(curi.c_str() + 4, 0, nullptr) : nullptr;
  const std::string cid = unescaped != nullptr ? unescaped : "";
  xmlFree(unescaped);
  auto a = std::find_if(attachments.begin(), attachments.end(),
                        [&](const Attachment& x) { return !cid.empty() && x.content_id == cid; });
  if (a == attachments.end())
    return decryption("xenc:EncryptedData '" + shown + "' points to no attachment of this message ('" +
                      partner_text(curi, 200) + "')");
  if (out->decrypted.count(cid) != 0)
    return policy_failure("the attachment cid:" + partner_text(cid, 200) + " is encrypted twice");
  std::string plain;
  if (!aes128_gcm_decrypt(key, a->bytes, &plain))
    return decryption("the attachment cid:" + partner_text(cid, 200) +
                      " does not decrypt (AES-128-GCM): changed after encryption, or another key");
  out->decrypted[cid] = std::move(plain);
  out->mime_types[cid] = attr(data, "MimeType");
  return {};
}

// Decrypts what the EncryptedKeys in `security` list into out->decrypted.
Failure decrypt(xmlDoc* doc, xmlNode* security, const Policy& policy, const std::vector<Attachment>& attachments,
                Checked* out) {
  auto decryption = [](std::string detail) { return Failure{"EBMS:0102", std::move(detail)}; };
  if (child(security, kXenc, "ReferenceList") != nullptr)
    return policy_failure("a standalone xenc:ReferenceList (no EncryptedKey) is not supported");
  std::vector<xmlNode*> keys = children(security, kXenc, "EncryptedKey");
  if (keys.size() > kMaxEncryptedKeys)
    return policy_failure("more than " + std::to_string(kMaxEncryptedKeys) + " xenc:EncryptedKey elements");
  std::vector<Certificate> ours;
  for (const Identity& id : policy.identities) ours.push_back(id.certificate);
  std::set<xmlNode*> listed_data;
  for (xmlNode* ek : keys) {
    xmlNode* method = child(ek, kXenc, "EncryptionMethod");
    const std::string alg = attr(method, "Algorithm"), digest = attr(child(method, kDs, "DigestMethod"), "Algorithm"),
                      mgf = attr(child(method, kXenc11, "MGF"), "Algorithm");
    if (alg != kRsaOaep11 || digest != kSha256 || mgf != kMgf1Sha256)
      return policy_failure("key transport '" + partner_text(alg, 200) + "' (digest '" + partner_text(digest, 200) +
                            "', MGF '" + partner_text(mgf, 200) +
                            "') is not allowed by the policy (xmlenc11 RSA-OAEP with SHA-256 and MGF1-SHA256)");
    Certificate recipient;
    if (Failure f = find_certificate(doc, security, child(ek, kDs, "KeyInfo"), ours, kRecipient, &recipient)) return f;
    const Identity* identity = nullptr;
    for (const Identity& id : policy.identities)
      if (id.certificate == recipient) identity = &id;
    std::string wrapped, key;
    if (!mime::base64_decode(text(child(child(ek, kXenc, "CipherData"), kXenc, "CipherValue")), &wrapped))
      return decryption("the xenc:EncryptedKey CipherValue is not valid base64");
    if (!rsa_oaep_sha256_decrypt(identity->key.get(), wrapped, &key))
      return decryption("the xenc:EncryptedKey does not decrypt with our key " +
                        partner_text(rfc2253_name(X509_get_subject_name(recipient.get())), 200) +
                        " (RSA-OAEP SHA-256)");
    std::vector<xmlNode*> refs = children(child(ek, kXenc, "ReferenceList"), kXenc, "DataReference");
    if (refs.empty() || refs.size() > attachments.size())
      return policy_failure("the xenc:EncryptedKey lists " + std::to_string(refs.size()) + " DataReferences for " +
                            std::to_string(attachments.size()) + " attachments");
    for (xmlNode* ref : refs)
      if (Failure f = decrypt_reference(doc, ref, key, attachments, &listed_data, out)) return f;
  }
  for (xmlNode* data : children(security, kXenc, "EncryptedData"))
    if (listed_data.count(data) == 0)
      return decryption("an xenc:EncryptedData is listed by no xenc:EncryptedKey for us");
  if (policy.require_encryption)
    for (const Attachment& a : attachments)
      if (out->decrypted.count(a.content_id) == 0)
        return policy_failure("the partner profile requires encryption; the attachment cid:" +
                              partner_text(a.content_id, 200) + " is not encrypted");
  return {};
}

struct DSigCtxFree {
  void operator()(xmlSecDSigCtx* c) const { xmlSecDSigCtxDestroy(c); }
};

// What xmlsec leaves in this thread's OpenSSL error queue is not for the next
// OpenSSL user on the thread (the AS2 code reads the queue for its messages).
struct ClearOpenSslErrors {
  ~ClearOpenSslErrors() { ERR_clear_error(); }
};

// What the references of a signature cover.
struct Coverage {
  bool body = false, messaging = false;
  std::set<std::string> cids;
};

// One ds:Reference: its digest and transforms against the policy, and what in
// this message it points to (added to `covered`).
Failure read_reference(xmlDoc* doc, xmlNode* ref, const Limits& limits, xmlNode* body, xmlNode* messaging,
                       const std::vector<Attachment>& plain, Coverage* covered, as4::SignedReference* out) {
  out->uri = attr(ref, "URI");
  out->type = attr(ref, "Type");
  out->digest_method = attr(child(ref, kDs, "DigestMethod"), "Algorithm");
  out->digest_value = text(child(ref, kDs, "DigestValue"));
  const std::string shown = partner_text(out->uri, 200);
  if (!listed(kDigestMethods, out->digest_method))
    return policy_failure("reference '" + shown + "': digest '" + partner_text(out->digest_method, 200) +
                          "' is not allowed by the policy (SHA-256, SHA-384, SHA-512)");
  std::vector<xmlNode*> transforms = children(child(ref, kDs, "Transforms"), kDs, "Transform");
  if (transforms.size() > limits.max_transforms_per_reference)
    return policy_failure("reference '" + shown + "' has " + std::to_string(transforms.size()) + " transforms");
  for (xmlNode* t : transforms) {
    const std::string alg = attr(t, "Algorithm");
    if (alg != kExcC14n && alg != kSwaContent)
      return policy_failure("reference '" + shown + "': transform '" + partner_text(alg, 200) +
                            "' is not allowed (exclusive c14n, SwA Attachment-Content-Signature-Transform)");
    as4::SignedReference::Transform copy{alg, std::nullopt};
    if (xmlNode* inclusive = child(t, kExcC14n, "InclusiveNamespaces"))
      copy.inclusive_prefixes = attr(inclusive, "PrefixList");
    out->transforms.push_back(std::move(copy));
  }
  if (out->uri.size() > 1 && out->uri[0] == '#') {
    xmlNode* target = by_id(doc, out->uri.substr(1));
    if (target == nullptr) return authentication("reference '" + shown + "' points to nothing in this message");
    covered->body = covered->body || target == body;
    covered->messaging = covered->messaging || target == messaging;
  } else if (out->uri.rfind("cid:", 0) == 0) {
    char* unescaped = xmlURIUnescapeString(out->uri.c_str() + 4, 0, nullptr);
    const std::string cid = unescaped != nullptr ? unescaped : "";
    xmlFree(unescaped);
    if (std::none_of(plain.begin(), plain.end(), [&](const Attachment& a) { return a.content_id == cid; }))
      return authentication("reference '" + shown + "' points to no attachment of this message");
    covered->cids.insert(cid);
  } else {
    return policy_failure("reference '" + shown + "' is neither a same-document #id nor a cid: attachment");
  }
  return {};
}

// An xmlsec key holding a reference to `key` (public or private); null when
// xmlsec cannot use it. The xmlSecDSigCtx that takes it frees it.
xmlSecKeyPtr xmlsec_key(EVP_PKEY* key) {
  if (key == nullptr) return nullptr;
  EVP_PKEY_up_ref(key);
  xmlSecKeyDataPtr data = xmlSecOpenSSLEvpKeyAdopt(key);
  if (data == nullptr) {
    EVP_PKEY_free(key);  // the reference taken for it
    return nullptr;
  }
  xmlSecKeyPtr out = xmlSecKeyCreate();
  if (out == nullptr || xmlSecKeySetValue(out, data) < 0) {
    xmlSecKeyDataDestroy(data);
    if (out != nullptr) xmlSecKeyDestroy(out);
    return nullptr;
  }
  return out;
}

// The signature value, checked by xmlsec with `signer`'s key over the
// references (the attachments as `plain` holds them, decrypted).
Failure verify_value(xmlNode* signature, const Certificate& signer, const std::vector<Attachment>& plain) {
  std::unique_ptr<xmlSecDSigCtx, DSigCtxFree> ctx(xmlSecDSigCtxCreate(nullptr));
  if (!ctx) return {"EBMS:0004", "the gateway could not set up signature verification"};
  ctx->enabledReferenceUris = xmlSecTransformUriTypeSameDocument | xmlSecTransformUriTypeRemote;
  for (xmlSecTransformId id : {xmlSecTransformExclC14NId, static_cast<xmlSecTransformId>(&swa_content_klass),
                               xmlSecTransformSha256Id, xmlSecTransformSha384Id, xmlSecTransformSha512Id})
    xmlSecDSigCtxEnableReferenceTransform(ctx.get(), id);
  for (xmlSecTransformId id : {xmlSecTransformExclC14NId, xmlSecTransformRsaSha256Id, xmlSecTransformRsaSha384Id,
                               xmlSecTransformRsaSha512Id, xmlSecTransformEcdsaSha256Id})
    xmlSecDSigCtxEnableSignatureTransform(ctx.get(), id);
  // The public key of the certificate already parsed, not the certificate
  // encoded and parsed again by xmlsec (5% of an AS4 message's CPU).
  ctx->signKey = xmlsec_key(X509_get0_pubkey(signer.get()));
  if (ctx->signKey == nullptr) return authentication("the signer's certificate holds no usable public key");

  t_attachments = &plain;
  t_xmlsec_error.clear();
  const int rc = xmlSecDSigCtxVerify(ctx.get(), signature);
  t_attachments = nullptr;
  if (rc < 0) return authentication("the signature could not be checked: " + partner_text(t_xmlsec_error, 300));
  if (ctx->status != xmlSecDSigStatusSucceeded) {
    for (xmlSecSize i = 0; i < xmlSecPtrListGetSize(&ctx->signedInfoReferences); ++i) {
      auto* r = static_cast<xmlSecDSigReferenceCtx*>(xmlSecPtrListGetItem(&ctx->signedInfoReferences, i));
      if (r != nullptr && r->status != xmlSecDSigStatusSucceeded)
        return authentication("the digest of '" +
                              partner_text(r->uri != nullptr ? reinterpret_cast<const char*>(r->uri) : "", 200) +
                              "' does not match: that part changed after it was signed");
    }
    return authentication("the signature value does not verify with the signer's certificate");
  }
  return {};
}

}  // namespace

Failure check(std::string_view soap, const std::vector<Attachment>& attachments, const Policy& policy, Checked* out,
              const Limits& limits) {
  ClearOpenSslErrors clear_errors;
  *out = Checked{};
  if (!xmlsec_ready()) return {"EBMS:0004", "the gateway's XML security library did not start"};
  libxml_errors_to_request();
  t_xmlsec_error.clear();
  Doc doc(xmlReadMemory(soap.data(), static_cast<int>(soap.size()), "as4-envelope.xml", nullptr,
                        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING),
          xmlFreeDoc);
  if (!doc) return {"EBMS:0009", "the SOAP envelope is not well-formed XML"};
  if (doc->intSubset != nullptr || doc->extSubset != nullptr)
    return {"EBMS:0009", "the SOAP envelope has a DOCTYPE (not allowed)"};
  xmlNode* envelope = xmlDocGetRootElement(doc.get());
  const char* soap_ns = is(envelope, kSoap12, "Envelope") ? kSoap12 : kSoap11;
  // One Header and one Body: the ebMS reader and this check must read the same ones.
  if (children(envelope, soap_ns, "Header").size() > 1 || children(envelope, soap_ns, "Body").size() > 1)
    return {"EBMS:0009", "the envelope has more than one Header or Body"};
  xmlNode* header = child(envelope, soap_ns, "Header");
  xmlNode* security = nullptr;
  if (Failure f = security_header(header, &security)) return f;
  xmlNode* signature = security != nullptr ? child(security, kDs, "Signature") : nullptr;
  if (security != nullptr)
    if (std::string e = register_ids(doc.get()); !e.empty()) return authentication(e);
  // Decrypt first: the signature covers the attachments as they were before encryption.
  if (security != nullptr) {
    if (Failure f = decrypt(doc.get(), security, policy, attachments, out)) return f;
  } else if (policy.require_encryption && !attachments.empty()) {
    return policy_failure("the partner profile requires an encrypted message; there is no wsse:Security header");
  }
  std::vector<Attachment> plain = attachments;
  for (Attachment& a : plain)
    if (auto it = out->decrypted.find(a.content_id); it != out->decrypted.end()) a.bytes = it->second;
  if (signature == nullptr) {
    if (policy.require_signature)
      return policy_failure(security == nullptr
                                ? "the partner profile requires a signed message; there is no wsse:Security header"
                                : "the partner profile requires a signed message; wsse:Security has no ds:Signature");
    return {};
  }
  if (children(security, kDs, "Signature").size() > 1)
    return policy_failure("wsse:Security holds more than one ds:Signature");

  // What the signature must cover: the one Body, the one eb:Messaging, every attachment.
  std::vector<xmlNode*> messaging = children(header, kEbms, "Messaging");
  xmlNode* body = child(envelope, soap_ns, "Body");
  if (messaging.size() != 1 || body == nullptr)
    return {"EBMS:0009", "the envelope needs exactly one eb:Messaging header and a Body"};

  xmlNode* signed_info = child(signature, kDs, "SignedInfo");
  const std::string c14n = attr(child(signed_info, kDs, "CanonicalizationMethod"), "Algorithm");
  const std::string method = attr(child(signed_info, kDs, "SignatureMethod"), "Algorithm");
  if (c14n != kExcC14n)
    return policy_failure("canonicalization '" + partner_text(c14n, 200) +
                          "' is not allowed (exclusive c14n: " + kExcC14n + ")");
  if (!listed(kSignatureMethods, method))
    return policy_failure("signature algorithm '" + partner_text(method, 200) +
                          "' is not allowed by the policy (RSA-SHA256, RSA-SHA384, RSA-SHA512, ECDSA-SHA256)");
  std::vector<xmlNode*> refs = children(signed_info, kDs, "Reference");
  if (refs.empty() || refs.size() > limits.max_references)
    return policy_failure("the signature has " + std::to_string(refs.size()) + " references (1 to " +
                          std::to_string(limits.max_references) + " allowed)");
  Coverage covered;
  for (xmlNode* ref : refs) {
    as4::SignedReference sr;
    if (Failure f = read_reference(doc.get(), ref, limits, body, messaging[0], plain, &covered, &sr)) return f;
    out->references.push_back(std::move(sr));
  }
  if (!covered.messaging) return policy_failure("the signature does not cover the eb:Messaging header");
  if (!covered.body) return policy_failure("the signature does not cover the SOAP Body");
  for (const Attachment& a : plain)
    if (covered.cids.count(a.content_id) == 0)
      return policy_failure("the signature does not cover the attachment cid:" + partner_text(a.content_id, 200));

  Certificate signer;
  if (Failure f = find_certificate(doc.get(), security, child(signature, kDs, "KeyInfo"), policy.signers, kSigner,
                                   &signer, policy.trust))
    return f;

  if (Failure f = verify_value(signature, signer, plain)) return f;
  out->is_signed = true;
  out->signer = signer;
  out->signature_method = method;
  return {};
}

namespace {

constexpr const char* kX509TokenType =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3";

// An envelope being signed: its document, its eb:Messaging and Body (with
// wsu:Ids), the wsse:Security header holding our BinarySecurityToken.
struct Securing {
  Doc doc{nullptr, xmlFreeDoc};
  xmlNode* security = nullptr;
  xmlNs* wsse = nullptr;
  xmlNs* wsu = nullptr;
};

// Parses `soap` and adds the Ids and the header with our token; Invalid names what is missing.
Status prepare_security(std::string_view soap, const Identity& identity, Securing* s) {
  s->doc.reset(xmlReadMemory(soap.data(), static_cast<int>(soap.size()), "message.xml", nullptr,
                             XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING));
  xmlNode* envelope = s->doc ? xmlDocGetRootElement(s->doc.get()) : nullptr;
  xmlNode* header = child(envelope, kSoap12, "Header");
  xmlNode* messaging = child(header, kEbms, "Messaging");
  xmlNode* body = child(envelope, kSoap12, "Body");
  if (messaging == nullptr || body == nullptr)
    return Status::invalid("sign: not a SOAP 1.2 envelope with eb:Messaging and a Body");
  const std::string wsse_ns(kWsseNs);
  s->wsu = xmlNewNs(envelope, BAD_CAST kWsu, BAD_CAST "wsu");
  s->wsse = xmlNewNs(envelope, BAD_CAST wsse_ns.c_str(), BAD_CAST "wsse");
  xmlNs* soap_ns = xmlSearchNsByHref(s->doc.get(), envelope, BAD_CAST kSoap12);
  xmlSetNsProp(messaging, s->wsu, BAD_CAST "Id", BAD_CAST "_edihub-messaging");
  xmlSetNsProp(body, s->wsu, BAD_CAST "Id", BAD_CAST "_edihub-body");

  // wsse:Security first in the header: our certificate, then the signature.
  s->security = xmlNewDocNode(s->doc.get(), s->wsse, BAD_CAST "Security", nullptr);
  xmlSetNsProp(s->security, soap_ns, BAD_CAST "mustUnderstand", BAD_CAST "true");
  xmlAddPrevSibling(messaging, s->security);
  unsigned char* der = nullptr;
  const int der_len = i2d_X509(identity.certificate.get(), &der);
  if (der_len <= 0) return Status::invalid("sign: our certificate cannot be encoded");
  const std::string b64 = mime::base64_encode({reinterpret_cast<const char*>(der), static_cast<size_t>(der_len)});
  OPENSSL_free(der);
  xmlNode* token = xmlNewChild(s->security, s->wsse, BAD_CAST "BinarySecurityToken", BAD_CAST b64.c_str());
  xmlSetProp(token, BAD_CAST "EncodingType",
             BAD_CAST "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary");
  xmlSetProp(token, BAD_CAST "ValueType", BAD_CAST kX509TokenType);
  xmlSetNsProp(token, s->wsu, BAD_CAST "Id", BAD_CAST "_edihub-token");
  if (std::string e = register_ids(s->doc.get()); !e.empty()) return Status::invalid("sign: " + e);
  return Status::ok();
}

// Signs eb:Messaging, the Body and the `cids` (attachments this thread's
// t_attachments serves) with `identity`, the signature in the Security header.
Status sign_prepared(Securing* s, const Identity& identity, const std::vector<std::string>& cids) {
  xmlNode* signature = xmlSecTmplSignatureCreateNsPref(s->doc.get(), xmlSecTransformExclC14NId,
                                                       xmlSecTransformRsaSha256Id, nullptr, BAD_CAST "ds");
  if (signature == nullptr) return Status::invalid("sign: no signature template");
  xmlAddChild(s->security, signature);
  for (const char* uri : {"#_edihub-messaging", "#_edihub-body"}) {
    xmlNode* ref = xmlSecTmplSignatureAddReference(signature, xmlSecTransformSha256Id, nullptr, BAD_CAST uri, nullptr);
    if (ref == nullptr || xmlSecTmplReferenceAddTransform(ref, xmlSecTransformExclC14NId) == nullptr)
      return Status::invalid("sign: no reference template");
  }
  for (const std::string& cid : cids) {
    const std::string uri = "cid:" + cid;
    xmlNode* ref =
        xmlSecTmplSignatureAddReference(signature, xmlSecTransformSha256Id, nullptr, BAD_CAST uri.c_str(), nullptr);
    if (ref == nullptr || xmlSecTmplReferenceAddTransform(ref, &swa_content_klass) == nullptr)
      return Status::invalid("sign: no attachment reference template");
  }
  xmlNode* key_info = xmlSecTmplSignatureEnsureKeyInfo(signature, nullptr);
  xmlNode* str = xmlNewChild(key_info, s->wsse, BAD_CAST "SecurityTokenReference", nullptr);
  xmlNode* str_ref = xmlNewChild(str, s->wsse, BAD_CAST "Reference", nullptr);
  xmlSetProp(str_ref, BAD_CAST "URI", BAD_CAST "#_edihub-token");
  xmlSetProp(str_ref, BAD_CAST "ValueType", BAD_CAST kX509TokenType);

  std::unique_ptr<xmlSecDSigCtx, DSigCtxFree> ctx(xmlSecDSigCtxCreate(nullptr));
  if (!ctx) return Status::invalid("sign: no signature context");
  ctx->signKey = xmlsec_key(identity.key.get());
  if (ctx->signKey == nullptr) return Status::invalid("sign: our private key cannot be used");
  t_xmlsec_error.clear();
  if (xmlSecDSigCtxSign(ctx.get(), signature) < 0) return Status::invalid("sign: " + t_xmlsec_error);
  return Status::ok();
}

std::string dump(xmlDoc* doc) {
  xmlChar* out = nullptr;
  int size = 0;
  xmlDocDumpMemoryEnc(doc, &out, &size, "UTF-8");
  std::string xml(reinterpret_cast<const char*>(out), static_cast<size_t>(size));
  xmlFree(out);
  return xml;
}

// The content key for `to`: RSA-OAEP with SHA-256 and MGF1-SHA256.
bool rsa_oaep_sha256_encrypt(EVP_PKEY* to, const std::string& in, std::string* out) {
  std::unique_ptr<EVP_PKEY_CTX, decltype(&EVP_PKEY_CTX_free)> ctx(EVP_PKEY_CTX_new(to, nullptr), EVP_PKEY_CTX_free);
  const auto* data = reinterpret_cast<const unsigned char*>(in.data());
  size_t n = 0;
  bool ok = ctx && EVP_PKEY_encrypt_init(ctx.get()) > 0 &&
            EVP_PKEY_CTX_set_rsa_padding(ctx.get(), RSA_PKCS1_OAEP_PADDING) > 0 &&
            EVP_PKEY_CTX_set_rsa_oaep_md(ctx.get(), EVP_sha256()) > 0 &&
            EVP_PKEY_CTX_set_rsa_mgf1_md(ctx.get(), EVP_sha256()) > 0 &&
            EVP_PKEY_encrypt(ctx.get(), nullptr, &n, data, in.size()) > 0;
  if (ok) {
    out->resize(n);
    ok = EVP_PKEY_encrypt(ctx.get(), reinterpret_cast<unsigned char*>(out->data()), &n, data, in.size()) > 0;
    out->resize(ok ? n : 0);
  }
  ERR_clear_error();
  return ok;
}

// IV + AES-128-GCM ciphertext + tag: the SwA Attachment-Ciphertext-Transform's octets.
bool aes128_gcm_encrypt(const std::string& key, std::string_view in, std::string* out) {
  if (in.size() > static_cast<size_t>(INT32_MAX)) return false;
  unsigned char iv[kGcmIv];
  if (RAND_bytes(iv, sizeof iv) != 1) return false;
  std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  out->assign(reinterpret_cast<const char*>(iv), kGcmIv);
  out->resize(kGcmIv + in.size() + kGcmTag);
  auto* o = reinterpret_cast<unsigned char*>(out->data());
  int len = 0, final_len = 0;
  const bool ok =
      ctx && EVP_EncryptInit_ex(ctx.get(), EVP_aes_128_gcm(), nullptr, nullptr, nullptr) == 1 &&
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, kGcmIv, nullptr) == 1 &&
      EVP_EncryptInit_ex(ctx.get(), nullptr, nullptr, reinterpret_cast<const unsigned char*>(key.data()), iv) == 1 &&
      EVP_EncryptUpdate(ctx.get(), o + kGcmIv, &len, reinterpret_cast<const unsigned char*>(in.data()),
                        static_cast<int>(in.size())) == 1 &&
      EVP_EncryptFinal_ex(ctx.get(), o + kGcmIv + len, &final_len) == 1 &&
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kGcmTag, o + kGcmIv + in.size()) == 1;
  ERR_clear_error();
  return ok;
}

// Encrypts every part for `to` (see secure_user_message): the EncryptedKey
// and EncryptedData elements in the Security header, the parts' bytes replaced.
Status encrypt_parts(Securing* s, std::vector<OutgoingAttachment>* parts, const Certificate& to) {
  std::string key(16, '\0'), wrapped;
  if (RAND_bytes(reinterpret_cast<unsigned char*>(key.data()), 16) != 1)
    return Status::unavailable("encrypt: no random content key");
  if (!rsa_oaep_sha256_encrypt(X509_get0_pubkey(to.get()), key, &wrapped))
    return Status::invalid("encrypt: the recipient's certificate " + to.subject() + " has no RSA key to encrypt to");
  xmlNs* xenc = xmlNewNs(s->security, BAD_CAST kXenc, BAD_CAST "xenc");
  xmlNs* xenc11 = xmlNewNs(s->security, BAD_CAST kXenc11, BAD_CAST "xenc11");
  xmlNs* ds = xmlNewNs(s->security, BAD_CAST kDs, BAD_CAST "ds");
  // After the token, before the signature: the order WSS4J writes.
  xmlNode* token = child(s->security, std::string(kWsseNs).c_str(), "BinarySecurityToken");
  xmlNode* ek = xmlNewDocNode(s->doc.get(), xenc, BAD_CAST "EncryptedKey", nullptr);
  xmlAddNextSibling(token, ek);
  xmlSetProp(ek, BAD_CAST "Id", BAD_CAST "_edihub-key");
  xmlNode* method = xmlNewChild(ek, xenc, BAD_CAST "EncryptionMethod", nullptr);
  xmlSetProp(method, BAD_CAST "Algorithm", BAD_CAST kRsaOaep11);
  xmlSetProp(xmlNewChild(method, ds, BAD_CAST "DigestMethod", nullptr), BAD_CAST "Algorithm", BAD_CAST kSha256);
  xmlSetProp(xmlNewChild(method, xenc11, BAD_CAST "MGF", nullptr), BAD_CAST "Algorithm", BAD_CAST kMgf1Sha256);
  xmlNode* str = xmlNewChild(xmlNewChild(ek, ds, BAD_CAST "KeyInfo", nullptr), s->wsse,
                             BAD_CAST "SecurityTokenReference", nullptr);
  xmlNode* serial =
      xmlNewChild(xmlNewChild(str, ds, BAD_CAST "X509Data", nullptr), ds, BAD_CAST "X509IssuerSerial", nullptr);
  xmlNewTextChild(serial, ds, BAD_CAST "X509IssuerName", BAD_CAST rfc2253_name(X509_get_issuer_name(to.get())).c_str());
  std::unique_ptr<BIGNUM, decltype(&BN_free)> bn(ASN1_INTEGER_to_BN(X509_get0_serialNumber(to.get()), nullptr),
                                                 BN_free);
  char* dec = bn ? BN_bn2dec(bn.get()) : nullptr;
  xmlNewTextChild(serial, ds, BAD_CAST "X509SerialNumber", BAD_CAST(dec != nullptr ? dec : ""));
  OPENSSL_free(dec);
  xmlNewTextChild(xmlNewChild(ek, xenc, BAD_CAST "CipherData", nullptr), xenc, BAD_CAST "CipherValue",
                  BAD_CAST mime::base64_encode(wrapped).c_str());
  xmlNode* list = xmlNewChild(ek, xenc, BAD_CAST "ReferenceList", nullptr);
  xmlNode* after = ek;
  for (size_t i = 0; i < parts->size(); ++i) {
    OutgoingAttachment& part = (*parts)[i];
    const std::string id = "_edihub-data-" + std::to_string(i + 1);
    xmlSetProp(xmlNewChild(list, xenc, BAD_CAST "DataReference", nullptr), BAD_CAST "URI", BAD_CAST("#" + id).c_str());
    xmlNode* data = xmlNewDocNode(s->doc.get(), xenc, BAD_CAST "EncryptedData", nullptr);
    after = xmlAddNextSibling(after, data);
    xmlSetProp(data, BAD_CAST "Id", BAD_CAST id.c_str());
    xmlSetProp(data, BAD_CAST "MimeType", BAD_CAST part.mime_type.c_str());
    xmlSetProp(data, BAD_CAST "Type", BAD_CAST kContentOnly);
    xmlSetProp(xmlNewChild(data, xenc, BAD_CAST "EncryptionMethod", nullptr), BAD_CAST "Algorithm",
               BAD_CAST kAes128Gcm);
    xmlNode* cref =
        xmlNewChild(xmlNewChild(data, xenc, BAD_CAST "CipherData", nullptr), xenc, BAD_CAST "CipherReference", nullptr);
    xmlSetProp(cref, BAD_CAST "URI", BAD_CAST("cid:" + part.content_id).c_str());
    xmlSetProp(xmlNewChild(xmlNewChild(cref, xenc, BAD_CAST "Transforms", nullptr), ds, BAD_CAST "Transform", nullptr),
               BAD_CAST "Algorithm", BAD_CAST kCiphertextTransform);
    std::string cipher;
    if (!aes128_gcm_encrypt(key, part.bytes, &cipher)) return Status::invalid("encrypt: AES-128-GCM failed");
    part.bytes = std::move(cipher);
  }
  return Status::ok();
}

}  // namespace

Result<std::string> sign_envelope(std::string_view soap, const Identity& identity) {
  ClearOpenSslErrors clear_errors;
  if (!xmlsec_ready()) return Status::unavailable("the XML security library did not start");
  libxml_errors_to_request();
  Securing s;
  RETURN_IF_ERROR(prepare_security(soap, identity, &s));
  RETURN_IF_ERROR(sign_prepared(&s, identity, {}));
  return dump(s.doc.get());
}

Result<std::string> secure_user_message(std::string_view soap, std::vector<OutgoingAttachment>* parts,
                                        const Identity& signer, const Certificate* encrypt_for) {
  ClearOpenSslErrors clear_errors;
  if (!xmlsec_ready()) return Status::unavailable("the XML security library did not start");
  libxml_errors_to_request();
  Securing s;
  RETURN_IF_ERROR(prepare_security(soap, signer, &s));
  // The parts as the signature's cid: references read them: the octets before encryption.
  std::vector<Attachment> plain;
  std::vector<std::string> cids;
  for (const OutgoingAttachment& p : *parts) {
    plain.push_back({p.content_id, p.bytes});
    cids.push_back(p.content_id);
  }
  t_attachments = &plain;
  const Status signed_ok = sign_prepared(&s, signer, cids);
  t_attachments = nullptr;
  RETURN_IF_ERROR(signed_ok);
  if (encrypt_for != nullptr) RETURN_IF_ERROR(encrypt_parts(&s, parts, *encrypt_for));
  return dump(s.doc.get());
}

}  // namespace edihub::crypto::wss
