// The server's message-log writer (src/server/log_writer.h) on a real SQLite
// store: rows recorded by many threads, more than one commit's worth at once,
// each written once and in the order recorded; and the bound on the rows a
// client can make it write (src/server/log_throttle.h).
#include <doctest/doctest.h>

#include <sqlite3.h>

#include <chrono>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "src/server/log_writer.h"
#include "tests/unit/temp_db.h"

using namespace edihub;

namespace {

// A column of the `messages` rows, in the order written (row id).
std::vector<std::string> written(const std::string& path, const char* column = "transport_id") {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  sqlite3_stmt* q = nullptr;
  const std::string sql = std::string("SELECT coalesce(") + column + ", '') FROM messages ORDER BY id";
  REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &q, nullptr) == SQLITE_OK);
  std::vector<std::string> ids;
  while (sqlite3_step(q) == SQLITE_ROW) ids.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(q, 0)));
  sqlite3_finalize(q);
  sqlite3_close(db);
  return ids;
}

// How many rows are written so far: 0 before the writer made the store.
size_t count_rows(const std::string& path) {
  sqlite3* db = nullptr;
  size_t n = 0;
  sqlite3_stmt* q = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK &&
      sqlite3_prepare_v2(db, "SELECT count(*) FROM messages", -1, &q, nullptr) == SQLITE_OK &&
      sqlite3_step(q) == SQLITE_ROW)
    n = static_cast<size_t>(sqlite3_column_int64(q, 0));
  sqlite3_finalize(q);
  sqlite3_close(db);
  return n;
}

using Clock = std::chrono::steady_clock;

store::MessageLog row_of(const std::string& partner, const std::string& id, Outcome outcome = Outcome::Rejected) {
  store::MessageLog row = test::log_row(outcome, id);
  row.partner_id = partner;
  row.detail = "unknown AS2-From 'X'";
  row.bytes = 10;
  return row;
}

}  // namespace

TEST_CASE("message log writer: every row once, in each thread's order, also past one commit's worth (1,000)") {
  test::TempDb db;                           // SQLite: read back below with sqlite3
  constexpr int kThreads = 4, kRows = 1500;  // 6,000 rows queued faster than one 20 ms pause
  {
    server::LogWriter writer(db.uri, server::LogLimits{kThreads * kRows, kThreads * kRows});
    writer.start();
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&writer, t] {
        for (int i = 0; i < kRows; ++i)
          writer.record(test::log_row(Outcome::Duplicate, std::to_string(t) + ":" + std::to_string(i)), "127.0.0.1");
      });
    for (auto& th : threads) th.join();
    writer.stop();  // writes what is queued
    CHECK(writer.dropped() == 0);
  }
  const std::vector<std::string> ids = written(db.dir + "/test.db");
  CHECK(ids.size() == static_cast<size_t>(kThreads * kRows));
  std::vector<int> next(kThreads, 0);
  int in_order = 0;
  for (const std::string& id : ids) {
    const int t = std::stoi(id.substr(0, id.find(':')));
    if (std::stoi(id.substr(id.find(':') + 1)) == next[t]) ++in_order;
    ++next[t];
  }
  CHECK(in_order == kThreads * kRows);
}

TEST_CASE("log throttle: per client address and partner, the rows past its limit are counted, one row a window") {
  server::LogThrottle t(server::LogLimits{3, 100, std::chrono::minutes(1)});
  const Clock::time_point t0 = Clock::now();
  int admitted = 0;
  for (int i = 0; i < 10; ++i) admitted += t.admit(row_of("acme", "<m" + std::to_string(i) + ">"), "203.0.113.9", t0);
  CHECK(admitted == 3);
  // Its own allowance: another partner named from the same address, the same partner from another address.
  CHECK(t.admit(row_of("", "<x>"), "203.0.113.9", t0));
  CHECK(t.admit(row_of("acme", "<y>"), "198.51.100.7", t0));
  CHECK(t.counted() == 7);
  CHECK(t.summaries(t0 + std::chrono::seconds(59)).empty());  // the window is still open
  std::vector<store::MessageLog> rows = t.summaries(t0 + std::chrono::minutes(1));
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].partner_id == "acme");
  CHECK(rows[0].outcome == Outcome::Rejected);
  CHECK(rows[0].bytes == 70);
  CHECK(rows[0].answers == 7);
  CHECK(rows[0].detail ==
        "7 more answers to 203.0.113.9 for partner 'acme' in this minute were not logged one by one (at most 3 rows a "
        "minute per client address and partner); the last: <m9>: unknown AS2-From 'X'");
  // A new window: the allowance again.
  const Clock::time_point t1 = t0 + std::chrono::minutes(2);
  admitted = 0;
  for (int i = 0; i < 5; ++i) admitted += t.admit(row_of("acme", "<n>"), "203.0.113.9", t1);
  CHECK(admitted == 3);
  CHECK(t.summaries(t1, /*force=*/true).size() == 1);  // the writer stops: the open window's counts
  CHECK(t.summaries(t1, true).empty());
}

TEST_CASE("log throttle: at most `total` rows a window in all, whoever sends; clients past it share one row") {
  server::LogThrottle t(server::LogLimits{2, 10, std::chrono::minutes(1)});
  const Clock::time_point t0 = Clock::now();
  int admitted = 0;
  for (int c = 0; c < 200; ++c)
    for (int i = 0; i < 5; ++i)
      admitted += t.admit(row_of("acme", "<c" + std::to_string(c) + ">"), "10.0.0." + std::to_string(c), t0);
  CHECK(admitted == 10);  // five clients' two each, then nobody's
  CHECK(t.counted() == 990);
  std::vector<store::MessageLog> rows = t.summaries(t0 + std::chrono::minutes(1));
  REQUIRE(rows.size() == 6);  // the five clients' counts, and everyone's else
  int64_t counted = 0;
  for (const store::MessageLog& r : rows) {
    CHECK(r.answers == std::stoll(r.detail.substr(0, r.detail.find(' '))));
    counted += r.answers;
  }
  CHECK(counted == 990);
  CHECK(rows.back().partner_id.empty());
  CHECK(rows.back().detail ==
        "975 more answers to clients first seen past the gateway's 10 rows a minute were not logged one by one "
        "(10.0.0.5, 10.0.0.6, 10.0.0.7, 10.0.0.8, 10.0.0.9, ...); the last: <c199>: unknown AS2-From 'X'");
}

TEST_CASE("log throttle: a client's answers past its limit are counted per outcome, one row each") {
  server::LogThrottle t(server::LogLimits{2, 100, std::chrono::minutes(1)});
  const Clock::time_point t0 = Clock::now();
  // Two written, then 5 retransmissions answered from the store, 3 conflicts, 1 refusal.
  for (int i = 0; i < 7; ++i)
    t.admit(row_of("acme", "<d" + std::to_string(i) + ">", Outcome::Duplicate), "192.0.2.8", t0);
  for (int i = 0; i < 3; ++i)
    t.admit(row_of("acme", "<c" + std::to_string(i) + ">", Outcome::Conflict), "192.0.2.8", t0);
  t.admit(row_of("acme", "<r>", Outcome::Rejected), "192.0.2.8", t0);
  CHECK(t.counted() == 9);
  std::vector<store::MessageLog> rows = t.summaries(t0 + std::chrono::minutes(1));
  REQUIRE(rows.size() == 3);
  std::map<Outcome, int64_t> answers;
  for (const store::MessageLog& r : rows) answers[r.outcome] = r.answers;
  CHECK(answers == std::map<Outcome, int64_t>{{Outcome::Duplicate, 5}, {Outcome::Conflict, 3}, {Outcome::Rejected, 1}});
  for (const store::MessageLog& r : rows) {
    CHECK(r.partner_id == "acme");
    CHECK(r.bytes == 10 * r.answers);
  }
  CHECK(rows[0].detail.rfind("5 more answers to 192.0.2.8 for partner 'acme' in this minute", 0) == 0);
  CHECK(rows[0].detail.find("the last: <d6>:") != std::string::npos);
}

TEST_CASE("message log writer: a client past its limit gets one row with the count when the window ends") {
  test::TempDb db;
  server::LogWriter writer(db.uri, server::LogLimits{10, 1000, std::chrono::milliseconds(300)});
  writer.start();
  for (int i = 0; i < 30; ++i) writer.record(row_of("acme", "<r" + std::to_string(i) + ">"), "192.0.2.1");
  const std::string path = db.dir + "/test.db";
  const Clock::time_point deadline = Clock::now() + std::chrono::seconds(30);
  while (count_rows(path) < 11 && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  writer.stop();
  const std::vector<std::string> details = written(path, "detail");
  REQUIRE(details.size() == 11);
  CHECK(written(path, "transport_id")[9] == "<r9>");
  CHECK(details[10] ==
        "20 more answers to 192.0.2.1 for partner 'acme' in this 300 ms window were not logged one by one (at most 10 "
        "rows a 300 ms window per client address and partner); the last: <r29>: unknown AS2-From 'X'");
  CHECK(written(path, "answers")[10] == "20");  // the store's counts of answers sum this column
  CHECK(written(path, "answers")[9] == "1");
  CHECK(writer.counted() == 20);
}
