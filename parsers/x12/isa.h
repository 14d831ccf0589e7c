// Reading the fixed-width ISA header, which defines an X12 interchange's
// delimiters.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/edi/delimiters.h"

namespace edihub::x12 {

struct IsaHeader {
  edi::Delimiters delimiters;
  std::array<std::string, 17> elements;  // [1] = ISA01 ... [16] = ISA16, untrimmed
  size_t raw_length = 0;                 // bytes of buf through the terminator (line breaks included)
  size_t length = 0;                     // characters through the terminator; 106 when well formed
  std::vector<std::string> problems;     // delimiter problems, for the caller to report
};

enum class IsaStatus { Ok, NeedMore, Invalid };

// Reads the ISA starting at buf[pos] ("ISA" must be there). Line breaks inside
// the header are skipped, as in files wrapped at 80 columns; a line break right
// after ISA16 is the terminator. `why` says what is wrong on Invalid.
IsaStatus read_isa(std::string_view buf, size_t pos, bool eof, IsaHeader* out, std::string* why);

}  // namespace edihub::x12
