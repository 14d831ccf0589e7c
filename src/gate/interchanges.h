// Runs each EDI interchange of a payload through the gate: partner
// resolution, the interchange key, business handling of its documents and the
// functional acknowledgment that becomes its stored receipt. Every path in
// (AS2, AS4, replay) uses this.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "parsers/edi/interchange.h"
#include "src/config/partners.h"
#include "src/gate/gate.h"
#include "src/store/store.h"

namespace edihub::gate {

// How the interchange reached us, for the message log.
struct Arrival {
  std::string transport;     // "replay", "http"
  std::string transport_id;  // the replayed file, the AS2 Message-ID ...
  std::optional<std::string> expected_partner;  // only this partner may send it
};

struct InterchangeResult {
  std::string partner_id;  // empty when the sender is unknown
  std::string message_id;  // the interchange key, "x12:ACMESUPPLY:000000101"
  std::string outcome;     // processed, duplicate, conflict, rejected, error
  int documents = 0;       // documents booked by this call
  std::string detail;      // why, for rejected / conflict / error, and notes
  store::Receipt receipt;  // the acknowledgment to give back (may be empty)
  bool store_trouble = false;  // outcome error because the store failed
};

class InterchangeIntake {
 public:
  InterchangeIntake(Gate& gate, store::Store& store, const config::Partners& partners)
      : gate_(gate), store_(store), partners_(partners) {}

  // `input` holds the interchange's bytes at ic.span. Logs one messages row.
  InterchangeResult process(const edi::Interchange& ic, std::string_view input, const Arrival& arrival);

 private:
  Gate& gate_;
  store::Store& store_;
  const config::Partners& partners_;
};

}  // namespace edihub::gate
