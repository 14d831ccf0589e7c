// The server's message-log writer (src/server/log_writer.h) on a real SQLite
// store: rows recorded by many threads, more than one commit's worth at once,
// each written once and in the order recorded.
#include <doctest/doctest.h>

#include <sqlite3.h>

#include <string>
#include <thread>
#include <vector>

#include "src/server/log_writer.h"
#include "tests/unit/temp_db.h"

using namespace edihub;

namespace {

// The transport ids of the `messages` rows, in the order written (row id).
std::vector<std::string> written(const std::string& path) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  sqlite3_stmt* q = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "SELECT transport_id FROM messages ORDER BY id", -1, &q, nullptr) == SQLITE_OK);
  std::vector<std::string> ids;
  while (sqlite3_step(q) == SQLITE_ROW) ids.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(q, 0)));
  sqlite3_finalize(q);
  sqlite3_close(db);
  return ids;
}

}  // namespace

TEST_CASE("message log writer: every row once, in each thread's order, also past one commit's worth (1,000)") {
  test::TempDb db;                           // SQLite: read back below with sqlite3
  constexpr int kThreads = 4, kRows = 1500;  // 6,000 rows queued faster than one 20 ms pause
  {
    server::LogWriter writer(db.uri);
    writer.start();
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&writer, t] {
        for (int i = 0; i < kRows; ++i)
          writer.record(test::log_row(Outcome::Duplicate, std::to_string(t) + ":" + std::to_string(i)));
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
