// WS-Security on a received AS4 message (eDelivery AS4 profile, WS-Security
// 1.1.1 with the X.509 token profile and the SwA profile), receive side: the
// ds:Signature in wsse:Security is checked by libxmlsec1 (exclusive c14n,
// RSA-SHA256/384/512 or ECDSA-SHA256, SHA-2 digests). The signature must
// cover the SOAP Body, the eb:Messaging header and every attachment (cid:
// references through the Attachment-Content-Signature-Transform, written on
// top of xmlsec: it is not in it), and its signer must be one of the
// partner's signing certificates, named by a BinarySecurityToken, by issuer
// and serial or by subject key identifier. Ids that occur twice (signature
// wrapping), references that point nowhere or outside this message, DTDs and
// more references or transforms than the bounds are failures.
//
// Decryption comes first (the profile's order: decrypt, verify, decompress):
// an xenc:EncryptedKey for one of our identities (RSA-OAEP with SHA-256 and
// MGF1-SHA256, xmlenc11; xmlsec 1.2.37 has only the SHA-1 MGF, so OpenSSL
// unwraps it) and, per attachment, an xenc:EncryptedData of type
// Attachment-Content-Only with AES-128-GCM (the SwA Attachment-Ciphertext-
// Transform: IV, ciphertext and tag as the part's content; OpenSSL decrypts).
// The signature is then checked over the decrypted attachments.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/as4/user_message.h"
#include "src/common/status.h"
#include "src/crypto/cms.h"

namespace edihub::crypto::wss {

struct Attachment {
  std::string content_id;  // without angle brackets
  std::string_view bytes;  // the part's content, transfer encoding removed
};

struct Policy {
  bool require_signature = true;
  bool require_encryption = false;   // every attachment encrypted
  std::vector<Certificate> signers;  // the partner's signing certificates (several during rollover)
  std::vector<Identity> identities;  // ours: an EncryptedKey must be for one of them
  // A signer in a BinarySecurityToken that `signers` does not list is
  // accepted when this says nothing against it (empty: accepted; else why
  // not, for EBMS:0101): trust by a CA (a Peppol access point), not by pin.
  std::function<std::string(const Certificate&)> trust;
};

struct Limits {
  size_t max_references = 110;  // Body + eb:Messaging + attachments (100 parts) + a few
  size_t max_transforms_per_reference = 3;
};

struct Checked {
  bool is_signed = false;  // false: no wsse:Security signature (allowed by the policy)
  // Decrypted attachments by Content-ID, and their xenc:EncryptedData MimeType.
  std::map<std::string, std::string> decrypted, mime_types;
  Certificate signer;
  std::string signature_method;                  // the algorithm URI
  std::vector<as4::SignedReference> references;  // for the Receipt's NonRepudiationInformation
};

// The EBMS error to answer with: EBMS:0101 FailedAuthentication, EBMS:0102
// FailedDecryption, EBMS:0103 PolicyNoncompliance; detail says what to fix.
struct Failure {
  std::string code;
  std::string detail;
  explicit operator bool() const { return !code.empty(); }
};

// Checks the security header of `soap` (the SOAP root part) against `policy`.
// A message without wsse:Security passes only when nothing is required.
// out->decrypted holds what the caller reads instead of the encrypted parts.
Failure check(std::string_view soap, const std::vector<Attachment>& attachments, const Policy& policy, Checked* out,
              const Limits& limits = {});

// Signs a SOAP 1.2 signal envelope (a Receipt or Error as parsers/as4 builds
// them) as the eDelivery profile asks: wsu:Ids on eb:Messaging and the Body,
// a wsse:Security header holding our certificate as a BinarySecurityToken and
// an RSA-SHA256, exclusive-c14n, SHA-256 signature over both.
Result<std::string> sign_envelope(std::string_view soap, const Identity& identity);

// Sending: one attachment of a UserMessage, by its Content-ID (without angle
// brackets), its media type, and the octets that go on the wire (gzipped
// already when the message compresses it).
struct OutgoingAttachment {
  std::string content_id, mime_type, bytes;
};

// A UserMessage (a SOAP 1.2 envelope as parsers/as4 builds it) secured as
// the eDelivery AS4 profile asks: wsu:Ids on eb:Messaging and the Body, a
// wsse:Security header with our certificate as a BinarySecurityToken and an
// RSA-SHA256, exclusive-c14n, SHA-256 signature over both and every part (the
// SwA Attachment-Content-Signature-Transform); then, with `encrypt_for`, every
// part encrypted for that certificate: one AES-128-GCM content key under
// xmlenc11 RSA-OAEP (SHA-256, MGF1-SHA256), the recipient named by issuer and
// serial, one xenc:EncryptedData per part (Attachment-Content-Only, a
// CipherReference by cid: through the Attachment-Ciphertext-Transform), and
// each part's bytes replaced by IV + ciphertext + tag. Returns the envelope.
Result<std::string> secure_user_message(std::string_view soap, std::vector<OutgoingAttachment>* parts,
                                        const Identity& signer, const Certificate* encrypt_for);

inline constexpr std::string_view kWsseNs =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";

}  // namespace edihub::crypto::wss
