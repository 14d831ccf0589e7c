// CMS (RFC 5652) for AS2: decrypt enveloped-data, verify detached
// signatures, decompress RFC 3274 compressed-data, sign receipts, compute
// MICs. OpenSSL does the cryptography; this adapter turns its errors into
// Status values an operator can read.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "src/common/budget.h"
#include "src/common/status.h"

typedef struct x509_st X509;
typedef struct X509_name_st X509_NAME;
typedef struct evp_pkey_st EVP_PKEY;

namespace edihub::crypto {

class Certificate {
 public:
  static Result<Certificate> load_pem_file(const std::string& path);
  static Result<Certificate> from_pem(std::string_view pem);
  // Takes ownership of `x` (not null).
  static Certificate adopt(X509* x);
  X509* get() const { return x509_.get(); }
  std::string subject() const;
  std::string serial() const;  // hex
  int64_t not_after() const;   // seconds since the epoch
  std::string sha256() const;  // the fingerprint: lower-case hex SHA-256 of the DER
  bool operator==(const Certificate& other) const;

 private:
  std::shared_ptr<X509> x509_;
};

// A certificate name as RFC 2253 prints it ("CN=POP000123,O=Test AP,C=NO"); empty for null.
std::string rfc2253_name(const X509_NAME* name);

// Lower-case hex SHA-256 of `x`'s DER (what `openssl x509 -fingerprint -sha256`
// prints, without colons, in lower case); empty when `x` is null or cannot be encoded.
std::string certificate_sha256(const X509* x);

class PrivateKey {
 public:
  static Result<PrivateKey> load_pem_file(const std::string& path);
  EVP_PKEY* get() const { return key_.get(); }

 private:
  std::shared_ptr<EVP_PKEY> key_;
};

// A certificate with its private key: our identity (several during rollover).
struct Identity {
  Certificate certificate;
  PrivateKey key;
};

// Decrypts DER enveloped-data with the first identity it is addressed to.
// Invalid ("decryption-failed") when none can.
Result<std::string> decrypt(std::string_view der, const std::vector<Identity>& identities);

struct Verified {
  Certificate signer;
  std::string digest;  // "sha1", "sha256" ... as the signer used it
  // The content's digest with `digest`, raw bytes, from the signed
  // messageDigest attribute (the verification checked it against the
  // content); empty when the signature has no signed attributes.
  std::string content_digest;
};

// Verifies a DER detached signature over the exact bytes of `content` (the
// first part of a multipart/signed, headers included). The signer must be one
// of `allowed` (the partner's signing certificates; self-signed is normal in
// AS2, so certificates are pinned, not chained).
Result<Verified> verify_detached(std::string_view content, std::string_view signature_der,
                                 const std::vector<Certificate>& allowed);

// The content of DER compressed-data (RFC 3274, zlib), counted against the
// message's lease (see inflate.h: Transient when the gateway-wide cap is hit).
Result<std::string> decompress(std::string_view der, Lease& lease);
// DER compressed-data of `content` (RFC 3274, zlib): OpenSSL here cannot
// CMS_compress (no zlib), so the structure is put together with its DER
// primitives around zlib's output.
std::string compress(std::string_view content);

// How the content key is wrapped to the recipient's RSA key: PKCS#1 v1.5 is
// what every AS2 partner reads; RSAES-OAEP (SHA-256, MGF1 SHA-256) is what
// newer stacks require (Node refuses v1.5 decryption since CVE-2023-46809).
enum class KeyTransport { RsaPkcs1, RsaOaep };

// DER enveloped-data of `content` to `recipient` with `cipher` as OpenSSL
// names it ("aes-256-cbc" by default; "aes-128-cbc", "des-ede3-cbc" for old
// partners).
Result<std::string> encrypt(std::string_view content, const Certificate& recipient,
                            std::string_view cipher = "aes-256-cbc", KeyTransport transport = KeyTransport::RsaPkcs1);

// Whether a signature lists the ciphers we can decrypt (the SMIMECapabilities
// signed attribute, RFC 8551 2.5.2): worth saying on a message a partner may
// answer encrypted; not on a receipt, where it costs about 5% of the signature
// (OpenSSL looks up every cipher it names, for every signature).
enum class Capabilities { Listed, Omitted };

// A DER detached signature of `content` with `digest` ("sha256", "sha1" ...).
Result<std::string> sign_detached(std::string_view content, const Identity& signer, std::string_view digest,
                                  Capabilities capabilities = Capabilities::Listed);

// Message integrity check (RFC 4130 7.3.1): base64 of the digest of `content`
// with `algorithm` as AS2 names it ("sha-256", "sha256", "sha1", "md5" ...).
Result<std::string> mic(std::string_view content, std::string_view algorithm);
// The same for the content `verified` was verified over: its signed digest
// when `algorithm` is the one the signer used, without hashing `content` again.
Result<std::string> mic(std::string_view content, const Verified& verified, std::string_view algorithm);

}  // namespace edihub::crypto
