#include "src/business/extract_util.h"

#include <algorithm>
#include <limits>

namespace edihub::business::internal {

MessageSegments::MessageSegments(const edi::Interchange& ic, const edi::Message& m, std::string_view input)
    : d_(ic.delimiters), base_(m.span.offset), first_(m.first_segment), position_(m.first_segment) {
  // Until a segment is read, where() names the message header.
  seg_.tag = ic.standard == edi::Standard::X12 ? "ST" : "UNH";
  if (m.span.offset > input.size()) {
    error_ = "the message's bytes (offset " + std::to_string(m.span.offset) + ") lie outside the input (" +
             std::to_string(input.size()) + " bytes)";
    return;
  }
  bytes_ = input.substr(m.span.offset, m.span.length);
  scanner_.reset(d_, edi::ScanOptions{});
}

bool MessageSegments::next() {
  if (!error_.empty()) return false;
  auto status = scanner_.next(bytes_, &pos_, true, base_, &seg_);
  if (status == edi::SegmentScanner::Status::End) return false;
  if (status != edi::SegmentScanner::Status::Ok) {
    error_ = "segment " + std::to_string(first_ + index_) + ": no segment terminator found (segment too long)";
    return false;
  }
  position_ = first_ + index_;
  ++index_;
  el_ = edi::split(seg_.text, d_);
  return true;
}

namespace {

// Unescaped, then trimmed ("A? " is "A "); with no release character in it, one copy.
std::string trimmed_value(std::string_view v, const edi::Delimiters& d) {
  if (d.release == 0 || v.find(d.release) == std::string_view::npos) return trim_blanks(v);
  return trim_blanks(edi::unescape(v, d));
}

}  // namespace

std::string MessageSegments::text(size_t i) const { return trimmed_value(el_[i], d_); }

std::string MessageSegments::comp(size_t i, size_t c) const { return trimmed_value(edi::component(el_[i], d_, c), d_); }

std::string MessageSegments::where() const { return internal::where(position_, seg_.tag); }

std::string where(uint64_t position, std::string_view tag) {
  return "segment " + std::to_string(position) + " (" + std::string(tag) + ")";
}

std::string quote(std::string_view value) {
  constexpr size_t kShown = 40;
  if (value.size() <= kShown) return "'" + std::string(value) + "'";
  return "'" + std::string(value.substr(0, kShown)) + "...'";
}

std::string trim_blanks(std::string_view s) {
  auto blank = [](char c) { return c == ' ' || c == '\t'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return std::string(s);
}

bool all_digits(std::string_view s) {
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

std::optional<int> line_number(std::string_view s) {
  if (s.empty() || !all_digits(s)) return std::nullopt;
  while (s.size() > 1 && s.front() == '0') s.remove_prefix(1);
  if (s.size() > 9) return std::nullopt;
  int v = 0;
  for (char c : s) v = v * 10 + (c - '0');
  if (v == 0) return std::nullopt;
  return v;
}

namespace {

struct Parts {
  bool negative = false;
  std::string_view whole, fraction;
};

std::optional<Parts> lex(std::string_view s, char mark) {
  Parts p;
  if (!s.empty() && s.front() == '-') {
    p.negative = true;
    s.remove_prefix(1);
  }
  p.whole = s;
  size_t at = s.find(mark);
  if (at != std::string_view::npos) {
    p.whole = s.substr(0, at);
    p.fraction = s.substr(at + 1);
  }
  if (p.whole.empty() && p.fraction.empty()) return std::nullopt;
  if (!all_digits(p.whole) || !all_digits(p.fraction)) return std::nullopt;
  return p;
}

// Significant digits as an integer and the number of fraction digits.
struct Scaled {
  bool negative = false;
  uint64_t mantissa = 0;
  int scale = 0;
};

std::optional<Scaled> scaled(std::string_view s, char mark) {
  auto p = lex(s, mark);
  if (!p) return std::nullopt;
  std::string_view whole = p->whole, fraction = p->fraction;
  while (!fraction.empty() && fraction.back() == '0') fraction.remove_suffix(1);
  while (!whole.empty() && whole.front() == '0') whole.remove_prefix(1);
  // The significant digits: the whole part, its leading zeros gone, then the
  // fraction; with no whole part, the fraction's leading zeros are not
  // significant either.
  size_t lead = 0;
  if (whole.empty())
    while (lead < fraction.size() && fraction[lead] == '0') ++lead;
  if (whole.size() + fraction.size() - lead > 18) return std::nullopt;
  Scaled out;
  out.negative = p->negative;
  for (char c : whole) out.mantissa = out.mantissa * 10 + static_cast<uint64_t>(c - '0');
  for (size_t i = lead; i < fraction.size(); ++i)
    out.mantissa = out.mantissa * 10 + static_cast<uint64_t>(fraction[i] - '0');
  out.scale = static_cast<int>(fraction.size());
  if (fraction.size() > 1000) return std::nullopt;
  return out;
}

// The decimal `p` was read from, with '.' as the mark and a whole part.
std::string decimal_form(const Parts& p) {
  std::string out;
  if (p.negative) out += '-';
  out += p.whole.empty() ? std::string_view("0") : p.whole;
  if (!p.fraction.empty()) {
    out += '.';
    out += p.fraction;
  }
  return out;
}

}  // namespace

bool normalize_decimal(std::string* value, char mark) {
  auto p = lex(*value, mark);
  if (!p) return false;
  const bool has_mark = value->size() > (p->negative ? 1 : 0) + p->whole.size();
  if (p->whole.empty() || (has_mark && (mark != '.' || p->fraction.empty()))) *value = decimal_form(*p);
  return true;
}

std::optional<std::string> checked_decimal(const MessageSegments& s, std::string value, char mark,
                                           std::string_view name, bool name_the_mark, std::string* error) {
  if (value.empty()) {
    *error = s.where() + ": " + std::string(name) + " is empty";
    return std::nullopt;
  }
  if (!normalize_decimal(&value, mark)) {
    *error = s.where() + ": " + std::string(name) + " " + quote(value) + " is not a decimal number";
    if (name_the_mark) *error += " (decimal mark '" + std::string(1, mark) + "')";
    return std::nullopt;
  }
  return value;
}

std::optional<int64_t> product_minor(std::string_view quantity, std::string_view price, char mark) {
  auto a = scaled(quantity, mark), b = scaled(price, mark);
  if (!a || !b) return std::nullopt;
  using U = unsigned __int128;
  U m = static_cast<U>(a->mantissa) * static_cast<U>(b->mantissa);  // < 10^36
  int scale = a->scale + b->scale;
  U q;
  if (scale <= 2) {
    q = m;
    for (int i = scale; i < 2; ++i) q *= 10;
  } else if (scale - 2 > 36) {
    q = 0;  // m < 10^36 is less than half of 10^(scale-2)
  } else {
    U p = 1;
    for (int i = 0; i < scale - 2; ++i) p *= 10;
    q = m / p;
    if ((m % p) * 2 >= p) ++q;
  }
  if (q > static_cast<U>(std::numeric_limits<int64_t>::max())) return std::nullopt;
  int64_t v = static_cast<int64_t>(q);
  return a->negative != b->negative ? -v : v;
}

std::optional<int64_t> add_minor(int64_t a, int64_t b) {
  int64_t out;
  if (__builtin_add_overflow(a, b, &out)) return std::nullopt;
  return out;
}

size_t line_reserve(const edi::Message& m) { return std::min<size_t>(m.segments, 1024); }

std::vector<Value> empty_values(const std::vector<Field>& fields) {
  std::vector<Value> out;
  out.reserve(fields.size());
  for (const Field& f : fields) {
    if (f.kind == FieldKind::OptionalInteger) {
      out.push_back(Value::none());
    } else if (f.kind == FieldKind::Integer || f.kind == FieldKind::Flag) {
      out.push_back(Value::of(int64_t{0}));
    } else {
      out.push_back(Value::of(std::string()));
    }
  }
  return out;
}

ReadDocument new_document(const DocumentType& t) {
  ReadDocument out;
  out.handled = true;
  out.document.type = &t;
  out.document.fields = empty_values(t.fields);
  return out;
}

}  // namespace edihub::business::internal
