// Reads one HTTP/1.1 request from bytes as they arrive, strictly (Boost.Beast's
// parser: one Content-Length or chunked, never both; no negative, non-decimal
// or differing lengths; bounded header block and body). The server feeds it
// from the socket; replay and the fuzz target feed it whole captures: the
// same bytes are always read the same way.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "src/common/status.h"
#include "src/http/message.h"

namespace edihub::http {

struct ReaderLimits {
  size_t max_head_bytes = 65536;  // request line and headers
  size_t max_body_bytes = 100u << 20;
};

class RequestReader {
 public:
  enum class State {
    NeedMore,  // feed more bytes
    Head,      // the request line and headers are read: request() has them (no body yet)
    Done,      // the whole request is read: request() has the body too
    Failed,    // the bytes are no acceptable request: answer failure() and close
  };

  explicit RequestReader(const ReaderLimits& limits);
  ~RequestReader();
  RequestReader(const RequestReader&) = delete;
  RequestReader& operator=(const RequestReader&) = delete;

  // Reads from `data`; returns how many bytes were used (the rest belongs to
  // what follows: more of this request, or the next one). Stops once at the
  // end of the head (State::Head) so the caller can screen it first; call
  // again to read the body.
  size_t feed(std::string_view data, State* state);
  // Whether the sender waits for "100 Continue" before sending the body.
  bool expects_continue() const;
  bool keep_alive() const;
  // The Content-Length, when the request has one.
  std::optional<uint64_t> content_length() const;
  // Body bytes read so far (what the request holds in memory).
  size_t body_bytes() const;
  HttpRequest& request() { return request_; }
  // The answer to a Failed request (400, 413, 431 with the reason).
  const HttpAnswer& failure() const { return failure_; }

 private:
  void fail(int status, const std::string& why);
  void take_head();

  struct Impl;
  std::unique_ptr<Impl> impl_;
  size_t max_head_bytes_;
  HttpRequest request_;
  HttpAnswer failure_;
  bool head_taken_ = false;
};

// The standard reason phrase of an HTTP status ("Payload Too Large").
std::string_view reason_phrase(int status);

// The whole request in `bytes` (a capture); the failure answer otherwise.
Result<HttpRequest> read_request(std::string_view bytes, const ReaderLimits& limits = {});

}  // namespace edihub::http
