// The MDN a partner sends back for a message edihub sent (sync in the HTTP
// answer, or async to /as2): its signature checked against the partner's
// certificates, its fields read leniently where real software differs
// (`Received-content-MIC` in any case, `sha256` as well as `sha-256`), and
// its verdict on our message.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "src/common/status.h"
#include "src/crypto/cms.h"

namespace edihub::as2 {

// A MIC as an MDN carries it: base64 digest and the algorithm's AS2 name.
struct Mic {
  std::string value, algorithm = "sha-256";
};

struct PartnerMdn {
  bool signed_ = false;
  std::string original_message_id;
  std::string mic, mic_algorithm;  // Received-Content-MIC, split
  std::string disposition;         // as written
};

// Reads the MDN whose Content-Type header value is `content_type` and body
// `body`. A signed MDN must verify against one of `partner_certificates`;
// Invalid says what is wrong (not an MDN, bad signature, no disposition).
Result<PartnerMdn> read_partner_mdn(std::string_view content_type, std::string_view body,
                                    const std::vector<crypto::Certificate>& partner_certificates);

// What the MDN says of our message with `message_id`, whose MIC (base64,
// with `algorithm` as AS2 names it) is `expected_mic`: ok (processed, or a duplicate-document warning:
// the partner has it), or why not (an error disposition, another message,
// a MIC that differs).
Status verdict(const PartnerMdn& mdn, std::string_view message_id, std::string_view expected_mic,
               std::string_view algorithm = "sha-256");

// True when the Content-Type is an MDN's: multipart/report, or
// multipart/signed around one.
bool looks_like_mdn(std::string_view content_type, std::string_view body);

}  // namespace edihub::as2
