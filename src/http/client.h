// POSTs with libcurl for the outbox: the status, the answer's headers and
// its body (bounded), or why there is none. Only http(s), no redirects.
#pragma once

#include <cstdint>
#include <string>

namespace edihub::http {

struct Response {
  int status = 0;       // 0: no HTTP answer (see error)
  std::string headers;  // "Name: value\r\n" lines of the final answer
  std::string body;
  std::string error;  // connection refused, timeout ...; empty with an answer
};

// POSTs `body` with the header lines to `url`, waiting at most `timeout_seconds`.
Response post(const std::string& url, const std::string& header_lines, const std::string& body, int timeout_seconds,
              size_t max_answer_bytes = 16u << 20);
// The same, waiting at most `timeout_ms` (an OCSP question on a message's path).
Response post_ms(const std::string& url, const std::string& header_lines, const std::string& body, int64_t timeout_ms,
                 size_t max_answer_bytes);

}  // namespace edihub::http
