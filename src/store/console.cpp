#include "src/store/console.h"

namespace edihub::store {

std::string control_number_pattern(const std::string& control) {
  std::string p = "%:";
  for (char c : control) {
    if (c == '%' || c == '_' || c == '\\') p += '\\';
    p += c;
  }
  return p;
}

}  // namespace edihub::store
