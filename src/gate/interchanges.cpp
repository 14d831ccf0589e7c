#include "src/gate/interchanges.h"

#include <chrono>
#include <ctime>
#include <variant>

#include "parsers/edifact/contrl.h"
#include "parsers/x12/acks.h"
#include "src/business/documents.h"
#include "src/crypto/digest.h"

namespace edihub::gate {

namespace {

std::string utc(const char* format) {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

std::string pad9(int64_t n) {
  std::string s = std::to_string(n % 1000000000);
  return std::string(9 - s.size(), '0') + s;
}

// The acknowledgment of `ic` (whose errors decide accept or reject), with
// control number `number`: TA1 for an interchange-level X12 error, else
// 997 (999 from version 00501); CONTRL for EDIFACT.
std::string acknowledgment(const edi::Interchange& ic, int64_t number, bool duplicate = false) {
  if (ic.standard == edi::Standard::X12) {
    x12::AckEnvelope env{pad9(number), std::to_string(number), utc("%Y%m%d"), utc("%H%M"), "\n"};
    if (duplicate) return x12::build_ta1(ic, x12::ta1_duplicate(), env);
    if (ic.has_interchange_errors()) return x12::build_ta1(ic, x12::ta1_for(ic), env);
    return ic.version >= "00501" ? x12::build_999(ic, env) : x12::build_997(ic, env);
  }
  edifact::ContrlEnvelope env{std::to_string(number), "1", utc(ic.version == "4" ? "%Y%m%d" : "%y%m%d"),
                              utc("%H%M"), "\n"};
  return edifact::build_contrl(ic, env, duplicate);
}

std::string ack_kind(const edi::Interchange& ic) {
  if (ic.standard == edi::Standard::Edifact) return "contrl";
  if (ic.has_interchange_errors()) return "ta1";
  return ic.version >= "00501" ? "999" : "997";
}

std::string first_error(const edi::Interchange& ic) {
  return ic.errors.empty() ? std::string() : std::string(edi::code_name(ic.errors[0].code)) + ": " +
                                                 ic.errors[0].text;
}

}  // namespace

InterchangeResult InterchangeIntake::process(const edi::Interchange& ic, std::string_view input,
                                             const Arrival& arrival) {
  const auto started = std::chrono::steady_clock::now();
  InterchangeResult r;
  const std::string_view bytes = input.substr(ic.span.offset, ic.span.length);
  const std::string protocol(edi::standard_name(ic.standard));

  auto entry_for = [&](const InterchangeResult& res) {
    store::MessageLog entry;
    entry.partner_id = res.partner_id;
    entry.protocol = protocol;
    entry.transport = arrival.transport;
    entry.transport_id = arrival.transport_id;
    entry.message_id = res.message_id;
    entry.outcome = res.outcome;
    // Partner bytes end up in error texts: keep the log row bounded.
    entry.detail = res.detail.size() > 2000 ? res.detail.substr(0, 2000) + "..." : res.detail;
    entry.bytes = static_cast<int64_t>(bytes.size());
    entry.documents = res.documents;
    entry.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::steady_clock::now() - started)
                            .count();
    return entry;
  };
  // Outcomes whose handling committed have their log row in that transaction.
  bool logged = false;
  auto finish = [&]() -> InterchangeResult {
    if (!logged && !store_.log(entry_for(r)).is_ok()) r.store_trouble = true;
    return r;
  };

  // Partner: the sender id must belong to a profile (and to the expected one).
  const config::Partner* partner = partners_.sender_of(ic);
  if (partner == nullptr) {
    r.outcome = "rejected";
    r.detail = "unknown sender " + config::sender_text(ic) + " (" + protocol +
               " interchange " + ic.control_number + "): no partner profile lists this id";
    return finish();
  }
  if (arrival.expected_partner && *arrival.expected_partner != partner->id) {
    r.outcome = "rejected";
    r.detail = "sender " + config::sender_text(ic) + " belongs to partner '" + partner->id +
               "', not to '" + *arrival.expected_partner + "'";
    return finish();
  }
  r.partner_id = partner->id;
  if (ic.control_number.empty()) {
    r.outcome = "rejected";
    r.detail = "interchange has no control number (" + first_error(ic) + ")";
    return finish();
  }
  // Keys are built from these: bound them (ISA13 is 9 digits, UNB 0004 an..35, 0020 an..14).
  constexpr size_t kMaxIdLength = 35;
  if (ic.control_number.size() > kMaxIdLength || ic.sender.id.size() > kMaxIdLength) {
    r.outcome = "rejected";
    r.detail = "interchange sender id or control number longer than " + std::to_string(kMaxIdLength) +
               " characters";
    return finish();
  }
  const store::MessageKey key =
      ic.standard == edi::Standard::X12
          ? store::MessageKey::x12(partner->id, ic.sender.id, ic.control_number)
          : store::MessageKey::edifact(partner->id, ic.sender.id, ic.control_number);
  r.message_id = key.message_id;

  store::ClaimRequest request;
  request.key = key;
  request.payload_sha256 = crypto::sha256_hex(bytes);
  request.raw_sha256 = request.payload_sha256;

  int booked = 0;
  std::string notes;
  const std::string sequence = "ack:" + protocol + ":" + partner->id;
  auto effect = [&](store::Transaction& tx) -> Result<store::Settlement> {
    booked = 0;
    notes.clear();
    store::Settlement s;
    edi::Interchange acked = ic;  // rejected messages are marked in the ack's copy

    std::vector<std::variant<business::ShipmentNotice, business::Invoice>> documents;
    std::string rejection = first_error(ic);
    if (ic.ok()) {
      for (size_t g = 0; g < ic.groups.size(); ++g) {
        for (size_t m = 0; m < ic.groups[g].messages.size(); ++m) {
          const edi::Message& msg = ic.groups[g].messages[m];
          if (!business::handled(ic, msg)) continue;
          business::Extracted x = business::extract(ic, msg, input);
          if (!x.error.empty()) {
            edi::EnvelopeError e;
            e.code = edi::ErrorCode::ApplicationRejected;
            e.group = static_cast<int>(g);
            e.message = static_cast<int>(m);
            e.offset = msg.span.offset;
            e.segment = msg.first_segment;
            e.text = msg.type + " " + msg.control_number + ": " + x.error;
            if (rejection.empty()) rejection = e.text;
            acked.errors.push_back(std::move(e));
          } else if (auto* sn = std::get_if<business::ShipmentNotice>(&x.document)) {
            documents.emplace_back(std::move(*sn));
          } else if (auto* inv = std::get_if<business::Invoice>(&x.document)) {
            documents.emplace_back(std::move(*inv));
          }
        }
      }
    }

    Result<int64_t> number = tx.next_sequence(sequence);
    if (!number.is_ok()) return number.status();
    if (!rejection.empty()) {
      // All or nothing: one bad message rejects the interchange, nothing is booked.
      s.state = store::KeyState::Failed;
      s.outcome = "rejected";
      s.error = rejection;
    } else {
      for (const auto& doc : documents) {
        Result<store::Applied> applied =
            std::holds_alternative<business::ShipmentNotice>(doc)
                ? tx.put_shipment_notice(partner->id, std::get<business::ShipmentNotice>(doc), key.message_id)
                : tx.put_invoice(partner->id, std::get<business::Invoice>(doc), key.message_id);
        if (!applied.is_ok()) return applied.status();
        if (applied.value() == store::Applied::IgnoredOlder) {
          const std::string& number_text = std::holds_alternative<business::ShipmentNotice>(doc)
                                               ? std::get<business::ShipmentNotice>(doc).document_number
                                               : std::get<business::Invoice>(doc).invoice_number;
          notes += (notes.empty() ? "" : "; ") + number_text +
                   ": an older version than the one booked, ignored";
        } else {
          ++booked;
        }
      }
      s.state = store::KeyState::Completed;
      s.outcome = "processed";
      s.error = notes;
    }
    s.receipt.body = acknowledgment(acked, number.value());
    store::OutboxItem ack{partner->id, ack_kind(acked), key.message_id, "", "", s.receipt.body};
    Status queued = tx.enqueue(ack);
    if (!queued.is_ok()) return queued;
    InterchangeResult as_logged = r;
    as_logged.outcome = s.outcome;
    as_logged.documents = booked;
    as_logged.detail = s.state == store::KeyState::Failed ? s.error : notes;
    Status logged_now = tx.log(entry_for(as_logged));
    if (!logged_now.is_ok()) return logged_now;
    return s;
  };

  Outcome o = gate_.pass(store_, request, effect);
  r.receipt = o.receipt;
  logged = o.kind == Outcome::Kind::Processed || o.kind == Outcome::Kind::Failed;
  switch (o.kind) {
    case Outcome::Kind::Processed:
      r.outcome = "processed";
      r.documents = booked;
      r.detail = notes;
      break;
    case Outcome::Kind::Failed:
      r.outcome = "rejected";
      r.detail = o.detail;
      break;
    case Outcome::Kind::Duplicate:
      r.outcome = "duplicate";
      r.detail = "already processed: answered with the stored acknowledgment";
      break;
    case Outcome::Kind::Poison:
      r.outcome = "rejected";
      r.detail = o.detail;
      break;
    case Outcome::Kind::Conflict:
      r.outcome = "conflict";
      r.detail = o.detail;
      // TA1 025 / CONTRL 26: not stored, the key keeps its original receipt.
      r.receipt.body = acknowledgment(ic, std::time(nullptr), true);
      break;
    case Outcome::Kind::InFlight:
    case Outcome::Kind::Transient:
      r.outcome = "error";
      r.detail = o.detail;
      r.store_trouble = o.kind == Outcome::Kind::Transient;
      break;
  }
  return finish();
}

}  // namespace edihub::gate
