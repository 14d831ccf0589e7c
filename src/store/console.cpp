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

Result<std::optional<Operator>> ConsoleStore::find_operator(const std::string& name) {
  if (name.empty()) return std::optional<Operator>();
  Result<std::vector<Operator>> found = operators(name);
  if (!found.is_ok()) return found.status();
  if (found->empty()) return std::optional<Operator>();
  return std::optional<Operator>(std::move(found.value()[0]));
}

}  // namespace edihub::store
