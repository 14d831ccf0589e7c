// What `edihub status` shows: keys by state, outcomes, row counts, size.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "src/common/status.h"

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

class Reports {
 public:
  virtual ~Reports() = default;
  virtual Result<StatusReport> report() = 0;
  // The store's clock, in ms since the epoch: leases and received_at use it.
  virtual Result<int64_t> now_ms() = 0;
};

}  // namespace edihub::store
