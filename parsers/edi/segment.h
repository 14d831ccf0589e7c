// Splitting a byte stream into segments, and a segment into elements.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/edi/delimiters.h"

namespace edihub::edi {

struct Segment {
  std::string_view text;  // tag and elements, without terminator or line breaks
  std::string_view tag;
  uint64_t offset = 0;     // absolute offset of the first byte
  uint64_t end = 0;        // absolute offset after the terminator
  bool terminated = true;  // false for a last segment cut off before its terminator
};

// A segment split into elements once: [0] is the tag, [i] element i (empty
// when absent). Views into the segment; released separators not unescaped.
// Values past kMax are dropped.
struct Elements {
  static constexpr size_t kMax = 24;  // envelope segments have at most 17
  Elements() = default;
  // Copies the values only: the rest of `at` is never set (a split costs no
  // more than its values).
  Elements(const Elements& o) : count(o.count) { std::copy_n(o.at, o.count, at); }
  Elements& operator=(const Elements& o) {
    if (this != &o) {
      count = o.count;
      std::copy_n(o.at, o.count, at);
    }
    return *this;
  }
  std::string_view operator[](size_t i) const {
    return i < count ? std::string_view(at[i].data, at[i].size) : std::string_view();
  }
  void push(const char* data, size_t size) { at[count++] = {data, size}; }

  size_t count = 0;
  // The first `count` hold the values.
  struct Piece {
    const char* data;
    size_t size;
  } at[kMax];
};
Elements split(std::string_view segment, const Delimiters& d);
// The same for the components of an element value (`component` separator).
Elements split_components(std::string_view element, const Delimiters& d);

// Element `index` of a segment (0 is the tag), or empty when absent. Released
// separators are skipped but not unescaped; see unescape().
std::string_view element(std::string_view segment, const Delimiters& d, size_t index);
// Number of elements after the tag.
size_t element_count(std::string_view segment, const Delimiters& d);
// Component `index` (0-based) of a composite element value; with `released`,
// also whether that component has a release character to remove. Inline:
// the envelope builders call it for every value of every header.
inline std::string_view component(std::string_view value, const Delimiters& d, size_t index, bool* released = nullptr) {
  // Element values are short: one pass, byte by byte, finds the component
  // and whether a release character is in it.
  const char release = d.release, separator = d.component;
  size_t start = 0, end = value.size(), k = 0;
  bool found_release = false;
  for (size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    if (c == release && release != 0) {
      if (k == index) found_release = true;
      ++i;  // the next character is data
    } else if (c == separator) {
      if (k == index) {
        end = i;
        break;
      }
      ++k;
      start = i + 1;
    }
  }
  if (released != nullptr) *released = k == index && found_release;
  return k == index ? value.substr(start, end - start) : std::string_view();
}

// The values of `text` between `sep` (an element or a component separator),
// views into `text`: a separator after `release` (0: none) is data. At most
// `max` values; the last one then holds the rest.
void split_values(std::string_view text, char sep, char release, size_t max, std::vector<std::string_view>* out);
// Removes release characters (EDIFACT `?+` -> `+`).
std::string unescape(std::string_view value, const Delimiters& d);
// The same, appended to *out.
void append_unescaped(std::string* out, std::string_view value, const Delimiters& d);
// Trailing spaces removed (X12 fixed-width ISA fields).
std::string_view trim(std::string_view s);
// 2-3 upper-case letters or digits, starting with a letter.
bool valid_tag(std::string_view tag);
// Not empty, and only the digits 0-9.
bool all_digits(std::string_view s);

struct ScanOptions {
  // Drop CR/LF found inside segments: partners wrap files at 80 columns.
  bool ignore_line_breaks = true;
  size_t max_segment_bytes = 4 << 20;
};

// Finds segment boundaries. Views it returns stay valid until the next call
// or until the caller's buffer changes.
//
// Speed matters here (every byte of every file passes through it): the
// scanner classifies 64 bytes at a time into a bit mask of the characters it
// must look at (terminator, release, CR, LF) and then jumps from bit to bit.
class SegmentScanner {
 public:
  enum class Status { Ok, NeedMore, End, TooLong };

  void reset(const Delimiters& d, const ScanOptions& options);

  // Reads the segment starting at or after buf[*pos] (line breaks before it are
  // skipped). On Ok, *pos is past its terminator and any line breaks after it.
  // `base` is the absolute offset of buf[0]. With eof = false, a segment that
  // may continue past the buffer gives NeedMore and leaves *pos unchanged.
  // On TooLong, *pos is the first byte of the segment that is too long.
  Status next(std::string_view buf, size_t* pos, bool eof, uint64_t base, Segment* out);

  // Which segments skip_plain() must leave to next(): those an envelope
  // builder looks at.
  enum class Envelope { X12, Edifact };

  struct Skipped {
    uint64_t count = 0;
    uint64_t last_offset = 0;  // absolute offset of the last segment skipped
    uint64_t last_end = 0;     // absolute offset after its terminator
  };

  // The fast path for the bulk of a file: consumes, from buf[*pos], complete
  // segments that are plain message content (a valid tag that is no envelope
  // tag, no release character or line break inside, a one-byte terminator)
  // and only counts them. Stops before the first segment that needs next().
  Skipped skip_plain(std::string_view buf, size_t* pos, uint64_t base, Envelope envelope);

 private:
  // Position of the next unreleased terminator from `from`, or npos; sets
  // *breaks when line breaks to drop lie before it, and term_end_ to the
  // offset after the terminator's last byte. On npos, partial_ is where an
  // incomplete terminator (possibly wrapped) ends the buffer, or npos.
  size_t find_terminator(std::string_view buf, size_t from, bool* breaks);
  // Bits of the special characters in buf[block, block + 64), cached.
  uint64_t mask_at(std::string_view buf, size_t block);
  // tag_class_: what a byte can be in a tag, for skip_plain() (bits in segment.cpp).
  void set_tag_classes();
  uint8_t tag_class_[256] = {};
  // Classifies one full block (SSE2, or AVX2 where the CPU has it).
  uint64_t (*classify_block_)(const char*, const char[4]) = nullptr;

  Delimiters d_;
  ScanOptions options_;
  bool strip_breaks_ = true;
  char special_[4] = {0, 0, 0, 0};
  std::string scratch_;
  size_t term_end_ = 0;
  size_t partial_ = std::string_view::npos;
  // Cache of the last full block's mask: valid for the same buffer and base.
  const char* cache_data_ = nullptr;
  uint64_t cache_base_ = ~0ull;
  size_t cache_block_ = ~size_t{0};
  uint64_t cache_mask_ = 0;
  uint64_t base_ = 0;
};

// For tests: scanners reset from now on use the SSE2 forms even where the
// CPU has AVX2 (both give the same results).
void scanner_sse2_only(bool on);

}  // namespace edihub::edi
