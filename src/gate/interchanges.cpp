#include "src/gate/interchanges.h"

#include "parsers/edifact/aperak.h"
#include "src/common/partner_text.h"
#include "src/crypto/digest.h"
#include "src/documents/canonical.h"
#include "src/documents/validator.h"
#include "src/gate/claim.h"
#include "src/gate/document_event.h"
#include "src/gate/receipt_policy.h"

namespace edihub::gate {

namespace {

constexpr uint64_t kMaxCanonicalBytes = 4 << 20;

std::string first_error(const edi::Interchange& ic) {
  return ic.errors.empty() ? std::string() : std::string(edi::code_name(ic.errors[0].code)) + ": " + ic.errors[0].text;
}

store::MessageLog row_for(const InterchangeWork& w, const Arrival& a, const InterchangeResult& r, int64_t capture_id) {
  store::MessageLog row;
  row.partner_id = r.partner_id;
  row.protocol = w.protocol;
  row.transport = a.transport;
  row.transport_id = a.transport_id;
  row.message_id = r.message_id;
  row.outcome = r.outcome;
  row.detail = r.detail;
  row.bytes = static_cast<int64_t>(w.bytes.size());
  row.documents = r.documents;
  row.duration_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - w.started).count();
  row.capture_id = capture_id;
  return row;
}

// Acknowledgments are numbered per partner they go to.
Result<int64_t> next_ack_number(store::Transaction& tx, const InterchangeWork& w) {
  return tx.next_sequence("ack:" + w.protocol + ":" + w.reply_to->id);
}

// Books the documents (all or nothing was decided in prepare) and answers
// with the acknowledgment: the settlement of a key this transaction holds.
Result<store::Settlement> handle(store::Transaction& tx, const InterchangeWork& w, int* booked, std::string* notes,
                                 int64_t* ack_number) {
  store::Settlement s;
  if (!w.rejection.empty()) {
    s.state = store::KeyState::Failed;
    s.outcome = Outcome::Rejected;
    s.error = w.rejection;
  } else {
    for (const Document& doc : w.documents) {
      ASSIGN_OR_RETURN(store::Applied applied, tx.put_document(w.owner(), doc, w.key->message_id));
      if (applied == store::Applied::IgnoredOlder) {
        *notes += (notes->empty() ? "" : "; ") + doc.number + ": an older version than the one booked, ignored";
        continue;
      }
      ++*booked;
      // Announced to the back office in this transaction: never lost, never twice.
      if (w.partner->documents.via != config::Partner::Documents::Via::None) {
        RETURN_IF_ERROR(tx.enqueue(document_event(*w.partner, w.owner(), doc, applied, w.key->message_id)));
      }
    }
    s.state = store::KeyState::Completed;
    s.outcome = Outcome::Processed;
    s.error = *notes;
  }
  if (!w.edi()) return s;  // a Peppol document: the transport's Receipt answers it
  // Numbered last: the counter's row is locked until commit (on PostgreSQL,
  // every interchange of this partner waits for it), so hold it briefly.
  ASSIGN_OR_RETURN(int64_t number, next_ack_number(tx, w));
  *ack_number = number;
  s.receipt.body = acknowledgment(w.acked, number, false, &w.reply_to->acknowledgments, w.ack_parties);
  return s;
}

// The owner's <validation> policy over every message that has a definition:
// reject sets w.rejection; reject and accept put each error into the
// acknowledgment (accept as AK5 E); accept and flag leave a note for the log.
void apply_validation(InterchangeWork& w, std::string_view input, const documents::Catalog& catalog) {
  using Policy = config::Partner::Validation::Policy;
  const Policy policy = w.partner->validation.policy;
  if (policy == Policy::Off) return;
  std::string first;  // the first finding, for the message log
  for (edi::Group& g : w.acked.groups) {
    for (edi::Message& m : g.messages) {
      auto found = documents::validate_message(catalog, w.acked, g, m, input);
      if (!found.checked || found.errors.empty()) continue;
      if (first.empty()) {
        first = m.type + " " + m.control_number + ": " + documents::finding_text(found.errors[0]);
        if (found.errors.size() > 1) first += " (and " + std::to_string(found.errors.size() - 1) + " more)";
      }
      if (policy == Policy::Flag) continue;
      for (edi::SegmentError& e : found.errors) m.segment_errors.push_back(std::move(e));
      m.errors_accepted = policy == Policy::Accept;
    }
  }
  if (first.empty()) return;
  first = partner_text(first, 1000);
  if (policy == Policy::Reject) {
    w.rejection = "does not pass its definition: " + first;
  } else {
    w.note = (policy == Policy::Accept ? "accepted with errors: " : "flagged: ") + first;
  }
}

// What an acknowledgment row refers to: the interchange's key, or for one
// refused before any key the key it would have had under its sender.
std::string reference_of(const InterchangeWork& w) {
  if (w.key) return w.key->message_id;
  const edi::Interchange& ic = w.acked;
  const std::string sender = partner_text(ic.sender.id, 35), control = partner_text(ic.control_number, 35);
  return (ic.standard == edi::Standard::X12 ? store::MessageKey::x12(w.reply_to->id, sender, control)
                                            : store::MessageKey::edifact(w.reply_to->id, sender, control))
      .message_id;
}

// Where acknowledgments to this partner go: the outbox row's channel and destination.
store::OutboxItem ack_item(const InterchangeWork& w, std::string_view kind, int64_t number, std::string body) {
  using Via = config::Partner::Acknowledgments::Via;
  const config::Partner& to = *w.reply_to;
  const config::Partner::Acknowledgments& a = to.acknowledgments;
  store::OutboxItem item;
  item.partner_id = to.id;
  item.kind = std::string(kind);
  item.reference = reference_of(w);
  item.channel = a.via == Via::As2 ? "as2" : a.via == Via::As4 ? "as4" : "dir";
  item.destination = a.via == Via::As2 ? to.as2.url : a.via == Via::As4 ? to.as4.url : a.dir;
  // Fixed now, reused on every retry: the partner's duplicate detection sees one message.
  item.message_id =
      "<ack-" + std::string(kind) + "-" + w.protocol + "-" + std::to_string(number) + "." + to.id + "@edihub>";
  item.body = std::move(body);
  return item;
}

// Queues what the partner's profile sends back for this interchange, in the
// transaction that settles it: `stored` (its acknowledgment, number `number`)
// and, asked for, a positive TA1.
Status queue_acks(store::Transaction& tx, const InterchangeWork& w, std::string_view stored_kind, int64_t number,
                  const std::string& stored) {
  AckPlan plan = ack_plan(w.acked, stored_kind, w.reply_to->acknowledgments);
  if (plan.send_stored) {
    RETURN_IF_ERROR(tx.enqueue(ack_item(w, stored_kind, number, stored)));
  }
  if (plan.send_ta1_accepted) {
    ASSIGN_OR_RETURN(int64_t ta1_number, next_ack_number(tx, w));
    RETURN_IF_ERROR(tx.enqueue(ack_item(w, "ta1", ta1_number, ta1_acknowledgment(w.acked, ta1_number, w.ack_parties))));
  }
  return Status::ok();
}

// The APERAKs of an interchange not booked for an application error, to a
// partner whose profile asks for them, in the transaction that settles it.
Status queue_aperak(store::Transaction& tx, const InterchangeWork& w) {
  const auto& policy = w.reply_to->acknowledgments;
  if (policy.via == config::Partner::Acknowledgments::Via::None || !wants_aperak(w.acked, &policy) ||
      !edifact::has_application_errors(w.acked))
    return Status::ok();
  ASSIGN_OR_RETURN(int64_t number, next_ack_number(tx, w));
  return tx.enqueue(ack_item(w, "aperak", number, aperak_acknowledgment(w.acked, number, w.ack_parties)));
}

// An interchange its sender may not send (`why` SenderNotAuthorized: its
// sender id is not `wire`'s nor of a partner it sends for) or that is not for
// us (NotAddressedToUs). No key is made; the negative acknowledgment (TA1 006 /
// 009, CONTRL UCI 4 + 23 / 7) goes to `wire`, in our name, addressed to its
// own id: never to the partner a forged id names.
InterchangeWork& refuse_identity(InterchangeWork& w, const edi::Interchange& ic, const config::Partner& wire,
                                 Failure why, const config::EdiIds* ours) {
  const bool x12 = ic.standard == edi::Standard::X12;
  const std::string what = w.protocol + " interchange " + partner_text(ic.control_number, 20);
  edi::EnvelopeError e;
  e.offset = ic.span.offset;
  e.segment = 1;
  if (why == Failure::SenderNotAuthorized) {
    e.code = edi::ErrorCode::SenderNotAuthorized;
    e.element = x12 ? 6 : 2;
    // Whether the id is another partner's is not said: that is not the sender's to learn.
    e.text = what + ": sender " + partner_text(config::sender_text(ic), 60) + " is not an id of partner '" + wire.id +
             "' (" + wire.ids_text(ic.standard) + ") nor of a partner it sends for (<sends-for> in its profile)";
  } else {
    e.code = edi::ErrorCode::RecipientNotOurs;
    e.element = x12 ? 8 : 3;
    e.text = what + " is addressed to " + partner_text(config::receiver_text(ic), 60) + ", not to this gateway (" +
             ours->text(ic.standard) + ", <edi> in the gateway config)";
  }
  w.rejection = e.text;
  w.refused = why;
  w.partner_id = wire.id;
  w.reply_to = &wire;
  w.acked.errors.insert(w.acked.errors.begin(), std::move(e));
  // The answer speaks for one of our ids to one of the sender's own.
  const auto& wire_ids = x12 ? wire.x12_ids : wire.edifact_ids;
  if (!wire_ids.empty()) w.ack_parties.recipient = wire_ids.front();
  if (ours != nullptr && !(x12 ? ours->x12 : ours->edifact).empty())
    w.ack_parties.sender = (x12 ? ours->x12 : ours->edifact).front();
  return w;
}

}  // namespace

InterchangeWork prepare_interchange(const edi::Interchange& ic, std::string_view input,
                                    const config::Partners& partners, const Arrival& arrival) {
  InterchangeWork w;
  w.acked = ic;
  w.bytes = input.substr(ic.span.offset, ic.span.length);
  w.protocol = std::string(edi::standard_name(ic.standard));

  // Whose it is: what the sender on the wire may send, or (an operator's
  // file) whoever lists the sender id. Then: addressed to us.
  const config::Partner* partner =
      arrival.sender != nullptr ? partners.owner_for(*arrival.sender, ic) : partners.sender_of(ic);
  if (partner == nullptr && arrival.sender == nullptr) {
    w.rejection = "unknown sender " + partner_text(config::sender_text(ic), 60) + " (" + w.protocol + " interchange " +
                  partner_text(ic.control_number, 20) + "): no partner profile lists this id";
    return w;
  }
  if (partner == nullptr) return refuse_identity(w, ic, *arrival.sender, Failure::SenderNotAuthorized, arrival.ours);
  w.reply_to = arrival.sender != nullptr ? arrival.sender : partner;
  if (arrival.ours != nullptr && !arrival.ours->ours(ic))
    return refuse_identity(w, ic, *w.reply_to, Failure::NotAddressedToUs, arrival.ours);
  w.partner_id = partner->id;
  w.partner = partner;
  if (ic.control_number.empty()) {
    w.rejection = "interchange has no control number (" + first_error(ic) + ")";
    return w;
  }
  // Keys are built from these: bound them (ISA13 is 9 digits, UNB 0004 an..35, 0020 an..14).
  constexpr size_t kMaxIdLength = 35;
  if (ic.control_number.size() > kMaxIdLength || ic.sender.id.size() > kMaxIdLength) {
    w.rejection = "interchange sender id or control number longer than " + std::to_string(kMaxIdLength) + " characters";
    return w;
  }
  w.key = ic.standard == edi::Standard::X12 ? store::MessageKey::x12(partner->id, ic.sender.id, ic.control_number)
                                            : store::MessageKey::edifact(partner->id, ic.sender.id, ic.control_number);
  w.digest = store::PayloadDigest::of(w.bytes);

  // The documents, read now, outside any lock. One bad message rejects the
  // whole interchange: all or nothing.
  w.rejection = first_error(ic);
  if (!ic.ok()) return w;
  // The partner's guides over the standard: what its messages are checked and written against.
  const documents::Catalog catalog{&documents::standard_definitions(), w.partner->validation.guides};
  apply_validation(w, input, catalog);
  // Rejected by its definition: nothing is booked, and the acknowledgment names the findings alone.
  if (!w.rejection.empty()) return w;
  for (size_t g = 0; g < ic.groups.size(); ++g) {
    for (size_t m = 0; m < ic.groups[g].messages.size(); ++m) {
      const edi::Message& msg = ic.groups[g].messages[m];
      if (!business::books(ic, msg)) continue;
      business::ReadDocument x = business::read_document(ic, msg, input);
      if (!x.error.empty()) {
        edi::EnvelopeError e;
        e.code = edi::ErrorCode::ApplicationRejected;
        e.group = static_cast<int>(g);
        e.message = static_cast<int>(m);
        e.offset = msg.span.offset;
        e.segment = msg.first_segment;
        e.text = msg.type + " " + msg.control_number + ": " + x.error;
        if (w.rejection.empty()) w.rejection = e.text;
        w.acked.errors.push_back(std::move(e));
      } else {
        // The whole message for the back office, beside the booked fields: its
        // JSON is several times its size, so only for a message of at most
        // kMaxCanonicalBytes (a larger one's event has the booked fields alone).
        if (w.partner->documents.via != config::Partner::Documents::Via::None && msg.span.length <= kMaxCanonicalBytes)
          x.document.canonical = documents::canonical_json(catalog, ic, ic.groups[g], msg, input);
        w.documents.push_back(std::move(x.document));
      }
    }
  }
  if (!w.rejection.empty()) w.documents.clear();
  return w;
}

Result<InterchangeResult> process_interchange(store::Transaction& tx, const InterchangeWork& w, const Arrival& arrival,
                                              const GateOptions& options, int64_t capture_id) {
  InterchangeResult r;
  r.partner_id = w.partner_id;
  auto logged = [&]() -> Result<InterchangeResult> {
    RETURN_IF_ERROR(tx.log(row_for(w, arrival, r, capture_id)));
    return r;
  };
  if (!w.key) {  // refused before any key: nothing to claim
    r.outcome = Outcome::Rejected;
    r.detail = w.rejection;
    if (w.reply_to == nullptr || !w.edi()) return logged();  // an unknown sender: nobody to tell
    // Its sender hears why (TA1 006 / 009, CONTRL 23 / 7), numbered from its sequence.
    ASSIGN_OR_RETURN(int64_t number, next_ack_number(tx, w));
    r.receipt.body = acknowledgment(w.acked, number, false, &w.reply_to->acknowledgments, w.ack_parties);
    RETURN_IF_ERROR(
        queue_acks(tx, w, acknowledgment_kind(w.acked, false, &w.reply_to->acknowledgments), number, r.receipt.body));
    return logged();
  }
  r.message_id = w.key->message_id;
  ASSIGN_OR_RETURN(
      Claimed claimed,
      claim_key(tx, KeyClaim{*w.key, w.digest, w.raw.empty() ? store::RawDigest::from_hex(w.digest.hex()) : w.raw},
                options));
  // A Peppol key stored before the creation time was left out of its digest
  // holds the digest of the whole SBD: the same bytes again are a duplicate.
  if (claimed.kind == Claimed::Kind::Conflict && !w.raw.empty() && claimed.stored->payload.hex() == w.raw.hex())
    claimed.kind = Claimed::Kind::Duplicate;
  switch (claimed.kind) {
    case Claimed::Kind::InFlight:
      r.outcome = Outcome::InFlight;
      r.detail = "key " + r.message_id + " is being handled by another worker";
      return r;  // no row: the caller rolls back and waits
    case Claimed::Kind::Duplicate: {
      r.outcome = Outcome::Duplicate;
      r.receipt = claimed.stored->receipt;
      r.detail = "already processed: answered with the stored acknowledgment";
      if (!w.edi()) {
        r.detail = "already processed (" + r.message_id + "): booked once, not again";
        if (!w.raw.empty() && !claimed.stored->raw.empty() && claimed.stored->raw != w.raw)
          r.detail += "; this copy differs from the first only in its SBDH CreationDateAndTime";
        return logged();
      }
      if (!r.receipt.empty()) return logged();
      // Past the receipt retention: the acknowledgment built again, with a new control number.
      ASSIGN_OR_RETURN(int64_t number, next_ack_number(tx, w));
      r.receipt.body = acknowledgment(w.acked, number, false, &w.reply_to->acknowledgments, w.ack_parties);
      r.detail = "already processed; its acknowledgment is past its retention: built again";
      return logged();
    }
    case Claimed::Kind::Poison:
      r.outcome = Outcome::Poison;
      r.receipt = claimed.stored->receipt;
      r.detail = "failed " + std::to_string(claimed.stored->failures) +
                 " times: answered with the stored negative acknowledgment";
      return logged();
    case Claimed::Kind::Conflict:
    case Claimed::Kind::Unverifiable: {
      r.outcome = Outcome::Conflict;
      if (!w.edi()) {
        r.detail = "key " + r.message_id + " was received before with different content (sha256 " +
                   claimed.stored->payload.hex() + ", now " + w.digest.hex() + ")";
        return logged();
      }
      // TA1 025 / CONTRL 26, numbered from the sequences table; not stored:
      // the key keeps its original receipt.
      ASSIGN_OR_RETURN(int64_t number, next_ack_number(tx, w));
      r.receipt.body = acknowledgment(w.acked, number, true, nullptr, w.ack_parties);
      // The partner hears of the conflict too (TA1 025 / CONTRL 26), where its profile sends those.
      RETURN_IF_ERROR(queue_acks(tx, w, acknowledgment_kind(w.acked, true), number, r.receipt.body));
      r.detail = "key " + r.message_id + " was received before with different content (sha256 " +
                 claimed.stored->payload.hex() + ", now " + w.digest.hex() + ")";
      return logged();
    }
    case Claimed::Kind::New:
    case Claimed::Kind::Retry:
      break;
  }
  int booked = 0;
  int64_t ack_number = 0;
  std::string notes = w.note;
  ASSIGN_OR_RETURN(store::Settlement settled, handle(tx, w, &booked, &notes, &ack_number));
  ASSIGN_OR_RETURN(bool stored, tx.settle_key(*w.key, claimed.token, w.digest, settled));
  if (!stored) return Status::fenced("key " + r.message_id + " was taken over during settle");
  if (w.exchange && settled.state == store::KeyState::Completed) RETURN_IF_ERROR(tx.record_exchange(*w.exchange));
  for (const store::OutboxItem& answer : w.answers) RETURN_IF_ERROR(tx.enqueue(answer));
  if (w.edi()) {
    RETURN_IF_ERROR(queue_acks(tx, w, acknowledgment_kind(w.acked, false, &w.reply_to->acknowledgments), ack_number,
                               settled.receipt.body));
    RETURN_IF_ERROR(queue_aperak(tx, w));
  }
  r.outcome = settled.outcome;
  r.documents = booked;
  r.detail = settled.error;
  r.receipt = settled.receipt;
  return logged();
}

InterchangeResult admit_interchange(Gate& gate, store::KeyStore& store, const InterchangeWork& work,
                                    const Arrival& arrival) {
  InterchangeResult result;
  bool in_flight = false;
  Status s = gate.run(
      store,
      [&](store::Transaction& tx) -> Result<Step> {
        ASSIGN_OR_RETURN(InterchangeResult r, process_interchange(tx, work, arrival, gate.options()));
        result = r;
        return result.outcome == Outcome::InFlight ? Step::InFlight : Step::Commit;
      },
      &in_flight);
  if (!s.is_ok()) {
    result.partner_id = work.partner_id;
    result.message_id = work.key ? work.key->message_id : "";
    result.outcome = in_flight ? Outcome::InFlight : Outcome::Error;
    result.detail = s.message();
    result.documents = 0;
    result.receipt = {};
  }
  return result;
}

}  // namespace edihub::gate
