// libFuzzer target for the reader of a partner's AS4 answer (eb:Receipt or
// eb:Error): any bytes, a signal or what makes it unreadable, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "parsers/as4/signal.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  edihub::as4::Signal s;
  const std::string why = edihub::as4::parse_signal(std::string_view(reinterpret_cast<const char*>(data), size), &s);
  if (why.empty() && !s.receipt && s.errors.empty()) __builtin_trap();  // a signal says something
  return 0;
}
