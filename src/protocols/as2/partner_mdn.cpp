#include "src/protocols/as2/partner_mdn.h"

#include <cctype>

#include "parsers/mime/entity.h"
#include "parsers/mime/transfer.h"
#include "src/common/partner_text.h"

namespace edihub::as2 {

namespace {

// MDN fields are header fields: the MIME reader's case and white space rules.
std::string lower(std::string_view s) { return mime::lowered(s); }
std::string trim(std::string_view s) { return std::string(mime::trim(s)); }

// The fields of the message/disposition-notification part of a report.
Status read_report(const mime::Entity& report, PartnerMdn* out) {
  const mime::ContentType ct = report.content_type();
  if (!ct.is("multipart/report")) return Status::invalid("not an MDN: the report is " + ct.type + "/" + ct.subtype);
  std::vector<std::string_view> parts;
  if (mime::Error e = mime::split_multipart(report.body, ct.param("boundary"), &parts))
    return Status::invalid("the MDN report: " + e.message);
  for (std::string_view part : parts) {
    mime::Entity p;
    if (mime::parse_entity(part, &p) || !p.content_type().is("message/disposition-notification")) continue;
    std::string body;
    if (mime::Error e = mime::decode_body(p, &body)) return Status::invalid("the MDN: " + e.message);
    // "Name: value" lines: read as a header block (the entity's names point
    // into `block`, which must outlive it).
    const std::string block = body + "\r\n";
    mime::Entity fields;
    if (mime::Error e = mime::parse_entity(block, &fields)) return Status::invalid("the MDN fields: " + e.message);
    if (const mime::Header* h = fields.find("Original-Message-ID")) out->original_message_id = trim(h->value);
    if (const mime::Header* h = fields.find("Disposition")) out->disposition = trim(h->value);
    if (const mime::Header* h = fields.find("Received-Content-MIC")) {
      const std::string& v = h->value;
      const size_t comma = v.find(',');
      out->mic = trim(v.substr(0, comma));
      if (comma != std::string::npos) out->mic_algorithm = lower(trim(v.substr(comma + 1)));
    }
    if (out->disposition.empty()) return Status::invalid("the MDN has no Disposition field");
    return Status::ok();
  }
  return Status::invalid("the MDN report has no message/disposition-notification part");
}

}  // namespace

bool looks_like_mdn(std::string_view content_type, std::string_view body) {
  mime::ContentType ct;
  if (mime::parse_content_type(content_type, &ct)) return false;
  if (ct.is("multipart/report")) return true;
  // A signed MDN: the report is the first part. Look without verifying.
  return ct.is("multipart/signed") && body.substr(0, 4096).find("multipart/report") != std::string_view::npos;
}

namespace {

Result<PartnerMdn> read(std::string_view content_type, std::string_view body,
                        const std::vector<crypto::Certificate>& partner_certificates) {
  PartnerMdn out;
  mime::Entity outer;
  outer.headers.push_back({"Content-Type", std::string(content_type)});
  outer.body = body;
  const mime::ContentType ct = outer.content_type();
  if (ct.is("multipart/signed")) {
    std::vector<std::string_view> parts;
    if (mime::Error e = mime::split_multipart(body, ct.param("boundary"), &parts))
      return Status::invalid("the signed MDN: " + e.message);
    if (parts.size() != 2) return Status::invalid("the signed MDN has " + std::to_string(parts.size()) + " parts");
    mime::Entity signature, report;
    if (mime::parse_entity(parts[1], &signature) || mime::parse_entity(parts[0], &report))
      return Status::invalid("the signed MDN's parts cannot be read");
    std::string der;
    if (mime::Error e = mime::decode_body(signature, &der)) return Status::invalid("the MDN signature: " + e.message);
    Result<crypto::Verified> v = crypto::verify_detached(parts[0], der, partner_certificates);
    // libas2 (and others) sign the report without the CRLF that ends its
    // closing delimiter and then send that CRLF: a second try without it
    // changes no byte the report's reader sees (it is the epilogue).
    if (!v.is_ok() && parts[0].size() >= 2 && parts[0].substr(parts[0].size() - 2) == "\r\n")
      if (Result<crypto::Verified> trimmed =
              crypto::verify_detached(parts[0].substr(0, parts[0].size() - 2), der, partner_certificates);
          trimmed.is_ok())
        v = std::move(trimmed);
    if (!v.is_ok()) return Status::invalid("the MDN's signature: " + v.status().message());
    out.signed_ = true;
    RETURN_IF_ERROR(read_report(report, &out));
    return out;
  }
  RETURN_IF_ERROR(read_report(outer, &out));
  return out;
}

}  // namespace

Result<PartnerMdn> read_partner_mdn(std::string_view content_type, std::string_view body,
                                    const std::vector<crypto::Certificate>& partner_certificates) {
  Result<PartnerMdn> r = read(content_type, body, partner_certificates);
  // Errors quote the partner's bytes (a header, a boundary): made safe here
  // for the outbox's last_error and the log, once for every path.
  if (!r.is_ok()) return Status::invalid(partner_text(r.status().message(), 600));
  return r;
}

bool signature_required_of(const config::Partner& partner, size_t signing_certificates) {
  return partner.as2.require_signature || signing_certificates > 0;
}

Status verdict(const PartnerMdn& mdn, const MdnExpectation& expected) {
  const std::string_view message_id = expected.message_id, expected_mic = expected.mic, algorithm = expected.algorithm;
  if (expected.signed_ && !mdn.signed_)
    return Status::invalid(
        "the MDN is not signed, and this partner's MDNs must be signed by one of its "
        "certificates (its profile lists them or requires signatures)");
  if (mdn.original_message_id != message_id)
    return Status::invalid("the MDN answers " + partner_text(mdn.original_message_id, 200) + ", not " +
                           std::string(message_id));
  const std::string d = lower(mdn.disposition);
  // A partner that already holds this Message-ID (our retry after a lost
  // answer) says duplicate-document, as a warning or an error: it has it,
  // and its MIC must still be ours.
  const bool duplicate = d.find("duplicate-document") != std::string::npos;
  if (!duplicate && (d.find("processed/error") != std::string::npos || d.find("failed") != std::string::npos ||
                     d.find("processed") == std::string::npos))
    return Status::invalid("the partner answered " + partner_text(mdn.disposition, 300));
  if (!expected_mic.empty()) {
    // "sha256" as well as "sha-256": partners write both.
    auto bare = [](std::string_view a) {
      std::string out;
      for (char c : a)
        if (c != '-') out.push_back(c);
      return out;
    };
    if (bare(mdn.mic_algorithm) != bare(algorithm) || mdn.mic != expected_mic)
      return Status::invalid("the MDN's Received-Content-MIC is '" + partner_text(mdn.mic, 100) + ", " +
                             partner_text(mdn.mic_algorithm, 20) + "', ours is '" + std::string(expected_mic) + ", " +
                             std::string(algorithm) + "'");
  }
  return Status::ok();
}

}  // namespace edihub::as2
