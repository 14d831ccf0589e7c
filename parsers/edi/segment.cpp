#include "parsers/edi/segment.h"

#include <cstring>

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

size_t SegmentScanner::find_terminator(std::string_view buf, size_t from) const {
  const Terminator& t = d_.terminator;
  while (true) {
    size_t at = find_separator(buf, from, t.bytes[0], d_.release);
    if (at == std::string_view::npos || t.size == 1) return at;
    // Multi-byte terminator: the rest must follow; an incomplete tail is "not found".
    if (at + t.size > buf.size()) return std::string_view::npos;
    if (std::memcmp(buf.data() + at, t.bytes, t.size) == 0) return at;
    from = at + 1;
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

  size_t term = find_terminator(buf, start);
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
  } else if (strip_breaks_ && (std::memchr(text.data(), '\n', text.size()) != nullptr ||
                               std::memchr(text.data(), '\r', text.size()) != nullptr)) {
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
