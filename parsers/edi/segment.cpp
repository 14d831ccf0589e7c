#include "parsers/edi/segment.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

// AVX2 forms are compiled beside the SSE2 ones and chosen at run time.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EDIHUB_SCAN_AVX2 1
#else
#define EDIHUB_SCAN_AVX2 0
#endif

namespace edihub::edi {

bool Delimiters::uses_line_breaks() const {
  auto lb = [](char c) { return c == '\n' || c == '\r'; };
  return lb(element) || lb(component) || lb(repetition) || lb(release) || terminator.is_line_break();
}

namespace {

// Position of the next unreleased `sep` in s from `from`, or npos.
size_t find_separator(std::string_view s, size_t from, char sep, char release) {
  while (from < s.size()) {
    const void* hit = std::memchr(s.data() + from, sep, s.size() - from);
    if (hit == nullptr) return std::string_view::npos;
    size_t at = static_cast<const char*>(hit) - s.data();
    if (release == 0) return at;
    size_t run = 0;
    while (at > run && s[at - run - 1] == release) ++run;
    if (run % 2 == 0) return at;
    from = at + 1;
  }
  return std::string_view::npos;
}

std::string_view nth(std::string_view s, char sep, char release, size_t index) {
  size_t start = 0;
  for (size_t i = 0; i < index; ++i) {
    size_t at = find_separator(s, start, sep, release);
    if (at == std::string_view::npos) return {};
    start = at + 1;
  }
  size_t end = find_separator(s, start, sep, release);
  return s.substr(start, end == std::string_view::npos ? s.size() - start : end - start);
}

bool is_line_break(char c) { return c == '\n' || c == '\r'; }

Elements split_on(std::string_view text, char sep, char release);

}  // namespace

Elements split(std::string_view segment, const Delimiters& d) { return split_on(segment, d.element, d.release); }

Elements split_components(std::string_view element, const Delimiters& d) {
  return split_on(element, d.component, d.release);
}

std::string_view element(std::string_view segment, const Delimiters& d, size_t index) {
  return nth(segment, d.element, d.release, index);
}

size_t element_count(std::string_view segment, const Delimiters& d) {
  size_t count = 0;
  size_t at = find_separator(segment, 0, d.element, d.release);
  while (at != std::string_view::npos) {
    ++count;
    at = find_separator(segment, at + 1, d.element, d.release);
  }
  return count;
}

namespace {

// The next `sep` from `i` that no release character escapes, or npos.
size_t next_separator(std::string_view text, char sep, char release, size_t i) {
  if (release == 0) return text.find(sep, i);  // memchr: X12 has no release character
  for (; i < text.size(); ++i) {
    if (text[i] == release) {
      ++i;
    } else if (text[i] == sep) {
      return i;
    }
  }
  return std::string_view::npos;
}

}  // namespace

void split_values(std::string_view text, char sep, char release, size_t max, std::vector<std::string_view>* out) {
  out->clear();
  size_t start = 0;
  while (out->size() + 1 < max) {
    const size_t at = next_separator(text, sep, release, start);
    if (at == std::string_view::npos) break;
    out->push_back(text.substr(start, at - start));
    start = at + 1;
  }
  out->push_back(text.substr(std::min(start, text.size())));
}

std::string unescape(std::string_view value, const Delimiters& d) {
  std::string out;
  append_unescaped(&out, value, d);
  return out;
}

void append_unescaped(std::string* out, std::string_view value, const Delimiters& d) {
  if (d.release == 0 || value.find(d.release) == std::string_view::npos) {
    out->append(value);
    return;
  }
  out->reserve(out->size() + value.size());
  for (size_t i = 0; i < value.size(); ++i) {
    if (value[i] == d.release && i + 1 < value.size()) ++i;
    out->push_back(value[i]);
  }
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

bool valid_tag(std::string_view tag) {
  if (tag.size() < 2 || tag.size() > 3) return false;
  if (tag[0] < 'A' || tag[0] > 'Z') return false;
  for (char c : tag) {
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
  }
  return true;
}

namespace {

// Bit i set when p[i] is one of the four special characters; n <= 64.
uint64_t classify(const char* p, size_t n, const char special[4]) {
  uint64_t mask = 0;
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i a = _mm_set1_epi8(special[0]), b = _mm_set1_epi8(special[1]);
  const __m128i c = _mm_set1_epi8(special[2]), d = _mm_set1_epi8(special[3]);
  for (; i + 16 <= n; i += 16) {
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, a), _mm_cmpeq_epi8(x, b)),
                             _mm_or_si128(_mm_cmpeq_epi8(x, c), _mm_cmpeq_epi8(x, d)));
    mask |= static_cast<uint64_t>(static_cast<uint16_t>(_mm_movemask_epi8(m))) << i;
  }
  if (i < n && n >= 16) {
    // The last 16 bytes, overlapping those already classified: no byte by byte tail.
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - 16));
    __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, a), _mm_cmpeq_epi8(x, b)),
                             _mm_or_si128(_mm_cmpeq_epi8(x, c), _mm_cmpeq_epi8(x, d)));
    mask |= static_cast<uint64_t>(static_cast<uint16_t>(_mm_movemask_epi8(m))) << (n - 16);
    i = n;
  }
#endif
  for (; i < n; ++i) {
    char ch = p[i];
    if (ch == special[0] || ch == special[1] || ch == special[2] || ch == special[3]) mask |= uint64_t{1} << i;
  }
  return mask;
}

uint64_t classify_block(const char* p, const char special[4]) { return classify(p, 64, special); }

#if EDIHUB_SCAN_AVX2
// The same for a whole block, 32 bytes at a time, where the CPU has AVX2.
__attribute__((target("avx2"))) uint64_t classify_block_avx2(const char* p, const char special[4]) {
  const __m256i a = _mm256_set1_epi8(special[0]), b = _mm256_set1_epi8(special[1]);
  const __m256i c = _mm256_set1_epi8(special[2]), d = _mm256_set1_epi8(special[3]);
  const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
  const __m256i mx = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(x, a), _mm256_cmpeq_epi8(x, b)),
                                     _mm256_or_si256(_mm256_cmpeq_epi8(x, c), _mm256_cmpeq_epi8(x, d)));
  const __m256i my = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(y, a), _mm256_cmpeq_epi8(y, b)),
                                     _mm256_or_si256(_mm256_cmpeq_epi8(y, c), _mm256_cmpeq_epi8(y, d)));
  return static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(mx))) |
         static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(my))) << 32;
}
#endif

// The values of `text` between unreleased `sep`s, 64 bytes at a time (most
// segments are one block): a release character escapes the byte after it.
Elements split_on(std::string_view text, char sep, char release) {
  Elements e;
  const char special[4] = {sep, release != 0 ? release : sep, sep, sep};
  const char* p = text.data();
  const size_t n = text.size();
  size_t start = 0;
  bool escaped = false;  // the block before ended with a release character
  for (size_t block = 0; block < n; block += 64) {
    uint64_t mask = classify(p + block, std::min<size_t>(64, n - block), special);
    if (escaped) mask &= ~uint64_t{1};
    escaped = false;
    while (mask != 0) {
      const size_t i = block + static_cast<size_t>(__builtin_ctzll(mask));
      mask &= mask - 1;
      if (p[i] != sep) {  // a release character: the next byte is data
        if ((i & 63) == 63) {
          escaped = true;
        } else {
          mask &= ~(uint64_t{1} << ((i & 63) + 1));
        }
        continue;
      }
      e.push(p + start, i - start);
      start = i + 1;
      if (e.count == Elements::kMax) return e;
    }
  }
  e.push(p + start, n - start);
  return e;
}

std::atomic<bool> sse2_only{false};  // scanner_sse2_only()

// Whether this CPU runs AVX2, asked once per process: the scanner then uses
// its 32-byte forms.
bool cpu_has_avx2() {
#if EDIHUB_SCAN_AVX2
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes && !sse2_only.load(std::memory_order_relaxed);
#else
  return false;
#endif
}

using BlockClassifier = uint64_t (*)(const char*, const char[4]);

BlockClassifier block_classifier() {
#if EDIHUB_SCAN_AVX2
  if (cpu_has_avx2()) return classify_block_avx2;
#endif
  return classify_block;
}

}  // namespace

void scanner_sse2_only(bool on) { sse2_only.store(on, std::memory_order_relaxed); }

inline uint64_t SegmentScanner::mask_at(std::string_view buf, size_t block) {
  const size_t n = std::min<size_t>(64, buf.size() - block);
  if (n < 64) return classify(buf.data() + block, n, special_);  // the tail may still grow
  if (cache_data_ == buf.data() && cache_base_ == base_ && cache_block_ == block) return cache_mask_;
  cache_data_ = buf.data();
  cache_base_ = base_;
  cache_block_ = block;
  cache_mask_ = classify_block_(buf.data() + block, special_);
  return cache_mask_;
}

void SegmentScanner::reset(const Delimiters& d, const ScanOptions& options) {
  d_ = d;
  options_ = options;
  strip_breaks_ = options.ignore_line_breaks && !d.uses_line_breaks();
  const char term = d.terminator.bytes[0];
  // Unused slots repeat the terminator, so they classify nothing new.
  special_[0] = term;
  special_[1] = d.release != 0 ? d.release : term;
  special_[2] = strip_breaks_ ? '\r' : term;
  special_[3] = strip_breaks_ ? '\n' : term;
  cache_data_ = nullptr;
  classify_block_ = block_classifier();
  set_tag_classes();
}

// Long on purpose: the hot loop of the segment scanner, kept whole for speed.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
size_t SegmentScanner::find_terminator(std::string_view buf, size_t from, bool* breaks) {
  const Terminator& t = d_.terminator;
  const char term = t.bytes[0];
  const char rel = d_.release;
  partial_ = std::string_view::npos;
  size_t block = from & ~size_t{63};
  while (block < buf.size()) {
    uint64_t mask = mask_at(buf, block);
    if (from > block) mask &= ~uint64_t{0} << (from - block);
    while (mask != 0) {
      const size_t i = block + static_cast<size_t>(__builtin_ctzll(mask));
      mask &= mask - 1;
      const char ch = buf[i];
      if (ch == term) {
        if (t.size == 1) {
          term_end_ = i + 1;
          return i;
        }
        // Multi-byte terminator: the rest must follow (across a wrapped line
        // break, too); an incomplete tail is "not found".
        size_t j = i + 1, k = 1;
        while (k < t.size && j < buf.size()) {
          if (strip_breaks_ && is_line_break(buf[j])) {
            ++j;
          } else if (buf[j] == t.bytes[k]) {
            ++j;
            ++k;
          } else {
            break;
          }
        }
        if (k == t.size) {
          if (j - i > t.size) *breaks = true;
          term_end_ = j;
          return i;
        }
        if (j >= buf.size()) {
          partial_ = i;
          return std::string_view::npos;
        }
      } else if (rel != 0 && ch == rel) {
        // The release character escapes the next character of the segment, even
        // when a wrapped line break sits between them.
        size_t next = i + 1;
        while (strip_breaks_ && next < buf.size() && is_line_break(buf[next])) {
          *breaks = true;
          ++next;
        }
        if (next >= buf.size()) return std::string_view::npos;
        const size_t skip_to = next + 1;
        if (skip_to >= block + 64) {
          from = skip_to;
          block = from & ~size_t{63};
          goto next_block;
        }
        mask &= ~uint64_t{0} << (skip_to - block);
      } else {
        *breaks = true;
      }
    }
    block += 64;
    from = block;
  next_block:;
  }
  return std::string_view::npos;
}

SegmentScanner::Status SegmentScanner::next(std::string_view buf, size_t* pos, bool eof, uint64_t base, Segment* out) {
  base_ = base;
  size_t start = *pos;
  while (start < buf.size() && is_line_break(buf[start]) && !d_.terminator.is_line_break()) ++start;
  if (d_.terminator.is_line_break()) {
    // Newline-terminated files: blank lines between segments are not segments.
    while (start < buf.size() && is_line_break(buf[start])) ++start;
  }
  if (start >= buf.size()) {
    *pos = start;
    return eof ? Status::End : Status::NeedMore;
  }

  bool breaks = false;
  size_t term = find_terminator(buf, start, &breaks);
  size_t after;
  bool terminated = true;
  if (term == std::string_view::npos) {
    // Without eof an incomplete terminator (wrapped, too) may end the buffer:
    // the segment is only known to be as long as the bytes before it.
    const size_t known = eof || partial_ == std::string_view::npos ? buf.size() : partial_;
    if (known - start > options_.max_segment_bytes) {
      *pos = start;
      return Status::TooLong;
    }
    if (!eof) return Status::NeedMore;
    term = buf.size();
    after = buf.size();
    terminated = false;
  } else {
    if (term - start > options_.max_segment_bytes) {
      *pos = start;
      return Status::TooLong;
    }
    after = term_end_;
  }

  std::string_view text = buf.substr(start, term - start);
  if (d_.terminator.is_line_break()) {
    // "\r\n" after a segment whose terminator is "\n": the CR is not data.
    while (!text.empty() && is_line_break(text.back())) text.remove_suffix(1);
  } else if (breaks) {
    scratch_.clear();
    for (char c : text)
      if (!is_line_break(c)) scratch_.push_back(c);
    text = scratch_;
  }

  size_t tag_end = 0;
  while (tag_end < text.size() && tag_end < 8 && text[tag_end] != d_.element && text[tag_end] != d_.component)
    ++tag_end;

  out->text = text;
  out->tag = text.substr(0, tag_end);
  out->offset = base + start;
  out->end = base + (terminated ? term_end_ : term);
  out->terminated = terminated;

  if (!d_.terminator.is_line_break()) {
    while (after < buf.size() && is_line_break(buf[after])) ++after;
  }
  *pos = after;
  return Status::Ok;
}

namespace {

inline bool upper(char c) { return c >= 'A' && c <= 'Z'; }
inline bool upper_or_digit(char c) { return upper(c) || (c >= '0' && c <= '9'); }

// What a byte can be in a tag (SegmentScanner::tag_class_).
// kLetterA and kUnThird: the third letter of an X12 (ISA, IEA) and of an
// EDIFACT (UNA, UNB, UNE, UNG, UNH, UNT, UNZ) envelope tag.
enum : uint8_t { kAlnum = 1, kTagEnd = 2, kLetterA = 4, kUnThird = 8 };

// What the first two bytes of a tag say, for skip_plain(): one lookup of
// both bytes together tells a valid start (a letter, then a letter or digit)
// and the envelope tags of each standard, without branches.
enum : uint8_t {
  kPairOk = 1,     // a letter, then a letter or a digit
  kEnvelope2 = 2,  // an envelope tag when the tag has 2 bytes (X12 ST, SE, GS, GE)
  kEnvelope3 = 4,  // an envelope tag when it has 3 and the third is kUnThird (EDIFACT UNB, UNH...)
  kEnvelopeA = 8,  // an envelope tag when it has 3 and the third is A (X12 ISA, IEA)
};

using PairClasses = std::array<uint8_t, 65536>;

PairClasses make_pair_classes(SegmentScanner::Envelope e) {
  PairClasses t{};
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      const char x = static_cast<char>(a), y = static_cast<char>(b);
      uint8_t k = upper(x) && upper_or_digit(y) ? kPairOk : 0;
      if (e == SegmentScanner::Envelope::Edifact) {
        if (x == 'U' && y == 'N') k |= kEnvelope2 | kEnvelope3;
      } else if ((x == 'S' && (y == 'T' || y == 'E')) || (x == 'G' && (y == 'S' || y == 'E'))) {
        k |= kEnvelope2;
      } else if (x == 'I' && (y == 'S' || y == 'E')) {
        k |= kEnvelopeA;
      }
      // Indexed by the two bytes as a little-endian 16-bit load gives them.
      t[static_cast<size_t>(a) | static_cast<size_t>(b) << 8] = k;
    }
  }
  return t;
}

const uint8_t* pair_classes(SegmentScanner::Envelope e) {
  static const PairClasses x12 = make_pair_classes(SegmentScanner::Envelope::X12);
  static const PairClasses edifact = make_pair_classes(SegmentScanner::Envelope::Edifact);
  return e == SegmentScanner::Envelope::X12 ? x12.data() : edifact.data();
}

inline unsigned pair_at(const uint8_t* classes, const char* p) {
  uint16_t two;
  std::memcpy(&two, p, 2);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  two = static_cast<uint16_t>(two >> 8 | two << 8);
#endif
  return classes[two];
}

}  // namespace

void SegmentScanner::set_tag_classes() {
  // What a byte can be in a tag, whatever the delimiters: made once.
  static const auto kFixed = [] {
    std::array<uint8_t, 256> t{};
    for (int c = 0; c < 256; ++c) {
      const char ch = static_cast<char>(c);
      uint8_t k = 0;
      if (upper_or_digit(ch)) k |= kAlnum;
      if (ch == 'A') k |= kLetterA;
      if (std::strchr("ABEGHTZ", c) != nullptr && c != 0) k |= kUnThird;
      t[static_cast<size_t>(c)] = k;
    }
    return t;
  }();
  std::memcpy(tag_class_, kFixed.data(), sizeof tag_class_);
  tag_class_[static_cast<unsigned char>(d_.element)] |= kTagEnd;
  tag_class_[static_cast<unsigned char>(d_.terminator.bytes[0])] |= kTagEnd;
}

namespace {

// A block's terminators, release characters, CRs and LFs. special[] is the
// terminator, the release, CR and LF; an unused slot repeats the terminator.
struct BlockMasks {
  uint64_t term = 0, release = 0, cr = 0, lf = 0;
};

// The masks of one whole block, 16 bytes at a time (SSE2).
class SplitSse2 {
 public:
  explicit SplitSse2(const char special[4]) { std::memcpy(special_, special, sizeof special_); }
  BlockMasks at(const char* p) const {
    auto only = [&](char c) {
      const char one[4] = {c, c, c, c};
      return classify_block(p, one);
    };
    const uint64_t term = only(special_[0]);
    return {term, only(special_[1]) & ~term, only(special_[2]) & ~term, only(special_[3]) & ~term};
  }

 private:
  char special_[4];
};

#if EDIHUB_SCAN_AVX2
__attribute__((target("avx2"))) inline uint64_t equal_avx2(__m256i lo, __m256i hi, __m256i v) {
  return static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, v)))) |
         static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, v)))) << 32;
}

// The same, 32 bytes at a time, where the CPU has AVX2; the four characters
// are broadcast once per scan, not once per block.
class SplitAvx2 {
 public:
  __attribute__((target("avx2"))) explicit SplitAvx2(const char special[4])
      : term_(_mm256_set1_epi8(special[0])),
        release_(_mm256_set1_epi8(special[1])),
        cr_(_mm256_set1_epi8(special[2])),
        lf_(_mm256_set1_epi8(special[3])) {}
  __attribute__((target("avx2"))) BlockMasks at(const char* p) const {
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
    const uint64_t term = equal_avx2(lo, hi, term_);
    return {term, equal_avx2(lo, hi, release_) & ~term, equal_avx2(lo, hi, cr_) & ~term,
            equal_avx2(lo, hi, lf_) & ~term};
  }

 private:
  __m256i term_, release_, cr_, lf_;
};
#endif

// What skip_plain() walks in a block: the terminators not yet consumed, and
// the stray characters that stop it before the terminator after them:
// - a line break other than the CR, LF or CR LF right after a terminator
//   (next() drops line breaks inside a segment);
// - a release character right before a terminator, which may escape it.
// A release character anywhere else escapes a byte that is neither: it does
// not move the segment's end, and the walk goes over it.
struct Walk {
  uint64_t term = 0, stray = 0;
};

// Bit 63 of a block's terminators, of its CRs allowed (right after a
// terminator) and of its release characters: what the next block's bit 0 follows.
struct Carry {
  uint64_t term = 0, cr_ok = 0, release = 0;
};

// The walk of a block whose masks are m; *carry goes from the block before to this one.
inline Walk walk_of(const BlockMasks& m, Carry* carry) {
  const uint64_t after_term = m.term << 1 | carry->term;
  const uint64_t cr_ok = m.cr & after_term;
  const uint64_t lf_ok = m.lf & (after_term | cr_ok << 1 | carry->cr_ok);
  // A terminator at bit 0 after a release character at the block before's
  // bit 63: dropped, and its bit made stray, so the walk stops before it.
  const uint64_t escaped_first = carry->release & m.term;
  *carry = {m.term >> 63, cr_ok >> 63, m.release >> 63};
  return {m.term & ~escaped_first, (m.release & m.term >> 1) | escaped_first | (m.cr & ~cr_ok) | (m.lf & ~lf_ok)};
}

// Whether a tag is plain message content, from what pair_classes() says of
// its first two bytes (4 bits) and what tag_class_ says of the next two:
// the third (letter or digit, tag end, kLetterA, kUnThird) and the fourth
// (tag end). Made once; one lookup replaces the branches of the test.
using PlainTags = std::array<uint8_t, 512>;

inline size_t plain_tag_index(unsigned pair, unsigned third, unsigned fourth) {
  return pair | (third & 15) << 4 | (fourth & kTagEnd) << 7;  // the fourth's tag end in bit 8
}

const PlainTags& plain_tags() {
  static const PlainTags table = [] {
    PlainTags t{};
    for (unsigned pair = 0; pair < 16; ++pair) {
      for (unsigned third = 0; third < 16; ++third) {
        for (unsigned fourth : {0u, unsigned{kTagEnd}}) {
          const bool two = (third & kTagEnd) != 0;
          const bool three = !two && (third & kAlnum) != 0 && (fourth & kTagEnd) != 0;
          bool plain = (pair & kPairOk) != 0 && (two || three);
          if (two && (pair & kEnvelope2) != 0) plain = false;
          if (three && (pair & kEnvelope3) != 0 && (third & kUnThird) != 0) plain = false;
          if (three && (pair & kEnvelopeA) != 0 && (third & kLetterA) != 0) plain = false;
          t[plain_tag_index(pair, third, fourth)] = plain ? 1 : 0;
        }
      }
    }
    return t;
  }();
  return table;
}

// What skip_plain() reads and gives back.
struct PlainScan {
  const char* data;
  size_t size;
  size_t max_bytes;
  const uint8_t* tag_class;   // SegmentScanner::tag_class_
  const uint8_t* pairs;       // pair_classes() of the standard
  const uint8_t* plain_tags;  // plain_tags()
  char special[4];
  size_t p;  // in: where to start; out: after the last segment skipped
  uint64_t count = 0;
  size_t last_start = 0;
};

// The masks of the last block of the buffer, shorter than 64 bytes: copied out first.
template <class Split>
__attribute__((noinline)) BlockMasks tail_masks(const PlainScan& s, const Split& split, size_t at) {
  char tail[64] = {};
  std::memcpy(tail, s.data + at, s.size - at);
  BlockMasks m = split.at(tail);
  const uint64_t valid = (uint64_t{1} << (s.size - at)) - 1;
  m.term &= valid;
  m.release &= valid;
  m.cr &= valid;
  m.lf &= valid;
  return m;
}

// The walk of the block at `at`, after the one *carry comes from.
template <class Split>
__attribute__((always_inline)) inline Walk walk_block(const PlainScan& s, const Split& split, size_t at, Carry* carry) {
  if (__builtin_expect(at + 64 <= s.size, 1)) return walk_of(split.at(s.data + at), carry);
  return walk_of(tail_masks(s, split, at), carry);
}

// The bulk loop of the scanner; see skip_plain(). Compiled once per Split,
// each in a function of its instruction set, so the block splitting inlines.
// Long on purpose: kept whole for speed.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
template <class Split>
__attribute__((always_inline)) inline void scan_plain(PlainScan* s) {
  const char* data = s->data;
  const size_t size = s->size;
  size_t p = s->p;
  size_t block = p & ~size_t{63};
  if (block >= size) return;
  const Split split(s->special);
  // Without the block before, a line break at bit 0 counts as stray: next()
  // then reads that segment, as it may.
  Carry carry;
  Walk w = walk_block(*s, split, block, &carry);
  // Everything before p is behind us. From here on, w.term holds only the
  // terminators not yet consumed, and w.stray has no bit before p (a stray
  // character stops the walk), so finding the next terminator does not wait
  // for the checks of the segment before it.
  const uint64_t from_p = ~uint64_t{0} << (p - block);
  w.term &= from_p;
  w.stray &= from_p;
  uint64_t count = 0;
  size_t last_start = 0;
  const bool small_limit = s->max_bytes < 64;
  while (true) {
    // CR LF, LF or nothing after the last terminator (w.stray has the others).
    size_t start = p;
    if (start + 6 > size) break;
    start += data[start] == '\r';
    start += data[start] == '\n';
    // Tag: 2 or 3 letters/digits, then an element separator or the terminator,
    // and no envelope tag: one lookup.
    const auto* tag = reinterpret_cast<const unsigned char*>(data + start);
    if (s->plain_tags[plain_tag_index(pair_at(s->pairs, data + start), s->tag_class[tag[2]], s->tag_class[tag[3]])] ==
        0)
      break;
    // The segment's terminator is the next one not consumed, with no stray
    // character before it.
    size_t at = block;
    uint64_t term = w.term, stray = w.stray;
    if (term == 0) {
      // The terminator is in a block ahead (a segment across blocks: a third
      // of them at 24 bytes a segment).
      do {
        if (stray != 0) goto done;
        at += 64;
        if (at >= size || at > start + s->max_bytes) goto done;  // start may be in this block already
        const Walk n = walk_block(*s, split, at, &carry);
        term = n.term;
        stray = n.stray;
      } while (term == 0);
    }
    if ((stray & ((term & (0 - term)) - 1)) != 0) break;
    const size_t i = at + static_cast<size_t>(__builtin_ctzll(term));
    // next() reports a segment too long; within one block, only a limit
    // below 64 bytes can be reached.
    if ((at != block || small_limit) && i - start > s->max_bytes) break;
    ++count;
    last_start = start;
    p = i + 1;
    block = at;
    w = {term & (term - 1), stray};
  }
done:
  s->p = p;
  s->count = count;
  s->last_start = last_start;
}

void scan_plain_sse2(PlainScan* s) { scan_plain<SplitSse2>(s); }

#if EDIHUB_SCAN_AVX2
__attribute__((target("avx2"))) void scan_plain_avx2(PlainScan* s) { scan_plain<SplitAvx2>(s); }
#endif

using PlainScanner = void (*)(PlainScan*);

PlainScanner plain_scanner() {
#if EDIHUB_SCAN_AVX2
  if (cpu_has_avx2()) return scan_plain_avx2;
#endif
  return scan_plain_sse2;
}

}  // namespace

SegmentScanner::Skipped SegmentScanner::skip_plain(std::string_view buf, size_t* pos, uint64_t base,
                                                   Envelope envelope) {
  Skipped out;
  if (d_.terminator.size != 1 || d_.terminator.is_line_break()) return out;
  base_ = base;
  // Letters or digits as service characters (INVALID_DELIMITERS) would split
  // tags the way next() does not: leave such interchanges to next().
  if (upper_or_digit(d_.element) || upper_or_digit(d_.component) || upper_or_digit(d_.terminator.bytes[0]) ||
      upper_or_digit(d_.release))
    return out;
  PlainScan scan{buf.data(),
                 buf.size(),
                 options_.max_segment_bytes,
                 tag_class_,
                 pair_classes(envelope),
                 plain_tags().data(),
                 {special_[0], special_[1], special_[2], special_[3]},
                 *pos};
  plain_scanner()(&scan);
  if (scan.count > 0) {
    out.count = scan.count;
    out.last_offset = base + scan.last_start;
    out.last_end = base + scan.p;
    *pos = scan.p;
  }
  return out;
}

}  // namespace edihub::edi
