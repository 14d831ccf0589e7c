// The dashboard's pictures, drawn on the server as SVG: traffic per partner
// per hour with its outcomes stacked, and the outcome mix. Plain markup (no
// script), so the page's Content-Security-Policy stays strict.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/store/console.h"

namespace edihub::console {

// One stacked bar chart per partner (the busiest `max_partners`) of the
// `hours` hours up to `now_hour` (hours since the epoch).
std::string hourly_charts(const std::vector<store::HourCount>& counts, int64_t now_hour, int hours,
                          size_t max_partners = 8);

// One horizontal bar split by outcome, with a legend of the counts.
std::string outcome_mix(const std::vector<store::HourCount>& counts);

}  // namespace edihub::console
