// The dashboard's pictures, drawn on the server as SVG: traffic per partner
// per hour with its outcomes stacked, and the outcome mix. Plain markup (no
// script), so the page's Content-Security-Policy stays strict.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>

#include "src/common/mutex.h"
#include <string>
#include <vector>

#include "src/common/status.h"

#include "src/store/console.h"

namespace edihub::console {

// The counts behind the charts. Those of hours gone by do not change (but by
// a purge, of old hours only): kept for ten minutes, so that a dashboard asks
// the store only for the last two hours instead of counting a week of
// messages again (340 ms at a million rows, tools/bench-console).
class HourlyCache {
 public:
  Result<std::vector<store::HourCount>> counts(store::ConsoleStore& store, int64_t first_hour, int64_t now_hour);

 private:
  Mutex mu_;
  int64_t first_ = 0, complete_until_ = 0;  // the hours [first_, complete_until_) are kept
  std::vector<store::HourCount> kept_ GUARDED_BY(mu_);
  std::chrono::steady_clock::time_point filled_ GUARDED_BY(mu_);
};

// One stacked bar chart per partner (the busiest `max_partners`) of the
// `hours` hours up to `now_hour` (hours since the epoch).
std::string hourly_charts(const std::vector<store::HourCount>& counts, int64_t now_hour, int hours,
                          size_t max_partners = 8);

// One horizontal bar split by outcome, with a legend of the counts.
std::string outcome_mix(const std::vector<store::HourCount>& counts);

}  // namespace edihub::console
