// Store times (ms since the epoch) as people read them.
#pragma once

#include <cstdint>
#include <string>

namespace edihub {

// ISO 8601 UTC to the second ("2026-12-01T09:53:53Z"); "-" for 0 (none).
std::string iso_utc(int64_t ms);

}  // namespace edihub
