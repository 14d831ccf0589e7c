#include "src/server/server.h"

#include <chrono>

#include "src/common/event_log.h"
#include "src/common/partner_text.h"
#include "src/console/console.h"
#include "src/http/server.h"
#include "src/protocols/as2/mdn_intake.h"
#include "src/protocols/as2/outbound.h"
#include "src/receivers/pipeline.h"
#include "src/server/log_writer.h"
#include "src/server/metrics.h"

namespace edihub::server {

namespace {

using http::HttpAnswer;
using http::HttpRequest;

// Each thread has its own store connection, opened on first use.
store::Store* thread_store(const std::string& uri, std::string* error) {
  thread_local std::unique_ptr<store::Store> store;
  thread_local std::string opened_uri;
  if (!store || opened_uri != uri) {
    // The server's threads share one writer: several messages per COMMIT.
    store::StoreOptions options;
    options.group_commit = true;
    auto opened = store::open_store(uri, options);
    if (!opened.is_ok()) {
      *error = opened.status().message();
      return nullptr;
    }
    store = std::move(opened.value());
    opened_uri = uri;
  }
  return store.get();
}

std::string path_of(const HttpRequest& r) { return r.target.substr(0, r.target.find('?')); }

// GET /readyz: the store answers.
HttpAnswer ready_answer(const std::string& store_uri) {
  std::string error;
  store::Store* store = thread_store(store_uri, &error);
  Result<int64_t> now = store != nullptr ? store->now_ms() : Result<int64_t>(Status::unavailable(error));
  HttpAnswer a = now.is_ok() ? http::text_answer(200, "ready", Outcome::Processed)
                             : http::text_answer(503, "store unavailable: " + now.status().message(), Outcome::Error);
  a.detail.clear();
  return a;
}

}  // namespace

// The <metrics> listener: GET /metrics, /healthz, /readyz; no log line per scrape.
struct MetricsHandler : http::Handler {
  MetricsHandler(const config::Gateway& c, const Metrics& m, const gate::Gate& g, const LogWriter& l,
                 std::vector<CertificateInUse> certs)
      : config(c),
        metrics(m),
        gate(g),
        log(l),
        certificates(std::move(certs)),
        max_failures(g.options().max_failures) {}

  http::HeadDecision on_head(const HttpRequest& head) override {
    const std::string path = path_of(head);
    if (head.method == "GET" && path == "/healthz") return http::text_answer(200, "ok", Outcome::Processed);
    if (head.method == "GET" && (path == "/metrics" || path == "/readyz"))
      return std::nullopt;  // a worker asks the store
    return http::text_answer(404, "no such endpoint (GET /metrics, /healthz, /readyz)", Outcome::Rejected);
  }
  HttpAnswer on_request(const HttpRequest& request) override {
    if (path_of(request) == "/readyz") return ready_answer(config.store_uri);
    std::string error;
    store::Store* store = thread_store(config.store_uri, &error);
    Result<store::Gauges> gauges =
        store != nullptr ? store->gauges(max_failures) : Result<store::Gauges>(Status::unavailable(error));
    Result<int64_t> now = store != nullptr ? store->now_ms() : Result<int64_t>(Status::unavailable(error));
    const int64_t now_ms =
        now.is_ok()
            ? now.value()
            : std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
                  .count();
    HttpAnswer a;
    a.status = 200;
    a.headers = {{"Content-Type", "text/plain; version=0.0.4; charset=utf-8"}};
    a.body = metrics.render(gauges.is_ok() ? &gauges.value() : nullptr, certificates, now_ms) +
             render_gate(gate.stats()) + render_log(log.counted(), log.dropped());
    a.outcome = Outcome::Processed;
    return a;
  }
  void on_answered(const HttpRequest&, const HttpAnswer&, int64_t) override {}

  const config::Gateway& config;
  const Metrics& metrics;
  const gate::Gate& gate;
  const LogWriter& log;
  const std::vector<CertificateInUse> certificates;
  const int max_failures;
};

// The <console> listener: the operator console (src/console/), one log line per request.
struct ConsoleHandler : http::Handler {
  explicit ConsoleHandler(console::Context context) : app(std::move(context)) {}
  http::HeadDecision on_head(const HttpRequest& head) override { return app.on_head(head); }
  HttpAnswer on_request(const HttpRequest& request) override { return app.handle(request); }
  void on_answered(const HttpRequest& request, const HttpAnswer& a, int64_t ms) override {
    if (path_of(request) == "/style.css" || path_of(request) == "/healthz") return;
    LogLine("console", request.method, 8)
        .add("path", path_of(request), 200)
        .add("status", a.status)
        .add("ms", ms)
        .add("peer", request.peer)
        .info();
  }
  console::Console app;
};

struct Server::Impl : http::Handler {
  Impl(const config::Gateway& c, const config::Partners& partners, const as2::Settings& a2, const as4::Settings& a4,
       gate::Gate& g, std::function<void()> queued)
      : config(c),
        as2(a2),
        as4(a4),
        log(c.store_uri, LogLimits{c.max_log_rows_per_client, c.max_log_rows}),
        unwrap_budget(c.max_unwrap_bytes),
        partner_listener(listener(c, partners), *this) {
    context.partners = &partners;
    context.gate = &g;
    context.log = &log;
    context.unwrap_budget = &unwrap_budget;
    context.max_message_bytes = c.max_message_unwrap_bytes;
    context.transport = "http";
    context.ours = &c.edi_ids;
    context.archive = c.archive;
    context.queued = std::move(queued);
  }

  static http::ListenerOptions listener(const config::Gateway& c, const config::Partners& partners) {
    http::ListenerOptions o;
    o.address = c.address;
    o.port = c.port;
    o.tls_cert = c.tls_cert;
    o.tls_key = c.tls_key;
    // Clients are asked for a certificate only when a profile pins one (<auth client-cert>).
    for (const auto& p : partners.all())
      o.request_client_cert = o.request_client_cert || !p.auth.client_cert_sha256.empty();
    o.threads = c.threads;
    o.queue = c.queue;
    o.max_body_bytes = c.max_body_bytes;
    o.max_buffered_bytes = c.max_buffered_bytes;
    o.head_timeout_ms = c.head_timeout_seconds * 1000;
    o.request_timeout_ms = c.request_timeout_seconds * 1000;
    o.max_connections = c.max_connections;
    o.max_connections_per_client = c.max_connections_per_client;
    return o;
  }

  enum class Route { Health, Ready, As2, As4, None };
  Route route(const HttpRequest& r) const {
    const std::string path = path_of(r);
    if (r.method == "GET" && path == "/healthz") return Route::Health;
    if (r.method == "GET" && path == "/readyz") return Route::Ready;
    if (r.method == "POST" && path == config.as2_path) return Route::As2;
    if (r.method == "POST" && path == "/as4") return Route::As4;
    return Route::None;
  }

  // Runs `f` with the pipeline of the request's protocol.
  template <typename F>
  HttpAnswer with_pipeline(Route r, store::Store& store, F&& f) {
    if (r == Route::As2) {
      as2::As2Protocol protocol(as2);
      receivers::Pipeline p(context, store, protocol);
      return f(p);
    }
    as4::As4Protocol protocol(as4);
    receivers::Pipeline p(context, store, protocol);
    return f(p);
  }

  // The pipeline's screen of a head, with the request's protocol; no store.
  std::optional<HttpAnswer> screen(const HttpRequest& head, bool may_hash, bool* needs_hash) {
    if (route(head) == Route::As2) {
      as2::As2Protocol protocol(as2);
      return receivers::Pipeline::screen(context, protocol, head, may_hash, needs_hash);
    }
    as4::As4Protocol protocol(as4);
    return receivers::Pipeline::screen(context, protocol, head, may_hash, needs_hash);
  }

  // On an I/O thread: nothing here blocks (the store, /readyz's round trip
  // and a password's PBKDF2 are a worker's).
  http::HeadDecision on_head(const HttpRequest& head) override {
    switch (route(head)) {
      case Route::Health: {
        HttpAnswer a = http::text_answer(200, "ok", Outcome::Processed);
        a.detail.clear();
        return a;
      }
      case Route::Ready:
        return std::nullopt;  // a worker asks the store
      case Route::None: {
        HttpAnswer a = http::text_answer(
            404, "no such endpoint: " + partner_text(head.method, 16) + " " + partner_text(head.target, 200),
            Outcome::Rejected);
        return a;
      }
      case Route::As2:
      case Route::As4:
        break;
    }
    bool needs_hash = false;
    std::optional<HttpAnswer> refused = screen(head, false, &needs_hash);
    if (refused) return refused;
    return needs_hash ? http::HeadDecision::on_worker() : http::HeadDecision(std::nullopt);
  }

  // On a worker, before the body: the screen again, now with the PBKDF2 it needs.
  std::optional<HttpAnswer> on_head_work(const HttpRequest& head) override {
    bool needs_hash = false;
    return screen(head, true, &needs_hash);
  }

  HttpAnswer on_request(const HttpRequest& request) override {
    const Route r = route(request);
    if (r == Route::Ready) return ready_answer(config.store_uri);
    std::string error;
    store::Store* store = thread_store(config.store_uri, &error);
    if (store == nullptr) return receivers::retry_later("store unavailable: " + error, Outcome::Error);
    // An async MDN for a message we sent is not a message: its own intake.
    if (r == Route::As2 && as2::is_mdn(request))
      return as2::receive_mdn(request, context, as2, *store, [this](const store::OutboxEntry& e) {
        return as2::as2_expected_mic_now(e, *context.partners);
      });
    return with_pipeline(r, *store, [&](receivers::Pipeline& p) { return p.receive(request); });
  }

  void on_answered(const HttpRequest& request, const HttpAnswer& a, int64_t ms) override {
    const Route r = route(request);
    if (r == Route::Health || r == Route::Ready) return;
    const std::string protocol = r == Route::As4 ? "as4" : r == Route::As2 ? "as2" : "http";
    metrics.observe(protocol, a.partner, a.outcome, ms);
    // An answer that commits nothing (anyone may cause one) is logged within
    // its client's limits; past them it is counted into one line a window.
    if (a.outcome != Outcome::Processed && a.outcome != Outcome::Archived) {
      store::MessageLog answer;
      answer.partner_id = a.partner;
      answer.protocol = protocol;
      answer.transport_id = a.transport_id;
      answer.outcome = a.outcome;
      answer.detail = a.detail;
      answer.bytes = static_cast<int64_t>(request.body.size());
      if (!log.admit_line(answer, request.peer)) return;
    }
    // Never whole payloads, never a partner's line break in the log (LogLine bounds every field).
    LogLine("protocol", protocol)
        .add("partner", a.partner)
        .add("message_id", a.transport_id, 200)
        .add("outcome", outcome_name(a.outcome))
        .add("status", a.status)
        .add("bytes", static_cast<int64_t>(request.body.size()))
        .add("ms", ms)
        .add("peer", request.peer)
        .add_nonempty("detail", a.detail)
        .info();
  }

  const config::Gateway& config;
  const as2::Settings& as2;
  const as4::Settings& as4;
  LogWriter log;
  Budget unwrap_budget;
  receivers::Context context;
  http::HttpServer partner_listener;  // /as2, /as4, /healthz, /readyz
  Metrics metrics;
  std::unique_ptr<MetricsHandler> metrics_handler;
  std::unique_ptr<http::HttpServer> metrics_http;  // null without <metrics>
  std::unique_ptr<ConsoleHandler> console_handler;
  std::unique_ptr<http::HttpServer> console_http;  // null without <console>
};

Server::Server(const config::Gateway& config, const config::Partners& partners, const as2::Settings& as2,
               const as4::Settings& as4, gate::Gate& gate, std::function<void()> queued)
    : impl_(std::make_unique<Impl>(config, partners, as2, as4, gate, std::move(queued))) {
  // Loaded by serve before: a file that cannot be read now is left out of the metrics and the console.
  std::vector<CertificateInUse> certificates;
  if (config.metrics_port >= 0 || config.console_port >= 0) {
    Result<std::vector<CertificateInUse>> certs = identity::certificates_in_use(config, partners);
    if (certs.is_ok()) certificates = std::move(certs.value());
  }
  if (config.metrics_port >= 0) {
    impl_->metrics_handler = std::make_unique<MetricsHandler>(config, impl_->metrics, gate, impl_->log, certificates);
    http::ListenerOptions o;
    o.address = config.metrics_address;
    o.port = config.metrics_port;
    o.threads = 2;
    o.queue = 16;
    o.max_body_bytes = 0;  // GET only
    o.max_connections = 64;
    o.max_connections_per_client = 16;
    impl_->metrics_http = std::make_unique<http::HttpServer>(o, *impl_->metrics_handler);
  }

  if (config.console_port >= 0) {
    console::Context c;
    c.gateway = &config;
    c.partners = &partners;
    c.gate = &gate;
    c.certificates = certificates;
    c.store = [uri = config.store_uri](std::string* error) { return thread_store(uri, error); };
    impl_->console_handler = std::make_unique<ConsoleHandler>(std::move(c));
    http::ListenerOptions o;
    o.address = config.console_address;
    o.port = config.console_port;
    o.tls_cert = config.console_tls_cert;
    o.tls_key = config.console_tls_key;
    o.threads = 4;
    o.queue = 32;
    o.max_body_bytes = size_t{64} * 1024;  // forms only
    o.max_connections = 128;
    o.max_connections_per_client = 32;
    impl_->console_http = std::make_unique<http::HttpServer>(o, *impl_->console_handler);
  }
}

Server::~Server() { stop(0); }

Status Server::start() {
  impl_->log.start();
  RETURN_IF_ERROR(impl_->partner_listener.start());
  if (impl_->metrics_http) {
    if (Status s = impl_->metrics_http->start(); !s.is_ok()) return Status::unavailable("<metrics>: " + s.message());
  }
  if (impl_->console_http) {
    if (Status s = impl_->console_http->start(); !s.is_ok()) return Status::unavailable("<console>: " + s.message());
  }
  return Status::ok();
}

void Server::stop(int grace_ms) {
  if (impl_->console_http) impl_->console_http->stop(0);
  if (impl_->metrics_http) impl_->metrics_http->stop(0);
  impl_->partner_listener.stop(grace_ms);
  impl_->log.stop();
}

int Server::port() const { return impl_->partner_listener.port(); }

int Server::metrics_port() const { return impl_->metrics_http ? impl_->metrics_http->port() : -1; }

int Server::console_port() const { return impl_->console_http ? impl_->console_http->port() : -1; }

}  // namespace edihub::server
