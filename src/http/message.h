// What every receiver takes and gives: an HTTP request as the edge accepted
// it and the answer to it, as plain values (the server adapts its HTTP
// library's, replay reads them from captures).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/common/outcome.h"

namespace edihub::http {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
  std::string method = "POST", target;
  HeaderList headers;  // as received (header_problem() in edge.h checks them)
  std::string head;    // request line and header block exactly as received: what a capture keeps
  std::string body;    // transfer coding (chunked) removed
  std::string peer;    // the client's address, for the log
  // The TLS client certificate's SHA-256 (lower-case hex of the DER), from the
  // connection's handshake, never from a header; empty without one or over plain HTTP.
  std::string client_cert_sha256;
  // The first header called `name` (case-insensitive), or empty.
  std::string header(std::string_view name) const;
  // How many headers are called `name`.
  int count(std::string_view name) const;
};

struct HttpAnswer {
  int status = 200;
  HeaderList headers;
  std::string body;
  bool close = false;  // close the connection after answering (the request could not be read whole)
  // For the log line: what happened, to whom, why.
  Outcome outcome = Outcome::Error;
  std::string partner;
  std::string transport_id;  // the transport's message id when known (safe text)
  std::string detail;
};

// A plain-text answer (errors before any receipt can be made).
HttpAnswer text_answer(int status, std::string_view text, Outcome outcome);
// Seconds in Retry-After for a transient answer (the partner sends again).
inline constexpr int kRetryAfterSeconds = 30;

// Stored receipts keep the answer's header lines; these convert.
std::string join_headers(const HeaderList& headers);
HeaderList split_headers(std::string_view lines);

}  // namespace edihub::http
