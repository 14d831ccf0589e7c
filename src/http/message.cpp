#include "src/http/message.h"

#include "parsers/mime/entity.h"

namespace edihub::http {

std::string HttpRequest::header(std::string_view name) const {
  for (const auto& [k, v] : headers)
    if (mime::iequals(k, name)) return v;
  return {};
}

int HttpRequest::count(std::string_view name) const {
  int n = 0;
  for (const auto& [k, v] : headers)
    if (mime::iequals(k, name)) ++n;
  return n;
}

HttpAnswer text_answer(int status, std::string_view text, Outcome outcome) {
  HttpAnswer a;
  a.status = status;
  a.headers = {{"Content-Type", "text/plain; charset=utf-8"}};
  a.body = std::string(text) + "\n";
  a.outcome = outcome;
  a.detail = std::string(text);
  return a;
}

std::string join_headers(const HeaderList& headers) {
  std::string out;
  for (const auto& [k, v] : headers) out += k + ": " + v + "\r\n";
  return out;
}

HeaderList split_headers(std::string_view lines) {
  HeaderList out;
  size_t pos = 0;
  while (pos < lines.size()) {
    size_t end = lines.find("\r\n", pos);
    if (end == std::string_view::npos) end = lines.size();
    std::string_view line = lines.substr(pos, end - pos);
    size_t colon = line.find(": ");
    if (colon != std::string_view::npos)
      out.emplace_back(std::string(line.substr(0, colon)), std::string(line.substr(colon + 2)));
    pos = end + 2;
  }
  return out;
}

}  // namespace edihub::http
