// AS2 unwrapping (RFC 4130, RFC 5402): from the received MIME entity to the
// payload, through encryption, signature and compression in any nesting
// order, with the MIC the MDN must return.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "src/common/status.h"
#include "parsers/mime/entity.h"
#include "src/crypto/cms.h"

namespace edihub::as2 {

struct UnwrapOptions {
  std::vector<crypto::Identity> identities;        // ours, for decryption (rollover: several)
  std::vector<crypto::Certificate> signers;        // the partner's signing certificates
  std::string mic_algorithm = "sha-256";           // from Disposition-Notification-Options
  size_t max_decompressed_bytes = 100 << 20;
  int max_layers = 6;
};

struct Unwrapped {
  std::string content_type;  // of the payload, e.g. "application/edi-x12"
  std::string payload;       // the EDI bytes (transfer encoding removed)
  bool encrypted = false, signed_ = false, compressed = false;
  std::string signer_subject;
  std::string signature_digest;  // the digest the partner signed with
  std::string mic;               // base64, per RFC 4130 7.3.1 / RFC 5402 4
  std::string mic_algorithm;     // as returned in Received-Content-MIC
};

// The failure's disposition modifier (RFC 4130): decryption-failed,
// authentication-failed, integrity-check-failed, decompression-failed or
// unexpected-processing-error; the Status message starts with it.
std::string_view disposition_modifier(const Status& failure);

// A MIME entity's body with its Content-Transfer-Encoding (binary, 7bit,
// 8bit or base64) removed; Invalid says what is wrong.
Result<std::string> mime_body(const mime::Entity& entity);

// Unwraps `entity` (MIME headers + body; for AS2 the HTTP headers are the
// outer entity's headers). Invalid with the disposition modifier first.
Result<Unwrapped> unwrap(std::string_view entity, const UnwrapOptions& options);

}  // namespace edihub::as2
