#include "src/cli/duration.h"

#include <ctime>

namespace edihub::cli {

std::optional<int64_t> parse_duration_ms(std::string_view text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || digits > 12) return std::nullopt;
  int64_t n = 0;
  for (size_t i = 0; i < digits; ++i) n = n * 10 + (text[i] - '0');
  std::string_view unit = text.substr(digits);
  if (unit == "ms") return n;
  if (unit == "s") return n * 1000;
  if (unit == "m") return n * 60 * 1000;
  if (unit == "h") return n * 3600 * 1000;
  if (unit == "d") return n * 24 * 3600 * 1000;
  return std::nullopt;
}

std::string iso_utc(int64_t ms) {
  if (ms == 0) return "-";
  std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace edihub::cli
