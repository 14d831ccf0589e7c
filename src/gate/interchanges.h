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
#include "src/business/documents.h"
#include "src/common/outcome.h"
#include "src/config/partners.h"
#include "src/gate/gate.h"
#include "src/store/key_store.h"

namespace edihub::gate {

// How a thing reached us, for the message log.
struct Arrival {
  std::string transport;     // "http", "replay"
  std::string transport_id;  // the AS2 Message-ID, the AS4 MessageId, the replayed file
  std::optional<std::string> expected_partner;  // only this partner may send it
};

using Document = std::variant<business::ShipmentNotice, business::Invoice>;

// An interchange ready for the gate.
struct InterchangeWork {
  edi::Interchange acked;    // the interchange; rejected messages are marked in its errors
  std::string_view bytes;    // its bytes (a view into the caller's payload)
  std::string protocol;      // "x12" / "edifact"
  std::string partner_id;    // empty: the sender is unknown
  const config::Partner* partner = nullptr;  // its profile (how acknowledgments go back)
  std::optional<store::MessageKey> key;  // none: rejected before any key (unknown sender ...)
  store::PayloadDigest digest;
  std::string rejection;     // non-empty: rejected (envelope errors, a document that cannot be read ...)
  std::vector<Document> documents;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
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
