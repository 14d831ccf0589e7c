// The outbox: what leaves the gateway later (async MDNs today), queued in the
// transaction that caused it and delivered by a worker with retries.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/common/status.h"

namespace edihub::store {

struct OutboxItem {
  std::string partner_id, kind, reference, destination, headers, body;
};

struct OutboxEntry {
  int64_t id = 0;
  OutboxItem item;
  int64_t attempts = 0;
};

class OutboxStore {
 public:
  virtual ~OutboxStore() = default;
  // Queues one item in its own transaction.
  virtual Status enqueue(const OutboxItem& item) = 0;
  // Up to `limit` pending items whose time has come; each is leased for
  // `lease_ms` so that another deliverer skips it.
  virtual Result<std::vector<OutboxEntry>> due_outbox(int limit, int64_t lease_ms) = 0;
  virtual Status outbox_sent(int64_t id) = 0;
  // A failed attempt: retried at `next_attempt_ms`, or failed for good.
  virtual Status outbox_retry(int64_t id, int64_t next_attempt_ms, const std::string& error, bool give_up) = 0;
};

}  // namespace edihub::store
