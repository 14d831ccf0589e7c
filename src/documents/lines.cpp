#include "src/documents/lines.h"

#include <charconv>

namespace edihub::documents {

Result<std::vector<Line>> tokenize(const Definitions::File& f) {
  std::vector<Line> lines;
  size_t number = 0, start = 0;
  while (start <= f.text.size()) {
    size_t end = f.text.find('\n', start);
    if (end == std::string::npos) end = f.text.size();
    std::string_view raw(f.text.data() + start, end - start);
    start = end + 1;
    ++number;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    Line line;
    line.number = number;
    line.indented = !raw.empty() && (raw[0] == ' ' || raw[0] == '\t');
    size_t i = 0;
    while (i < raw.size()) {
      const char c = raw[i];
      if (c == ' ' || c == '\t') {
        ++i;
      } else if (c == '#') {
        break;
      } else if (c == '"') {
        const size_t close = raw.find('"', i + 1);
        if (close == std::string_view::npos)
          return Status::invalid(f.name + ":" + std::to_string(number) + ": a quoted name has no closing \"");
        line.tokens.emplace_back(raw.substr(i + 1, close - i - 1));
        line.quoted.push_back(true);
        i = close + 1;
      } else {
        size_t j = i;
        while (j < raw.size() && raw[j] != ' ' && raw[j] != '\t' && raw[j] != '#') ++j;
        line.tokens.emplace_back(raw.substr(i, j - i));
        line.quoted.push_back(false);
        i = j;
      }
    }
    if (!line.tokens.empty()) lines.push_back(std::move(line));
  }
  return lines;
}

std::optional<uint32_t> number_of(std::string_view s) {
  uint32_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<Usage> usage_of(std::string_view s) {
  if (s == "M") return Usage::Mandatory;
  if (s == "O") return Usage::Optional;
  if (s == "X") return Usage::Relational;
  return std::nullopt;
}

}  // namespace edihub::documents
