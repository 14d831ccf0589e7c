#include "src/receivers/pipeline.h"

#include <algorithm>

#include "parsers/edi/parser.h"
#include "parsers/mime/entity.h"
#include "src/common/partner_text.h"
#include "src/identity/partner_auth.h"
#include "src/receivers/capture.h"
#include "src/receivers/edge.h"

namespace edihub::receivers {

namespace {

// Content types that announce EDI: such a payload that holds no interchange
// is an error, not a document to archive.
bool edi_content_type(std::string_view declared) {
  mime::ContentType ct;
  if (mime::parse_content_type(declared, &ct)) return false;
  return ct.is("application/edi-x12") || ct.is("application/edifact") || ct.is("application/edi-consent") ||
         ct.is("application/x12") || ct.is("text/x12") || ct.is("text/edifact");
}

}  // namespace

http::HttpAnswer receipt_answer(const store::Receipt& r, Outcome outcome) {
  http::HttpAnswer a;
  a.status = r.status == 0 ? 200 : r.status;
  a.headers = http::split_headers(r.headers);
  a.body = r.body;
  a.outcome = outcome;
  return a;
}

http::HttpAnswer retry_later(std::string_view why, Outcome outcome) {
  http::HttpAnswer a = http::text_answer(503, "temporarily unable to process the message: retry later", outcome);
  a.headers.emplace_back("Retry-After", std::to_string(http::kRetryAfterSeconds));
  a.detail = std::string(why);
  return a;
}

bool authenticated(const Message& m) {
  if (m.failure == gate::Failure::None) return true;
  if (m.failure == gate::Failure::AuthenticationFailed || m.failure == gate::Failure::IntegrityCheckFailed)
    return false;
  return m.signature_verified || !m.signature_required;
}

namespace {

// Records the row of an answer that committed nothing.
void log_uncommitted(const Context& c_, const Protocol& p_, const Message& m, const http::HttpAnswer& a) {
  if (c_.log == nullptr) return;
  store::MessageLog row;
  row.partner_id = m.partner != nullptr ? m.partner->id : "";
  row.protocol = std::string(p_.name());
  row.transport = c_.transport;
  row.transport_id = m.work.arrival.transport_id;
  row.message_id = m.partner != nullptr ? m.work.claim.key.message_id : "";
  row.outcome = a.outcome;
  row.detail = a.detail;
  row.bytes = static_cast<int64_t>(m.request.body.size());
  row.duration_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - m.work.started).count();
  c_.log->record(std::move(row), m.request.peer);
}

Next edge(Message& m, http::HttpAnswer* answer) {
  if (std::optional<std::string> problem = header_problem(m.request)) {
    *answer = http::text_answer(400, *problem, Outcome::Rejected);
    answer->close = true;
    return Next::Answer;
  }
  return Next::Continue;
}

// The partner's <auth> (IP allow-list, TLS pin, HTTP Basic), once the
// envelope named the partner: before a stored receipt and before any
// decryption. Only what came over the wire; replays from the command line are
// the operator's. With `may_hash` false, a PBKDF2 it would need sets
// *needs_hash instead (and continues: the caller stops there).
Next authenticate(const Context& c, Message& m, http::HttpAnswer* answer, bool may_hash = true,
                  bool* needs_hash = nullptr) {
  if (m.partner == nullptr || c.transport != "http") return Next::Continue;
  if (!may_hash) {
    identity::QuickAuth quick = identity::check_partner_auth_quick(*m.partner, m.request);
    if (quick.kind == identity::QuickAuth::Kind::NeedsHash) *needs_hash = true;
    if (quick.kind != identity::QuickAuth::Kind::Refused) return Next::Continue;
    *answer = std::move(quick.refusal);
    return Next::Answer;
  }
  std::optional<http::HttpAnswer> refused = identity::check_partner_auth(*m.partner, m.request);
  if (!refused) return Next::Continue;
  *answer = std::move(*refused);
  return Next::Answer;
}

}  // namespace

std::optional<http::HttpAnswer> Pipeline::screen(const Context& c, Protocol& p, const http::HttpRequest& head,
                                                 bool may_hash, bool* needs_hash) {
  *needs_hash = false;
  Message m(head, c);
  m.work.protocol = std::string(p.name());
  http::HttpAnswer a;
  if (edge(m, &a) == Next::Answer ||
      (!p.envelope_in_body() &&
       (p.envelope(m, &a) == Next::Answer || authenticate(c, m, &a, may_hash, needs_hash) == Next::Answer))) {
    a.close = true;  // the body is not read: the connection cannot go on
    a.partner = m.partner != nullptr ? m.partner->id : "";
    a.transport_id = m.work.arrival.transport_id;
    log_uncommitted(c, p, m, a);
    return a;
  }
  return std::nullopt;
}

// The raw digest first (the envelope, which screen() runs on the I/O thread
// too, does not hash the body). Then a retransmission of something settled,
// answered from one indexed read: byte-identical copies of completed
// messages, poison keys whatever the copy (no private-key operation for a
// partner looping on a bad message), and the stored answer to a conflicting copy.
Next Pipeline::stored(Message& m, http::HttpAnswer* answer) {
  m.work.claim.raw = p_.raw_digest(m.request);
  const store::MessageKey& key = m.work.claim.key;
  Result<std::optional<store::KeyRecord>> known = store_.lookup(key);
  if (!known.is_ok() || !known.value()) return Next::Continue;  // the gate decides
  const store::KeyRecord& k = *known.value();
  if (k.state == store::KeyState::Completed && k.receipt.empty()) {
    // Its receipt is past the receipt retention: unwrap, and draft one that says duplicate.
    m.work.receipt_gone = true;
    return Next::Continue;
  }
  Outcome outcome;
  store::Receipt receipt;
  if (k.state == store::KeyState::Completed && k.raw == m.work.claim.raw) {
    outcome = Outcome::Duplicate;
    receipt = k.receipt;
  } else if (gate::is_poison(k, c_.gate->options())) {
    outcome = Outcome::Poison;
    receipt = k.receipt;
  } else if (k.state == store::KeyState::Completed) {
    Result<std::optional<store::Receipt>> conflict = store_.conflict_receipt(key, m.work.claim.raw);
    if (!conflict.is_ok() || !conflict.value()) return Next::Continue;
    outcome = Outcome::Conflict;
    receipt = *conflict.value();
  } else {
    return Next::Continue;
  }
  if (!m.work.async_destination.empty()) {
    Status queued =
        store_.enqueue(gate::async_receipt(key, m.work.async_destination, p_.receipt_message_id(receipt), receipt));
    if (!queued.is_ok()) {
      *answer = retry_later(queued.message(), Outcome::Error);
      return Next::Answer;
    }
    if (c_.queued) c_.queued();
  }
  *answer = p_.answer(m, outcome, receipt);
  answer->detail = outcome == Outcome::Duplicate ? "byte-identical retransmission: the stored receipt"
                   : outcome == Outcome::Poison
                       ? "poison: failed " + std::to_string(k.failures) + " times, answered with the stored receipt"
                       : "the stored answer to this conflicting copy";
  return Next::Answer;
}

void Pipeline::keys(Message& m) {
  bool any_edi_type = false, any_empty = m.payloads.empty();
  std::string why;
  for (const Message::Payload& p : m.payloads) {
    if (p.bytes.empty()) any_empty = true;
    if (edi_content_type(p.content_type)) any_edi_type = true;
    edi::ParseResult parsed = edi::parse(p.bytes);
    if (parsed.interchanges.empty() && !parsed.errors.empty() && why.empty()) why = parsed.errors[0].text;
    for (const edi::Interchange& ic : parsed.interchanges)
      m.work.interchanges.push_back(gate::prepare_interchange(ic, p.bytes, *c_.partners, m.work.arrival));
  }
  // An interchange the partner may not send (another's sender id, not for
  // us) refuses the whole message: nothing of it is booked.
  for (const gate::InterchangeWork& iw : m.work.interchanges)
    if (iw.refused != gate::Failure::None) {
      m.failure = iw.refused;
      m.failure_text = iw.rejection;
      return;
    }
  if (!m.work.interchanges.empty()) return;
  if (any_empty) {
    m.failure = gate::Failure::NotEdi;
    m.failure_text = m.payloads.empty() ? "the message carries no payload" : "a payload of the message is empty";
  } else if (any_edi_type) {
    m.failure = gate::Failure::NotEdi;
    m.failure_text =
        "no X12 or EDIFACT interchange in the payload" + (why.empty() ? "" : ": " + partner_text(why, 300));
  }
  // Otherwise: not EDI, and not announced as EDI: archived for the operator.
}

// The answer to a copy that failed without proving its sender: the negative
// receipt, drafted and given now, stored nowhere; an async one is not queued
// (it would go out in the partner's name): 403 with the reason instead.
http::HttpAnswer Pipeline::refuse_unauthenticated(Message& m) {
  const std::string detail =
      "not authenticated, so nothing was stored for partner '" + m.partner->id + "': " + m.failure_text;
  http::HttpAnswer a;
  if (!m.work.async_destination.empty()) {
    a = http::text_answer(403, "the message could not be processed: " + m.failure_text + " (no MDN follows)",
                          Outcome::Rejected);
  } else {
    Result<store::Receipt> receipt = p_.draft(m, Outcome::Rejected, "could not be processed: " + m.failure_text);
    a = receipt.is_ok()
            ? p_.answer(m, Outcome::Rejected, receipt.value())
            : http::text_answer(403, "the message could not be processed: " + m.failure_text, Outcome::Rejected);
  }
  a.detail = detail;
  log_uncommitted(c_, p_, m, a);
  return a;
}

Next Pipeline::draft(Message& m, http::HttpAnswer* answer) {
  const bool failed = m.failure != gate::Failure::None;
  const Outcome outcome = failed                        ? Outcome::Rejected
                          : m.work.interchanges.empty() ? Outcome::Archived
                                                        : Outcome::Processed;
  std::string text;
  if (failed) {
    text = "could not be processed: " + m.failure_text;
  } else if (outcome == Outcome::Archived) {
    text = "was received and stored; its payload is not EDI and was not handled";
  } else {
    text = "was received and processed: " + std::to_string(m.work.interchanges.size()) + " interchange" +
           (m.work.interchanges.size() == 1 ? "" : "s");
    for (const auto& iw : m.work.interchanges)
      if (iw.key) text += " " + iw.key->message_id;
  }
  Result<store::Receipt> receipt = p_.draft(m, outcome, text);
  if (!receipt.is_ok()) {
    *answer = receipt.status().kind() == Status::Kind::Transient
                  ? retry_later(receipt.status().message(), Outcome::Error)
                  : http::text_answer(500, "the gateway cannot answer this message: " + receipt.status().message(),
                                      Outcome::Error);
    return Next::Answer;
  }
  // The protocol may have found a failure while drafting (a receipt it cannot sign).
  const bool failed_now = m.failure != gate::Failure::None;
  if (m.work.receipt_gone && !failed_now) {
    Result<store::Receipt> duplicate =
        p_.draft(m, Outcome::Duplicate, "was received and processed before (its first receipt is past its retention)");
    if (duplicate.is_ok()) m.work.duplicate_receipt = duplicate.value();
  }
  m.work.settlement.state = failed_now ? store::KeyState::Failed : store::KeyState::Completed;
  m.work.settlement.outcome = failed_now ? Outcome::Rejected : outcome;
  m.work.settlement.receipt = receipt.value();
  m.work.settlement.error = failed_now ? m.failure_text : "";
  // A refused message books nothing; the interchanges refused for who sent
  // them stay, for their rows and the negative acknowledgments to the sender.
  if (failed_now)
    m.work.interchanges.erase(
        std::remove_if(m.work.interchanges.begin(), m.work.interchanges.end(),
                       [](const gate::InterchangeWork& iw) { return iw.refused == gate::Failure::None; }),
        m.work.interchanges.end());
  if (c_.archive) {
    m.capture_head = redacted_head(m.request.head);
    m.work.capture = store::CaptureRef{m.partner->id,    std::string(p_.name()), m.work.claim.key.message_id,
                                       m.work.claim.raw, m.capture_head,         m.request.body};
  }
  return Next::Continue;
}

http::HttpAnswer Pipeline::admit(Message& m) {
  gate::TransportResult r = gate::admit_transport(*c_.gate, store_, m.work);
  http::HttpAnswer a;
  if (r.outcome == Outcome::Conflict) {
    Result<store::Receipt> answer = p_.conflict(m, r.detail);
    if (!answer.is_ok()) {
      a = http::text_answer(500, "the gateway cannot answer this message: " + answer.status().message(),
                            Outcome::Error);
      log_uncommitted(c_, p_, m, a);
      return a;
    }
    Status kept = gate::store_conflict(*c_.gate, store_, m.work, answer.value(), r.detail);
    a = p_.answer(m, Outcome::Conflict, answer.value());
    a.detail = r.detail;
    if (!kept.is_ok()) log_uncommitted(c_, p_, m, a);
  } else if (is_transient(r.outcome)) {
    a = retry_later(r.detail, r.outcome);
    log_uncommitted(c_, p_, m, a);
  } else {
    a = p_.answer(m, r.outcome, r.receipt);
    a.detail = r.detail;
  }
  // The outbox is woken when the commit gave it something (acknowledgments,
  // document events); an async MDN is queued (or re-queued) for any final
  // answer. Nothing queued, nothing woken: otherwise every worker ran its due
  // check after every settled message.
  if (c_.queued && !is_transient(r.outcome) && (r.queued || !m.work.async_destination.empty())) c_.queued();
  return a;
}

http::HttpAnswer Pipeline::receive(const http::HttpRequest& request) {
  Message m(request, c_);
  m.work.protocol = std::string(p_.name());
  m.work.arrival.transport = c_.transport;
  m.work.arrival.expected_partner = c_.expected_partner;
  m.work.arrival.ours = c_.ours;
  m.work.receipt_message_id = [this](const store::Receipt& r) { return p_.receipt_message_id(r); };
  m.work.bytes = static_cast<int64_t>(request.body.size());
  http::HttpAnswer a;
  if (edge(m, &a) == Next::Answer || p_.envelope(m, &a) == Next::Answer || authenticate(c_, m, &a) == Next::Answer ||
      stored(m, &a) == Next::Answer || p_.unwrap(m, &a) == Next::Answer) {
    log_uncommitted(c_, p_, m, a);
  } else if (!authenticated(m)) {
    a = refuse_unauthenticated(m);
  } else {
    m.work.arrival.sender = m.partner;  // what its interchanges may be is what this partner may send
    if (m.failure == gate::Failure::None && !p_.keys(m)) keys(m);
    if (draft(m, &a) == Next::Answer) {
      log_uncommitted(c_, p_, m, a);
    } else {
      a = admit(m);  // the transport's row commits with it
    }
  }
  a.partner = m.partner != nullptr ? m.partner->id : "";
  a.transport_id = m.work.arrival.transport_id;
  return a;
}

}  // namespace edihub::receivers
