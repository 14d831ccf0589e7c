// The message log: one `messages` row per received thing (a transport
// message, an interchange, a replayed file's interchange), duplicates
// included, so an operator can answer "did it arrive, what did we answer".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/common/outcome.h"
#include "src/common/status.h"

namespace edihub::store {

struct MessageLog {
  std::string partner_id;    // empty when the sender is unknown
  std::string protocol;      // as2, as4, x12, edifact
  std::string transport;     // http, replay
  std::string transport_id;  // AS2 Message-ID, AS4 MessageId, the replayed file
  std::string message_id;    // the idempotency key's message_id, or empty
  Outcome outcome = Outcome::Error;
  std::string detail;
  int64_t bytes = 0, documents = 0, duration_ms = 0;
  int64_t capture_id = 0;  // the archived request, 0 when none
};

class MessageLogStore {
 public:
  virtual ~MessageLogStore() = default;
  // Writes the rows in one transaction (a batch: one commit for many). Text
  // fields pass partner_text() on the way in, so a row never holds a line
  // break or an unbounded partner value.
  virtual Status log(const std::vector<MessageLog>& rows) = 0;
};

}  // namespace edihub::store
