// Prometheus metrics of `edihub serve`, in the text exposition format
// (0.0.4). Counters and the latency histogram are kept in this process since
// its start; gauges are read at each scrape: the store's open keys and outbox
// (store::Gauges, cheap indexed queries) and every certificate in use.
// Label values are protocol and outcome names, configured partner ids and
// certificate fields from configured files: nothing a partner sends.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <mutex>

#include "src/common/mutex.h"
#include <string>
#include <tuple>
#include <vector>

#include "src/common/outcome.h"
#include "src/gate/gate.h"
#include "src/identity/credentials.h"
#include "src/store/reports.h"

namespace edihub::server {

using identity::CertificateInUse;

class Metrics {
 public:
  // One answered request (the log line's facts).
  void observe(const std::string& protocol, const std::string& partner, Outcome outcome, int64_t ms);

  // The exposition: `gauges` is null when the store could not be read (then
  // edihub_store_up is 0 and the store's gauges are left out).
  std::string render(const store::Gauges* gauges, const std::vector<CertificateInUse>& certificates,
                     int64_t now_ms) const;  // now_ms: the store's clock, for the outbox ages

  static constexpr std::array<double, 12> kBuckets = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};

 private:
  struct Histogram {
    std::array<int64_t, kBuckets.size()> buckets{};  // cumulative at render
    int64_t count = 0;
    double sum_seconds = 0;
  };
  mutable Mutex mu_;
  std::map<std::tuple<std::string, std::string, std::string>, int64_t> messages_
      GUARDED_BY(mu_);                                        // protocol, partner, outcome
  std::map<std::string, Histogram> latency_ GUARDED_BY(mu_);  // by protocol
};

// The gate's counters (gate::Gate::stats()) in the same format.
std::string render_gate(const gate::GateStats& stats);
// The message-log writer's: rows counted past a client's limits (each in a
// summary row), rows dropped with the queue full.
std::string render_log(uint64_t counted, uint64_t dropped);

}  // namespace edihub::server
