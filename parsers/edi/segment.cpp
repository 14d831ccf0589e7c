#include "parsers/edi/segment.h"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace edihub::edi {

bool Delimiters::uses_line_breaks() const {
  auto lb = [](char c) { return c == '\n' || c == '\r'; };
  return lb(element) || lb(component) || lb(repetition) || lb(release) ||
         terminator.is_line_break();
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

}  // namespace

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

std::string_view component(std::string_view value, const Delimiters& d, size_t index) {
  return nth(value, d.component, d.release, index);
}

std::string unescape(std::string_view value, const Delimiters& d) {
  std::string out;
  out.reserve(value.size());
  for (size_t i = 0; i < value.size(); ++i) {
    if (d.release != 0 && value[i] == d.release && i + 1 < value.size()) ++i;
    out.push_back(value[i]);
  }
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

bool valid_tag(std::string_view tag) {
  if (tag.size() < 2 || tag.size() > 3) return false;
  if (tag[0] < 'A' || tag[0] > 'Z') return false;
  for (char c : tag) {
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
  }
  return true;
}

void SegmentScanner::reset(const Delimiters& d, const ScanOptions& options) {
  d_ = d;
  options_ = options;
  strip_breaks_ = options.ignore_line_breaks && !d.uses_line_breaks();
}

// First position >= from holding one of a, b, c, d; `size` when none.
// Segments are short, so this runs once or twice per segment: 16 bytes a step.
size_t find_any(const char* p, size_t from, size_t size, char a, char b, char c, char d) {
#if defined(__SSE2__)
  const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b);
  const __m128i vc = _mm_set1_epi8(c), vd = _mm_set1_epi8(d);
  while (from + 16 <= size) {
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + from));
    __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)),
                             _mm_or_si128(_mm_cmpeq_epi8(x, vc), _mm_cmpeq_epi8(x, vd)));
    int mask = _mm_movemask_epi8(m);
    if (mask != 0) return from + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    from += 16;
  }
#endif
  for (; from < size; ++from) {
    char ch = p[from];
    if (ch == a || ch == b || ch == c || ch == d) return from;
  }
  return size;
}

size_t SegmentScanner::find_terminator(std::string_view buf, size_t from, bool* breaks) const {
  const Terminator& t = d_.terminator;
  const char term = t.bytes[0];
  const char rel = d_.release != 0 ? d_.release : term;
  const char cr = strip_breaks_ ? '\r' : term;
  const char lf = strip_breaks_ ? '\n' : term;
  size_t i = from;
  while (true) {
    i = find_any(buf.data(), i, buf.size(), term, rel, cr, lf);
    if (i >= buf.size()) return std::string_view::npos;
    const char ch = buf[i];
    if (ch == term) {
      if (t.size == 1) return i;
      // Multi-byte terminator: the rest must follow; an incomplete tail is "not found".
      if (i + t.size > buf.size()) return std::string_view::npos;
      if (std::memcmp(buf.data() + i, t.bytes, t.size) == 0) return i;
      ++i;
    } else if (ch == rel) {
      // The release character escapes the next character of the segment, even
      // when a wrapped line break sits between them.
      ++i;
      while (strip_breaks_ && i < buf.size() && is_line_break(buf[i])) {
        *breaks = true;
        ++i;
      }
      ++i;
    } else {
      *breaks = true;
      ++i;
    }
  }
}

SegmentScanner::Status SegmentScanner::next(std::string_view buf, size_t* pos, bool eof,
                                            uint64_t base, Segment* out) {
  size_t start = *pos;
  while (start < buf.size() && is_line_break(buf[start]) && !d_.terminator.is_line_break())
    ++start;
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
    if (buf.size() - start > options_.max_segment_bytes) return Status::TooLong;
    if (!eof) return Status::NeedMore;
    term = buf.size();
    after = buf.size();
    terminated = false;
  } else {
    if (term - start > options_.max_segment_bytes) return Status::TooLong;
    after = term + d_.terminator.size;
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
  while (tag_end < text.size() && tag_end < 8 && text[tag_end] != d_.element &&
         text[tag_end] != d_.component)
    ++tag_end;

  out->text = text;
  out->tag = text.substr(0, tag_end);
  out->offset = base + start;
  out->end = base + (terminated ? term + d_.terminator.size : term);
  out->terminated = terminated;

  if (!d_.terminator.is_line_break()) {
    while (after < buf.size() && is_line_break(buf[after])) ++after;
  }
  *pos = after;
  return Status::Ok;
}

}  // namespace edihub::edi
