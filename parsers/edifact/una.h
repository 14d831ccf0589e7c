// The optional UNA service string advice, which sets an EDIFACT interchange's
// delimiters; without it the ISO 9735 defaults `:+.? '` apply.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "parsers/edi/delimiters.h"

namespace edihub::edifact {

// The defaults of ISO 9735 for UNOA..UNOY without UNA (repetition `*` only in
// syntax version 4, set once the UNB is read).
edi::Delimiters default_delimiters();

enum class UnaStatus { Ok, NeedMore, Invalid };

struct Una {
  edi::Delimiters delimiters;
  char repetition_or_reserved = ' ';  // UNA5: repetition separator in version 4
  size_t raw_length = 0;              // bytes of buf through the UNA terminator
};

// Reads "UNA" + 6 service characters at buf[pos]. Line breaks inside are
// skipped (wrapped files); the sixth character is taken as it is.
UnaStatus read_una(std::string_view buf, size_t pos, bool eof, Una* out, std::string* why);

}  // namespace edihub::edifact
