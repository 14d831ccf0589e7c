#include "src/common/partner_text.h"

namespace edihub {

std::string partner_text(std::string_view value, size_t max) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  out.reserve(value.size() < max ? value.size() : max);
  // Where the last units (a byte or an escape) began: a cut never splits one.
  size_t starts[4] = {0, 0, 0, 0};
  size_t units = 0;
  for (unsigned char c : value) {
    const size_t need = (c >= 0x20 && c < 0x7f) ? 1 : 4;
    if (out.size() + need > max) {
      // Room for the marker: the cut is visible, never silent.
      size_t keep = out.size();
      for (size_t i = 0; i < 4 && i < units && keep + 3 > max; ++i) keep = starts[(units - 1 - i) % 4];
      out.resize(keep + 3 > max ? 0 : keep);
      out += max >= 3 ? "..." : "";
      return out;
    }
    starts[units++ % 4] = out.size();
    if (need == 1) {
      out.push_back(static_cast<char>(c));
    } else {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xf]);
    }
  }
  return out;
}

bool is_printable(std::string_view value, size_t max) {
  if (value.empty() || value.size() > max) return false;
  for (unsigned char c : value)
    if (c < 0x20 || c >= 0x7f) return false;
  return true;
}

}  // namespace edihub
