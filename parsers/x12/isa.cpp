#include "parsers/x12/isa.h"

#include <cctype>

namespace edihub::x12 {

namespace {

// Enough for a badly padded ISA; beyond it the header is not an ISA at all.
constexpr size_t kMaxIsaScan = 256;

bool is_line_break(char c) { return c == '\n' || c == '\r'; }
bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// Length of the UTF-8 sequence led by c, 1 for ASCII and stray bytes.
size_t utf8_length(unsigned char c) {
  if (c >= 0xF0 && c <= 0xF7) return 4;
  if (c >= 0xE0) return c <= 0xEF ? 3 : 1;
  if (c >= 0xC2) return 2;
  return 1;
}

void check_delimiters(IsaHeader* h) {
  edi::Delimiters& d = h->delimiters;
  char t = d.terminator.bytes[0];
  if (is_alnum(d.element) || d.element == ' ')
    h->problems.push_back(std::string("element separator '") + d.element + "' is a letter, digit or space");
  if (is_alnum(d.component) || d.component == ' ')
    h->problems.push_back(std::string("component separator (ISA16) '") + d.component + "' is a letter, digit or space");
  if (d.terminator.size == 1 && (is_alnum(t) || t == ' '))
    h->problems.push_back(std::string("segment terminator '") + t + "' is a letter, digit or space");
  if (d.component == d.element || (d.terminator.size == 1 && (t == d.element || t == d.component)))
    h->problems.push_back("element separator, component separator and segment terminator are not all different");
}

}  // namespace

IsaStatus read_isa(std::string_view buf, size_t pos, bool eof, IsaHeader* out, std::string* why) {
  // Collect the header's characters, skipping line breaks (wrapped files).
  std::string chars;
  size_t i = pos;
  char sep = 0;
  int separators = 0;
  size_t sixteenth = 0;
  while (true) {
    if (i >= buf.size()) {
      if (!eof) return IsaStatus::NeedMore;
      *why = "input ends inside the ISA header (" + std::to_string(chars.size()) + " characters, expected 106)";
      return IsaStatus::Invalid;
    }
    if (separators == 16 && chars.size() == sixteenth + 2) break;  // next byte is the terminator
    char c = buf[i++];
    if (is_line_break(c)) continue;
    chars.push_back(c);
    if (chars.size() == 4) sep = c;
    if (chars.size() >= 4 && c == sep && ++separators == 16) sixteenth = chars.size() - 1;
    if (chars.size() > kMaxIsaScan) {
      *why = "ISA header has fewer than 16 elements in its first " + std::to_string(kMaxIsaScan) + " characters";
      return IsaStatus::Invalid;
    }
  }

  // The terminator: one byte, or a whole UTF-8 sequence.
  size_t tlen = utf8_length(static_cast<unsigned char>(buf[i]));
  if (i + tlen > buf.size()) {
    if (!eof) return IsaStatus::NeedMore;
    tlen = 1;
  }
  for (size_t k = 1; k < tlen; ++k)
    if ((static_cast<unsigned char>(buf[i + k]) & 0xC0) != 0x80) tlen = 1;

  IsaHeader h;
  h.delimiters.element = sep;
  h.delimiters.component = chars[sixteenth + 1];
  h.delimiters.terminator.size = static_cast<unsigned char>(tlen);
  for (size_t k = 0; k < tlen; ++k) h.delimiters.terminator.bytes[k] = buf[i + k];
  h.raw_length = i + tlen - pos;
  h.length = chars.size() + 1;

  size_t start = 0;
  for (int e = 0; e <= 16; ++e) {
    size_t end = chars.find(sep, start);
    if (end == std::string::npos) end = chars.size();
    h.elements[e] = chars.substr(start, end - start);
    start = end + 1;
  }

  // ISA11 is the repetition separator from version 00402 on, when it is one.
  const std::string& version = h.elements[12];
  char rep = h.elements[11].size() == 1 ? h.elements[11][0] : 0;
  if (version >= "00402" && rep != 0 && !is_alnum(rep) && rep != ' ' && rep != sep && rep != h.delimiters.component &&
      rep != h.delimiters.terminator.bytes[0]) {
    h.delimiters.repetition = rep;
  }
  check_delimiters(&h);
  *out = std::move(h);
  return IsaStatus::Ok;
}

}  // namespace edihub::x12
