// What `edihub status` shows: keys by state, outcomes, row counts, size.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "src/common/status.h"
#include "src/store/exchanges.h"

namespace edihub::store {

struct StateCount {
  std::string partner_id, protocol, state;
  int64_t keys = 0;
};

struct StatusReport {
  std::vector<StateCount> keys;
  int64_t oldest_received_ms = 0, newest_received_ms = 0;
  std::map<std::string, int64_t> outcomes_24h;   // messages by outcome, last 24 hours
  std::map<std::string, int64_t> business_rows;  // table -> rows
  int64_t store_bytes = 0;
  int schema_version = 0;
};

// What /metrics reads on every scrape: cheap queries only (the open keys
// through a partial index, the outbox rows not yet done through its state
// index), never a count over the whole key or message table.
struct Gauges {
  std::map<std::string, int64_t> open_keys;  // processing, failed
  int64_t poison_keys = 0;                   // failed at least max_failures times
  struct Outbox {
    int64_t rows = 0;
    int64_t oldest_created_ms = 0;
  };
  std::map<std::string, Outbox> outbox;  // pending, in-flight, sent (awaiting an MDN), failed
  int64_t store_bytes = 0;
  int schema_version = 0;
  int64_t last_purge_ms = 0;  // when `edihub purge` last finished (its audit row); 0: never
};

class Reports {
 public:
  virtual ~Reports() = default;
  virtual Result<StatusReport> report() = 0;
  virtual Result<Gauges> gauges(int max_failures) = 0;
  // The store's clock, in ms since the epoch: leases and received_at use it.
  virtual Result<int64_t> now_ms() = 0;
  // The Peppol documents exchanged in [from_ms, to_ms), for the monthly reports.
  virtual Result<std::vector<PeppolExchange>> peppol_exchanges(int64_t from_ms, int64_t to_ms) = 0;
};

}  // namespace edihub::store
