// EDI interchanges through the gate: everything that needs no lock is done
// first (partner resolution, the key, reading the documents), then, inside a
// transaction, the key's claim, the booking, the functional acknowledgment
// that becomes its stored receipt, and its `messages` row. Every path in
// (AS2, AS4, replay) uses this.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "parsers/edi/interchange.h"
#include "src/business/registry.h"
#include "src/common/outcome.h"
#include "src/config/partners.h"
#include "src/gate/gate.h"
#include "src/gate/receipt_policy.h"
#include "src/store/key_store.h"

namespace edihub::gate {

// How a thing reached us: for the message log, and who may have sent it.
struct Arrival {
  std::string transport;                        // "http", "replay"
  std::string transport_id;                     // the AS2 Message-ID, the AS4 MessageId, the replayed file
  std::optional<std::string> expected_partner;  // replay --partner (or a capture's): only this partner's
  // The partner that sent it: the one the transport authenticated (AS2-From,
  // eb:From, with its signature and <auth>), or the one the operator named
  // (replay --partner, a capture's recorded partner). An interchange it
  // carries must have one of its sender ids or of a partner it <sends-for>.
  // Null: an operator's EDI file, attributed by its sender ids alone.
  const config::Partner* sender = nullptr;
  // The gateway's own ids (<edi>): an interchange must be addressed to one. Null: not checked.
  const config::EdiIds* ours = nullptr;
};

using Document = business::Document;  // any type of the registry

// What an interchange is, which decides its answer: an EDI interchange (X12,
// EDIFACT) is answered with a functional acknowledgment, its stored receipt;
// a Peppol Standard Business Document is answered by the transport's
// Receipt alone (its key stores none).
enum class InterchangeKind { Edi, Peppol };

// An interchange ready for the gate.
struct InterchangeWork {
  InterchangeKind kind = InterchangeKind::Edi;
  edi::Interchange acked;                    // the interchange; rejected messages are marked in its errors
  std::string_view bytes;                    // its bytes (a view into the caller's payload)
  std::string protocol;                      // "x12" / "edifact"
  std::string partner_id;                    // whose it is (its key, its documents); empty: the sender is unknown
  const config::Partner* partner = nullptr;  // that partner's profile (where its documents go)
  // Who its acknowledgments go to and how: the partner that sent it (a VAN
  // sending for `partner`), else `partner`; null: nobody (an unknown sender).
  const config::Partner* reply_to = nullptr;
  AckParties ack_parties;                // the acknowledgment's own ISA/UNB parties, when not the swapped original's
  std::optional<store::MessageKey> key;  // none: rejected before any key (unknown sender ...)
  store::PayloadDigest digest;
  // The bytes' own digest where `digest` leaves a part out (a Peppol SBD's
  // CreationDateAndTime); empty: the same as `digest`.
  store::RawDigest raw;
  std::string rejection;  // non-empty: rejected (envelope errors, a document that cannot be read ...)
  std::string note;       // for the log of an accepted one (validation errors accepted or flagged)
  // Refused for who sent it or whom it is for (gate::Failure::SenderNotAuthorized /
  // NotAddressedToUs): no key is made, the negative acknowledgment goes to reply_to.
  Failure refused = Failure::None;
  std::vector<Document> documents;
  // Whose the documents are when not partner_id's: a Peppol document is its
  // sending participant's ("0088:5790000435951"), the access point that
  // brought it being the partner.
  std::string documents_owner;
  // A Peppol document: what the monthly reports count, kept when it is booked.
  std::optional<store::PeppolExchange> exchange;
  // What goes back for it when its key settles (a Peppol Message Level
  // Status), queued in that transaction: once per document, never for a duplicate.
  std::vector<store::OutboxItem> answers;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();

  const std::string& owner() const { return documents_owner.empty() ? partner_id : documents_owner; }
  bool edi() const { return kind == InterchangeKind::Edi; }
};

// `ic` with its bytes at ic.span in `input`.
InterchangeWork prepare_interchange(const edi::Interchange& ic, std::string_view input,
                                    const config::Partners& partners, const Arrival& arrival);

struct InterchangeResult {
  std::string partner_id;  // empty when the sender is unknown
  std::string message_id;  // the interchange key, "x12:ACMESUPPLY:000000101"
  Outcome outcome = Outcome::Error;
  int documents = 0;       // documents booked by this call
  std::string detail;      // why, for rejected / conflict / error, and notes
  store::Receipt receipt;  // the acknowledgment to give back (may be empty)
};

// Inside a transaction: claims the key, books the documents or stores the
// rejection, with the acknowledgment as the key's receipt, and writes the
// interchange's `messages` row. Outcome InFlight: the key is held elsewhere,
// nothing was written; the caller rolls back and waits.
Result<InterchangeResult> process_interchange(store::Transaction& tx, const InterchangeWork& work,
                                              const Arrival& arrival, const GateOptions& options,
                                              int64_t capture_id = 0);

// One interchange in its own transaction (replay, and large AS2/AS4 messages).
// Outcome Error (detail: why) when the store failed or the key stayed in flight.
InterchangeResult admit_interchange(Gate& gate, store::KeyStore& store, const InterchangeWork& work,
                                    const Arrival& arrival);

}  // namespace edihub::gate
