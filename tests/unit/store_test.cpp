// Contract tests of the Store interface. They run against every backend the
// build has (SQLite now; PostgreSQL when EDIHUB_TEST_PG_URI is set later).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "src/store/store.h"
#include "tests/unit/temp_db.h"

using namespace edihub;
using namespace edihub::store;

namespace {

using test::TempDb;

ClaimRequest request(const std::string& id, const std::string& digest = "aaaa", int64_t lease_ms = 60000) {
  ClaimRequest r;
  r.key = MessageKey::x12("acme", "ACMESUPPLY", id);
  r.payload_sha256 = digest;
  r.raw_sha256 = digest;
  r.lease_ms = lease_ms;
  r.max_failures = 3;
  return r;
}

Receipt receipt(const std::string& body) {
  return {200, "Content-Type: application/edi-x12\r\nX-Test: 1\r\n", body};
}

Effect complete_with(const Receipt& r) {
  return [r](Transaction&) -> Result<Settlement> {
    Settlement s;
    s.state = KeyState::Completed;
    s.receipt = r;
    s.outcome = "processed";
    return s;
  };
}

Effect fail_with(const Receipt& r) {
  return [r](Transaction&) -> Result<Settlement> {
    Settlement s;
    s.state = KeyState::Failed;
    s.receipt = r;
    s.outcome = "rejected";
    s.error = "bad";
    return s;
  };
}

business::Invoice invoice(const std::string& number, const std::string& date, business::Purpose p,
                          int64_t total) {
  business::Invoice inv;
  inv.invoice_number = number;
  inv.document_date = date;
  inv.purpose = p;
  inv.total_minor = total;
  inv.currency = "EUR";
  business::InvoiceLine line;
  line.line_number = 1;
  line.item_id = "4711";
  line.quantity = "2";
  line.unit_price = "12.50";
  line.amount_minor = 2500;
  inv.lines.push_back(line);
  return inv;
}

}  // namespace

TEST_CASE("claim: new key, in flight, completed duplicate with the exact receipt") {
  TempDb db;
  auto s = db.open();
  auto c = s->claim(request("000000001"));
  REQUIRE(c.is_ok());
  CHECK(c->kind == Claim::Kind::Claimed);
  CHECK(c->token == 1);
  CHECK_FALSE(c->takeover);

  auto again = s->claim(request("000000001"));
  REQUIRE(again.is_ok());
  CHECK(again->kind == Claim::Kind::InFlight);

  const Receipt r = receipt(std::string("ISA*...~\0binary\xff", 16));
  REQUIRE(s->settle(request("000000001").key, 1, complete_with(r)).is_ok());

  auto dup = s->claim(request("000000001"));
  REQUIRE(dup.is_ok());
  CHECK(dup->kind == Claim::Kind::Completed);
  CHECK(dup->receipt == r);  // status, headers and body, byte for byte

  auto rec = s->lookup(request("000000001").key);
  REQUIRE(rec.is_ok());
  REQUIRE(rec->has_value());
  CHECK((*rec.value()).state == KeyState::Completed);
  CHECK((*rec.value()).protocol == "x12");
  CHECK((*rec.value()).lease_until_ms == 0);
}

TEST_CASE("same key, different payload digest: conflict, in flight or settled") {
  TempDb db;
  auto s = db.open();
  REQUIRE(s->claim(request("7", "aaaa"))->kind == Claim::Kind::Claimed);
  auto c = s->claim(request("7", "bbbb"));
  CHECK(c->kind == Claim::Kind::Conflict);
  CHECK(c->stored_payload_sha256 == "aaaa");
  REQUIRE(s->settle(request("7").key, 1, complete_with(receipt("ok"))).is_ok());
  CHECK(s->claim(request("7", "bbbb"))->kind == Claim::Kind::Conflict);
  // The stored receipt is untouched by the conflict.
  CHECK(s->claim(request("7", "aaaa"))->receipt.body == "ok");
}

TEST_CASE("crash: lease expiry, takeover with a new token, the stale settle is refused") {
  TempDb db;
  auto worker1 = db.open();
  REQUIRE(worker1->claim(request("9", "aaaa", 1000))->kind == Claim::Kind::Claimed);
  // worker1 "dies" before settling. Before the lease ends, nobody may take over.
  auto early = db.open(500);
  CHECK(early->claim(request("9", "aaaa", 1000))->kind == Claim::Kind::InFlight);
  // After it, a retransmission takes over.
  auto worker2 = db.open(1001);
  auto c = worker2->claim(request("9", "aaaa", 1000));
  REQUIRE(c.is_ok());
  CHECK(c->kind == Claim::Kind::Claimed);
  CHECK(c->token == 2);
  CHECK(c->takeover);
  // The stale worker wakes up and tries to settle: fenced, nothing written.
  bool ran = false;
  Status stale = worker1->settle(request("9").key, 1, [&](Transaction& tx) -> Result<Settlement> {
    ran = true;
    tx.put_invoice("acme", invoice("INV-1", "20240101", business::Purpose::Original, 100), "x12:stale");
    return Settlement{KeyState::Completed, receipt("stale"), "processed", ""};
  });
  CHECK(stale.kind() == Status::Kind::Fenced);
  CHECK_FALSE(ran);
  REQUIRE(worker2->settle(request("9").key, 2, complete_with(receipt("fresh"))).is_ok());
  CHECK(worker1->claim(request("9"))->receipt.body == "fresh");
  CHECK(worker1->report()->business_rows.at("invoices") == 0);
}

TEST_CASE("an effect that fails rolls back everything and leaves the key claimed") {
  TempDb db;
  auto s = db.open();
  REQUIRE(s->claim(request("10"))->kind == Claim::Kind::Claimed);
  Status st = s->settle(request("10").key, 1, [](Transaction& tx) -> Result<Settlement> {
    tx.put_invoice("acme", invoice("INV-2", "20240101", business::Purpose::Original, 100), "x12:10");
    return Status::transient("downstream down");
  });
  CHECK(st.kind() == Status::Kind::Transient);
  CHECK(s->report()->business_rows.at("invoices") == 0);
  CHECK((*s->lookup(request("10").key).value()).state == KeyState::Processing);
  // release: the retry takes over at once, without waiting for the lease.
  REQUIRE(s->release(request("10").key, 1).is_ok());
  auto c = s->claim(request("10"));
  CHECK(c->kind == Claim::Kind::Claimed);
  CHECK(c->token == 2);
}

TEST_CASE("failed keys are retried until poison, then answered with the stored negative receipt") {
  TempDb db;
  auto s = db.open();
  int64_t token = s->claim(request("11"))->token;
  REQUIRE(s->settle(request("11").key, token, fail_with(receipt("negative 1"))).is_ok());
  for (int attempt = 2; attempt <= 3; ++attempt) {
    auto c = s->claim(request("11"));
    REQUIRE(c->kind == Claim::Kind::Claimed);
    CHECK(c->token == attempt);
    REQUIRE(s->settle(request("11").key, c->token, fail_with(receipt("negative " + std::to_string(attempt)))).is_ok());
  }
  auto poison = s->claim(request("11"));
  CHECK(poison->kind == Claim::Kind::Poison);
  CHECK(poison->receipt.body == "negative 3");
  auto rec = s->lookup(request("11").key);
  CHECK((*rec.value()).failures == 3);
}

TEST_CASE("business tables: versions apply in document-date order") {
  TempDb db;
  auto s = db.open();
  std::vector<Applied> applied;
  auto book = [&](const std::string& id, business::Invoice inv) {
    auto c = s->claim(request(id));
    REQUIRE(c->kind == Claim::Kind::Claimed);
    REQUIRE(s->settle(request(id).key, c->token, [&](Transaction& tx) -> Result<Settlement> {
                 auto a = tx.put_invoice("acme", inv, "x12:" + id);
                 if (!a.is_ok()) return a.status();
                 applied.push_back(a.value());
                 return Settlement{KeyState::Completed, receipt(id), "processed", ""};
               }).is_ok());
  };
  book("20", invoice("INV-9", "20240105", business::Purpose::Original, 1000));
  book("21", invoice("INV-9", "20240107", business::Purpose::Replace, 1200));
  book("22", invoice("INV-9", "20240106", business::Purpose::Replace, 1100));  // late, older
  book("23", invoice("INV-9", "20240107", business::Purpose::Original, 999));  // same date, weaker
  REQUIRE(applied.size() == 4);
  CHECK(applied[0] == Applied::Inserted);
  CHECK(applied[1] == Applied::Replaced);
  CHECK(applied[2] == Applied::IgnoredOlder);
  CHECK(applied[3] == Applied::IgnoredOlder);
  book("24", invoice("INV-9", "20240108", business::Purpose::Cancel, 0));
  CHECK(applied[4] == Applied::Cancelled);
  book("25", invoice("INV-9", "20240106", business::Purpose::Original, 1));  // older than the cancel
  CHECK(applied[5] == Applied::IgnoredOlder);
  auto report = s->report();
  CHECK(report->business_rows.at("invoices") == 1);
  CHECK(report->business_rows.at("invoice_lines") == 1);
}

TEST_CASE("sequences count up inside the settle transaction and roll back with it") {
  TempDb db;
  auto s = db.open();
  int64_t seen = 0;
  REQUIRE(s->claim(request("30"))->kind == Claim::Kind::Claimed);
  CHECK(s->settle(request("30").key, 1, [&](Transaction& tx) -> Result<Settlement> {
    seen = tx.next_sequence("ack").value();
    return Status::transient("roll back");
  }).kind() == Status::Kind::Transient);
  CHECK(seen == 1);
  REQUIRE(s->settle(request("30").key, 1, [&](Transaction& tx) -> Result<Settlement> {
    seen = tx.next_sequence("ack").value();
    tx.next_sequence("ack");
    return Settlement{KeyState::Completed, receipt("x"), "processed", ""};
  }).is_ok());
  CHECK(seen == 1);  // the rolled-back increment did not count
}

TEST_CASE("purge: old settled keys go, new ones and live leases stay") {
  TempDb db;
  auto s = db.open();
  for (int i = 0; i < 25; ++i) {
    std::string id = "old" + std::to_string(i);
    REQUIRE(s->claim(request(id))->kind == Claim::Kind::Claimed);
    REQUIRE(s->settle(request(id).key, 1, complete_with(receipt("r"))).is_ok());
  }
  REQUIRE(s->claim(request("live", "aaaa", 3600 * 1000))->kind == Claim::Kind::Claimed);
  // Two days later, a new key arrives.
  auto later = db.open(2 * 24 * 3600 * 1000LL);
  REQUIRE(later->claim(request("new"))->kind == Claim::Kind::Claimed);
  REQUIRE(later->settle(request("new").key, 1, complete_with(receipt("r"))).is_ok());

  PurgeRequest req;
  req.cutoff_ms = later->now_ms().value() - 24 * 3600 * 1000LL;  // retention: one day
  req.batch = 10;
  req.dry_run = true;
  auto dry = later->purge_keys(req);
  CHECK(dry->deleted == 26);  // the 25 old keys and the expired lease
  req.dry_run = false;
  int64_t deleted = 0, batches = 0;
  while (true) {
    auto b = later->purge_keys(req);
    REQUIRE(b.is_ok());
    ++batches;
    deleted += b->deleted;
    if (b->deleted < req.batch) {
      CHECK(b->kept_live == 0);  // the "live" key's lease (1 h) ended a day ago: it goes too
      break;
    }
  }
  CHECK(deleted == 26);
  CHECK(batches == 3);
  CHECK((*later->lookup(request("new").key).value()).state == KeyState::Completed);
  CHECK_FALSE(later->lookup(request("old0").key)->has_value());
}

TEST_CASE("purge never deletes a key with a live lease") {
  TempDb db;
  auto s = db.open();
  REQUIRE(s->claim(request("busy", "aaaa", 10 * 24 * 3600 * 1000LL))->kind == Claim::Kind::Claimed);
  auto later = db.open(2 * 24 * 3600 * 1000LL);
  PurgeRequest req;
  req.cutoff_ms = later->now_ms().value();
  auto b = later->purge_keys(req);
  CHECK(b->deleted == 0);
  CHECK(b->kept_live == 1);
  CHECK(later->lookup(request("busy").key)->has_value());
}

TEST_CASE("schema: migrations recorded once; bad URIs are clear errors") {
  TempDb db;
  { auto s = db.open(); CHECK(s->report()->schema_version == 1); }
  { auto s = db.open(); CHECK(s->report()->schema_version == 1); }
  auto bad = open_store("postgres://x");
  CHECK(bad.status().kind() == Status::Kind::Invalid);
  CHECK(bad.status().message().find("expected sqlite:PATH") != std::string::npos);
  auto opt = open_store("sqlite:" + db.dir + "/x.db?synchronous=sometimes");
  CHECK(opt.status().kind() == Status::Kind::Invalid);
  auto unwritable = open_store("sqlite:/proc/edihub/x.db");
  CHECK(unwritable.status().kind() == Status::Kind::Unavailable);
}
