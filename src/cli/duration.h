// Durations and times on the command line: "500ms", "0s", "90s", "15m",
// "36h", "7d"; "2026-12-01T09:53:53Z".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "src/common/utc.h"

namespace edihub::cli {

// Milliseconds, or nullopt when `text` is not a number followed by ms/s/m/h/d.
std::optional<int64_t> parse_duration_ms(std::string_view text);

using edihub::iso_utc;  // src/common/utc.h

}  // namespace edihub::cli
