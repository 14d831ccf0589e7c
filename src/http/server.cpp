#include "src/http/server.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>

#include "src/common/mutex.h"
#include <thread>
#include <vector>

#include "src/common/budget.h"
#include "src/crypto/cms.h"
#include "src/http/reader.h"

namespace edihub::http {

namespace asio = boost::asio;
namespace bhttp = boost::beast::http;
namespace ssl = boost::asio::ssl;
using tcp = asio::ip::tcp;

namespace {

// Complete requests wait here for a worker; a full queue is answered 503
// at once rather than held.
class WorkerPool {
 public:
  WorkerPool(int threads, int queue) : threads_(threads), queue_(static_cast<size_t>(queue)) {}
  ~WorkerPool() { stop(); }

  void start() {
    for (int i = 0; i < threads_; ++i) workers_.emplace_back([this] { run(); });
  }
  bool submit(std::function<void()> job) {
    {
      MutexLock lock(mu_);
      if (stopping_ || jobs_.size() >= queue_) return false;
      jobs_.push_back(std::move(job));
    }
    cv_.notify_one();  // after the unlock: the worker woken does not wait for the lock
    return true;
  }
  // Runs what is queued, then joins the workers.
  void stop() {
    {
      MutexLock lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    for (auto& w : workers_) w.join();
    workers_.clear();
  }

 private:
  void run() {
    while (true) {
      std::function<void()> job;
      {
        UniqueLock lock(mu_);
        cv_.wait(lock.native(), [&]() REQUIRES(mu_) { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty()) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      job();
    }
  }

  int threads_;
  size_t queue_;
  Mutex mu_;
  std::condition_variable cv_;
  bool stopping_ GUARDED_BY(mu_) = false;
  std::deque<std::function<void()>> jobs_ GUARDED_BY(mu_);
  std::vector<std::thread> workers_;
};

int64_t ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t).count();
}

HttpAnswer refusal(int status, const std::string& why, int retry_after = 0) {
  HttpAnswer a = text_answer(status, why, Outcome::Rejected);
  if (retry_after > 0) {
    a.headers.emplace_back("Retry-After", std::to_string(retry_after));
    a.outcome = Outcome::Error;
  }
  a.close = true;
  return a;
}

}  // namespace

struct HttpServer::Impl {
  Impl(ListenerOptions o, Handler& h)
      : options(std::move(o)),
        handler(h),
        bodies(options.max_buffered_bytes),
        pool(options.threads, options.queue),
        acceptor(asio::make_strand(io)) {}

  void accept();
  template <typename Stream>
  void serve(Stream stream, const std::string& peer);
  // Counts a new connection from `peer`; false when over a cap.
  bool admit(const std::string& peer) {
    MutexLock lock(mu);
    if (connections >= options.max_connections || per_client[peer] >= options.max_connections_per_client) return false;
    ++connections;
    ++per_client[peer];
    return true;
  }
  void leave(const std::string& peer) {
    MutexLock lock(mu);
    --connections;
    if (--per_client[peer] <= 0) per_client.erase(peer);
  }

  // Declared before `io`: connections still held by io's handlers use them
  // when io is destroyed.
  ListenerOptions options;
  Handler& handler;
  Budget bodies;
  Mutex mu;
  int connections GUARDED_BY(mu) = 0;
  std::map<std::string, int> per_client GUARDED_BY(mu);
  std::atomic<int> handling{0};  // requests between their end and their answer
  std::atomic<bool> stopping{false};
  int port = 0;
  WorkerPool pool;
  std::optional<ssl::context> tls;
  asio::io_context io;
  tcp::acceptor acceptor;  // on a strand of its own: accepts and the close in stop() never overlap
  std::vector<std::thread> io_threads;
};

namespace {

// One connection, its requests one after the other. Runs on the
// connection's strand (one I/O thread at a time), but for on_request(),
// which a worker runs while the connection waits, and, on plain TCP, the
// kept-alive answer the worker then writes and the next read it starts
// (answer_here): one thread at a time holds the connection either way.
template <typename Stream>
class Connection : public std::enable_shared_from_this<Connection<Stream>> {
 public:
  Connection(HttpServer::Impl& s, Stream stream, std::string peer)
      : s_(s), stream_(std::move(stream)), peer_(std::move(peer)), timer_(stream_.get_executor()) {}
  ~Connection() {
    s_.bodies.give(reserved_);
    s_.leave(peer_);
  }

  void start() {
    if constexpr (std::is_same_v<Stream, ssl::stream<tcp::socket>>) {
      arm(s_.options.head_timeout_ms);
      // Bounded by the head's deadline: a client that stalls the handshake loses the socket.
      stream_.async_handshake(
          ssl::stream_base::server, [self = this->shared_from_this()](boost::system::error_code ec) {
            if (ec) return self->close();
            // Once per connection: every request read on it carries the same certificate.
            self->client_cert_sha256_ =
                crypto::certificate_sha256(SSL_get0_peer_certificate(self->stream_.native_handle()));
            self->next_request();
          });
    } else {
      // Synchronous writes (a worker's, answer_here) return would_block instead of waiting.
      boost::system::error_code ignored;
      stream_.non_blocking(true, ignored);
      next_request();
    }
  }

 private:
  void next_request() {
    reader_ = std::make_unique<RequestReader>(ReaderLimits{s_.options.max_head_bytes, s_.options.max_body_bytes});
    s_.bodies.give(reserved_);
    reserved_ = 0;
    head_done_ = false;
    timed_out_ = false;
    started_ = std::chrono::steady_clock::now();
    arm(s_.options.head_timeout_ms);
    if (!pending_.empty()) return parse();
    read();
  }

  // One deadline at a time: the head's, then the body's. A wait that expired
  // as it was cancelled or replaced (its generation is no longer the
  // connection's) acts on nothing: a worker may hold the connection by then.
  void arm(int ms) {
    const uint64_t generation = ++deadline_;
    timer_.expires_after(std::chrono::milliseconds(ms));
    timer_.async_wait([weak = this->weak_from_this(), generation](boost::system::error_code ec) {
      auto self = weak.lock();
      if (ec || !self || self->deadline_ != generation) return;
      self->timed_out_ = true;
      boost::system::error_code ignored;
      boost::beast::get_lowest_layer(self->stream_).cancel(ignored);
    });
  }

  void read() {
    stream_.async_read_some(
        asio::buffer(chunk_, sizeof chunk_),
        [self = this->shared_from_this()](boost::system::error_code ec, size_t n) { self->on_read(ec, n); });
  }

  void on_read(boost::system::error_code ec, size_t n) {
    if (ec) {
      if (timed_out_) {
        const bool idle = !head_done_ && reader_->request().head.empty() && pending_.empty();
        if (idle) return close();  // a kept-alive connection that sent nothing: just close it
        return answer(refusal(408, head_done_ ? "the request body did not arrive in time (" +
                                                    std::to_string(s_.options.request_timeout_ms) + " ms)"
                                              : "the request head did not arrive in time (" +
                                                    std::to_string(s_.options.head_timeout_ms) + " ms)"));
      }
      return close();  // the client went away
    }
    pending_.append(chunk_, n);
    parse();
  }

  void parse() {
    RequestReader::State state;
    const size_t used = reader_->feed(pending_, &state);
    pending_.erase(0, used);
    switch (state) {
      case RequestReader::State::Failed:
        return answer(reader_->failure());
      case RequestReader::State::NeedMore:
        if (!account()) return;
        return read();
      case RequestReader::State::Head:
        return on_head(false);
      case RequestReader::State::Done:
        if (!head_done_) return on_head(true);
        if (!account()) return;
        return dispatch();
    }
  }

  // Counts the body held in memory against the gateway-wide cap.
  bool account() {
    const size_t held = reader_->body_bytes();
    if (held <= reserved_) return true;
    if (!s_.bodies.take(held - reserved_)) {
      answer(refusal(503, "the gateway holds too many request bodies at once: retry later", 30));
      return false;
    }
    reserved_ = held;
    return true;
  }

  void on_head(bool complete) {
    head_done_ = true;
    HttpRequest& head = reader_->request();
    head.peer = peer_;
    head.client_cert_sha256 = client_cert_sha256_;
    HeadDecision decided = s_.handler.on_head(head);
    if (decided.answer) {
      // Answered from the head; a body not read means the connection ends.
      if (!complete) decided.answer->close = true;
      return answer(std::move(*decided.answer));
    }
    if (decided.work) return head_work(complete);
    after_head(complete);
  }

  // The head to a worker (on_head_work), then back on this connection's
  // strand: its answer, or the body read as after any head. Nothing is read
  // from the connection meanwhile, and the I/O thread serves the others.
  void head_work(bool complete) {
    disarm();
    ++s_.handling;
    auto self = this->shared_from_this();
    const bool queued = s_.pool.submit([self, complete] {
      std::optional<HttpAnswer> early = self->s_.handler.on_head_work(self->reader_->request());
      asio::post(self->stream_.get_executor(), [self, complete, early = std::move(early)]() mutable {
        --self->s_.handling;
        if (!early) return self->after_head(complete);
        if (!complete) early->close = true;
        self->answer(std::move(*early));
      });
    });
    if (!queued) {
      --s_.handling;
      answer(refusal(503, "the gateway is busy: retry later", 30));
    }
  }

  // The head let through: the body's reservation and deadline, then its bytes.
  void after_head(bool complete) {
    if (std::optional<uint64_t> length = reader_->content_length(); length && *length > reserved_) {
      if (*length > s_.options.max_body_bytes)
        return answer(refusal(413, "body larger than " + std::to_string(s_.options.max_body_bytes) + " bytes"));
      if (!s_.bodies.take(*length - reserved_))
        return answer(refusal(503, "the gateway holds too many request bodies at once: retry later", 30));
      reserved_ = *length;
    }
    arm(s_.options.request_timeout_ms);
    if (complete) return dispatch();
    if (reader_->expects_continue()) {
      static const char kContinue[] = "HTTP/1.1 100 Continue\r\n\r\n";
      return asio::async_write(stream_, asio::buffer(kContinue, sizeof kContinue - 1),
                               [self = this->shared_from_this()](boost::system::error_code ec, size_t) {
                                 if (ec) return self->close();
                                 self->parse();
                               });
    }
    parse();
  }

  void dispatch() {
    disarm();
    ++s_.handling;
    auto self = this->shared_from_this();
    const bool queued = s_.pool.submit([self] {
      HttpAnswer a = self->s_.handler.on_request(self->reader_->request());
      // The log line here, off the I/O thread, which every connection shares.
      self->s_.handler.on_answered(self->reader_->request(), a, ms_since(self->started_));
      if (self->answer_here(a)) return;
      asio::post(self->stream_.get_executor(), [self, a = std::move(a)]() mutable {
        --self->s_.handling;
        self->answer(std::move(a), true);
      });
    });
    if (!queued) {
      --s_.handling;
      answer(refusal(503, "the gateway is busy: retry later", 30));
    }
  }

  using Response = bhttp::response<bhttp::string_body>;

  // `a` as the response it is written as; takes its body.
  static Response response(HttpAnswer& a, bool keep) {
    Response res(static_cast<bhttp::status>(a.status), 11);
    for (const auto& [k, v] : a.headers) res.set(k, v);
    res.body() = std::move(a.body);
    res.keep_alive(keep);
    res.prepare_payload();
    a.body.clear();
    return res;
  }

  // A response and how much of it is written (answer_here, write_rest).
  struct Outgoing {
    explicit Outgoing(Response r) : message(std::move(r)), serializer(message) {}
    Response message;
    bhttp::response_serializer<bhttp::string_body> serializer;
  };

  // On the worker that holds the connection (no read is pending and its
  // deadline is disarmed, so nothing else acts on it): a plain-TCP answer on a
  // kept-alive connection with nothing pipelined is written here, as much of
  // it as the socket takes at once. Taken whole, the next request's deadline
  // and read start here too: no I/O thread is woken for the answer, only by
  // the next request's bytes. The rest of a partial write goes out from the
  // strand. False: nothing was done, the strand answers.
  bool answer_here(HttpAnswer& a) {
    if constexpr (!std::is_same_v<Stream, tcp::socket>) {
      return false;
    } else {
      if (a.close || s_.stopping || !reader_->keep_alive() || !pending_.empty()) return false;
      auto out = std::make_shared<Outgoing>(response(a, true));
      boost::system::error_code ec;
      while (!ec && !out->serializer.is_done()) bhttp::write_some(stream_, out->serializer, ec);  // never waits
      if (ec == asio::error::would_block || ec == asio::error::try_again) {  // the socket's buffer is full
        asio::post(stream_.get_executor(), [self = this->shared_from_this(), out] { self->write_rest(out); });
        return true;
      }
      --s_.handling;
      if (ec) {
        asio::post(stream_.get_executor(), [self = this->shared_from_this()] { self->close(); });
        return true;
      }
      next_request();  // its read is the last thing this worker does with the connection
      return true;
    }
  }

  // The rest of an answer the socket did not take at once, then the next request.
  void write_rest(const std::shared_ptr<Outgoing>& out) {
    bhttp::async_write(stream_, out->serializer,
                       [self = this->shared_from_this(), out](boost::system::error_code ec, size_t) {
                         --self->s_.handling;
                         if (ec) return self->close();
                         self->next_request();
                       });
  }

  // Writes `a`; logs it after the write unless a worker did (`logged`).
  void answer(HttpAnswer a, bool logged = false) {
    disarm();
    const bool keep = !a.close && !s_.stopping && reader_->keep_alive();
    auto res = std::make_shared<Response>(response(a, keep));
    auto self = this->shared_from_this();
    bhttp::async_write(stream_, *res,
                       [self, res, keep, logged, a = std::move(a)](boost::system::error_code ec, size_t) {
                         if (!logged)
                           self->s_.handler.on_answered(self->reader_->request(), a, ms_since(self->started_));
                         if (ec || !keep) return self->close();
                         self->next_request();
                       });
  }

  // No deadline: the wait armed last acts on nothing, wherever it completes.
  void disarm() {
    ++deadline_;
    timer_.cancel();
  }

  void close() {
    disarm();
    boost::system::error_code ignored;
    auto& socket = boost::beast::get_lowest_layer(stream_);
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
  }

  HttpServer::Impl& s_;
  Stream stream_;
  std::string peer_;
  std::string client_cert_sha256_;  // the TLS client certificate's, from the handshake; empty: none
  asio::steady_timer timer_;
  std::unique_ptr<RequestReader> reader_;
  std::string pending_;  // bytes read and not yet used by the reader
  char chunk_[65536];
  size_t reserved_ = 0;  // body bytes counted against the gateway-wide cap
  bool head_done_ = false, timed_out_ = false;
  std::atomic<uint64_t> deadline_{0};  // the generation of the deadline armed last (arm, disarm)
  std::chrono::steady_clock::time_point started_;
};

}  // namespace

template <typename Stream>
void HttpServer::Impl::serve(Stream stream, const std::string& peer) {
  std::make_shared<Connection<Stream>>(*this, std::move(stream), peer)->start();
}

void HttpServer::Impl::accept() {
  // Each connection on its own strand: its reads, writes and deadline never
  // run at once, while connections spread over the I/O threads.
  acceptor.async_accept(asio::make_strand(io), [this](boost::system::error_code ec, tcp::socket socket) {
    if (ec) {
      if (!stopping && acceptor.is_open()) accept();
      return;
    }
    boost::system::error_code addr_ec;
    const std::string peer = socket.remote_endpoint(addr_ec).address().to_string();
    if (!admit(peer)) {
      // Over a cap: a short answer, then the connection ends.
      static const char kBusy[] =
          "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Type: text/plain; charset=utf-8\r\n"
          "Content-Length: 38\r\nConnection: close\r\n\r\ntoo many connections from this client\n";
      boost::system::error_code ignored;
      socket.non_blocking(true, ignored);
      socket.write_some(asio::buffer(kBusy, sizeof kBusy - 1), ignored);
      socket.close(ignored);
    } else if (tls) {
      serve(ssl::stream<tcp::socket>(std::move(socket), *tls), peer);
    } else {
      serve(std::move(socket), peer);
    }
    accept();
  });
}

HttpServer::HttpServer(ListenerOptions options, Handler& handler)
    : impl_(std::make_unique<Impl>(std::move(options), handler)) {}

HttpServer::~HttpServer() { stop(0); }

Status HttpServer::start() {
  ListenerOptions& o = impl_->options;
  try {
    if (!o.tls_cert.empty()) {
      // TLS 1.2+ with the configured certificate.
      impl_->tls.emplace(ssl::context::tls_server);
      impl_->tls->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                              ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
      impl_->tls->use_certificate_chain_file(o.tls_cert);
      impl_->tls->use_private_key_file(o.tls_key, ssl::context::pem);
      SSL_CTX_set_cipher_list(impl_->tls->native_handle(), "HIGH:!aNULL:!MD5:!RC4");
      if (o.request_client_cert) {
        // Asked, not required (no FAIL_IF_NO_PEER_CERT), and any chain passes:
        // AS2 partners' certificates are mostly self-signed, and the profile's
        // pin (<auth client-cert>, identity/partner_auth.h) decides, per
        // partner, once the request names one. OpenSSL still checks the
        // client's CertificateVerify: it holds the certificate's key.
        SSL_CTX* ctx = impl_->tls->native_handle();
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, [](int, X509_STORE_CTX*) { return 1; });
        // Without a session id context OpenSSL fails every resumed handshake once
        // it verifies peers; a resumed session keeps its client certificate.
        static const unsigned char kSessionContext[] = "edihub";
        SSL_CTX_set_session_id_context(ctx, kSessionContext, sizeof kSessionContext - 1);
      }
    }
    tcp::endpoint endpoint(asio::ip::make_address(o.address), static_cast<unsigned short>(o.port));
    impl_->acceptor.open(endpoint.protocol());
    impl_->acceptor.set_option(asio::socket_base::reuse_address(true));
    impl_->acceptor.bind(endpoint);
    impl_->acceptor.listen(512);
    impl_->port = impl_->acceptor.local_endpoint().port();
  } catch (const std::exception& e) {
    return Status::unavailable("cannot listen on " + o.address + ":" + std::to_string(o.port) + ": " + e.what());
  }
  impl_->pool.start();
  impl_->accept();
  for (int i = 0; i < impl_->options.io_threads; ++i) impl_->io_threads.emplace_back([this] { impl_->io.run(); });
  return Status::ok();
}

void HttpServer::stop(int grace_ms) {
  if (impl_->io_threads.empty()) return;
  impl_->stopping = true;
  // On the acceptor's strand: never while an accept completes on another I/O thread.
  asio::post(impl_->acceptor.get_executor(), [this] {
    boost::system::error_code ignored;
    impl_->acceptor.close(ignored);
  });
  // Requests being handled get their answers written.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(grace_ms);
  while (impl_->handling > 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::this_thread::sleep_for(std::chrono::milliseconds(grace_ms > 0 ? 20 : 0));  // their writes
  impl_->io.stop();
  for (auto& t : impl_->io_threads) t.join();
  impl_->io_threads.clear();
  impl_->pool.stop();
}

int HttpServer::port() const { return impl_->port; }

}  // namespace edihub::http
