// The gate's rules (design: "The idempotency gate"), on the real SQLite store.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "src/gate/document_event.h"
#include "src/gate/heartbeat.h"
#include "src/gate/pass.h"
#include "tests/unit/temp_db.h"

using namespace edihub;
using namespace edihub::store;
using gate::Gate;
using gate::KeyClaim;
using gate::KeyOutcome;

namespace {

using test::TempDb;

KeyClaim claim(const std::string& id, const std::string& content = "d1") {
  return KeyClaim{MessageKey::edifact("acme", "5412345000013", id), PayloadDigest::of(content), RawDigest::of(content)};
}

// An effect that books one invoice and answers with `body`, counting its runs.
struct Booking {
  std::atomic<int> runs{0};
  std::string body = "CONTRL 7";
  gate::Effect effect(const std::string& number = "INV-1") {
    return [this, number](Transaction& tx) -> Result<Settlement> {
      ++runs;
      business::Invoice inv;
      inv.invoice_number = number;
      inv.document_date = "20240101";
      inv.total_minor = 100;
      auto a = tx.put_invoice("acme", inv, "edifact:x");
      if (!a.is_ok()) return a.status();
      return Settlement{KeyState::Completed, {0, "", body}, Outcome::Processed, ""};
    };
  }
};

int64_t invoices(Store& s) { return s.report()->business_rows.at("invoices"); }

gate::GateOptions waiting(int64_t ms) {
  gate::GateOptions o;
  o.inflight_wait_ms = ms;
  return o;
}

// Lets a test hold a thread inside an effect until it says go.
struct Latch {
  std::mutex mu;
  std::condition_variable cv;
  bool inside = false, go = false;
  void enter() {
    std::unique_lock<std::mutex> lock(mu);
    inside = true;
    cv.notify_all();
    cv.wait(lock, [&] { return go; });
  }
  void wait_inside() {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return inside; });
  }
  void open() {
    {
      std::lock_guard<std::mutex> lock(mu);
      go = true;
    }
    cv.notify_all();
  }
};

}  // namespace

TEST_CASE("first pass processes, retransmissions get the same receipt and no second effect") {
  TempDb db;
  auto s = db.open();
  Gate g(gate::GateOptions{});
  Booking b;
  KeyOutcome first = gate::pass_key(g, *s, claim("1"), b.effect());
  CHECK(first.outcome == Outcome::Processed);
  CHECK(first.receipt.body == "CONTRL 7");
  for (int i = 0; i < 3; ++i) {
    KeyOutcome again = gate::pass_key(g, *s, claim("1"), b.effect());
    CHECK(again.outcome == Outcome::Duplicate);
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
  REQUIRE(gate::pass_key(g, *s, claim("2", "d1"), b.effect()).outcome == Outcome::Processed);
  KeyOutcome c = gate::pass_key(g, *s, claim("2", "d2"), b.effect("INV-OTHER"));
  CHECK(c.outcome == Outcome::Conflict);
  CHECK(c.detail.find("different content") != std::string::npos);
  CHECK(b.runs == 1);
  CHECK(invoices(*s) == 1);
  CHECK(gate::pass_key(g, *s, claim("2", "d1"), b.effect()).receipt.body == "CONTRL 7");
}

// Defect 8: the wait is the gate's own. A key held under a lease (a large
// message in flight) makes a duplicate wait until it settles, then answers
// with its receipt. Without the wait, the duplicate would answer in-flight.
TEST_CASE("a duplicate of a key in flight waits for it to settle and gets its receipt") {
  TempDb db;
  Gate g(waiting(10000));
  auto holder = db.open();
  Result<gate::Claimed> held = gate::claim_leased(g, *holder, claim("3"));
  REQUIRE(held.is_ok());
  REQUIRE(held->kind == gate::Claimed::Kind::New);
  Booking b;
  KeyOutcome duplicate;
  std::thread t([&] {
    auto s = db.open();
    duplicate = gate::pass_key(g, *s, claim("3"), b.effect());
  });
  // Settles while the duplicate waits (it polls; a settle here also wakes it).
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  Booking original;
  original.body = "the receipt";
  REQUIRE(gate::settle_leased(g, *holder, claim("3"), held->token, original.effect()).is_ok());
  t.join();
  CHECK(duplicate.outcome == Outcome::Duplicate);
  CHECK(duplicate.receipt.body == "the receipt");
  CHECK(b.runs == 0);
  CHECK(original.runs == 1);
}

TEST_CASE("still in flight after the bounded wait: a transient answer, never a second run") {
  TempDb db;
  Gate g(waiting(50));
  auto holder = db.open();
  REQUIRE(gate::claim_leased(g, *holder, claim("4"))->kind == gate::Claimed::Kind::New);  // never settled
  auto s = db.open();
  Booking b;
  KeyOutcome r = gate::pass_key(g, *s, claim("4"), b.effect());
  CHECK(r.outcome == Outcome::InFlight);
  CHECK(r.detail == "still being handled by another worker after 50 ms");
  CHECK(b.runs == 0);
}

// Defect 8, the other half: a duplicate that meets the original's open
// transaction waits for the write lock only as long as the gate's wait (not
// SQLite's 30 s busy timeout), then gets a transient answer; once the
// original has committed, its receipt.
TEST_CASE("waiting for the original's transaction is bounded by the gate's wait") {
  TempDb db;
  Gate g(waiting(200));
  Latch latch;
  Booking original;
  KeyOutcome first;
  std::thread t([&] {
    auto s = db.open();
    first = gate::pass_key(g, *s, claim("5"), [&](Transaction& tx) -> Result<Settlement> {
      latch.enter();  // holds the transaction open
      return original.effect()(tx);
    });
  });
  latch.wait_inside();
  auto s = db.open();
  Booking b;
  KeyOutcome busy = gate::pass_key(g, *s, claim("5"), b.effect());
  CHECK(busy.outcome == Outcome::Error);
  CHECK(busy.detail == "store busy: no write lock within 200 ms");
  latch.open();
  t.join();
  CHECK(first.outcome == Outcome::Processed);
  KeyOutcome after = gate::pass_key(g, *s, claim("5"), b.effect());
  CHECK(after.outcome == Outcome::Duplicate);
  CHECK(after.receipt == first.receipt);
  CHECK(b.runs == 0);
  CHECK(original.runs == 1);
}

TEST_CASE("crash mid-processing: after the lease, a retransmission takes over and runs once") {
  TempDb db;
  gate::GateOptions o = waiting(0);
  o.lease_ms = 1000;
  Gate g(o);
  auto crashed = db.open();
  Result<gate::Claimed> held = gate::claim_leased(g, *crashed, claim("6"));
  REQUIRE(held->kind == gate::Claimed::Kind::New);  // then the worker dies
  auto early = db.open(500);
  Booking b;
  CHECK(gate::pass_key(g, *early, claim("6"), b.effect()).outcome == Outcome::InFlight);
  auto after = db.open(1500);  // the store's clock, past the lease
  KeyOutcome out = gate::pass_key(g, *after, claim("6"), b.effect());
  CHECK(out.outcome == Outcome::Processed);
  CHECK(b.runs == 1);
  // The dead worker's settle, should it wake up, is refused and writes nothing.
  Booking stale;
  Status late = gate::settle_leased(g, *crashed, claim("6"), held->token, stale.effect("INV-STALE"));
  CHECK(late.kind() == Status::Kind::Fenced);
  CHECK(invoices(*after) == 1);
  CHECK((*after->lookup(claim("6").key).value()).attempts == 2);
}

TEST_CASE("a crashed owner's lease: taken over at once by its node's next instance, or when its heartbeat stops") {
  TempDb db;
  // Owner n1:first holds two keys under a 5-minute lease, beats once, then dies.
  gate::GateOptions first = gate::with_owner(waiting(0), "n1");
  Gate g1(first);
  auto crashed = db.open();
  REQUIRE(crashed->transact([&](Transaction& tx) { return tx.heartbeat(first.owner, first.node); }, 1000).is_ok());
  Result<gate::Claimed> a = gate::claim_leased(g1, *crashed, claim("own-1"));
  Result<gate::Claimed> b = gate::claim_leased(g1, *crashed, claim("own-2"));
  REQUIRE(a->kind == gate::Claimed::Kind::New);
  REQUIRE(b->kind == gate::Claimed::Kind::New);
  const KeyRecord held = crashed->lookup(claim("own-1").key)->value();
  CHECK(held.owner == first.owner);
  CHECK(held.owner_node == "n1");
  CHECK(held.owner_heartbeat_ms > 0);

  // Another node, while the owner's heartbeat is fresh: in flight, as before.
  Gate other(gate::with_owner(waiting(0), "n2"));
  auto store = db.open();
  Booking booking;
  CHECK(gate::pass_key(other, *store, claim("own-1"), booking.effect()).outcome == Outcome::InFlight);
  // The same node started again: its previous instance's lease is nobody's.
  Gate restarted(gate::with_owner(waiting(0), "n1"));
  CHECK(gate::pass_key(restarted, *store, claim("own-1"), booking.effect("INV-OWN-1")).outcome == Outcome::Processed);
  CHECK(booking.runs == 1);
  // Another node, once the owner is silent past the owner timeout (10 s), long before the lease ends.
  auto later = db.open(11000);
  CHECK(gate::pass_key(other, *later, claim("own-2"), booking.effect("INV-OWN-2")).outcome == Outcome::Processed);
  CHECK(booking.runs == 2);
  // The dead owner's settles are fenced.
  Booking stale;
  CHECK(gate::settle_leased(g1, *crashed, claim("own-1"), a->token, stale.effect("INV-STALE")).kind() ==
        Status::Kind::Fenced);
  CHECK(invoices(*store) == 2);
  // A lease that names nobody still holds for its whole length.
  Gate anonymous(waiting(0));
  REQUIRE(gate::claim_leased(anonymous, *crashed, claim("own-3"))->kind == gate::Claimed::Kind::New);
  CHECK(gate::pass_key(other, *later, claim("own-3"), booking.effect()).outcome == Outcome::InFlight);
}

TEST_CASE("transient failure: nothing committed, the retry processes") {
  TempDb db;
  auto s = db.open();
  Gate g(gate::GateOptions{});
  KeyOutcome t = gate::pass_key(g, *s, claim("7"), [](Transaction& tx) -> Result<Settlement> {
    business::Invoice inv;
    inv.invoice_number = "INV-7";
    inv.document_date = "20240101";
    if (!tx.put_invoice("acme", inv, "x").is_ok()) return Status::transient("put failed");
    return Status::transient("downstream ERP is down");
  });
  CHECK(t.outcome == Outcome::Error);
  CHECK(t.detail == "downstream ERP is down");
  CHECK(invoices(*s) == 0);
  CHECK_FALSE(s->lookup(claim("7").key)->has_value());  // no trace
  Booking b;
  CHECK(gate::pass_key(g, *s, claim("7"), b.effect("INV-7")).outcome == Outcome::Processed);
  CHECK(invoices(*s) == 1);
}

TEST_CASE("permanent failure: stored negative receipt, retried whatever the content, then poison") {
  TempDb db;
  auto s = db.open();
  gate::GateOptions o;
  o.max_failures = 2;
  Gate g(o);
  std::atomic<int> runs{0};
  auto reject = [&](Transaction&) -> Result<Settlement> {
    ++runs;
    return Settlement{
        KeyState::Failed, {0, "", "CONTRL 4 #" + std::to_string(runs.load())}, Outcome::Rejected, "bad partner data"};
  };
  KeyOutcome f1 = gate::pass_key(g, *s, claim("8", "v1"), reject);
  CHECK(f1.outcome == Outcome::Rejected);
  CHECK(f1.receipt.body == "CONTRL 4 #1");
  // What /metrics reads: one failed key, not yet poison.
  CHECK(s->gauges(o.max_failures)->open_keys.at("failed") == 1);
  CHECK(s->gauges(o.max_failures)->poison_keys == 0);
  // The cause may have been fixed, and a corrected copy is not a conflict: run again.
  KeyOutcome f2 = gate::pass_key(g, *s, claim("8", "v2"), reject);
  CHECK(f2.outcome == Outcome::Rejected);
  KeyOutcome poison = gate::pass_key(g, *s, claim("8", "v3"), reject);
  CHECK(poison.outcome == Outcome::Poison);
  CHECK(poison.receipt.body == "CONTRL 4 #2");
  CHECK(runs == 2);
  Result<store::Gauges> gauges = s->gauges(o.max_failures);
  REQUIRE(gauges.is_ok());
  CHECK(gauges->open_keys.at("failed") == 1);
  CHECK(gauges->poison_keys == 1);
  CHECK(gauges->open_keys.count("processing") == 0);
  CHECK(gauges->store_bytes > 0);
}

TEST_CASE("a failed key that then succeeds is completed, and its retransmission is a duplicate") {
  TempDb db;
  auto s = db.open();
  Gate g(gate::GateOptions{});
  REQUIRE(gate::pass_key(g, *s, claim("9", "v1"), [](Transaction&) -> Result<Settlement> {
            return Settlement{KeyState::Failed, {0, "", "negative"}, Outcome::Rejected, "not yet"};
          }).outcome == Outcome::Rejected);
  Booking b;
  b.body = "positive";
  CHECK(gate::pass_key(g, *s, claim("9", "v1"), b.effect()).outcome == Outcome::Processed);
  KeyOutcome dup = gate::pass_key(g, *s, claim("9", "v1"), b.effect());
  CHECK(dup.outcome == Outcome::Duplicate);
  CHECK(dup.receipt.body == "positive");
  CHECK(b.runs == 1);
}

namespace {

// A key store whose COMMIT fails after the work ran (disk full, I/O error):
// only the interface the gate uses, over a real store.
class CommitFails : public KeyStore {
 public:
  explicit CommitFails(Store& inner) : inner_(inner) {}
  Result<std::optional<KeyRecord>> lookup(const MessageKey& k) override { return inner_.lookup(k); }
  Result<std::optional<Receipt>> conflict_receipt(const MessageKey& k, const RawDigest& r) override {
    return inner_.conflict_receipt(k, r);
  }
  Status transact(const TransactionWork& work, int64_t wait) override {
    return inner_.transact(
        [&](Transaction& tx) -> Status {
          Status s = work(tx);
          return s.is_ok() ? Status::transient("disk I/O error during COMMIT") : s;
        },
        wait);
  }

 private:
  Store& inner_;
};

}  // namespace

TEST_CASE("a failed final commit never yields a positive receipt, and leaves no trace") {
  TempDb db;
  auto real = db.open();
  Gate g(gate::GateOptions{});
  Booking b;
  CommitFails failing(*real);
  KeyOutcome o = gate::pass_key(g, failing, claim("10"), b.effect());
  CHECK(o.outcome == Outcome::Error);
  CHECK(o.receipt.body.empty());
  CHECK(o.detail == "disk I/O error during COMMIT");
  CHECK(invoices(*real) == 0);
  CHECK_FALSE(real->lookup(claim("10").key)->has_value());
  // The partner's retry, with a healthy store, processes it.
  CHECK(gate::pass_key(g, *real, claim("10"), b.effect()).outcome == Outcome::Processed);
  CHECK(invoices(*real) == 1);
}

TEST_CASE("concurrent duplicates of a new key: one effect, one receipt for all") {
  TempDb db;
  Gate g(waiting(10000));
  Booking b;
  std::vector<KeyOutcome> outcomes(8);
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] {
      auto s = db.open();
      outcomes[i] = gate::pass_key(g, *s, claim("11"), b.effect());
    });
  for (auto& t : threads) t.join();
  int processed = 0;
  for (const auto& o : outcomes) {
    processed += o.outcome == Outcome::Processed;
    CHECK((o.outcome == Outcome::Processed || o.outcome == Outcome::Duplicate));
    CHECK(o.receipt.body == "CONTRL 7");
  }
  CHECK(processed == 1);
  CHECK(b.runs == 1);
  CHECK(invoices(*db.open()) == 1);
}

TEST_CASE("a booked document's event for the back office: its version key and JSON, exactly") {
  business::ShipmentNotice sn;
  sn.document_number = "ASN-1";
  sn.purpose = business::Purpose::Replace;
  sn.document_date = "20261201";
  sn.ship_to = "DC-7";
  sn.lines.push_back({1, "0123", "UP", "", "2.5", "EA", "PO-9"});
  const gate::Document doc = business::to_document(sn);
  CHECK(gate::document_version_key("acme", doc) == "shipment-notice:acme:ASN-1:20261201:replace");
  CHECK(gate::document_json("acme", doc, Applied::Replaced, "x12:ACMESUPPLY:000000101") ==
        R"({"event":"shipment_notice","id":"shipment-notice:acme:ASN-1:20261201:replace","partner":"acme",)"
        R"("applied":"replaced","source":"x12:ACMESUPPLY:000000101","document":{"number":"ASN-1","purpose":"replace",)"
        R"("document_date":"20261201","ship_to":"DC-7","lines":[{"line_number":1,"item_id":"0123","item_id_type":"UP",)"
        R"("quantity":"2.5","unit":"EA","order_number":"PO-9"}]}})");
  // Any registry type has the same event shape: an order from the 850 sample.
  business::Document po;
  po.type = &business::order_type();
  po.number = "PO-5001";
  po.document_date = "20240320";
  po.fields = {business::Value::of("SA"),          business::Value::of("USD"),  business::Value::of("BT01"),
               business::Value::of("ACME01"),      business::Value::of("WH01"), business::Value::of(""),
               business::Value::of(int64_t{77988})};
  po.lines = {{business::Value::of(int64_t{1}), business::Value::of("012345678905"), business::Value::of("UP"),
               business::Value::of("24"), business::Value::of("EA"), business::Value::of("12.50")}};
  CHECK(gate::document_json("acme", po, Applied::Inserted, "x12:ACMESUPPLY:000000301") ==
        R"({"event":"order","id":"order:acme:PO-5001:20240320:original","partner":"acme","applied":"inserted",)"
        R"("source":"x12:ACMESUPPLY:000000301","document":{"number":"PO-5001","purpose":"original",)"
        R"("document_date":"20240320","order_type":"SA","currency":"USD","buyer":"BT01","seller":"ACME01",)"
        R"("ship_to":"WH01","total_minor":77988,"lines":[{"line_number":1,"item_id":"012345678905",)"
        R"("item_id_type":"UP","quantity":"24","unit":"EA","unit_price":"12.50"}]}})");
  // With the whole message written (a partner with <documents>), it follows as "message".
  po.canonical = R"({"schema":"edihub-document/1"})";
  const std::string with_message = gate::document_json("acme", po, Applied::Inserted, "x12:ACMESUPPLY:000000301");
  CHECK(with_message.size() > po.canonical.size());
  CHECK(with_message.substr(with_message.size() - 45) == R"(}]},"message":{"schema":"edihub-document/1"}})");
  // An invoice and a credit note numbered and dated alike are two documents:
  // two keys, or the back office would drop the second as a retry.
  business::Invoice inv;
  inv.invoice_number = "INV-7";
  inv.document_date = "20261201";
  CHECK(gate::document_version_key("acme", business::to_document(inv)) == "invoice:acme:INV-7:20261201:original");
  inv.credit_note = true;
  CHECK(gate::document_version_key("acme", business::to_document(inv)) == "credit-note:acme:INV-7:20261201:original");
  // The key becomes an Idempotency-Key header: a partner's line break cannot end it.
  sn.document_number = "ASN\r\nX-Injected: 1";
  CHECK(gate::document_version_key("acme", business::to_document(sn)) ==
        "shipment-notice:acme:ASN\\x0D\\x0AX-Injected: 1:20261201:replace");
}
