// Internal to src/business/: what the X12 and EDIFACT extractors share. Not
// part of the documents.h contract.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/edi/segment.h"
#include "src/business/documents.h"
#include "src/business/registry.h"

namespace edihub::business::internal {

Extracted extract_x12_856(const edi::Interchange& ic, const edi::Message& m, std::string_view input);
Extracted extract_x12_810(const edi::Interchange& ic, const edi::Message& m, std::string_view input);
Extracted extract_desadv(const edi::Interchange& ic, const edi::Message& m, std::string_view input);
Extracted extract_invoic(const edi::Interchange& ic, const edi::Message& m, std::string_view input);
ReadDocument read_x12_850(const edi::Interchange& ic, const edi::Message& m, std::string_view input);
ReadDocument read_x12_855(const edi::Interchange& ic, const edi::Message& m, std::string_view input);
ReadDocument read_orders(const edi::Interchange& ic, const edi::Message& m, std::string_view input);
ReadDocument read_ordrsp(const edi::Interchange& ic, const edi::Message& m, std::string_view input);

// The fields of order_type() and order_response_type(), by position (registry.cpp lists them).
enum OrderField { kOrderType, kCurrency, kBuyer, kSeller, kShipTo, kDeliveryDate, kTotal };
enum OrderLine { kLineNumber, kItemId, kItemIdType, kQuantity, kUnit, kUnitPrice };
enum ResponseField { kRespOrderNumber, kRespType, kRespBuyer, kRespSeller };
enum ResponseLine { kRespLineNumber, kRespItemId, kRespItemIdType, kRespQuantity, kRespUnit, kRespStatus };

// How many lines to make room for before a message is read: one per segment
// at most, and no more than 1,024 up front (past that the vector grows).
size_t line_reserve(const edi::Message& m);

// One value per field, each empty (text ""), zero or NULL by its kind.
std::vector<Value> empty_values(const std::vector<Field>& fields);
// A handled document of type `t`, its fields empty: what a reader fills.
ReadDocument new_document(const DocumentType& t);

// Walks the segments of one message (ST..SE / UNH..UNT), split into elements.
// The views stay valid until the next call of next().
class MessageSegments {
 public:
  MessageSegments(const edi::Interchange& ic, const edi::Message& m, std::string_view input);

  // False at the end of the message, or when it cannot be read (see error()).
  bool next();

  std::string_view tag() const { return seg_.tag; }
  // Element i, 0 = tag; empty when absent. Released separators not unescaped.
  std::string_view raw(size_t i) const { return el_[i]; }
  // Element i unescaped, blanks at both ends removed.
  std::string text(size_t i) const;
  // Component c (0-based) of element i, unescaped and trimmed.
  std::string comp(size_t i, size_t c) const;
  size_t count() const { return el_.count; }  // tag included

  // 1-based position of the current segment in the input (as EnvelopeError::segment).
  uint64_t position() const { return position_; }
  // "segment 12 (BSN)" for the current segment; once next() has returned
  // false, for the last one read (the message header when none was).
  std::string where() const;
  const std::string& error() const { return error_; }
  const edi::Delimiters& delimiters() const { return d_; }

 private:
  edi::Delimiters d_;
  std::string_view bytes_;
  uint64_t base_ = 0;
  uint64_t first_ = 0;
  size_t pos_ = 0;
  uint64_t index_ = 0;
  uint64_t position_ = 0;
  edi::SegmentScanner scanner_;
  edi::Segment seg_;
  edi::Elements el_;
  std::string error_;
};

// A decimal element's or component's `value` of the current segment of `s`,
// written with `mark`, returned in its stored form (normalize_decimal); else
// nullopt and `*error`: "<where>: <name> is empty", or "<where>: <name>
// "<value>" is not a decimal number", followed by " (decimal mark 'M')" when
// `name_the_mark` (EDIFACT, where the interchange chooses it).
std::optional<std::string> checked_decimal(const MessageSegments& s, std::string value, char mark,
                                           std::string_view name, bool name_the_mark, std::string* error);

// "segment 12 (BSN)".
std::string where(uint64_t position, std::string_view tag);
// A value for an error message: quoted, shortened when long.
std::string quote(std::string_view value);
std::string trim_blanks(std::string_view s);

// A decimal number: optional '-', digits, optionally `mark` and more digits,
// at least one digit. Rewrites `*value` in place with '.' as the mark and a
// whole part ("1,5" -> "1.5", ",5" -> "0.5", "5," -> "5"); false, `*value`
// unchanged, when it is no such number. A value already in that form (the
// usual case) is not rebuilt.
bool normalize_decimal(std::string* value, char mark);

// quantity x price in minor units (two decimals), rounded half away from
// zero, computed exactly; nullopt when either is no decimal number, has more
// than 18 significant digits, or the result does not fit.
std::optional<int64_t> product_minor(std::string_view quantity, std::string_view price, char mark);

// Checked a + b.
std::optional<int64_t> add_minor(int64_t a, int64_t b);

bool all_digits(std::string_view s);
// A positive line number ("0001" -> 1), or nullopt.
std::optional<int> line_number(std::string_view s);

}  // namespace edihub::business::internal
