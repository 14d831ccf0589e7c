#include "src/protocols/as4/outbound.h"

#include "parsers/as4/signal.h"
#include "src/common/partner_text.h"
#include "src/common/utc.h"
#include "src/crypto/inflate.h"
#include "src/http/client.h"

namespace edihub::as4 {

namespace {

delivery::Attempt failed(std::string why) {
  return delivery::Attempt{delivery::Attempt::Kind::Failed, "", std::move(why)};
}
delivery::Attempt retry(std::string why) {
  return delivery::Attempt{delivery::Attempt::Kind::Retry, "", std::move(why)};
}

}  // namespace

std::string as4_message_id(const store::OutboxEntry& e) {
  const std::string& id = e.item.message_id;
  if (id.size() >= 2 && id.front() == '<' && id.back() == '>') return id.substr(1, id.size() - 2);
  return id;
}

Result<delivery::Prepared> build_as4(const store::OutboxEntry& e, const config::Partner& partner,
                                     const As4Outbound& o) {
  if (o.our_party_id.empty()) return Status::invalid("this gateway has no <as4 party-id> to send from");
  if (partner.as4.send_party.empty())
    return Status::invalid("partner '" + partner.id + "' has no <as4 party-id url> to send to");
  const std::string id = as4_message_id(e);
  const std::string payload_id = "payload." + id;
  as4::OutgoingMessage m;
  m.message_id = id;
  m.timestamp = iso_utc(e.created_at_ms);  // set at enqueue: never 0
  m.from = {o.our_party_id, o.our_party_type};
  m.to = {partner.as4.send_party, partner.as4.send_party_type};
  m.service = partner.as4.service;
  m.service_type = partner.as4.service_type;
  m.action = partner.as4.action;
  m.conversation_id = e.item.reference.empty() ? id : e.item.reference;
  const std::string mime_type = store::acknowledgment_media_type(e.item.kind);
  m.parts.push_back({payload_id, mime_type, partner.as4.compress});
  const std::string boundary = "----=_edihub_as4_" + std::to_string(e.id);
  const std::string headers = "Content-Type: multipart/related; type=\"application/soap+xml\"; boundary=\"" + boundary +
                              "\"; start=\"<soap." + id + ">\"\r\nMIME-Version: 1.0\r\n";
  std::string body = "--" + boundary +
                     "\r\nContent-Type: application/soap+xml; charset=UTF-8\r\nContent-Transfer-Encoding: binary\r\n"
                     "Content-ID: <soap." +
                     id + ">\r\n\r\n" + as4::build_user_message(m) + "\r\n--" + boundary +
                     "\r\nContent-Type: " + (partner.as4.compress ? "application/gzip" : mime_type) +
                     "\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <" + payload_id + ">\r\n\r\n" +
                     (partner.as4.compress ? crypto::deflate(e.item.body, crypto::Wrapping::Gzip) : e.item.body) +
                     "\r\n--" + boundary + "--\r\n";
  return delivery::Prepared{headers, std::move(body)};
}

Result<delivery::Prepared> prepare_as4(const store::OutboxEntry& e, const As4Outbound& o) {
  const config::Partner* partner = o.partners->find(e.item.partner_id);
  if (partner == nullptr) return Status::invalid("partner '" + e.item.partner_id + "' is no longer configured");
  return build_as4(e, *partner, o);
}

delivery::Attempt deliver_as4(const store::OutboxEntry& e, const As4Outbound& o) {
  const config::Partner* partner = o.partners->find(e.item.partner_id);
  if (partner == nullptr) return failed("partner '" + e.item.partner_id + "' is no longer configured");
  if (e.prepared.empty()) return failed("the AS4 message was not prepared");
  // The profile's URL now: an operator who fixes it and retries means the new one.
  const std::string& url = partner->as4.url.empty() ? e.item.destination : partner->as4.url;
  http::Response r = http::post(url, e.prepared_headers, e.prepared, o.options.timeout_seconds);
  const std::string http = r.status == 0 ? r.error : "HTTP " + std::to_string(r.status);
  if (r.status == 0 || r.status == 408 || r.status == 429) return retry(http);
  // An AS4 receiver answers its errors as eb:Error, usually with HTTP 500:
  // read the signal first, and only without one judge by the status.
  as4::Signal signal;
  const std::string unreadable = r.body.empty() ? "the answer is empty" : as4::parse_signal(r.body, &signal);
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
  if (const as4::Signal::Problem* p = signal.failure()) {
    a.kind = delivery::Attempt::Kind::Failed;
    a.error = "the partner answered " + partner_text(p->code, 20) + " " + partner_text(p->short_description, 60) +
              (p->description.empty() ? "" : ": " + partner_text(p->description, 300));
    return a;
  }
  if (!signal.receipt) return failed("the partner's signal holds no eb:Receipt (only warnings)");
  a.kind = delivery::Attempt::Kind::Delivered;
  return a;
}

}  // namespace edihub::as4
