#include "src/receivers/http.h"

#include "parsers/mime/entity.h"

namespace edihub::receivers {

std::string HttpRequest::header(std::string_view name) const {
  for (const auto& [k, v] : headers)
    if (mime::iequals(k, name)) return v;
  return {};
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

void log_transport(store::Store& store, std::string_view protocol, const std::string& transport_id,
                   const HttpRequest& request, const HttpAnswer& answer,
                   std::chrono::steady_clock::time_point started) {
  store::MessageLog entry;
  entry.partner_id = answer.partner;
  entry.protocol = std::string(protocol);
  entry.transport = "http";
  entry.transport_id = transport_id;
  entry.message_id = answer.partner.empty() || transport_id.empty() ? "" : entry.protocol + ":" + transport_id;
  entry.outcome = answer.outcome.empty() ? "error" : answer.outcome;
  entry.detail = answer.detail.substr(0, 2000);
  entry.bytes = static_cast<int64_t>(request.body.size());
  entry.duration_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  store.log(entry);  // best effort: the answer stands either way
}

}  // namespace edihub::receivers
