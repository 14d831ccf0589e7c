// The partner-facing HTTP/1.1 server: a few I/O threads (Boost.Asio) read
// every connection, so a slow or stalled sender costs a socket, never a worker;
// complete requests go to a bounded pool of workers (on plain TCP the worker
// writes a kept-alive answer itself and starts the connection's next read, so
// no I/O thread is woken for it). Every request has a
// deadline for its head and one for its body; connections are capped per
// client and in all; request bodies held in memory are capped gateway-wide.
// Requests are read by RequestReader (src/http/reader.h), the same
// reader replay and the fuzz target use.
//
// Why not POCO's HTTPServer: POCO 1.11 ends the header block at a 0xFF byte,
// closes on a malformed Content-Length without an answer, takes a negative
// one, reads with a per-read timeout only and holds a worker thread per
// connection (tests/integration/http_edge_test.sh shows each case).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "src/common/status.h"
#include "src/http/message.h"

namespace edihub::http {

struct ListenerOptions {
  std::string address = "127.0.0.1";
  int port = 8080;
  std::string tls_cert, tls_key;  // both empty: plain HTTP
  // With TLS: ask every client for a certificate (never require one) and
  // accept any it proves it holds the key of; its SHA-256 goes into each
  // HttpRequest of the connection (client_cert_sha256), which a partner's
  // <auth client-cert> pins. Trust comes from the pin, not from a CA.
  bool request_client_cert = false;
  int io_threads = 2;  // reading and writing every connection
  int threads = 8;     // workers handling complete requests
  int queue = 64;      // complete requests waiting for a worker; more: 503
  size_t max_head_bytes = 65536;
  size_t max_body_bytes = 100u << 20;
  size_t max_buffered_bytes = 512u << 20;  // request bodies in memory, all connections together
  int head_timeout_ms = 10000;             // from the connection (or the previous answer) to the end of the head
  int request_timeout_ms = 120000;         // from the end of the head to the end of the body
  int max_connections = 512;
  int max_connections_per_client = 64;
};

// What on_head decided: answer now, read the body, or first hand the head to
// a worker (on_head_work) for what it decides that costs time.
struct HeadDecision {
  HeadDecision(std::nullopt_t) {}                                      // NOLINT: read the body
  HeadDecision(HttpAnswer a) : answer(std::move(a)) {}                 // NOLINT: answer now
  HeadDecision(std::optional<HttpAnswer> a) : answer(std::move(a)) {}  // NOLINT
  static HeadDecision on_worker() {
    HeadDecision d(std::nullopt);
    d.work = true;
    return d;
  }
  std::optional<HttpAnswer> answer;
  bool work = false;
};

// What the server asks of the application.
class Handler {
 public:
  virtual ~Handler() = default;
  // On the I/O thread, when a request's head is read: an answer now (health,
  // or a refusal the head alone decides), the body to be read, or the head
  // for a worker first. Must not block: no store, no PBKDF2, no network.
  virtual HeadDecision on_head(const HttpRequest& head) = 0;
  // On a worker, when on_head asked for it, before the body is read: an
  // answer ends the request (its body never read), nullopt reads the body.
  virtual std::optional<HttpAnswer> on_head_work(const HttpRequest&) { return std::nullopt; }
  // On a worker thread: the whole request.
  virtual HttpAnswer on_request(const HttpRequest& request) = 0;
  // The log line: on the worker right after on_request(), or on the I/O
  // thread after an answer it gave itself (a refusal, /healthz) was written.
  virtual void on_answered(const HttpRequest& request, const HttpAnswer& answer, int64_t elapsed_ms) = 0;
};

class HttpServer {
 public:
  HttpServer(ListenerOptions options, Handler& handler);
  ~HttpServer();

  // Binds and starts the I/O thread and the workers. Unavailable when the
  // address cannot be bound or the TLS files cannot be used.
  Status start();
  // Stops accepting, lets requests in flight finish (up to `grace_ms`).
  void stop(int grace_ms);
  int port() const;

  struct Impl;  // the listener's state, shared with its connections (server.cpp)

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace edihub::http
