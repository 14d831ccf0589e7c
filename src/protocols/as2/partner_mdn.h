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
#include "src/config/partners.h"
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

// What an MDN must be to settle one of our messages.
struct MdnExpectation {
  std::string_view message_id;             // ours, the MDN's Original-Message-ID
  std::string_view mic;                    // base64, of what we signed
  std::string_view algorithm = "sha-256";  // the MIC's, as AS2 names it
  // Signed by one of the partner's certificates (read_partner_mdn verified
  // it): whenever its profile lists signing certificates or requires
  // signatures (signature_required_of), since anyone can write an unsigned one.
  bool signed_ = true;
};

// The partners whose MDNs must be signed: see MdnExpectation::signed_.
bool signature_required_of(const config::Partner& partner, size_t signing_certificates);

// What the MDN says of our message: ok (processed, or a duplicate-document
// warning: the partner has it, with our MIC), or why not (unsigned where it
// must be signed, an error disposition, another message, a MIC that differs).
Status verdict(const PartnerMdn& mdn, const MdnExpectation& expected);

// True when the Content-Type is an MDN's: multipart/report, or
// multipart/signed around one.
bool looks_like_mdn(std::string_view content_type, std::string_view body);

}  // namespace edihub::as2
