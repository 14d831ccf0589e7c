// Durations and times on the command line: "500ms", "0s", "90s", "15m",
// "36h", "7d"; "2026-12-01T09:53:53Z".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace edihub::cli {

// Milliseconds, or nullopt when `text` is not a number followed by ms/s/m/h/d.
std::optional<int64_t> parse_duration_ms(std::string_view text);

// A store time (ms since the epoch) as ISO 8601 UTC to the second; "-" for 0 (none).
std::string iso_utc(int64_t ms);

}  // namespace edihub::cli
