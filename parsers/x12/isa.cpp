#include "parsers/x12/isa.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace edihub::x12 {

namespace {

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

// Bits 0-104 of a well-formed ISA (106 characters) where its 16 element
// separators are, in two words: characters 0-63 and 64-127.
constexpr uint64_t separator_bits(int word) {
  constexpr int kAt[16] = {3, 6, 17, 20, 31, 34, 50, 53, 69, 76, 81, 83, 89, 99, 101, 103};
  uint64_t bits = 0;
  for (int at : kAt)
    if (at / 64 == word) bits |= uint64_t{1} << (at % 64);
  return bits;
}

// Bit k set when p[k] is c, for k < 64.
uint64_t bits_of(const char* p, char c) {
  uint64_t bits = 0;
#if defined(__SSE2__)
  const __m128i v = _mm_set1_epi8(c);
  for (int k = 0; k < 64; k += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + k));
    bits |= static_cast<uint64_t>(static_cast<uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, v)))) << k;
  }
#else
  for (int k = 0; k < 64; ++k) bits |= static_cast<uint64_t>(p[k] == c) << k;
#endif
  return bits;
}

// Whether buf[pos..] starts with a well-formed ISA: every separator where the
// fixed widths put it, no other separator and no line break through ISA16.
// The general reading in read_isa gives the same result for it, only slower.
bool fixed_width(std::string_view buf, size_t pos) {
  if (buf.size() - pos < 128) return false;  // two whole words to classify
  const char* p = buf.data() + pos;
  const char sep = p[3];
  constexpr uint64_t kHigh = (uint64_t{1} << (105 - 64)) - 1;  // characters 64-104
  const uint64_t sep_lo = bits_of(p, sep), sep_hi = bits_of(p + 64, sep) & kHigh;
  const uint64_t breaks_lo = bits_of(p, '\r') | bits_of(p, '\n');
  const uint64_t breaks_hi = (bits_of(p + 64, '\r') | bits_of(p + 64, '\n')) & kHigh;
  return sep_lo == separator_bits(0) && sep_hi == separator_bits(1) && (breaks_lo | breaks_hi) == 0;
}

}  // namespace

IsaStatus read_isa(std::string_view buf, size_t pos, bool eof, IsaHeader* out, std::string* why) {
  // Collect the header's characters, skipping line breaks (wrapped files).
  IsaHeader& h = *out;
  h = IsaHeader{};
  char* chars = h.text;
  size_t n = 0;
  size_t i = pos;
  char sep = 0;
  size_t sixteenth = 0;
  if (fixed_width(buf, pos)) {
    std::memcpy(chars, buf.data() + pos, 105);
    n = 105;
    i = pos + 105;
    sep = chars[3];
    sixteenth = 103;
  } else {
    int separators = 0;
    while (true) {
      if (i >= buf.size()) {
        if (!eof) return IsaStatus::NeedMore;
        *why = "input ends inside the ISA header (" + std::to_string(n) + " characters, expected 106)";
        return IsaStatus::Invalid;
      }
      if (separators == 16 && n == sixteenth + 2) break;  // next byte is the terminator
      char c = buf[i++];
      if (is_line_break(c)) continue;
      chars[n++] = c;
      if (n == 4) sep = c;
      if (n >= 4 && c == sep && ++separators == 16) sixteenth = n - 1;
      if (n > kMaxIsaScan) {
        *why = "ISA header has fewer than 16 elements in its first " + std::to_string(kMaxIsaScan) + " characters";
        return IsaStatus::Invalid;
      }
    }
  }
  const std::string_view text(chars, n);

  // The terminator: one byte, or a whole UTF-8 sequence.
  size_t tlen = utf8_length(static_cast<unsigned char>(buf[i]));
  if (i + tlen > buf.size()) {
    if (!eof) return IsaStatus::NeedMore;
    tlen = 1;
  }
  for (size_t k = 1; k < tlen; ++k)
    if ((static_cast<unsigned char>(buf[i + k]) & 0xC0) != 0x80) tlen = 1;

  h.delimiters.element = sep;
  h.delimiters.component = text[sixteenth + 1];
  h.delimiters.terminator.size = static_cast<unsigned char>(tlen);
  for (size_t k = 0; k < tlen; ++k) h.delimiters.terminator.bytes[k] = buf[i + k];
  h.raw_length = i + tlen - pos;
  h.length = n + 1;

  size_t start = 0;
  for (int e = 0; e <= 16; ++e) {
    size_t end = text.find(sep, start);
    if (end == std::string_view::npos) end = n;
    h.at[e] = static_cast<uint16_t>(std::min(start, n));
    h.size[e] = static_cast<uint16_t>(end - h.at[e]);
    start = end + 1;
  }

  // ISA11 is the repetition separator from version 00402 on, when it is one.
  const std::string_view version = h.element(12);
  char rep = h.element(11).size() == 1 ? h.element(11)[0] : 0;
  if (version >= "00402" && rep != 0 && !is_alnum(rep) && rep != ' ' && rep != sep && rep != h.delimiters.component &&
      rep != h.delimiters.terminator.bytes[0]) {
    h.delimiters.repetition = rep;
  }
  check_delimiters(&h);
  return IsaStatus::Ok;
}

}  // namespace edihub::x12
