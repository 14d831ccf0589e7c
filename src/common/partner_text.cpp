#include "src/common/partner_text.h"

namespace edihub {

std::string partner_text(std::string_view value, size_t max) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  out.reserve(value.size() < max ? value.size() : max);
  for (unsigned char c : value) {
    const size_t need = (c >= 0x20 && c < 0x7f) ? 1 : 4;
    if (out.size() + need > max) {
      // Leave room for the marker: the cut is visible, never silent.
      while (!out.empty() && out.size() + 3 > max) out.pop_back();
      out += "...";
      return out;
    }
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
