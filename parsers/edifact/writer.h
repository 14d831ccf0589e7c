// Writes the segments of an EDIFACT interchange edihub sends back (CONTRL,
// APERAK) in the original's delimiters, counting them for UNT. Every value
// that came from a partner goes through esc() or text(): the one place that
// keeps it from ending an element, a component or the segment.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "parsers/edi/interchange.h"

namespace edihub::edifact {

class Writer {
 public:
  // As X12's: no readability suffix after a line-break terminator.
  Writer(const edi::Delimiters& d, std::string suffix)
      : d_(d), suffix_(d.terminator.is_line_break() ? std::string() : std::move(suffix)) {}

  // A value as data: each service character released; without a release
  // character (syntax 3 without UNA) replaced by a space.
  std::string esc(std::string_view v) const;
  // Free text for FTX (people's words, a partner's value quoted in them):
  // esc(), control characters and bytes outside ASCII as spaces, and in
  // upper case with anything else outside level A's repertoire a space when
  // `syntax` is UNOA (ISO 9735 level A has no lower case).
  std::string text(std::string_view v, std::string_view syntax) const;
  // "id:qualifier", or "id" without a qualifier; escaped.
  std::string party(const edi::Party& p) const;
  // Elements are written as given (already escaped); trailing empty ones dropped.
  void segment(std::initializer_list<std::string> elements);
  void una();
  // The answer's UNA (where `original`'s delimiters are not the defaults) and
  // UNB: `original`'s syntax, from `sender` to `recipient` (empty: the
  // original's recipient and sender), date:time, control `reference`.
  void interchange_header(const edi::Interchange& original, const std::optional<edi::Party>& sender,
                          const std::optional<edi::Party>& recipient, std::string_view date, std::string_view time,
                          std::string_view reference);
  char comp() const { return d_.component; }
  size_t count() const { return count_; }
  void reset_count() { count_ = 0; }
  std::string take() { return std::move(out_); }

 private:
  bool service(char c) const;

  edi::Delimiters d_;
  std::string suffix_;
  std::string out_;
  size_t count_ = 0;
};

// The original's syntax identifier and version as an answer repeats them
// (UNOA and 3 when the original did not say).
std::string syntax_of(const edi::Interchange& original);
std::string syntax_version_of(const edi::Interchange& original);

// True when `d` are the delimiters a reader assumes without a UNA.
bool is_default(const edi::Delimiters& d);

}  // namespace edihub::edifact
