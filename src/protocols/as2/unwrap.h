// AS2 unwrapping (RFC 4130, RFC 5402): from the received MIME entity to the
// payload, through encryption, signature and compression in any nesting
// order, with the MIC the MDN must return. Every layer's bytes count against
// the message's Lease (one budget for all layers); a layer is released as
// soon as the next one is built.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parsers/mime/entity.h"
#include "src/common/budget.h"
#include "src/common/status.h"
#include "src/crypto/cms.h"

namespace edihub::as2 {

struct UnwrapOptions {
  std::vector<crypto::Identity> identities;  // ours, for decryption (rollover: several)
  std::vector<crypto::Certificate> signers;  // the partner's signing certificates
  std::string mic_algorithm = "sha-256";     // from Disposition-Notification-Options
  int max_layers = 6;
};

struct Unwrapped {
  std::string content_type;  // of the payload, as declared, e.g. "application/edi-x12"
  std::string payload;       // the EDI bytes (transfer encoding removed)
  bool encrypted = false, signed_ = false, compressed = false;
  std::string signer_subject;
  int64_t signer_not_after = 0;  // the signer certificate's notAfter, seconds since the epoch
  std::string signature_digest;  // the digest the partner signed with
  std::string mic;               // base64, per RFC 4130 7.3.1 / RFC 5402 4
  std::string mic_algorithm;     // as returned in Received-Content-MIC
};

// Unwraps `outer` (for AS2 the HTTP headers that describe the body, and the
// body; views into the request). Invalid: a permanent failure, its code saying
// which (Code::DecryptionFailed ..., Malformed for a structure that cannot be
// read); Transient: the gateway-wide unwrap budget is exhausted. `*signature_verified` (when given)
// is set once a signature by one of options.signers verified, also when a
// later layer then fails: who sent it is known.
Result<Unwrapped> unwrap(const mime::Entity& outer, const UnwrapOptions& options, Lease& lease,
                         bool* signature_verified = nullptr);

}  // namespace edihub::as2
