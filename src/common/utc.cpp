#include "src/common/utc.h"

#include <ctime>

namespace edihub {

std::string iso_utc(int64_t ms) {
  if (ms == 0) return "-";
  std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace edihub
