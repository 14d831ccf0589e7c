// The partner-facing HTTP server in-process (src/http/server.h), over
// real loopback sockets, so that the listener runs under ASan/UBSan and TSan:
// answers from the head, the head deadline, the per-client cap, pipelined
// requests answered in order, the hand-off of complete requests and of heads
// to workers, a full queue, kept-alive answers written by their workers, and
// an answer larger than the socket takes at once.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "src/http/server.h"

using namespace edihub;
using http::HttpAnswer;
using http::HttpRequest;

namespace {

constexpr size_t kLarge = 16u << 20;

// A handler that says which thread did what.
struct Recorder : http::Handler {
  std::mutex mu;
  std::set<std::thread::id> head_threads, worker_threads, head_work_threads;
  std::atomic<int> requests{0};
  std::atomic<int> slow_ms{0};

  http::HeadDecision on_head(const HttpRequest& head) override {
    {
      std::lock_guard<std::mutex> lock(mu);
      head_threads.insert(std::this_thread::get_id());
    }
    if (head.target == "/healthz") return http::text_answer(200, "ok", Outcome::Processed);
    if (head.target == "/refuse") return http::text_answer(403, "refused from the head", Outcome::Rejected);
    if (head.target == "/screen" || head.target == "/screen-refuse") return http::HeadDecision::on_worker();
    return std::nullopt;
  }
  std::optional<HttpAnswer> on_head_work(const HttpRequest& head) override {
    {
      std::lock_guard<std::mutex> lock(mu);
      head_work_threads.insert(std::this_thread::get_id());
    }
    if (head.target == "/screen-refuse") return http::text_answer(401, "refused by a worker", Outcome::Rejected);
    return std::nullopt;
  }
  HttpAnswer on_request(const HttpRequest& r) override {
    {
      std::lock_guard<std::mutex> lock(mu);
      worker_threads.insert(std::this_thread::get_id());
    }
    ++requests;
    if (slow_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(slow_ms.load()));
    // More than a loopback socket's buffers take at once: written in parts.
    if (r.target == "/large") return http::text_answer(200, std::string(kLarge, 'L'), Outcome::Processed);
    return http::text_answer(200, "got " + r.target + " " + r.body, Outcome::Processed);
  }
  void on_answered(const HttpRequest&, const HttpAnswer&, int64_t) override {}
};

struct Client {
  int fd = -1;
  explicit Client(int port) {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  }
  ~Client() {
    if (fd >= 0) ::close(fd);
  }
  void send(const std::string& bytes) const {
    REQUIRE(::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
  }
  // What arrives within `ms`, until `done(got)` or the peer closes.
  template <typename Done>
  std::string read_until(int ms, Done done) const {
    std::string got;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < until && !done(got)) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      char buf[65536];
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n <= 0) break;
      got.append(buf, static_cast<size_t>(n));
    }
    return got;
  }
  // One whole answer (its head, then Content-Length bytes) within `ms`.
  std::string read_answer(int ms) const {
    return read_until(ms, [](const std::string& got) {
      const size_t head_end = got.find("\r\n\r\n");
      const size_t length_at = got.find("Content-Length: ");
      if (head_end == std::string::npos || length_at == std::string::npos || length_at > head_end) return false;
      // The number alone: the answer's whole rest copied on every read made a
      // 16 MiB answer take ten seconds under TSan.
      return got.size() >= head_end + 4 + std::strtoul(got.c_str() + length_at + 16, nullptr, 10);
    });
  }
  // What arrives within `ms`, until `want` answers are complete or the peer closes.
  std::string read(int ms, int want = 1) const {
    return read_until(ms, [want](const std::string& got) {
      int answers = 0;
      for (size_t at = got.find("HTTP/1.1 "); at != std::string::npos; at = got.find("HTTP/1.1 ", at + 1)) ++answers;
      return answers >= want && got.rfind("\n") == got.size() - 1;
    });
  }
};

struct Server {
  Recorder handler;
  http::ListenerOptions options;
  std::unique_ptr<http::HttpServer> http;
  explicit Server(http::ListenerOptions o) : options(std::move(o)) {
    options.address = "127.0.0.1";
    options.port = 0;
    http = std::make_unique<http::HttpServer>(options, handler);
    REQUIRE(http->start().is_ok());
  }
  ~Server() { http->stop(2000); }
  int port() const { return http->port(); }
};

std::string get(const std::string& target) { return "GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n"; }
std::string post(const std::string& target, const std::string& body) {
  return "POST " + target + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" +
         body;
}

}  // namespace

TEST_CASE("http server: the head answered on an I/O thread, the request on a worker, a head's work on a worker") {
  Server s(http::ListenerOptions{});
  Client c(s.port());
  c.send(get("/healthz"));
  CHECK(c.read(2000).find("HTTP/1.1 200 OK") == 0);
  c.send(post("/as2", "hello"));
  const std::string answered = c.read(2000);
  CHECK(answered.find("HTTP/1.1 200 OK") == 0);
  CHECK(answered.find("got /as2 hello") != std::string::npos);
  c.send(post("/screen", "abc"));
  CHECK(c.read(2000).find("got /screen abc") != std::string::npos);
  Client refused(s.port());
  refused.send(post("/screen-refuse", "never read"));
  const std::string r = refused.read(2000);
  CHECK(r.find("HTTP/1.1 401") == 0);
  CHECK(r.find("refused by a worker") != std::string::npos);
  std::lock_guard<std::mutex> lock(s.handler.mu);
  REQUIRE_FALSE(s.handler.worker_threads.empty());
  REQUIRE_FALSE(s.handler.head_work_threads.empty());
  for (const auto& t : s.handler.head_threads) {
    CHECK(s.handler.worker_threads.count(t) == 0);     // never a request on an I/O thread
    CHECK(s.handler.head_work_threads.count(t) == 0);  // nor a head's slow work
  }
  CHECK(s.handler.requests == 2);  // the refused one was never handled
}

TEST_CASE("http server: pipelined requests are answered in order, each once") {
  Server s(http::ListenerOptions{});
  Client c(s.port());
  c.send(post("/one", "1") + post("/two", "22") + get("/healthz") + post("/three", "333"));
  const std::string all = c.read(3000, 4);
  const size_t one = all.find("got /one 1"), two = all.find("got /two 22"), three = all.find("got /three 333");
  REQUIRE(one != std::string::npos);
  REQUIRE(two != std::string::npos);
  REQUIRE(three != std::string::npos);
  CHECK(one < two);
  CHECK(two < all.find("ok\n", two));
  CHECK(two < three);
  CHECK(s.handler.requests == 3);
}

TEST_CASE("http server: a head that does not arrive in time is 408; an idle kept-alive connection is closed") {
  http::ListenerOptions o;
  o.head_timeout_ms = 300;
  Server s(o);
  Client slow(s.port());
  slow.send("POST /as2 HTTP/1.1\r\nHost: x\r\n");  // no end of the head
  const std::string r = slow.read(3000);
  CHECK(r.find("HTTP/1.1 408 Request Timeout") == 0);
  CHECK(r.find("the request head did not arrive in time (300 ms)") != std::string::npos);
  Client idle(s.port());
  CHECK(idle.read(1500).empty());  // closed without an answer
  Client fine(s.port());
  fine.send(get("/healthz"));
  CHECK(fine.read(2000).find("HTTP/1.1 200") == 0);
}

TEST_CASE("http server: connections per client are capped") {
  http::ListenerOptions o;
  o.max_connections_per_client = 2;
  Server s(o);
  Client a(s.port()), b(s.port());
  a.send(get("/healthz"));
  CHECK(a.read(2000).find("HTTP/1.1 200") == 0);
  Client third(s.port());
  const std::string r = third.read(2000);
  CHECK(r.find("HTTP/1.1 503 Service Unavailable") == 0);
  CHECK(r.find("too many connections from this client") != std::string::npos);
  b.send(get("/healthz"));  // the two allowed still work
  CHECK(b.read(2000).find("HTTP/1.1 200") == 0);
}

TEST_CASE("http server: a full worker queue is 503 at once, and what was taken is answered") {
  http::ListenerOptions o;
  o.threads = 1;
  o.queue = 1;
  Server s(o);
  s.handler.slow_ms = 1000;
  Client busy(s.port()), queued(s.port()), refused(s.port());
  busy.send(post("/busy", "x"));
  // The worker holds it (within 500 ms: the handler counts it before its 1 s).
  for (int i = 0; i < 100 && s.handler.requests == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  REQUIRE(s.handler.requests == 1);
  queued.send(post("/queued", "y"));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // in the queue
  refused.send(post("/refused", "z"));
  const std::string r = refused.read(3000);
  CHECK(r.find("HTTP/1.1 503") == 0);
  CHECK(r.find("the gateway is busy: retry later") != std::string::npos);
  CHECK(s.handler.requests == 1);  // answered while the worker still held the first: not waited for
  CHECK(busy.read(3000).find("got /busy x") != std::string::npos);
  CHECK(queued.read(3000).find("got /queued y") != std::string::npos);
  CHECK(s.handler.requests == 2);
}

// A kept-alive connection's answer is written by the worker that made it, which
// then starts the connection's next read: each answer once, on its own
// connection, in order, whatever thread reads the next request.
TEST_CASE("http server: kept-alive connections answered from their workers, each answer once and in order") {
  http::ListenerOptions o;
  o.threads = 4;
  Server s(o);
  constexpr int kClients = 4, kRequests = 50;
  std::vector<std::thread> clients;
  std::atomic<int> right{0};
  for (int k = 0; k < kClients; ++k)
    clients.emplace_back([&, k] {
      Client c(s.port());
      for (int i = 0; i < kRequests; ++i) {
        const std::string body = "client " + std::to_string(k) + " request " + std::to_string(i);
        c.send(post("/as2", body));
        const std::string a = c.read_answer(3000);
        const std::string expected = "got /as2 " + body + "\n";
        if (a.find("HTTP/1.1 200 OK") != 0 || a.size() < expected.size() ||
            a.compare(a.size() - expected.size(), expected.size(), expected) != 0 ||
            a.find("\r\n\r\n") + 4 + expected.size() != a.size())
          break;  // the rest of this connection would only wait
        ++right;
      }
    });
  for (auto& t : clients) t.join();
  CHECK(right == kClients * kRequests);
  CHECK(s.handler.requests == kClients * kRequests);
}

TEST_CASE("http server: an answer larger than the socket takes at once arrives whole, and the connection goes on") {
  Server s(http::ListenerOptions{});
  Client c(s.port());
  c.send(post("/large", ""));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // nothing read: the socket's buffers fill
  const std::string large = c.read_answer(10000);
  REQUIRE(large.find("HTTP/1.1 200 OK") == 0);
  const size_t body = large.find("\r\n\r\n") + 4;
  CHECK(large.size() - body == kLarge + 1);
  CHECK(large.find_first_not_of('L', body) == large.size() - 1);  // then the newline
  c.send(post("/after", "next"));
  CHECK(c.read_answer(3000).find("got /after next") != std::string::npos);
  CHECK(s.handler.requests == 2);
}
