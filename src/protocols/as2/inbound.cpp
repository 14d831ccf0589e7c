#include "src/protocols/as2/inbound.h"

#include <ctime>

#include "src/common/event_log.h"
#include "src/common/partner_text.h"
#include "src/crypto/random.h"
#include "src/protocols/as2/unwrap.h"
#include "src/receivers/edge.h"

namespace edihub::as2 {

using http::HttpAnswer;
using http::text_answer;
using receivers::Message;
using receivers::Next;

namespace {

Next refuse(HttpAnswer* answer, int status, const std::string& why) {
  *answer = text_answer(status, why, Outcome::Rejected);
  return Next::Answer;
}

}  // namespace

Result<Settings> Settings::load(std::string our_as2_id, std::vector<crypto::Identity> identities,
                                const config::Partners& partners) {
  Settings s;
  s.our_as2_id = std::move(our_as2_id);
  s.partners = &partners;
  s.identities = std::move(identities);
  ASSIGN_OR_RETURN(identity::SigningCertificates certs, identity::load_signing_certificates(partners));
  s.signing_certificates = std::move(certs);
  return s;
}

Result<Settings> Settings::from_config(const config::Gateway& gw, const config::Partners& partners) {
  ASSIGN_OR_RETURN(std::vector<crypto::Identity> identities, identity::load_identities(gw));
  return load(gw.as2_id, std::move(identities), partners);
}

Next As2Protocol::envelope(Message& m, HttpAnswer* answer) {
  const http::HttpRequest& r = m.request;
  for (const char* name : {"AS2-From", "AS2-To", "Message-ID", "Content-Type"})
    if (r.count(name) == 0) return refuse(answer, 400, std::string("missing ") + name + " header");
  std::optional<std::string> from = receivers::as2_id(r.header("AS2-From"));
  std::optional<std::string> to = receivers::as2_id(r.header("AS2-To"));
  if (!from) return refuse(answer, 400, "header AS2-From is not an AS2 id (RFC 4130: 1-128 printable characters)");
  if (!to) return refuse(answer, 400, "header AS2-To is not an AS2 id (RFC 4130: 1-128 printable characters)");
  // Values that travel into the MDN, the log and the outbox.
  struct Check {
    const char* name;
    size_t max;
  };
  for (const Check& c : {Check{"Message-ID", 998}, Check{"Disposition-Notification-To", 1024},
                         Check{"Disposition-Notification-Options", 1024}, Check{"Receipt-Delivery-Option", 2048}}) {
    if (r.count(c.name) == 0) continue;
    if (auto problem = receivers::receipt_value_problem(c.name, r.header(c.name), c.max))
      return refuse(answer, 400, *problem);
  }
  from_ = *from;
  message_id_ = r.header("Message-ID");
  m.work.arrival.transport_id = message_id_;
  if (*to != s_.our_as2_id)
    return refuse(answer, 403, "AS2-To '" + *to + "' is not this gateway ('" + s_.our_as2_id + "')");
  m.partner = s_.partners->as2_sender(*from);
  if (m.partner == nullptr) return refuse(answer, 403, "unknown AS2-From '" + *from + "': no partner profile lists it");
  if (m.work.arrival.expected_partner && *m.work.arrival.expected_partner != m.partner->id)
    return refuse(
        answer, 403,
        "AS2-From '" + *from + "' is partner '" + m.partner->id + "', not '" + *m.work.arrival.expected_partner + "'");
  // Async MDN: only to a URL the partner's profile allows.
  const std::string async_url = r.header("Receipt-Delivery-Option");
  if (!async_url.empty() && !m.partner->allows_async_mdn(async_url))
    return refuse(answer, 403,
                  "Receipt-Delivery-Option '" + async_url + "' is not allowed for partner '" + m.partner->id +
                      "' (see <mdn async-url-allow> in its profile)");
  m.work.async_destination = async_url;
  m.work.claim.key = store::MessageKey::as2(m.partner->id, message_id_);
  receipt_request_ =
      parse_disposition_options(r.header("Disposition-Notification-Options"), m.partner->as2.mdn_allow_md5);
  return Next::Continue;
}

// The outer MIME entity: the two HTTP headers that describe the body, then the body.
store::RawDigest As2Protocol::raw_digest(const http::HttpRequest& r) const {
  const std::string cte = r.header("Content-Transfer-Encoding");
  return store::RawDigest::of({"Content-Type: ", r.header("Content-Type"), "\r\n",
                               cte.empty() ? "" : "Content-Transfer-Encoding: ", cte, cte.empty() ? "" : "\r\n", "\r\n",
                               r.body});
}

Next As2Protocol::unwrap(Message& m, HttpAnswer* answer) {
  const http::HttpRequest& r = m.request;
  // The outer entity: the HTTP headers that describe the body, then the body.
  mime::Entity outer;
  std::string content_type = r.header("Content-Type"), cte = r.header("Content-Transfer-Encoding");
  outer.headers.push_back({"Content-Type", content_type});
  if (!cte.empty()) outer.headers.push_back({"Content-Transfer-Encoding", cte});
  outer.body = r.body;
  outer.raw = r.body;

  UnwrapOptions options;
  options.identities = s_.identities;
  if (auto it = s_.signing_certificates.find(m.partner->id); it != s_.signing_certificates.end())
    options.signers = it->second;
  options.mic_algorithm = receipt_request_.micalg;
  m.signature_required = m.partner->as2.require_signature;
  Result<Unwrapped> u = as2::unwrap(outer, options, m.lease, &m.signature_verified);
  if (!u.is_ok()) {
    if (u.status().kind() == Status::Kind::Transient) {
      *answer = receivers::retry_later(u.status().message(), Outcome::Error);
      return Next::Answer;
    }
    m.failure = gate::failure_of(u.status().code());
    m.failure_text = partner_text(u.status().message(), 1000);
    return Next::Continue;
  }
  if (const std::string why =
          u->signed_ ? identity::expired_signer(*m.partner, u->signer_subject, u->signer_not_after, std::time(nullptr))
                     : "";
      !why.empty()) {
    m.signature_verified = false;  // by a certificate no longer accepted: it proves nothing
    m.failure = gate::Failure::AuthenticationFailed;
    m.failure_text = "authentication-failed: " + why;
  } else if (m.partner->as2.require_signature && !u->signed_) {
    m.failure = gate::Failure::InsufficientSecurity;
    m.failure_text = "insufficient-message-security: partner '" + m.partner->id + "' must sign its messages";
  } else if (m.partner->as2.require_encryption && !u->encrypted) {
    m.failure = gate::Failure::InsufficientSecurity;
    m.failure_text = "insufficient-message-security: partner '" + m.partner->id + "' must encrypt its messages";
  }
  mic_ = u->mic;
  mic_algorithm_ = u->mic_algorithm;
  m.protocol_note = std::string(u->signed_ ? "signed" : "unsigned") + (u->encrypted ? ", encrypted" : "") +
                    (u->compressed ? ", compressed" : "");
  if (m.failure == gate::Failure::None) {
    m.work.claim.payload = store::PayloadDigest::of(u->payload);
    m.payloads.push_back({u->content_type, std::move(u->payload)});
  }
  return Next::Continue;
}

Result<store::Receipt> As2Protocol::mdn(Message& m, const std::string& modifier, const std::string& text, bool with_mic,
                                        const std::string& warning) {
  MdnContent c;
  c.our_as2_id = s_.our_as2_id;
  c.partner_as2_id = from_;
  c.original_message_id = message_id_;
  if (with_mic) {
    c.mic = mic_;
    c.mic_algorithm = mic_algorithm_;
  }
  c.modifier = modifier;
  c.warning = warning;
  c.text = "The message " + message_id_ + " " + text;
  const std::string uuid = crypto::random_uuid();
  c.message_id = "<" + uuid + "@" + s_.our_as2_id + ">";
  c.boundary = uuid;
  const crypto::Identity* signer = s_.identities.empty() ? nullptr : &s_.identities.front();
  if (!receipt_request_.signed_receipt) {
    ASSIGN_OR_RETURN(Mdn built, build_mdn(c, receipt_request_, nullptr));
    return store::Receipt{200, built.headers, built.body};
  }
  std::string cannot_sign;
  if (signer == nullptr) {
    cannot_sign = "this gateway has no identity to sign with (<identity cert key> in the gateway config)";
  } else {
    Result<Mdn> built = build_mdn(c, receipt_request_, signer);
    if (built.is_ok()) return store::Receipt{200, built->headers, built->body};
    cannot_sign = "its identity cannot sign (" + built.status().message() + ")";
  }
  // A configuration error: permanent for this message (never "retry later"
  // forever), loud in the log. With importance "optional" the partner takes
  // an unsigned MDN; with "required" the message is refused.
  const std::string why = "partner '" + m.partner->id + "' asks for a signed MDN but " + cannot_sign;
  ReceiptRequest unsigned_request = receipt_request_;
  unsigned_request.signed_receipt = false;
  if (receipt_request_.signature_required) {
    log_error("configuration: " + why + "; message " + message_id_ + " refused");
    if (m.failure == gate::Failure::None) {
      m.failure = gate::Failure::Configuration;
      m.failure_text = why;
    }
    c.modifier = std::string(as2_modifier(gate::Failure::Configuration));
    c.text = "The message " + message_id_ + " could not be processed: " + why;
    c.mic.clear();
    c.mic_algorithm.clear();
  } else {
    log_error("configuration: " + why + "; message " + message_id_ +
              " answered with an unsigned MDN (the signature was optional)");
  }
  ASSIGN_OR_RETURN(Mdn built, build_mdn(c, unsigned_request, nullptr));
  return store::Receipt{200, built.headers, built.body};
}

Result<store::Receipt> As2Protocol::draft(Message& m, Outcome outcome, const std::string& text) {
  if (outcome == Outcome::Rejected) return mdn(m, std::string(as2_modifier(m.failure)), text, false);
  // A retransmission whose first MDN is past its retention: a new one that says so.
  if (outcome == Outcome::Duplicate) return mdn(m, "", text, true, "duplicate-document");
  return mdn(m, "", text, true);
}

Result<store::Receipt> As2Protocol::conflict(Message& m, const std::string&) {
  return mdn(m, std::string(as2_modifier(gate::Failure::Malformed)), "was already used for different content", false);
}

std::string As2Protocol::receipt_message_id(const store::Receipt& receipt) const {
  const std::string_view marker = "Message-ID: ";
  const size_t at = receipt.headers.find(marker);
  if (at == std::string::npos) return "";
  const size_t end = receipt.headers.find("\r\n", at);
  return receipt.headers.substr(at + marker.size(),
                                end == std::string::npos ? std::string::npos : end - at - marker.size());
}

HttpAnswer As2Protocol::answer(Message& m, Outcome outcome, const store::Receipt& receipt) {
  if (!m.work.async_destination.empty()) {
    // Async: HTTP 200 with no body now (RFC 4130 7.3), the MDN through the outbox.
    HttpAnswer a;
    a.status = 200;
    a.outcome = outcome;
    a.detail = "MDN queued for " + partner_text(m.work.async_destination, 300);
    return a;
  }
  return receivers::receipt_answer(receipt, outcome);
}

}  // namespace edihub::as2
