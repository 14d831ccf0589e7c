// The gate's rules (design: "The idempotency gate"), on the real SQLite store.
#include <doctest/doctest.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <thread>

#include "src/gate/gate.h"
#include "tests/unit/temp_db.h"

using namespace edihub;
using namespace edihub::store;
using gate::Gate;
using gate::Outcome;

namespace {

using test::TempDb;

ClaimRequest req(const std::string& id, const std::string& digest = "d1") {
  ClaimRequest r;
  r.key = MessageKey::edifact("acme", "5412345000013", id);
  r.payload_sha256 = digest;
  r.raw_sha256 = digest;
  return r;
}

// An effect that books one invoice and answers with `body`, counting its runs.
struct Booking {
  std::atomic<int> runs{0};
  std::string body = "CONTRL 7";
  store::Effect effect(const std::string& number = "INV-1") {
    return [this, number](Transaction& tx) -> Result<Settlement> {
      ++runs;
      business::Invoice inv;
      inv.invoice_number = number;
      inv.document_date = "20240101";
      inv.total_minor = 100;
      auto a = tx.put_invoice("acme", inv, "edifact:x");
      if (!a.is_ok()) return a.status();
      return Settlement{KeyState::Completed, {0, "", body}, "processed", ""};
    };
  }
};

int64_t invoices(Store& s) { return s.report()->business_rows.at("invoices"); }

}  // namespace

TEST_CASE("first pass processes, retransmissions get the same receipt and no second effect") {
  TempDb db;
  auto s = db.open();
  Gate g(gate::GateOptions{});
  Booking b;
  Outcome first = g.pass(*s, req("1"), b.effect());
  CHECK(first.kind == Outcome::Kind::Processed);
  CHECK(first.receipt.body == "CONTRL 7");
  for (int i = 0; i < 3; ++i) {
    Outcome again = g.pass(*s, req("1"), b.effect());
    CHECK(again.kind == Outcome::Kind::Duplicate);
    CHECK(again.receipt == first.receipt);
  }
  CHECK(b.runs == 1);
  CHECK(invoices(*s) == 1);
}

TEST_CASE("same key with different content is a conflict: no effect, original receipt kept") {
  TempDb db;
  auto s = db.open();
  Gate g(gate::GateOptions{});
  Booking b;
  REQUIRE(g.pass(*s, req("2", "d1"), b.effect()).kind == Outcome::Kind::Processed);
  Outcome c = g.pass(*s, req("2", "d2"), b.effect("INV-OTHER"));
  CHECK(c.kind == Outcome::Kind::Conflict);
  CHECK(c.detail.find("different content") != std::string::npos);
  CHECK(b.runs == 1);
  CHECK(invoices(*s) == 1);
  CHECK(g.pass(*s, req("2", "d1"), b.effect()).receipt.body == "CONTRL 7");
}

TEST_CASE("a duplicate arriving while the original is in flight waits and gets its receipt") {
  TempDb db;
  Gate g(gate::GateOptions{});
  std::mutex mu;
  std::condition_variable cv;
  bool inside = false, release = false;
  std::atomic<int> runs{0};
  auto slow = [&](Transaction&) -> Result<Settlement> {
    ++runs;
    std::unique_lock<std::mutex> lock(mu);
    inside = true;
    cv.notify_all();
    cv.wait(lock, [&] { return release; });
    return Settlement{KeyState::Completed, {0, "", "the receipt"}, "processed", ""};
  };
  Outcome original, duplicate;
  std::thread t1([&] {
    auto s = db.open();
    original = g.pass(*s, req("3"), slow);
  });
  {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return inside; });
  }
  std::thread t2([&] {
    auto s = db.open();
    duplicate = g.pass(*s, req("3"), slow);
  });
  {
    std::lock_guard<std::mutex> lock(mu);
    release = true;
  }
  cv.notify_all();
  t1.join();
  t2.join();
  CHECK(runs == 1);
  CHECK(original.kind == Outcome::Kind::Processed);
  CHECK(duplicate.kind == Outcome::Kind::Duplicate);
  CHECK(duplicate.receipt.body == "the receipt");
}

TEST_CASE("still in flight after the bounded wait: a transient answer, never a second run") {
  TempDb db;
  auto holder = db.open();
  REQUIRE(holder->claim(req("4"))->kind == Claim::Kind::Claimed);  // held, never settled
  gate::GateOptions o;
  o.inflight_wait_ms = 50;
  Gate g(o);
  auto s = db.open();
  Booking b;
  Outcome r = g.pass(*s, req("4"), b.effect());
  CHECK(r.kind == Outcome::Kind::InFlight);
  CHECK(b.runs == 0);
}

TEST_CASE("crash mid-processing: after the lease, a retransmission takes over and runs once") {
  TempDb db;
  auto crashed = db.open();
  ClaimRequest r = req("5");
  r.lease_ms = 1000;
  REQUIRE(crashed->claim(r)->kind == Claim::Kind::Claimed);  // then the worker dies
  gate::GateOptions o;
  o.lease_ms = 1000;
  o.inflight_wait_ms = 0;
  Gate g(o);
  auto after = db.open(1500);  // the store's clock, past the lease
  Booking b;
  Outcome out = g.pass(*after, req("5"), b.effect());
  CHECK(out.kind == Outcome::Kind::Processed);
  CHECK(b.runs == 1);
  // The dead worker's settle, should it wake up, is refused.
  CHECK(crashed->settle(r.key, 1, b.effect()).kind() == Status::Kind::Fenced);
  CHECK(b.runs == 1);
  CHECK(invoices(*after) == 1);
}

TEST_CASE("transient failure: nothing committed, claim released, the retry processes") {
  TempDb db;
  auto s = db.open();
  Gate g(gate::GateOptions{});
  Outcome t = g.pass(*s, req("6"), [](Transaction& tx) -> Result<Settlement> {
    business::Invoice inv;
    inv.invoice_number = "INV-6";
    inv.document_date = "20240101";
    tx.put_invoice("acme", inv, "x");
    return Status::transient("downstream ERP is down");
  });
  CHECK(t.kind == Outcome::Kind::Transient);
  CHECK(t.detail == "downstream ERP is down");
  CHECK(invoices(*s) == 0);
  Booking b;
  CHECK(g.pass(*s, req("6"), b.effect("INV-6")).kind == Outcome::Kind::Processed);
  CHECK(invoices(*s) == 1);
}

TEST_CASE("permanent failure: stored negative receipt, retried, then poison") {
  TempDb db;
  auto s = db.open();
  gate::GateOptions o;
  o.max_failures = 2;
  Gate g(o);
  std::atomic<int> runs{0};
  auto reject = [&](Transaction&) -> Result<Settlement> {
    ++runs;
    return Settlement{KeyState::Failed, {0, "", "CONTRL 4 #" + std::to_string(runs.load())}, "rejected",
                      "bad partner data"};
  };
  Outcome f1 = g.pass(*s, req("7"), reject);
  CHECK(f1.kind == Outcome::Kind::Failed);
  CHECK(f1.receipt.body == "CONTRL 4 #1");
  Outcome f2 = g.pass(*s, req("7"), reject);  // the cause may have been fixed: run again
  CHECK(f2.kind == Outcome::Kind::Failed);
  Outcome poison = g.pass(*s, req("7"), reject);
  CHECK(poison.kind == Outcome::Kind::Poison);
  CHECK(poison.receipt.body == "CONTRL 4 #2");
  CHECK(runs == 2);
}

namespace {

// A store whose settle fails after running the effect: the final commit fails.
class CommitFails : public Store {
 public:
  explicit CommitFails(Store& inner) : inner_(inner) {}
  // The new-key path: the effect runs, then the COMMIT fails.
  Result<Claim> claim(const ClaimRequest& r, const Effect* first_pass, Settlement*) override {
    if (first_pass == nullptr) return inner_.claim(r);
    Result<Claim> c = inner_.claim(r);  // claims without the first pass ...
    if (c.is_ok() && c->kind == Claim::Kind::Claimed && !c->takeover) {
      inner_.settle(r.key, c->token, [](Transaction&) -> Result<Settlement> {
        return Status::transient("disk I/O error during COMMIT");  // ... and rolls back
      });
      inner_.release(r.key, c->token);
      return Status::transient("disk I/O error during COMMIT");
    }
    return c;
  }
  // The taken-over path: same failure.
  Status settle(const MessageKey&, int64_t, const Effect&) override {
    return Status::transient("disk I/O error during COMMIT");
  }
  Status release(const MessageKey& k, int64_t t) override {
    ++released;
    return inner_.release(k, t);
  }
  Result<std::optional<KeyRecord>> lookup(const MessageKey& k) override { return inner_.lookup(k); }
  Status log(const MessageLog& m) override { return inner_.log(m); }
  Status enqueue(const OutboxItem& i) override { return inner_.enqueue(i); }
  Result<std::vector<OutboxEntry>> due_outbox(int l, int64_t ms) override { return inner_.due_outbox(l, ms); }
  Status outbox_sent(int64_t id) override { return inner_.outbox_sent(id); }
  Status outbox_retry(int64_t id, int64_t n, const std::string& e, bool g) override {
    return inner_.outbox_retry(id, n, e, g);
  }
  Result<PurgeBatch> purge_keys(const PurgeRequest& r) override { return inner_.purge_keys(r); }
  Result<int64_t> purge_messages(int64_t c, int b, bool d) override { return inner_.purge_messages(c, b, d); }
  Result<std::vector<std::string>> partners_with_keys() override { return inner_.partners_with_keys(); }
  Result<StatusReport> report() override { return inner_.report(); }
  Result<int64_t> now_ms() override { return inner_.now_ms(); }
  int released = 0;

 private:
  Store& inner_;
};

}  // namespace

TEST_CASE("a failed final commit never yields a positive receipt") {
  TempDb db;
  auto real = db.open();
  Gate g(gate::GateOptions{});
  Booking b;
  SUBCASE("new key: handled in the inserting transaction") {
    CommitFails s(*real);
    Outcome o = g.pass(s, req("8"), b.effect());
    CHECK(o.kind == Outcome::Kind::Transient);
    CHECK(o.receipt.body.empty());
    CHECK(invoices(*real) == 0);
  }
  SUBCASE("taken-over key: handled in settle, the claim released") {
    ClaimRequest r = req("8");
    r.lease_ms = 1000;
    REQUIRE(real->claim(r)->kind == Claim::Kind::Claimed);  // a worker that then died
    auto later = db.open(1500);
    CommitFails s(*later);
    Outcome o = g.pass(s, req("8"), b.effect());
    CHECK(o.kind == Outcome::Kind::Transient);
    CHECK(o.receipt.body.empty());
    CHECK(s.released == 1);
    CHECK(invoices(*real) == 0);
  }
  // The partner's retry, with a healthy store, processes it.
  CHECK(g.pass(*real, req("8"), b.effect()).kind == Outcome::Kind::Processed);
  CHECK(invoices(*real) == 1);
}

TEST_CASE("leased pass: work outside the transaction may use the store itself, once") {
  TempDb db;
  auto s = db.open();
  Gate g(gate::GateOptions{});
  Booking inner;
  int runs = 0;
  auto work = [&]() -> Result<Settlement> {
    ++runs;
    // An AS2 message's interchange passes the gate on its own key meanwhile.
    Outcome o = g.pass(*s, req("inner"), inner.effect());
    if (o.kind != Outcome::Kind::Processed && o.kind != Outcome::Kind::Duplicate) return Status::transient(o.detail);
    return Settlement{KeyState::Completed, {200, "Content-Type: multipart/report\r\n", "MDN"}, "processed", ""};
  };
  ClaimRequest transport = req("transport");
  transport.key = MessageKey::as2("acme", "<m1@acme>");
  Outcome first = g.pass_leased(*s, transport, work);
  CHECK(first.kind == Outcome::Kind::Processed);
  CHECK(first.receipt.body == "MDN");
  Outcome again = g.pass_leased(*s, transport, work);
  CHECK(again.kind == Outcome::Kind::Duplicate);
  CHECK(again.receipt == first.receipt);
  CHECK(runs == 1);
  CHECK(inner.runs == 1);

  ClaimRequest failing = req("t2");
  failing.key = MessageKey::as2("acme", "<m2@acme>");
  Outcome t = g.pass_leased(*s, failing, [] () -> Result<Settlement> { return Status::transient("store busy"); });
  CHECK(t.kind == Outcome::Kind::Transient);
  CHECK(g.pass_leased(*s, failing, work).kind == Outcome::Kind::Processed);  // released: retried at once
}
