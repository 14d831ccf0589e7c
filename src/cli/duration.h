// Durations on the command line: "500ms", "0s", "90s", "15m", "36h", "7d".
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace edihub::cli {

// Milliseconds, or nullopt when `text` is not a number followed by ms/s/m/h/d.
std::optional<int64_t> parse_duration_ms(std::string_view text);

}  // namespace edihub::cli
