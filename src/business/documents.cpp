#include "src/business/documents.h"

#include <exception>
#include <limits>

#include "src/business/extract_util.h"

namespace edihub::business {

std::string_view purpose_name(Purpose p) {
  switch (p) {
    case Purpose::Original:
      return "original";
    case Purpose::Replace:
      return "replace";
    case Purpose::Cancel:
      return "cancel";
  }
  return "original";
}

bool handled(const edi::Interchange& ic, const edi::Message& m) {
  if (ic.standard == edi::Standard::X12) return m.type == "856" || m.type == "810";
  return m.type == "DESADV" || m.type == "INVOIC";
}

Extracted extract(const edi::Interchange& ic, const edi::Message& m, std::string_view input) {
  if (!handled(ic, m)) return {};
  try {
    if (ic.standard == edi::Standard::X12) {
      return m.type == "856" ? internal::extract_x12_856(ic, m, input) : internal::extract_x12_810(ic, m, input);
    }
    return m.type == "DESADV" ? internal::extract_desadv(ic, m, input) : internal::extract_invoic(ic, m, input);
  } catch (const std::exception& e) {
    Extracted out;
    out.error = std::string("cannot read the ") + m.type + " message: " + e.what();
    return out;
  } catch (...) {
    Extracted out;
    out.error = "cannot read the " + m.type + " message";
    return out;
  }
}

std::optional<int64_t> to_minor(std::string_view s, int decimals, char mark) {
  if (decimals < 0 || decimals > 18) return std::nullopt;
  bool negative = false;
  if (!s.empty() && s.front() == '-') {
    negative = true;
    s.remove_prefix(1);
  }
  std::string_view whole = s, fraction;
  size_t at = s.find(mark);
  if (at != std::string_view::npos) {
    whole = s.substr(0, at);
    fraction = s.substr(at + 1);
  }
  if (whole.empty() && fraction.empty()) return std::nullopt;
  if (!internal::all_digits(whole) || !internal::all_digits(fraction)) return std::nullopt;

  constexpr uint64_t kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  uint64_t v = 0;
  auto push = [&](int digit) {
    if (v > (kMax - static_cast<uint64_t>(digit)) / 10) return false;
    v = v * 10 + static_cast<uint64_t>(digit);
    return true;
  };
  for (char c : whole)
    if (!push(c - '0')) return std::nullopt;
  for (int i = 0; i < decimals; ++i) {
    int digit = static_cast<size_t>(i) < fraction.size() ? fraction[i] - '0' : 0;
    if (!push(digit)) return std::nullopt;
  }
  // Half away from zero: only the first dropped digit decides.
  if (fraction.size() > static_cast<size_t>(decimals) && fraction[decimals] >= '5') {
    if (v == kMax) return std::nullopt;
    ++v;
  }
  int64_t out = static_cast<int64_t>(v);
  return negative ? -out : out;
}

}  // namespace edihub::business
