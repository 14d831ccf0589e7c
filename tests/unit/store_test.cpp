// Contract tests of the store's interfaces: the key primitives the gate's
// rules are written on, business rows, sequences, the message log, captures,
// conflict answers, retention. They run against every backend the build has
// (SQLite; PostgreSQL is next) through the interfaces only.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "src/store/store.h"
#include "tests/unit/temp_db.h"
#include "tests/unit/test_util.h"

using namespace edihub;
using namespace edihub::store;

namespace {

using test::TempDb;

MessageKey key(const std::string& id) { return MessageKey::x12("acme", "ACMESUPPLY", id); }
PayloadDigest payload(const std::string& s) { return PayloadDigest::of(s); }
RawDigest raw(const std::string& s) { return RawDigest::of(s); }

Receipt receipt(const std::string& body) { return {200, "Content-Type: application/edi-x12\r\nX-Test: 1\r\n", body}; }

using test::log_row;

Settlement completed(const std::string& body) {
  return Settlement{KeyState::Completed, receipt(body), Outcome::Processed, ""};
}
Settlement failed(const std::string& body) {
  return Settlement{KeyState::Failed, receipt(body), Outcome::Rejected, "bad"};
}

// Runs `work` in one transaction, asserting it commits.
template <typename F>
void commit(Store& s, F&& work) {
  Status st = s.transact([&](Transaction& tx) -> Status { return work(tx); }, 1000);
  REQUIRE_MESSAGE(st.is_ok(), st.message());
}

// Inserts and settles a key in one transaction.
void settle_new(Store& s, const std::string& id, const Settlement& st, const std::string& content = "aaaa") {
  commit(s, [&](Transaction& tx) -> Status {
    Result<bool> in = tx.insert_key(key(id), payload(content), raw(content), tx.now_ms() + 60000);
    if (!in.is_ok()) return in.status();
    REQUIRE(in.value());
    Result<bool> done = tx.settle_key(key(id), 1, payload(content), st);
    if (!done.is_ok()) return done.status();
    REQUIRE(done.value());
    return Status::ok();
  });
}

business::Invoice invoice(const std::string& number, const std::string& date, business::Purpose p, int64_t total) {
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

int64_t rows(Store& s, const std::string& table) { return s.report()->business_rows.at(table); }

}  // namespace

TEST_CASE("keys: insert once, read back byte for byte, settle fenced by the token") {
  TempDb db;
  auto s = db.open();
  commit(*s, [&](Transaction& tx) -> Status {
    CHECK(tx.insert_key(key("1"), payload("a"), raw("a-raw"), tx.now_ms() + 1000).value());
    CHECK_FALSE(tx.insert_key(key("1"), payload("b"), raw("b"), tx.now_ms() + 1000).value());  // ON CONFLICT DO NOTHING
    return Status::ok();
  });
  auto rec = s->lookup(key("1"));
  REQUIRE(rec->has_value());
  CHECK((*rec.value()).state == KeyState::Processing);
  CHECK((*rec.value()).attempts == 1);
  CHECK((*rec.value()).payload == payload("a"));
  CHECK((*rec.value()).raw == raw("a-raw"));

  const Receipt r = receipt(std::string("ISA*...~\0binary\xff", 16));
  commit(*s, [&](Transaction& tx) -> Status {
    CHECK_FALSE(tx.settle_key(key("1"), 2, payload("a"), completed("wrong token")).value());  // fenced
    CHECK(tx.settle_key(key("1"), 1, payload("a"), Settlement{KeyState::Completed, r, Outcome::Processed, ""}).value());
    CHECK_FALSE(tx.settle_key(key("1"), 1, payload("a"), completed("twice")).value());  // no longer processing
    return Status::ok();
  });
  rec = s->lookup(key("1"));
  CHECK((*rec.value()).state == KeyState::Completed);
  CHECK((*rec.value()).receipt == r);  // status, headers and body, byte for byte
  CHECK((*rec.value()).outcome == "processed");
  CHECK((*rec.value()).lease_until_ms == 0);
}

TEST_CASE("keys: take-over bumps the token and records this attempt's digests; completed keys are never taken") {
  TempDb db;
  auto s = db.open();
  settle_new(*s, "2", failed("negative"), "first");
  commit(*s, [&](Transaction& tx) -> Status {
    CHECK_FALSE(tx.take_over(key("2"), 7, payload("second"), raw("second"), tx.now_ms() + 1000).value());  // stale
    CHECK(tx.take_over(key("2"), 1, payload("second"), raw("second"), tx.now_ms() + 1000).value());
    return Status::ok();
  });
  auto rec = s->lookup(key("2"));
  CHECK((*rec.value()).attempts == 2);
  CHECK((*rec.value()).failures == 1);
  CHECK((*rec.value()).payload == payload("second"));
  CHECK((*rec.value()).raw == raw("second"));
  settle_new(*s, "3", completed("ok"));
  commit(*s, [&](Transaction& tx) -> Status {
    CHECK_FALSE(tx.take_over(key("3"), 1, payload("x"), raw("x"), tx.now_ms() + 1000).value());
    return Status::ok();
  });
}

TEST_CASE("keys: an unknown payload (a failed unwrap) keeps the digest known before") {
  TempDb db;
  auto s = db.open();
  commit(*s, [&](Transaction& tx) -> Status {
    CHECK(tx.insert_key(key("4"), PayloadDigest(), raw("r"), tx.now_ms() + 1000).value());
    CHECK(tx.settle_key(key("4"), 1, PayloadDigest(), failed("decryption-failed")).value());
    return Status::ok();
  });
  CHECK((*s->lookup(key("4")).value()).payload.empty());
}

TEST_CASE("a transaction whose work fails rolls back everything, sequences and business rows included") {
  TempDb db;
  auto s = db.open();
  int64_t seen = 0;
  Status st = s->transact(
      [&](Transaction& tx) -> Status {
        seen = tx.next_sequence("ack").value();
        CHECK(tx.put_invoice("acme", invoice("INV-2", "20240101", business::Purpose::Original, 100), "x12:10").is_ok());
        CHECK(tx.insert_key(key("10"), payload("a"), raw("a"), tx.now_ms()).value());
        return Status::transient("downstream down");
      },
      1000);
  CHECK(st.kind() == Status::Kind::Transient);
  CHECK(st.message() == "downstream down");
  CHECK(seen == 1);
  CHECK(rows(*s, "invoices") == 0);
  CHECK_FALSE(s->lookup(key("10"))->has_value());
  commit(*s, [&](Transaction& tx) -> Status {
    CHECK(tx.next_sequence("ack").value() == 1);  // the rolled-back increment did not count
    CHECK(tx.next_sequence("ack").value() == 2);
    CHECK(tx.next_sequence("other").value() == 1);
    return Status::ok();
  });
}

TEST_CASE("a write that fails fails its transaction, whenever the store sends it; none of it stays") {
  // PostgreSQL sends writes that need no answer with the next statement that
  // does, or with the COMMIT: their error is still the transaction's.
  TempDb db;
  auto s = db.open();
  const MessageLog row = log_row(Outcome::Processed);
  const OutboxItem bad{"acme",       "997", "x12:ACMESUPPLY:1", "pigeon", "https://partner.example/as2",
                       "<m@edihub>", "",    "ISA*...",          ""};
  Status st = s->transact(
      [&](Transaction& tx) -> Status {
        RETURN_IF_ERROR(tx.log(row));
        RETURN_IF_ERROR(tx.put_invoice("acme", invoice("INV-3", "20240101", business::Purpose::Original, 100), "x"));
        return tx.enqueue(bad);  // no channel "pigeon": the schema refuses the row
      },
      1000);
  CHECK_FALSE(st.is_ok());
  CHECK(st.message().find("channel") != std::string::npos);
  CHECK(rows(*s, "invoices") == 0);
  CHECK(s->report()->outcomes_24h.count("processed") == 0);
  // The failed write answers for the statement after it.
  st = s->transact(
      [&](Transaction& tx) -> Status {
        RETURN_IF_ERROR(tx.enqueue(bad));
        return tx.next_sequence("ack").status();
      },
      1000);
  CHECK(st.message().find("channel") != std::string::npos);
  // The connection goes on: the next transaction commits, numbered from 1.
  commit(*s, [&](Transaction& tx) -> Status {
    CHECK(tx.next_sequence("ack").value() == 1);
    RETURN_IF_ERROR(tx.log(row));
    return tx.put_invoice("acme", invoice("INV-3", "20240101", business::Purpose::Original, 100), "x").status();
  });
  CHECK(rows(*s, "invoices") == 1);
  CHECK(s->report()->outcomes_24h.at("processed") == 1);
}

TEST_CASE("a key another transaction is writing is waited for at most the given time, then store busy") {
  // SQLite has one writer at a time, PostgreSQL a lock per row: either way
  // the second transaction waits for the first at most its bound. Warm, the
  // waiter ran a transaction just before (PostgreSQL then sends BEGIN and the
  // bound with the first statement): the bound holds all the same, and the
  // connection is usable after the failure.
  for (const bool warm : {false, true}) {
    CAPTURE(warm);
    TempDb db;
    auto holder = db.open();
    auto waiter = db.open();
    if (warm) settle_new(*waiter, "before", completed("r"));
    Status inner;
    std::chrono::steady_clock::duration waited{};
    Status outer = holder->transact(
        [&](Transaction& tx) -> Status {
          CHECK(tx.insert_key(key("held"), payload("a"), raw("a"), tx.now_ms() + 60000).value());
          const auto start = std::chrono::steady_clock::now();
          inner = waiter->transact(
              [](Transaction& other) -> Status {
                Result<bool> in = other.insert_key(key("held"), payload("a"), raw("a"), other.now_ms() + 60000);
                return in.is_ok() ? Status::ok() : in.status();
              },
              100);
          waited = std::chrono::steady_clock::now() - start;
          return Status::ok();
        },
        1000);
    REQUIRE(outer.is_ok());
    // Ten times the bound: a bound that was not applied waits for the
    // holder, or for PostgreSQL's default of forever.
    CHECK(waited < std::chrono::milliseconds(1000));
    CHECK(inner.kind() == Status::Kind::Transient);
    CHECK(inner.message() == "store busy: no write lock within 100 ms");
    settle_new(*waiter, "after", completed("r"));
    CHECK(waiter->lookup(key("after")).value()->state == KeyState::Completed);
  }
}

TEST_CASE("a transaction's clock lies between the store's clock before and after it") {
  // PostgreSQL carries a recent reading of its clock forward rather than read
  // it again at every BEGIN: the time that passed must be in it.
  TempDb db;
  auto s = db.open();
  const int64_t before = s->now_ms().value();
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  int64_t during = 0;
  commit(*s, [&](Transaction& tx) -> Status {
    during = tx.now_ms();
    return Status::ok();
  });
  const int64_t after = s->now_ms().value();
  CHECK(during >= before + 60);
  CHECK(during <= after);
}

TEST_CASE("business tables: versions apply in document-date order") {
  TempDb db;
  auto s = db.open();
  std::vector<Applied> applied;
  auto book = [&](business::Invoice inv) {
    commit(*s, [&](Transaction& tx) -> Status {
      auto a = tx.put_invoice("acme", inv, "x12:src");
      if (!a.is_ok()) return a.status();
      applied.push_back(a.value());
      return Status::ok();
    });
  };
  book(invoice("INV-9", "20240105", business::Purpose::Original, 1000));
  book(invoice("INV-9", "20240107", business::Purpose::Replace, 1200));
  book(invoice("INV-9", "20240106", business::Purpose::Replace, 1100));  // late, older
  book(invoice("INV-9", "20240107", business::Purpose::Original, 999));  // same date, weaker
  REQUIRE(applied.size() == 4);
  CHECK(applied[0] == Applied::Inserted);
  CHECK(applied[1] == Applied::Replaced);
  CHECK(applied[2] == Applied::IgnoredOlder);
  CHECK(applied[3] == Applied::IgnoredOlder);
  book(invoice("INV-9", "20240108", business::Purpose::Cancel, 0));
  CHECK(applied[4] == Applied::Cancelled);
  book(invoice("INV-9", "20240106", business::Purpose::Original, 1));  // older than the cancel
  CHECK(applied[5] == Applied::IgnoredOlder);
  CHECK(rows(*s, "invoices") == 1);
  CHECK(rows(*s, "invoice_lines") == 1);
}

TEST_CASE("business tables: an invoice and a credit note numbered alike are two documents, each with its versions") {
  TempDb db;
  auto s = db.open();
  std::vector<Applied> applied;
  auto book = [&](business::Invoice inv) {
    commit(*s, [&](Transaction& tx) -> Status {
      auto a = tx.put_invoice("acme", inv, "x12:src");
      if (!a.is_ok()) return a.status();
      applied.push_back(a.value());
      return Status::ok();
    });
  };
  business::Invoice credit = invoice("INV-5", "20240104", business::Purpose::Original, 300);
  credit.credit_note = true;
  credit.lines.push_back(credit.lines[0]);
  book(invoice("INV-5", "20240105", business::Purpose::Original, 1000));
  book(credit);  // older than the invoice, and not a version of it
  REQUIRE(applied.size() == 2);
  CHECK(applied[1] == Applied::Inserted);
  CHECK(rows(*s, "invoices") == 2);
  CHECK(rows(*s, "invoice_lines") == 3);  // the invoice's one, the credit note's two
  // The credit note's versions apply among themselves: a later one replaces it
  // (and its lines), the invoice keeps its own.
  credit.document_date = "20240106";
  credit.purpose = business::Purpose::Replace;
  credit.lines.pop_back();
  book(credit);
  CHECK(applied[2] == Applied::Replaced);
  book(invoice("INV-5", "20240105", business::Purpose::Cancel, 0));
  CHECK(applied[3] == Applied::Cancelled);
  CHECK(rows(*s, "invoices") == 2);
  CHECK(rows(*s, "invoice_lines") == 2);
  if (test::on_postgresql()) return;
  s.reset();
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open((db.dir + "/test.db").c_str(), &raw) == SQLITE_OK);
  sqlite3_stmt* q = nullptr;
  REQUIRE(
      sqlite3_prepare_v2(raw,
                         "SELECT group_concat(credit_note || ':' || status || ':' || versions || ':' || total_minor ||"
                         " ':' || (SELECT count(*) FROM invoice_lines l WHERE l.invoice_number = i.invoice_number"
                         " AND l.credit_note = i.credit_note), ' ') FROM (SELECT * FROM invoices ORDER BY"
                         " credit_note) i",
                         -1, &q, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(q) == SQLITE_ROW);
  CHECK(std::string(reinterpret_cast<const char*>(sqlite3_column_text(q, 0))) ==
        "0:cancelled:2:1000:1 1:active:2:300:1");
  sqlite3_finalize(q);
  sqlite3_close(raw);
}

TEST_CASE("business tables: lines booked 50 to a statement and the rest one by one, each in its place") {
  TempDb db;
  auto s = db.open();
  int64_t expected = 0;
  for (int n : {0, 1, 49, 50, 51, 120}) {
    business::Invoice inv = invoice("INV-L" + std::to_string(n), "20240105", business::Purpose::Original, 1);
    inv.lines.clear();
    for (int i = 1; i <= n; ++i) {
      business::InvoiceLine line;
      line.line_number = 1000 + i;
      line.item_id = "ITEM-" + std::to_string(i);
      line.quantity = std::to_string(i);
      line.amount_minor = i;
      inv.lines.push_back(line);
    }
    commit(*s, [&](Transaction& tx) { return tx.put_invoice("acme", inv, "x12:lines").status(); });
    expected += n;
    CHECK(rows(*s, "invoice_lines") == expected);
  }
  if (test::on_postgresql()) return;
  // Each line at its position with its own values (SQLite's batches; PostgreSQL books them with unnest).
  s.reset();
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open((db.dir + "/test.db").c_str(), &raw) == SQLITE_OK);
  sqlite3_stmt* q = nullptr;
  REQUIRE(sqlite3_prepare_v2(raw,
                             "SELECT count(*) FROM invoice_lines WHERE line_number = 1000 + position AND item_id = "
                             "'ITEM-' || position AND quantity = CAST(position AS TEXT) AND amount_minor = position",
                             -1, &q, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(q) == SQLITE_ROW);
  CHECK(sqlite3_column_int64(q, 0) == expected);
  sqlite3_finalize(q);
  sqlite3_close(raw);
}

TEST_CASE("SQLite runs in multi-thread mode: a connection takes no mutex of its own (each is one thread's)") {
  if (test::on_postgresql()) return;
  TempDb db;
  auto s = db.open();  // the store's first connection sets the process's mode
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open((db.dir + "/test.db").c_str(), &raw) == SQLITE_OK);
  CHECK(sqlite3_db_mutex(raw) == nullptr);  // serialized mode gives every connection one
  sqlite3_close(raw);
}

TEST_CASE("schema: migration 8 keeps every line of a database made at 7, now WITHOUT ROWID") {
  if (test::on_postgresql()) return;  // SQLite's migration
  TempDb db;
  const std::string schema = test::read_file(test::source_path("schema/sqlite.sql"));
  const size_t eight = schema.find("-- migration 8:");
  REQUIRE(eight != std::string::npos);
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open((db.dir + "/test.db").c_str(), &raw) == SQLITE_OK);
  auto exec = [&](const std::string& sql) {
    char* error = nullptr;
    const int rc = sqlite3_exec(raw, sql.c_str(), nullptr, nullptr, &error);
    REQUIRE_MESSAGE(rc == SQLITE_OK, (error ? error : ""));
  };
  exec("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL, description TEXT)");
  exec(schema.substr(0, eight));
  for (int v = 1; v <= 7; ++v) exec("INSERT INTO schema_version VALUES (" + std::to_string(v) + ", 0, 'by the test')");
  exec(
      "INSERT INTO invoices (partner_id, invoice_number, purpose, status, document_date, total_minor, source,"
      " created_at, updated_at) VALUES ('acme', 'INV-7', 'original', 'active', '20240105', 100, 'x12:7', 1, 1)");
  for (int i = 1; i <= 3; ++i)
    exec(
        "INSERT INTO invoice_lines (partner_id, invoice_number, position, line_number, item_id, quantity,"
        " amount_minor) VALUES ('acme', 'INV-7', " +
        std::to_string(i) + ", " + std::to_string(10 * i) + ", 'ITEM', '1', " + std::to_string(i) + ")");
  sqlite3_close(raw);

  auto s = db.open();
  CHECK(s->report()->schema_version == 12);
  CHECK(rows(*s, "invoice_lines") == 3);
  s.reset();
  REQUIRE(sqlite3_open((db.dir + "/test.db").c_str(), &raw) == SQLITE_OK);
  sqlite3_stmt* q = nullptr;
  // A WITHOUT ROWID table has no rowid to select.
  CHECK(sqlite3_prepare_v2(raw, "SELECT rowid FROM invoice_lines", -1, &q, nullptr) != SQLITE_OK);
  sqlite3_finalize(q);
  REQUIRE(sqlite3_prepare_v2(raw, "SELECT sum(line_number) FROM invoice_lines WHERE invoice_number = 'INV-7'", -1, &q,
                             nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(q) == SQLITE_ROW);
  CHECK(sqlite3_column_int64(q, 0) == 60);
  sqlite3_finalize(q);
  // The foreign key still holds: a line of no invoice is refused.
  char* error = nullptr;
  sqlite3_exec(raw, "PRAGMA foreign_keys = ON", nullptr, nullptr, nullptr);
  CHECK(sqlite3_exec(raw,
                     "INSERT INTO invoice_lines (partner_id, invoice_number, position, line_number, quantity,"
                     " amount_minor) VALUES ('acme', 'NONE', 1, 1, '1', 1)",
                     nullptr, nullptr, &error) != SQLITE_OK);
  sqlite3_free(error);
  sqlite3_close(raw);
}

TEST_CASE("schema: migration 11 keys invoices by their credit-note flag too and keeps every line of a database at 10") {
  if (test::on_postgresql()) return;  // SQLite's migration; pg_store_test runs PostgreSQL's on the contract tests
  TempDb db;
  const std::string schema = test::read_file(test::source_path("schema/sqlite.sql"));
  const size_t eleven = schema.find("-- migration 11:");
  REQUIRE(eleven != std::string::npos);
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open((db.dir + "/test.db").c_str(), &raw) == SQLITE_OK);
  auto exec = [&](const std::string& sql) {
    char* error = nullptr;
    const int rc = sqlite3_exec(raw, sql.c_str(), nullptr, nullptr, &error);
    REQUIRE_MESSAGE(rc == SQLITE_OK, (error ? error : ""));
  };
  exec("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL, description TEXT)");
  exec(schema.substr(0, eleven));
  for (int v = 1; v <= 10; ++v) exec("INSERT INTO schema_version VALUES (" + std::to_string(v) + ", 0, 'by the test')");
  for (const char* number : {"INV-7", "CN-8"})
    exec(std::string("INSERT INTO invoices (partner_id, invoice_number, credit_note, purpose, status, document_date,"
                     " total_minor, source, created_at, updated_at) VALUES ('acme', '") +
         number + "', " + (number[0] == 'C' ? "1" : "0") + ", 'original', 'active', '20240105', 100, 'x12:7', 1, 1)");
  for (int i = 1; i <= 3; ++i)
    exec(
        "INSERT INTO invoice_lines (partner_id, invoice_number, position, line_number, item_id, quantity,"
        " amount_minor) VALUES ('acme', '" +
        std::string(i == 3 ? "CN-8" : "INV-7") + "', " + std::to_string(i) + ", " + std::to_string(10 * i) +
        ", 'ITEM', '1', " + std::to_string(i) + ")");
  sqlite3_close(raw);

  auto s = db.open();
  CHECK(s->report()->schema_version == 12);
  CHECK(rows(*s, "invoices") == 2);
  CHECK(rows(*s, "invoice_lines") == 3);
  s.reset();
  REQUIRE(sqlite3_open((db.dir + "/test.db").c_str(), &raw) == SQLITE_OK);
  sqlite3_stmt* q = nullptr;
  REQUIRE(sqlite3_prepare_v2(raw,
                             "SELECT group_concat(invoice_number || ':' || credit_note || ':' || line_number, ' ')"
                             " FROM (SELECT * FROM invoice_lines ORDER BY position)",
                             -1, &q, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(q) == SQLITE_ROW);
  CHECK(std::string(reinterpret_cast<const char*>(sqlite3_column_text(q, 0))) == "INV-7:0:10 INV-7:0:20 CN-8:1:30");
  sqlite3_finalize(q);
  // The foreign key holds on the new key: a credit note's line of an invoice is refused, and
  // deleting the credit note deletes its line alone.
  char* error = nullptr;
  sqlite3_exec(raw, "PRAGMA foreign_keys = ON", nullptr, nullptr, nullptr);
  CHECK(sqlite3_exec(raw,
                     "INSERT INTO invoice_lines (partner_id, invoice_number, credit_note, position, line_number,"
                     " quantity, amount_minor) VALUES ('acme', 'INV-7', 1, 9, 1, '1', 1)",
                     nullptr, nullptr, &error) != SQLITE_OK);
  sqlite3_free(error);
  exec("DELETE FROM invoices WHERE invoice_number = 'CN-8'");
  REQUIRE(sqlite3_prepare_v2(raw, "SELECT count(*) FROM invoice_lines", -1, &q, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(q) == SQLITE_ROW);
  CHECK(sqlite3_column_int64(q, 0) == 2);
  sqlite3_finalize(q);
  sqlite3_close(raw);
}

TEST_CASE("message log: rows in one batch, partner text made safe on the way in") {
  TempDb db;
  auto s = db.open();
  MessageLog row = log_row(Outcome::Duplicate);
  row.transport_id = "<evil\r\nAS2-From: other@x>";
  row.detail = std::string(5000, 'x');
  REQUIRE(s->log({row, row}).is_ok());
  CHECK(rows(*s, "messages") == 2);
  CHECK(s->report()->outcomes_24h.at("duplicate") == 2);
}

TEST_CASE("captures: archived with the transaction, listed newest first, read back exactly") {
  TempDb db;
  auto s = db.open();
  const std::string head = "POST /as2 HTTP/1.1\r\nAS2-From: ACMESUPPLY\r\n\r\n";
  const std::string body("\x00\xff binary", 9);
  int64_t id = 0;
  commit(*s, [&](Transaction& tx) -> Status {
    Result<int64_t> a = tx.archive(CaptureRef{"acme", "as2", "as2:<m1@x>", raw(head + body), head, body});
    if (!a.is_ok()) return a.status();
    id = a.value();
    return tx.archive(CaptureRef{"acme", "as2", "as2:<m2@x>", raw("2"), head, ""}).status();
  });
  auto listed = s->list_captures({});
  REQUIRE(listed->size() == 2);
  CHECK(listed.value()[0].message_id == "as2:<m2@x>");
  CHECK(listed.value()[1].bytes == static_cast<int64_t>(head.size() + body.size()));
  CaptureFilter only;
  only.message_id = "as2:<m1@x>";
  CHECK(s->list_captures(only)->size() == 1);
  auto head_only = s->console().capture_head(id).value();  // the console's message page
  REQUIRE(head_only.has_value());
  CHECK(head_only->head == head);
  CHECK(head_only->bytes == static_cast<int64_t>(head.size() + body.size()));
  CHECK_FALSE(s->console().capture_head(id + 100).value().has_value());
  auto back = s->read_capture(id);
  REQUIRE(back->has_value());
  CHECK(back.value()->head == head);
  CHECK(back.value()->body == body);
  CHECK(back.value()->raw == raw(head + body));
  CHECK_FALSE(s->read_capture(999)->has_value());
}

TEST_CASE("conflict answers: stored per raw digest, first one kept") {
  TempDb db;
  auto s = db.open();
  commit(*s, [&](Transaction& tx) -> Status {
    CHECK(tx.put_conflict_receipt(key("5"), raw("copy-1"), receipt("answer 1")).is_ok());
    return tx.put_conflict_receipt(key("5"), raw("copy-1"), receipt("answer again"));
  });
  auto found = s->conflict_receipt(key("5"), raw("copy-1"));
  REQUIRE(found->has_value());
  CHECK(found.value()->body == "answer 1");
  CHECK_FALSE(s->conflict_receipt(key("5"), raw("copy-2"))->has_value());
}

TEST_CASE("purge: old settled keys go in batches with their conflict answers; live leases stay") {
  TempDb db;
  auto s = db.open();
  for (int i = 0; i < 25; ++i) settle_new(*s, "old" + std::to_string(i), completed("r"));
  commit(*s, [&](Transaction& tx) -> Status {
    CHECK(tx.insert_key(key("live"), payload("l"), raw("l"), tx.now_ms() + 10 * 24 * 3600 * 1000LL).value());
    return tx.put_conflict_receipt(key("old0"), raw("c"), receipt("conflict"));
  });
  auto later = db.open(2 * 24 * 3600 * 1000LL);  // two days later
  settle_new(*later, "new", completed("r"));

  PurgeRequest req;
  req.cutoff_ms = later->now_ms().value() - 24 * 3600 * 1000LL;  // retention: one day
  req.batch = 10;
  req.dry_run = true;
  auto dry = later->purge_keys(req);
  CHECK(dry->deleted == 25);
  CHECK(dry->kept_live == 1);
  req.dry_run = false;
  int64_t deleted = 0, batches = 0, live = 0;
  while (true) {
    auto b = later->purge_keys(req);
    REQUIRE(b.is_ok());
    ++batches;
    deleted += b->deleted;
    if (b->deleted < req.batch) {
      live = b->kept_live;
      break;
    }
  }
  CHECK(deleted == 25);
  CHECK(batches == 3);
  CHECK(live == 1);
  CHECK(later->lookup(key("live"))->has_value());
  CHECK(later->lookup(key("new"))->has_value());
  CHECK_FALSE(later->lookup(key("old0"))->has_value());
  CHECK_FALSE(later->conflict_receipt(key("old0"), raw("c"))->has_value());
}

TEST_CASE("purge: message-log rows and captures past their retention, in batches") {
  TempDb db;
  auto s = db.open();
  MessageLog row;
  row.protocol = "as2";
  row.transport = "http";
  REQUIRE(s->log(std::vector<MessageLog>(5, row)).is_ok());
  commit(*s, [&](Transaction& tx) -> Status {
    return tx.archive(CaptureRef{"acme", "as2", "as2:x", raw("x"), "h", "b"}).status();
  });
  auto later = db.open(24 * 3600 * 1000LL);
  const int64_t cutoff = later->now_ms().value() - 1000;
  CHECK(later->purge_messages(cutoff, 2, true).value() == 5);
  CHECK(later->purge_messages(cutoff, 2, false).value() == 2);
  CHECK(later->purge_captures(cutoff, 10, false).value() == 1);
  CHECK(rows(*later, "messages") == 3);
  CHECK(rows(*later, "captures") == 0);
}

TEST_CASE("outbox: the versions of one document are due one after the other, in the order queued") {
  TempDb db;
  auto s = db.open();
  auto event = [](const std::string& version, const std::string& document) {
    return OutboxItem{"acme", "document", version, "webhook", "https://erp.example/in", version, "", "{}", document};
  };
  REQUIRE(s->enqueue(event("invoice:acme:INV-1:20240315:original", "invoice:acme:INV-1")).is_ok());
  REQUIRE(s->enqueue(event("invoice:acme:INV-1:20240320:replace", "invoice:acme:INV-1")).is_ok());
  REQUIRE(s->enqueue(event("credit-note:acme:INV-1:20240320:original", "credit-note:acme:INV-1")).is_ok());
  auto names = [](const std::vector<OutboxEntry>& rows) {
    std::vector<std::string> out;
    for (const OutboxEntry& e : rows) out.push_back(e.item.message_id);
    std::sort(out.begin(), out.end());
    return out;
  };
  // The replacement waits for the original; the credit note is another document.
  auto due = s->due_outbox(10, 60000);
  REQUIRE(due.is_ok());
  CHECK(names(due.value()) ==
        std::vector<std::string>{"credit-note:acme:INV-1:20240320:original", "invoice:acme:INV-1:20240315:original"});
  const int64_t original = due.value()[0].item.message_id[0] == 'i' ? due.value()[0].id : due.value()[1].id;
  // The original's delivery failed: it is retried, and the replacement still waits (a failed row too).
  REQUIRE(s->outbox_retry(original, 0, "HTTP 500", false).is_ok());
  auto retried = s->due_outbox(10, 60000);
  REQUIRE(retried.is_ok());
  CHECK(names(retried.value()) == std::vector<std::string>{"invoice:acme:INV-1:20240315:original"});
  REQUIRE(s->outbox_retry(original, 0, "HTTP 400", true).is_ok());
  CHECK(s->due_outbox(10, 60000)->empty());
  // Delivered (the operator retried it): the replacement is due.
  REQUIRE(s->outbox_retry_now(original).is_ok());
  REQUIRE(s->due_outbox(10, 60000)->size() == 1);
  REQUIRE(s->outbox_delivered(original, "").is_ok());
  auto next = s->due_outbox(10, 60000);
  REQUIRE(next.is_ok());
  CHECK(names(next.value()) == std::vector<std::string>{"invoice:acme:INV-1:20240320:replace"});
}

TEST_CASE("outbox: due rows are leased in flight, delivered, retried, answered, listed, cancelled") {
  TempDb db;
  auto s = db.open();
  auto item = [](const std::string& id, const std::string& channel) {
    return OutboxItem{"acme", "997", "x12:ACMESUPPLY:1", channel, "https://partner.example/as2", id, "", "ISA*...", ""};
  };
  REQUIRE(s->enqueue(item("<m1@edihub>", "as2")).is_ok());
  REQUIRE(s->enqueue(item("<m2@edihub>", "as2")).is_ok());
  auto due = s->due_outbox(10, 60000);
  REQUIRE(due->size() == 2);
  CHECK(due.value()[0].item.message_id == "<m1@edihub>");
  CHECK(due.value()[0].item.channel == "as2");
  CHECK(s->due_outbox(10, 60000)->empty());  // in flight: no second deliverer takes them
  // A deliverer that died: after the lease, the rows are due again, same identity.
  auto later = db.open(61000);
  REQUIRE(later->due_outbox(10, 60000)->size() == 2);
  const int64_t first = due.value()[0].id, second = due.value()[1].id;
  REQUIRE(s->outbox_prepared(first, "Message-ID: <m1@edihub>\r\n", "bytes built once").is_ok());
  REQUIRE(s->outbox_prepared(first, "other", "never replaces them").is_ok());
  REQUIRE(s->outbox_sent(first).is_ok());
  auto waiting = s->outbox_awaiting("acme", "<m1@edihub>");
  REQUIRE(waiting->has_value());
  CHECK(waiting.value()->state == "sent");
  CHECK(waiting.value()->prepared == "bytes built once");
  // Only an AS2 row of that partner that was posted can be what an MDN answers.
  CHECK_FALSE(s->outbox_awaiting("acme", "<m2@edihub>")->has_value());  // in flight, never built: not posted
  CHECK_FALSE(s->outbox_awaiting("other", "<m1@edihub>")->has_value());
  REQUIRE(s->enqueue(item("<w1@edihub>", "webhook")).is_ok());
  REQUIRE(s->enqueue(item("<h1@edihub>", "http")).is_ok());  // an MDN we send
  auto more = s->due_outbox(10, 60000);
  REQUIRE(more->size() == 2);
  for (const auto& e : more.value()) {
    REQUIRE(s->outbox_prepared(e.id, "", "built").is_ok());
    REQUIRE(s->outbox_sent(e.id).is_ok());
  }
  CHECK_FALSE(s->outbox_awaiting("acme", "<w1@edihub>")->has_value());
  CHECK_FALSE(s->outbox_awaiting("acme", "<h1@edihub>")->has_value());
  REQUIRE(s->outbox_answered(first, true, "the MDN", "").is_ok());
  CHECK(s->outbox_entry(first).value()->state == "delivered");
  CHECK(s->outbox_entry(first).value()->receipt == "the MDN");
  REQUIRE(s->outbox_retry(second, 0, "HTTP 500", false).is_ok());
  REQUIRE(s->outbox_retry(second, 0, "HTTP 500", true).is_ok());
  CHECK(s->outbox_entry(second).value()->state == "failed");
  CHECK(s->outbox_entry(second).value()->attempts == 2);
  // What /metrics reads: the failed row, with its age from when it was queued.
  Result<store::Gauges> gauges = s->gauges(5);
  REQUIRE(gauges.is_ok());
  CHECK(gauges->outbox.at("failed").rows == 1);
  CHECK(gauges->outbox.at("failed").oldest_created_ms > 0);
  CHECK(gauges->outbox.count("pending") == 0);
  CHECK(s->outbox_retry_now(second).value());
  CHECK(s->outbox_entry(second).value()->state == "pending");
  CHECK(s->outbox_entry(second).value()->attempts == 0);  // the operator's retry: a new round
  CHECK(s->outbox_cancel(second).value());
  CHECK_FALSE(s->outbox_cancel(first).value());  // delivered stays delivered
  CHECK_FALSE(s->outbox_retry_now(first).value());
  OutboxFilter cancelled;
  cancelled.state = "cancelled";
  CHECK(s->list_outbox(cancelled)->size() == 1);
  auto purge = db.open(24 * 3600 * 1000LL);
  CHECK(purge->purge_outbox(purge->now_ms().value() - 1000, 100, false).value() == 2);  // delivered, cancelled
}

TEST_CASE("schema: migrations recorded once; bad URIs are clear errors") {
  TempDb db;
  const int latest = test::on_postgresql() ? 11 : 12;  // schema/postgresql.sql starts at SQLite's third
  {
    auto s = db.open();
    CHECK(s->report()->schema_version == latest);
  }
  {
    auto s = db.open();
    CHECK(s->report()->schema_version == latest);
  }
  auto bad = open_store("mysql://x");
  CHECK(bad.status().kind() == Status::Kind::Invalid);
  CHECK(bad.status().message().find("expected sqlite:PATH[?synchronous=full|normal] or postgresql://") !=
        std::string::npos);
  auto opt = open_store("sqlite:" + db.dir + "/x.db?synchronous=sometimes");
  CHECK(opt.status().kind() == Status::Kind::Invalid);
  auto unwritable = open_store("sqlite:/proc/edihub/x.db");
  CHECK(unwritable.status().kind() == Status::Kind::Unavailable);
}

TEST_CASE("group commit: threads share commits, each transaction stays atomic on its own" *
          doctest::skip(test::on_postgresql())) {
  TempDb db;
  StoreOptions grouped;
  grouped.group_commit = true;
  const std::string uri = db.uri;
  std::vector<std::thread> threads;
  std::atomic<int> ok{0}, refused{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      auto s = open_store(uri, grouped);
      REQUIRE(s.is_ok());
      for (int i = 0; i < 20; ++i) {
        const std::string id = std::to_string(t) + "-" + std::to_string(i);
        const bool fail = i % 5 == 0;  // every fifth rolls back: its writes only
        Status st = s.value()->transact(
            [&](Transaction& tx) -> Status {
              Result<bool> in = tx.insert_key(key(id), payload(id), raw(id), tx.now_ms() + 1000);
              if (!in.is_ok()) return in.status();
              return fail ? Status::invalid("refused on purpose") : Status::ok();
            },
            5000);
        (st.is_ok() ? ok : refused)++;
        if (fail) CHECK(st.message() == "refused on purpose");
      }
    });
  for (auto& t : threads) t.join();
  CHECK(ok == 128);
  CHECK(refused == 32);
  auto s = db.open();
  CHECK(s->lookup(key("3-1"))->has_value());
  CHECK_FALSE(s->lookup(key("3-0"))->has_value());
  int64_t keys = 0;
  Result<StatusReport> report = s->report();
  for (const auto& k : report->keys) keys += k.keys;
  CHECK(keys == 128);
}

TEST_CASE("purge: lease owners silent for long that hold nothing go; one that holds a lease stays") {
  TempDb db;
  const int64_t day = 24 * 3600 * 1000LL;
  auto past = db.open(-2 * day);  // beats two days ago
  commit(*past, [&](Transaction& tx) -> Status {
    if (Status s = tx.heartbeat("n1:gone", "n1"); !s.is_ok()) return s;
    if (Status s = tx.heartbeat("n2:holds", "n2"); !s.is_ok()) return s;
    Result<bool> in = tx.insert_key(key("held"), payload("h"), raw("h"), tx.now_ms() + 10 * day, "n2:holds");
    return in.is_ok() ? Status::ok() : in.status();
  });
  auto s = db.open();
  commit(*s, [&](Transaction& tx) { return tx.heartbeat("n3:alive", "n3"); });
  const int64_t cutoff = s->now_ms().value() - day;
  CHECK(s->purge_lease_owners(cutoff, true).value() == 1);
  CHECK(s->purge_lease_owners(cutoff, false).value() == 1);
  CHECK(s->purge_lease_owners(cutoff, false).value() == 0);
  const KeyRecord held = s->lookup(key("held"))->value();
  CHECK(held.owner == "n2:holds");
  CHECK(held.owner_node == "n2");  // its owner row is still there
}

TEST_CASE("purge: receipts past their retention are dropped, the keys stay; failed keys keep theirs") {
  TempDb db;
  const int64_t day = 24 * 3600 * 1000LL;
  auto past = db.open(-10 * day);
  settle_new(*past, "old-done", completed("MDN 1"));
  settle_new(*past, "old-failed", failed("negative MDN"));
  auto s = db.open();
  settle_new(*s, "new-done", completed("MDN 2"));
  PurgeRequest req;
  req.cutoff_ms = s->now_ms().value() - 7 * day;
  req.batch = 10;
  req.dry_run = true;
  CHECK(s->purge_receipts(req).value() == 1);
  req.dry_run = false;
  CHECK(s->purge_receipts(req).value() == 1);
  CHECK(s->purge_receipts(req).value() == 0);
  const KeyRecord dropped = s->lookup(key("old-done"))->value();
  CHECK(dropped.state == KeyState::Completed);  // a late duplicate is still a duplicate
  CHECK(dropped.receipt.empty());
  CHECK(s->lookup(key("old-failed"))->value().receipt.body == "negative MDN");
  CHECK(s->lookup(key("new-done"))->value().receipt.body == "MDN 2");
}

TEST_CASE("console: messages searched by partner, outcome, control number and document, paged newest first") {
  TempDb db;
  auto s = db.open();
  auto row = [](std::string partner, std::string protocol, std::string transport_id, std::string message_id,
                Outcome outcome) {
    MessageLog r;
    r.partner_id = std::move(partner);
    r.protocol = std::move(protocol);
    r.transport = "http";
    r.transport_id = std::move(transport_id);
    r.message_id = std::move(message_id);
    r.outcome = outcome;
    return r;
  };
  REQUIRE(s->log({row("acme", "x12", "<m1@acme>", key("000000905").message_id, Outcome::Processed),
                  row("acme", "as2", "<m1@acme>", "as2:<m1@acme>", Outcome::Processed),
                  row("", "as2", "", "", Outcome::Rejected),
                  row("beta", "as2", "<b1@beta>", "as2:<b1@beta>", Outcome::Duplicate),
                  row("acme", "as2", "<100%_x@acme>", "as2:<100%_x@acme>", Outcome::Processed)})
              .is_ok());
  commit(*s, [&](Transaction& tx) -> Status {
    return tx
        .put_invoice("acme", invoice("INV-7", "20240105", business::Purpose::Original, 100),
                     key("000000905").message_id)
        .status();
  });
  // An order, a type added through the registry alone, booked from the same interchange.
  business::Document order;
  order.type = &business::order_type();
  order.number = "PO-5001";
  order.document_date = "20240106";
  order.fields = {business::Value::of("SA"),     business::Value::of("USD"), business::Value::of("BT01"),
                  business::Value::of("ACME01"), business::Value::of(""),    business::Value::of(""),
                  business::Value::none()};
  order.lines = {{business::Value::of(int64_t{1}), business::Value::of("012345678905"), business::Value::of("UP"),
                  business::Value::of("24"), business::Value::of("EA"), business::Value::of("12.50")}};
  commit(*s, [&](Transaction& tx) -> Status {
    return tx.put_document("acme", order, key("000000905").message_id).status();
  });
  CHECK(rows(*s, "orders") == 1);
  CHECK(rows(*s, "order_lines") == 1);
  store::ConsoleStore& c = s->console();
  auto ids = [&](store::MessageQuery q) {
    std::string out;
    const std::vector<store::MessageRow> rows = c.find_messages(q).value();
    for (const auto& m : rows) out += m.protocol + ":" + m.transport_id + " ";
    return out;
  };
  store::MessageQuery q;
  CHECK(c.find_messages(q)->size() == 5);
  q.partner_id = "acme";
  CHECK(ids(q) == "as2:<100%_x@acme> as2:<m1@acme> x12:<m1@acme> ");  // newest first
  q = {};
  q.outcome = "rejected";
  CHECK(c.find_messages(q)->size() == 1);
  q = {};
  q.text = "000000905";  // an ISA13, with the keys it stands for (the console makes them)
  q.keys = {key("000000905").message_id, "as2:000000905"};
  CHECK(ids(q) == "x12:<m1@acme> ");
  q.keys.clear();
  q.text = "<m1@acme>";  // a transport id finds the message and its interchange
  CHECK(ids(q) == "as2:<m1@acme> x12:<m1@acme> ");
  q.text = "%";  // matched exactly: no wildcards
  CHECK(ids(q) == "");
  q = {};
  q.document = "INV-7";
  CHECK(ids(q) == "x12:<m1@acme> ");
  q.document_partners = {"beta", "acme"};
  CHECK(ids(q) == "x12:<m1@acme> ");
  q.document_partners = {"beta"};
  CHECK(ids(q) == "");
  q.document = "INV-8";
  q.document_partners.clear();
  CHECK(ids(q) == "");
  q.document = "PO-5001";  // every registry type's numbers
  CHECK(ids(q) == "x12:<m1@acme> ");
  q = {};
  q.partner_id = "acme";
  q.protocol = "as2";
  q.outcome = "processed";
  q.since_ms = 1;
  q.until_ms = s->now_ms().value() + 1000;
  CHECK(ids(q) == "as2:<100%_x@acme> as2:<m1@acme> ");  // every filter at once
  q = {};
  q.limit = 2;
  auto first_page = c.find_messages(q).value();
  REQUIRE(first_page.size() == 2);
  q.before_id = first_page.back().id;
  CHECK(c.find_messages(q)->size() == 2);
  q.since_ms = s->now_ms().value() + 60000;  // the future: nothing
  q.before_id = 0;
  CHECK(c.find_messages(q)->empty());

  auto related = c.transport_rows("acme", "<m1@acme>").value();
  REQUIRE(related.size() == 2);
  CHECK(related[0].protocol == "x12");  // oldest first
  auto docs = c.documents_from("acme", key("000000905").message_id).value();
  REQUIRE(docs.size() == 2);
  CHECK(docs[0].kind == "invoice");
  CHECK(docs[0].number == "INV-7");
  CHECK(docs[1].kind == "order");
  CHECK(docs[1].number == "PO-5001");
  int64_t counted = 0;
  const std::vector<store::HourCount> hours = c.hourly(0).value();
  for (const auto& h : hours) counted += h.messages;
  // Each interchange once, and each transport message that is not processed (a
  // processed one counts through its interchanges): the x12 row, the rejected
  // and the duplicate AS2 rows.
  CHECK(counted == 3);
  for (const auto& h : hours)
    CHECK_MESSAGE(!(h.partner_id == "acme" && h.outcome == "processed" && h.messages != 1), h.messages);
  // A count row (a client past its message-log limits) counts as the answers it stands for,
  // in the charts and in the store report.
  auto duplicates_24h = [&] {
    std::map<std::string, int64_t> outcomes = s->report().value().outcomes_24h;
    return outcomes["duplicate"];
  };
  const int64_t duplicates = duplicates_24h();
  store::MessageLog count_row = row("beta", "as2", "<b9@beta>", "as2:<b9@beta>", Outcome::Duplicate);
  count_row.answers = 37;
  REQUIRE(s->log({count_row}).is_ok());
  counted = 0;
  const std::vector<store::HourCount> with_count_row = c.hourly(0).value();
  for (const auto& h : with_count_row) counted += h.messages;
  CHECK(counted == 3 + 37);
  CHECK(duplicates_24h() == duplicates + 37);
  CHECK(c.last_received("acme").value() > 0);
  CHECK(c.last_received("nobody").value() == 0);
}

TEST_CASE("console: operators, sessions that expire and end with their operator, audit ids, keys forgiven fenced") {
  TempDb db;
  auto s = db.open();
  store::ConsoleStore& c = s->console();
  REQUIRE(c.put_operator({"alice", "pbkdf2-sha256$1000$c2FsdA==$aGFzaA==", "viewer", 0}).is_ok());
  REQUIRE(c.put_operator({"alice", "pbkdf2-sha256$1000$c2FsdA==$bmV3", "operator", 0}).is_ok());  // replaced
  REQUIRE(c.operators()->size() == 1);
  CHECK(c.find_operator("alice").value()->role == "operator");
  CHECK(c.find_operator("alice").value()->password_hash == "pbkdf2-sha256$1000$c2FsdA==$bmV3");
  CHECK_FALSE(c.find_operator("bob").value().has_value());
  CHECK_FALSE(c.find_operator("").value().has_value());

  const int64_t now = s->now_ms().value();
  REQUIRE(c.put_session("digest-1", "alice", "csrf-1", now + 1000).is_ok());
  auto found = c.find_session("digest-1").value();
  REQUIRE(found.has_value());
  CHECK(found->operator_name == "alice");
  CHECK(found->role == "operator");
  CHECK(found->csrf == "csrf-1");
  CHECK_FALSE(db.open(2000)->console().find_session("digest-1").value().has_value());  // expired
  REQUIRE(c.put_session("digest-2", "alice", "csrf-2", now + 60000).is_ok());
  REQUIRE(c.end_session("digest-2").is_ok());
  CHECK_FALSE(c.find_session("digest-2").value().has_value());
  REQUIRE(c.put_session("digest-3", "alice", "csrf-3", now + 60000).is_ok());
  CHECK(c.remove_operator("alice").value());
  CHECK_FALSE(c.remove_operator("alice").value());
  CHECK_FALSE(c.find_session("digest-3").value().has_value());  // ended with its operator

  const int64_t a1 = c.audit({0, 0, "alice", "resend", "outbox 1", "queued", "127.0.0.1"}).value();
  const int64_t a2 = c.audit({0, 0, "bob", "release key", "acme x", "not done", "::1"}).value();
  CHECK(a2 > a1);
  auto trail = c.audit_trail(10).value();
  REQUIRE(trail.size() == 2);
  CHECK(trail[0].id == a2);  // newest first
  CHECK(trail[1].operator_name == "alice");
  CHECK(trail[1].at_ms >= now);

  // forgive_key: only a failed key, only with its current attempt count.
  settle_new(*s, "poison", failed("bad"));
  settle_new(*s, "done", completed("ok"));
  commit(*s, [&](Transaction& tx) -> Status {
    CHECK_FALSE(tx.forgive_key(key("poison"), 2).value());  // someone took it over meanwhile
    CHECK(tx.forgive_key(key("poison"), 1).value());
    CHECK_FALSE(tx.forgive_key(key("done"), 1).value());  // completed: nothing to forgive
    return Status::ok();
  });
  CHECK(s->lookup(key("poison")).value()->failures == 0);
  auto open = c.open_keys("failed", 0, 10).value();
  REQUIRE(open.size() == 1);
  CHECK(open[0].key.message_id == key("poison").message_id);
  CHECK(c.open_keys("failed", 1, 10)->empty());     // forgiven: no longer at 1 failure
  CHECK(c.open_keys("completed", 0, 10)->empty());  // open keys only
}
