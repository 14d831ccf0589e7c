// AS2 receipts: Message Disposition Notifications (RFC 8098 as profiled by
// RFC 4130 7.4), signed when the partner asks for it.
#pragma once

#include <string>
#include <string_view>

#include "src/common/status.h"
#include "src/crypto/cms.h"
#include "src/gate/receipt_policy.h"

namespace edihub::as2 {

// The disposition modifier of a refusal (RFC 4130 7.4.3, RFC 8098):
// processed/error: <it>.
std::string_view as2_modifier(gate::Failure f);

// What Disposition-Notification-Options asks for.
struct ReceiptRequest {
  bool signed_receipt = false;      // signed-receipt-protocol includes pkcs7-signature
  bool signature_required = false;  // ... with importance "required"
  std::string micalg = "sha-256";   // the first algorithm we support, as the partner wrote it
  std::string refused_micalg;       // md5 asked for and not allowed by the profile (for the log)
};

// Parses e.g. "signed-receipt-protocol=optional, pkcs7-signature;
// signed-receipt-micalg=optional, sha-256, sha1". The importance
// (required/optional) may be missing, a common partner mistake: the values
// are then read as the partner meant them. md5 is used only when the partner
// profile allows it. Unknown parameters and algorithms are ignored (RFC 4130
// 7.3), never fatal.
ReceiptRequest parse_disposition_options(std::string_view header, bool allow_md5 = false);

struct MdnContent {
  std::string reporting_ua = "edihub";
  std::string our_as2_id, partner_as2_id;
  std::string original_message_id;  // the AS2 Message-ID, angle brackets included
  std::string mic, mic_algorithm;   // Received-Content-MIC; empty when not computed
  std::string modifier;             // empty: processed; else e.g. "decryption-failed"
  std::string warning;              // with no modifier: processed/warning: <it> ("duplicate-document")
  std::string text;                 // the human-readable part
  std::string message_id;           // the MDN's own Message-ID
  std::string boundary;             // MIME boundaries are derived from it
};

struct Mdn {
  std::string headers;  // HTTP/MIME header lines, "Name: value\r\n" each
  std::string body;     // exact bytes
};

// Builds the MDN; signs it (multipart/signed) with `signer` when `request`
// asks for a signed receipt. `signer` may be null for unsigned receipts.
// Every text field passes partner_text() on the way in: no value can end a
// line of the MDN.
Result<Mdn> build_mdn(const MdnContent& content, const ReceiptRequest& request, const crypto::Identity* signer);

}  // namespace edihub::as2
