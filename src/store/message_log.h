// The message log: one `messages` row per received thing (a transport
// message, an interchange, a replayed file's interchange), duplicates
// included, so an operator can answer "did it arrive, what did we answer".
// Past a client's limits (src/server/log_throttle.h) the answers that commit
// nothing are counted instead: one row per client, partner and outcome a
// window, whose `answers` says how many it stands for. Counts of answers sum
// that column.
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
  int64_t answers = 1;     // the answers this row stands for: more than 1 for a count row
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
