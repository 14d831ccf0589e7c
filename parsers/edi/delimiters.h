// The service characters of one interchange, read from its ISA or UNA.
#pragma once

#include <cstddef>
#include <string_view>

namespace edihub::edi {

// A segment terminator is one character, or a short UTF-8 sequence for the
// rare partner who ends segments with e.g. U+2026.
struct Terminator {
  char bytes[4] = {'~', 0, 0, 0};
  unsigned char size = 1;

  std::string_view view() const { return {bytes, size}; }
  bool is_line_break() const { return size == 1 && (bytes[0] == '\n' || bytes[0] == '\r'); }
};

struct Delimiters {
  char element = '*';
  char component = ':';
  char repetition = 0;  // 0: the interchange has none
  char release = 0;     // EDIFACT only; 0: none
  char decimal = '.';   // EDIFACT only
  Terminator terminator;

  // True when CR or LF is one of the service characters, so line breaks carry
  // meaning and may not be dropped as wrapping.
  bool uses_line_breaks() const;
};

}  // namespace edihub::edi
