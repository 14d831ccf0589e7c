#include "src/cli/duration.h"

namespace edihub::cli {

std::optional<int64_t> parse_duration_ms(std::string_view text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  // 9 digits of days is 2.7 million years: the product stays far inside int64.
  if (digits == 0 || digits > 9) return std::nullopt;
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

}  // namespace edihub::cli
