// The one way a value a partner wrote (a header, an id, an error text that
// quotes partner bytes) reaches a receipt, a capture index, the message log or
// a log line: printable ASCII only, never a line break, bounded.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace edihub {

// `value` with every byte outside 0x20..0x7E written as \xNN (so CR LF, NUL,
// DEL and non-ASCII cannot end a line or a header), cut to `max` bytes of
// output with "..." when longer. The result is safe inside a header value,
// an MDN text line, a log line and a JSON string.
std::string partner_text(std::string_view value, size_t max = 256);

// True when `value` is non-empty, at most `max` bytes, and has no byte that
// partner_text() would escape.
bool is_printable(std::string_view value, size_t max);

}  // namespace edihub
