#include "src/protocols/as2/mdn.h"

#include "parsers/mime/entity.h"
#include "parsers/mime/transfer.h"
#include "src/common/partner_text.h"

#include <cctype>
#include <sstream>
#include <vector>

namespace edihub::as2 {

std::string_view as2_modifier(gate::Failure f) {
  using gate::Failure;
  switch (f) {
    case Failure::DecryptionFailed:
      return "decryption-failed";
    // A signed message whose interchange names another's sender is the
    // nearest RFC 4130 has: not who it says it is.
    case Failure::SenderNotAuthorized:
    case Failure::AuthenticationFailed:
      return "authentication-failed";
    case Failure::IntegrityCheckFailed:
      return "integrity-check-failed";
    case Failure::DecompressionFailed:
      return "decompression-failed";
    case Failure::InsufficientSecurity:
      return "insufficient-message-security";
    default:
      return "unexpected-processing-error";
  }
}

namespace {

// MDN fields are header fields: the MIME reader's case and white space rules.
std::string lower(std::string_view s) { return mime::lowered(s); }
std::string trim(std::string_view s) { return std::string(mime::trim(s)); }

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(sep, start);
    if (end == std::string_view::npos) end = s.size();
    out.push_back(trim(s.substr(start, end - start)));
    start = end + 1;
  }
  return out;
}

bool supported_mic(const std::string& alg) {
  const std::string a = lower(alg);
  return a == "sha-256" || a == "sha256" || a == "sha1" || a == "sha-1" || a == "sha-384" || a == "sha384" ||
         a == "sha-512" || a == "sha512" || a == "sha-224" || a == "sha224" || a == "md5";
}

}  // namespace

ReceiptRequest parse_disposition_options(std::string_view header, bool allow_md5) {
  ReceiptRequest r;
  for (const std::string& param : split(header, ';')) {
    size_t eq = param.find('=');
    if (eq == std::string::npos) continue;
    const std::string name = lower(trim(std::string_view(param).substr(0, eq)));
    std::vector<std::string> values = split(std::string_view(param).substr(eq + 1), ',');
    bool required = false;
    if (!values.empty() && (lower(values.front()) == "required" || lower(values.front()) == "optional")) {
      required = lower(values.front()) == "required";
      values.erase(values.begin());
    }
    if (name == "signed-receipt-protocol") {
      for (const auto& v : values)
        if (lower(v) == "pkcs7-signature") {
          r.signed_receipt = true;
          r.signature_required = required;
        }
    } else if (name == "signed-receipt-micalg") {
      for (const auto& v : values) {
        const std::string alg = lower(v);
        if (alg == "md5" && !allow_md5) {
          r.refused_micalg = alg;
          continue;
        }
        if (supported_mic(alg)) {
          r.micalg = alg;
          break;
        }
      }
    }
  }
  return r;
}

Result<Mdn> build_mdn(const MdnContent& content, const ReceiptRequest& request, const crypto::Identity* signer) {
  MdnContent c = content;
  for (std::string* field : {&c.reporting_ua, &c.our_as2_id, &c.partner_as2_id, &c.original_message_id, &c.mic,
                             &c.mic_algorithm, &c.modifier, &c.warning, &c.message_id, &c.boundary})
    *field = partner_text(*field, 998);
  c.text = partner_text(c.text, 4000);
  const std::string report_boundary = "----=_edihub_report_" + c.boundary;
  const std::string disposition =
      !c.modifier.empty()  ? "automatic-action/MDN-sent-automatically; processed/error: " + c.modifier
      : !c.warning.empty() ? "automatic-action/MDN-sent-automatically; processed/warning: " + c.warning
                           : std::string("automatic-action/MDN-sent-automatically; processed");
  std::string notification = "Reporting-UA: " + c.reporting_ua + "\r\n" + "Original-Recipient: rfc822; " +
                             c.our_as2_id + "\r\n" + "Final-Recipient: rfc822; " + c.our_as2_id + "\r\n" +
                             "Original-Message-ID: " + c.original_message_id + "\r\n";
  if (!c.mic.empty()) notification += "Received-Content-MIC: " + c.mic + ", " + c.mic_algorithm + "\r\n";
  notification += "Disposition: " + disposition + "\r\n";

  const std::string report_type =
      "multipart/report; report-type=disposition-notification; boundary=\"" + report_boundary + "\"";
  const std::string report_body = "--" + report_boundary + "\r\n" +
                                  "Content-Type: text/plain; charset=us-ascii\r\n"
                                  "Content-Transfer-Encoding: 7bit\r\n"
                                  "\r\n" +
                                  c.text + "\r\n" + "--" + report_boundary + "\r\n" +
                                  "Content-Type: message/disposition-notification\r\n"
                                  "Content-Transfer-Encoding: 7bit\r\n"
                                  "\r\n" +
                                  notification + "\r\n" + "--" + report_boundary + "--\r\n";

  Mdn mdn;
  mdn.headers = "AS2-Version: 1.2\r\nAS2-From: \"" + c.our_as2_id + "\"\r\nAS2-To: \"" + c.partner_as2_id +
                "\"\r\nMessage-ID: " + c.message_id + "\r\nMIME-Version: 1.0\r\n";
  if (!request.signed_receipt) {
    mdn.headers += "Content-Type: " + report_type + "\r\n";
    mdn.body = report_body;
    return mdn;
  }
  if (signer == nullptr) return Status::invalid("a signed receipt was requested but no identity can sign");
  // The signature covers the report entity exactly as sent: its header and body.
  const std::string signed_entity = "Content-Type: " + report_type + "\r\n\r\n" + report_body;
  Result<std::string> signature =
      crypto::sign_detached(signed_entity, *signer, request.micalg, crypto::Capabilities::Omitted);
  if (!signature.is_ok()) return signature.status();
  const std::string signed_boundary = "----=_edihub_signed_" + c.boundary;
  mdn.headers += "Content-Type: multipart/signed; protocol=\"application/pkcs7-signature\"; micalg=" + request.micalg +
                 "; boundary=\"" + signed_boundary + "\"\r\n";
  mdn.body = "--" + signed_boundary + "\r\n" + signed_entity + "\r\n" + "--" + signed_boundary + "\r\n" +
             "Content-Type: application/pkcs7-signature; name=smime.p7s\r\n"
             "Content-Transfer-Encoding: base64\r\n"
             "Content-Disposition: attachment; filename=smime.p7s\r\n"
             "\r\n" +
             mime::base64_encode_lines(signature.value()) + "--" + signed_boundary + "--\r\n";
  return mdn;
}

}  // namespace edihub::as2
