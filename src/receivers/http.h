// What every receiver takes and gives: an HTTP request and its answer, as
// plain values (the server adapts POCO's), and the message-log row of a
// transport message.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/store/store.h"

namespace edihub::receivers {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
  HeaderList headers;
  std::string body;
  // The first header called `name` (case-insensitive), or empty.
  std::string header(std::string_view name) const;
};

struct HttpAnswer {
  int status = 200;
  HeaderList headers;
  std::string body;
  std::string outcome;  // for the log: processed, duplicate, conflict, rejected, error
  std::string partner;
  std::string message_id;  // the transport's message id, when known (AS4: from the SOAP header)
  std::string detail;
};

// Logs the messages row of one transport message (AS2 or AS4), best effort.
void log_transport(store::Store& store, std::string_view protocol, const std::string& transport_id,
                   const HttpRequest& request, const HttpAnswer& answer,
                   std::chrono::steady_clock::time_point started);

// Stored receipts keep the answer's header lines; these convert.
std::string join_headers(const HeaderList& headers);
HeaderList split_headers(std::string_view lines);

}  // namespace edihub::receivers
