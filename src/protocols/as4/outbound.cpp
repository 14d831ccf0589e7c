#include "src/protocols/as4/outbound.h"

#include <algorithm>

#include "parsers/mime/entity.h"
#include "src/common/partner_text.h"
#include "src/common/utc.h"
#include "src/crypto/inflate.h"
#include "src/crypto/ws_security.h"
#include "src/http/client.h"

namespace edihub::as4 {

namespace {

delivery::Attempt failed(std::string why) {
  return delivery::Attempt{delivery::Attempt::Kind::Failed, "", std::move(why)};
}
delivery::Attempt retry(std::string why) {
  return delivery::Attempt{delivery::Attempt::Kind::Retry, "", std::move(why)};
}

// The SOAP root part of a message build_outgoing made, or empty.
std::string root_part(const store::OutboxEntry& e) {
  const std::string marker = "boundary=\"";
  const size_t at = e.prepared_headers.find(marker);
  if (at == std::string::npos) return "";
  const size_t end = e.prepared_headers.find('"', at + marker.size());
  std::vector<std::string_view> parts;
  if (mime::split_multipart(e.prepared, e.prepared_headers.substr(at + marker.size(), end - at - marker.size()),
                            &parts) ||
      parts.empty())
    return "";
  mime::Entity root;
  if (mime::parse_entity(parts[0], &root)) return "";
  return std::string(root.body);
}

// Whether the Receipt to our signed message proves what it received: signed
// by one `signer` accepts, and repeating each of our references. Empty: it does.
std::string check_receipt(const std::string& answer, const std::string& sent, const ReceiptSigner& signer,
                          const Signal& signal) {
  crypto::wss::Policy policy;
  policy.require_signature = true;
  policy.trust = signer;
  crypto::wss::Checked checked;
  if (crypto::wss::Failure f = crypto::wss::check(answer, {}, policy, &checked))
    return "the partner's Receipt is not signed as it must be (" + f.code + "): " + partner_text(f.detail, 300);
  for (const SignedReference& ours : signature_references(sent)) {
    auto same = [&](const SignedReference& r) {
      return r.uri == ours.uri && r.digest_value == ours.digest_value && r.digest_method == ours.digest_method;
    };
    if (std::none_of(signal.non_repudiation.begin(), signal.non_repudiation.end(), same))
      return "the partner's Receipt does not repeat our signed reference " + partner_text(ours.uri, 200) +
             " with its digest: it is no proof of what we sent";
  }
  return "";
}

}  // namespace

std::string as4_message_id(const store::OutboxEntry& e) {
  const std::string& id = e.item.message_id;
  if (id.size() >= 2 && id.front() == '<' && id.back() == '>') return id.substr(1, id.size() - 2);
  return id;
}

Result<delivery::Prepared> build_outgoing(const Outgoing& out, const std::string& unique) {
  const OutgoingMessage& m = out.message;
  std::vector<crypto::wss::OutgoingAttachment> wire;
  // A part's media type is the one of the octets signed (and encrypted): a
  // compressed part is application/gzip. xenc:EncryptedData's MimeType carries
  // it, and WSS4J gives the decrypted part that Content-Type back.
  for (size_t i = 0; i < m.parts.size(); ++i)
    wire.push_back({m.parts[i].content_id, m.parts[i].gzip ? "application/gzip" : m.parts[i].mime_type,
                    m.parts[i].gzip ? crypto::deflate(out.data.at(i), crypto::Wrapping::Gzip) : out.data.at(i)});
  std::string soap = build_user_message(m);
  if (out.sign_with != nullptr) {
    ASSIGN_OR_RETURN(soap, crypto::wss::secure_user_message(soap, &wire, *out.sign_with, out.encrypt_for));
  }
  const std::string boundary = "----=_edihub_as4_" + unique;
  const std::string headers = "Content-Type: multipart/related; type=\"application/soap+xml\"; boundary=\"" + boundary +
                              "\"; start=\"<soap." + m.message_id + ">\"\r\nMIME-Version: 1.0\r\n";
  std::string body = "--" + boundary +
                     "\r\nContent-Type: application/soap+xml; charset=UTF-8\r\nContent-Transfer-Encoding: binary\r\n"
                     "Content-ID: <soap." +
                     m.message_id + ">\r\n\r\n" + soap;
  for (size_t i = 0; i < m.parts.size(); ++i) {
    const std::string type = out.encrypt_for != nullptr ? "application/octet-stream" : wire[i].mime_type;
    body += "\r\n--" + boundary + "\r\nContent-Type: " + type +
            "\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <" + m.parts[i].content_id + ">\r\n\r\n" +
            wire[i].bytes;
  }
  body += "\r\n--" + boundary + "--\r\n";
  return delivery::Prepared{headers, std::move(body)};
}

Result<delivery::Prepared> build_as4(const store::OutboxEntry& e, const config::Partner& partner,
                                     const As4Outbound& o) {
  if (o.our_party_id.empty()) return Status::invalid("this gateway has no <as4 party-id> to send from");
  if (partner.as4.send_party.empty())
    return Status::invalid("partner '" + partner.id + "' has no <as4 party-id url> to send to");
  const std::string id = as4_message_id(e);
  Outgoing out;
  OutgoingMessage& m = out.message;
  m.message_id = id;
  m.timestamp = iso_utc(e.created_at_ms);  // set at enqueue: never 0
  m.from = {o.our_party_id, o.our_party_type};
  m.to = {partner.as4.send_party, partner.as4.send_party_type};
  m.service = partner.as4.service;
  m.service_type = partner.as4.service_type;
  m.action = partner.as4.action;
  m.conversation_id = e.item.reference.empty() ? id : e.item.reference;
  m.parts.push_back({"payload." + id, store::acknowledgment_media_type(e.item.kind), partner.as4.compress});
  out.data.push_back(e.item.body);
  Result<crypto::Certificate> to = Status::invalid("");
  if (partner.as4.sign) {
    if (o.identities == nullptr || o.identities->empty())
      return Status::invalid("partner '" + partner.id +
                             "' asks for signed AS4 (<as4 sign>) and this gateway has no identity");
    out.sign_with = &o.identities->front();
  }
  if (partner.as4.encrypt) {
    to = crypto::Certificate::load_pem_file(partner.certificates.encryption);
    if (!to.is_ok()) return to.status();
    out.encrypt_for = &to.value();
  }
  return build_outgoing(out, std::to_string(e.id));
}

Result<delivery::Prepared> prepare_as4(const store::OutboxEntry& e, const As4Outbound& o) {
  const config::Partner* partner = o.partners->find(e.item.partner_id);
  if (partner == nullptr) return Status::invalid("partner '" + e.item.partner_id + "' is no longer configured");
  return build_as4(e, *partner, o);
}

delivery::Attempt deliver_prepared(const store::OutboxEntry& e, const std::string& url, const ReceiptSigner& signer,
                                   const delivery::ChannelOptions& options) {
  if (e.prepared.empty()) return failed("the AS4 message was not prepared");
  http::Response r = http::post(url, e.prepared_headers, e.prepared, options.timeout_seconds);
  const std::string http = r.status == 0 ? r.error : "HTTP " + std::to_string(r.status);
  if (r.status == 0 || r.status == 408 || r.status == 429) return retry(http);
  // An AS4 receiver answers its errors as eb:Error, usually with HTTP 500:
  // read the signal first, and only without one judge by the status.
  Signal signal;
  const std::string unreadable = r.body.empty() ? "the answer is empty" : parse_signal(r.body, &signal);
  if (!unreadable.empty()) {
    if (r.status >= 500) return retry(http);
    return failed(http + " from the partner without an AS4 signal (" + partner_text(unreadable, 300) +
                  "): this gateway needs the eb:Receipt on the HTTP response");
  }
  const std::string id = as4_message_id(e);
  if (signal.ref_to_message_id != id)
    return failed("the partner's signal refers to '" + partner_text(signal.ref_to_message_id, 256) + "', not '" + id +
                  "'");
  delivery::Attempt a;
  a.receipt = r.headers + "\r\n" + r.body;
  if (const Signal::Problem* p = signal.failure()) {
    a.kind = delivery::Attempt::Kind::Failed;
    a.error = "the partner answered " + partner_text(p->code, 20) + " " + partner_text(p->short_description, 60) +
              (p->description.empty() ? "" : ": " + partner_text(p->description, 300));
    return a;
  }
  if (!signal.receipt) return failed("the partner's signal holds no eb:Receipt (only warnings)");
  const std::string sent = root_part(e);
  if (!signature_references(sent).empty())
    if (std::string why = check_receipt(r.body, sent, signer, signal); !why.empty()) {
      a.kind = delivery::Attempt::Kind::Failed;
      a.error = why;
      return a;
    }
  a.kind = delivery::Attempt::Kind::Delivered;
  return a;
}

delivery::Attempt deliver_as4(const store::OutboxEntry& e, const As4Outbound& o) {
  const config::Partner* partner = o.partners->find(e.item.partner_id);
  if (partner == nullptr) return failed("partner '" + e.item.partner_id + "' is no longer configured");
  // The profile's URL now: an operator who fixes it and retries means the new one.
  const std::string& url = partner->as4.url.empty() ? e.item.destination : partner->as4.url;
  auto pinned = [partner, &o](const crypto::Certificate& signer) -> std::string {
    if (o.signing_certificates != nullptr)
      if (auto it = o.signing_certificates->find(partner->id); it != o.signing_certificates->end())
        for (const crypto::Certificate& c : it->second)
          if (c == signer) return "";
    return "it is not one of partner '" + partner->id + "''s signing certificates";
  };
  return deliver_prepared(e, url, pinned, o.options);
}

}  // namespace edihub::as4
