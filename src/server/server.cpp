#include "src/server/server.h"

#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/JSON/Object.h>
#include <Poco/Net/Context.h>
#include <Poco/Net/SecureServerSocket.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/ThreadPool.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <istream>
#include <sstream>
#include <thread>

#include "src/receivers/as2/capture.h"

namespace edihub::server {

namespace {

using Poco::Net::HTTPResponse;
using Poco::Net::HTTPServerRequest;
using Poco::Net::HTTPServerResponse;

struct Shared {
  const config::Gateway& config;
  const as2::As2Context& context;
  const as4::As4Context& as4;
  gate::Gate& gate;
};

// Each worker thread has its own store connection, opened on first use.
store::Store* thread_store(const std::string& uri, std::string* error) {
  thread_local std::unique_ptr<store::Store> store;
  if (!store) {
    auto opened = store::open_store(uri);
    if (!opened.is_ok()) {
      *error = opened.status().message();
      return nullptr;
    }
    store = std::move(opened.value());
  }
  return store.get();
}

void send(HTTPServerResponse& response, int status, const as2::HeaderList& headers, const std::string& body) {
  response.setStatus(static_cast<HTTPResponse::HTTPStatus>(status));
  for (const auto& [k, v] : headers) response.set(k, v);
  response.setContentLength(static_cast<std::streamsize>(body.size()));
  response.send().write(body.data(), static_cast<std::streamsize>(body.size()));
}

void send_text(HTTPServerResponse& response, int status, const std::string& text) {
  send(response, status, {{"Content-Type", "text/plain; charset=utf-8"}}, text + "\n");
}

class HealthHandler : public Poco::Net::HTTPRequestHandler {
 public:
  explicit HealthHandler(const Shared& s) : s_(s) {}
  void handleRequest(HTTPServerRequest&, HTTPServerResponse& response) override {
    std::string error;
    store::Store* store = thread_store(s_.config.store_uri, &error);
    if (store == nullptr || !store->now_ms().is_ok()) return send_text(response, 503, "store unavailable: " + error);
    send_text(response, 200, "ok");
  }

 private:
  const Shared& s_;
};

class MessageHandler : public Poco::Net::HTTPRequestHandler {
 public:
  MessageHandler(const Shared& s, bool as4) : s_(s), as4_(as4) {}
  void handleRequest(HTTPServerRequest& request, HTTPServerResponse& response) override {
    const auto started = std::chrono::steady_clock::now();
    const size_t limit = s_.config.max_body_bytes;
    if (request.hasContentLength() && request.getContentLength64() > static_cast<Poco::Int64>(limit))
      return send_text(response, 413, "body larger than " + std::to_string(limit) + " bytes");
    as2::HttpRequest req;
    for (const auto& [k, v] : request) req.headers.emplace_back(k, v);
    std::istream& in = request.stream();
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
      req.body.append(buf, static_cast<size_t>(in.gcount()));
      if (req.body.size() > limit) return send_text(response, 413, "body larger than " + std::to_string(limit) + " bytes");
    }
    std::string error;
    store::Store* store = thread_store(s_.config.store_uri, &error);
    if (store == nullptr) {
      response.set("Retry-After", "30");
      return send_text(response, 503, "store unavailable");
    }
    // The raw request, kept for the operator and for `edihub replay` (bounded
    // by <archive retention-days>, expired by `edihub purge`).
    if (!s_.config.archive_dir.empty()) {
      auto archived = as2::archive_capture(s_.config.archive_dir, req);
      if (!archived.is_ok()) {
        spdlog::error("{}", archived.status().message());
        response.set("Retry-After", "30");
        return send_text(response, 503, "cannot archive the message");
      }
    }
    as2::HttpAnswer answer;
    if (as4_) {
      as4::Receiver receiver(s_.as4, s_.gate, *store);
      answer = receiver.receive(req);
    } else {
      as2::Receiver receiver(s_.context, s_.gate, *store);
      answer = receiver.receive(req);
    }
    send(response, answer.status, answer.headers, answer.body);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
    const std::string detail = answer.detail.substr(0, 300);  // never whole payloads in the log
    if (s_.config.log_format == "json") {
      Poco::JSON::Object line(Poco::JSON_PRESERVE_KEY_ORDER);
      line.set("protocol", as4_ ? "as4" : "as2");
      line.set("partner", answer.partner);
      line.set("message_id", req.header("Message-ID"));
      line.set("outcome", answer.outcome);
      line.set("status", answer.status);
      line.set("bytes", req.body.size());
      line.set("ms", ms);
      if (!detail.empty()) line.set("detail", detail);
      std::ostringstream json;
      line.stringify(json);
      spdlog::info("{}", json.str());
    } else {
      spdlog::info("{} partner={} message_id={} outcome={} status={} bytes={} ms={}{}{}", as4_ ? "as4" : "as2",
                   answer.partner.empty() ? "-" : answer.partner, req.header("Message-ID"), answer.outcome,
                   answer.status, req.body.size(), ms, detail.empty() ? "" : " detail=", detail);
    }
  }

 private:
  const Shared& s_;
  bool as4_;
};

class NotFound : public Poco::Net::HTTPRequestHandler {
 public:
  void handleRequest(HTTPServerRequest& request, HTTPServerResponse& response) override {
    send_text(response, 404, "no such endpoint: " + request.getMethod() + " " + request.getURI());
  }
};

class Factory : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  explicit Factory(const Shared& s) : s_(s) {}
  Poco::Net::HTTPRequestHandler* createRequestHandler(const HTTPServerRequest& request) override {
    const std::string path = request.getURI().substr(0, request.getURI().find('?'));
    if (path == "/healthz" && request.getMethod() == "GET") return new HealthHandler(s_);
    if (path == s_.config.as2_path && request.getMethod() == "POST") return new MessageHandler(s_, false);
    if (path == "/as4" && request.getMethod() == "POST") return new MessageHandler(s_, true);
    return new NotFound;
  }

 private:
  const Shared& s_;
};

}  // namespace

struct Server::Impl {
  Shared shared;
  Poco::ThreadPool pool;
  std::unique_ptr<Poco::Net::HTTPServer> http;
  int port = 0;
  Impl(const config::Gateway& c, const as2::As2Context& ctx, const as4::As4Context& as4, gate::Gate& g)
      : shared{c, ctx, as4, g}, pool(2, c.threads) {}
};

Server::Server(const config::Gateway& config, const as2::As2Context& context, const as4::As4Context& as4,
               gate::Gate& gate)
    : impl_(std::make_unique<Impl>(config, context, as4, gate)) {}

Server::~Server() { stop(0); }

Status Server::start() {
  const config::Gateway& c = impl_->shared.config;
  try {
    const Poco::Net::SocketAddress address(c.address, static_cast<Poco::UInt16>(c.port));
    Poco::Net::ServerSocket socket;
    if (c.tls_cert.empty()) {
      socket = Poco::Net::ServerSocket(address, 64);
    } else {
      // TLS 1.2+ with the configured certificate; partners are not asked for
      // client certificates (AS2 authenticates messages by their signatures).
      Poco::Net::Context::Params params;
      params.certificateFile = c.tls_cert;
      params.privateKeyFile = c.tls_key;
      params.verificationMode = Poco::Net::Context::VERIFY_NONE;
      params.loadDefaultCAs = false;
      params.cipherList = "HIGH:!aNULL:!MD5:!RC4";
      Poco::Net::Context::Ptr context = new Poco::Net::Context(Poco::Net::Context::TLS_SERVER_USE, params);
      context->disableProtocols(Poco::Net::Context::PROTO_SSLV2 | Poco::Net::Context::PROTO_SSLV3 |
                                Poco::Net::Context::PROTO_TLSV1 | Poco::Net::Context::PROTO_TLSV1_1);
      socket = Poco::Net::SecureServerSocket(address, 64, context);
    }
    impl_->port = socket.address().port();
    auto* params = new Poco::Net::HTTPServerParams;
    params->setMaxThreads(c.threads);
    params->setMaxQueued(c.queue);
    params->setTimeout(Poco::Timespan(c.read_timeout_seconds, 0));
    params->setKeepAlive(true);
    impl_->http = std::make_unique<Poco::Net::HTTPServer>(new Factory(impl_->shared), impl_->pool, socket, params);
    impl_->http->start();
    return Status::ok();
  } catch (const Poco::Exception& e) {
    return Status::unavailable("cannot listen on " + c.address + ":" + std::to_string(c.port) + ": " + e.displayText());
  }
}

void Server::stop(int grace_ms) {
  if (!impl_->http) return;
  impl_->http->stop();  // no new connections
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(grace_ms);
  while (impl_->http->currentConnections() > 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  impl_->http->stopAll(true);
  impl_->http.reset();
  impl_->pool.joinAll();
}

int Server::port() const { return impl_->port; }

}  // namespace edihub::server
