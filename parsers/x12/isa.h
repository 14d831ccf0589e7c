// Reading the fixed-width ISA header, which defines an X12 interchange's
// delimiters.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/edi/delimiters.h"

namespace edihub::x12 {

// How long a header may be before it is no ISA at all (a badly padded one is).
constexpr size_t kMaxIsaScan = 256;

struct IsaHeader {
  edi::Delimiters delimiters;
  // element(1) is ISA01 ... element(16) ISA16, untrimmed; element(0) is "ISA".
  std::string_view element(size_t i) const { return std::string_view(text + at[i], size[i]); }
  size_t raw_length = 0;              // bytes of buf through the terminator (line breaks included)
  size_t length = 0;                  // characters through the terminator; 106 when well formed
  std::vector<std::string> problems;  // delimiter problems, for the caller to report

  // The header's characters without line breaks, and where each element is
  // in them (offsets, so a copy of the header stays whole).
  char text[kMaxIsaScan + 1] = {};
  uint16_t at[17] = {};
  uint16_t size[17] = {};
};

enum class IsaStatus { Ok, NeedMore, Invalid };

// Reads the ISA starting at buf[pos] ("ISA" must be there). Line breaks inside
// the header are skipped, as in files wrapped at 80 columns; a line break right
// after ISA16 is the terminator. `why` says what is wrong on Invalid.
IsaStatus read_isa(std::string_view buf, size_t pos, bool eof, IsaHeader* out, std::string* why);

}  // namespace edihub::x12
