// One SQLite connection as the store's parts use it: the sqlite3 handle
// (opened through POCO Data), statements prepared once, the clock, and the
// mapping of SQLite result codes to Status values. Nothing here throws.
//
// A connection and its statements are one thread's at a time: SQLite runs
// in multi-thread mode (open_connection sets it), with no mutex of its own
// per connection, so two threads must never use one at once.
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "src/common/status.h"
#include "src/store/store.h"

namespace Poco::Data {
class Session;
}

namespace edihub::store::sqlite {

class Connection {
 public:
  Connection(std::unique_ptr<Poco::Data::Session> session, StoreOptions options, int schema_version);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  sqlite3* db() const { return db_; }
  int schema_version() const { return schema_version_; }
  const StoreOptions& options() const { return options_; }

  // SQLite has no clock of its own beyond the host's: one clock for every
  // process on this machine, skewable for tests.
  int64_t clock_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
               .count() +
           options_.clock_skew_ms;
  }

  // The status for a failed SQLite call `rc` during `what`.
  Status status(int rc, std::string_view what) const;
  // Runs SQL without results (BEGIN, COMMIT ...).
  Status exec(const char* sql, std::string_view what);

  // BEGIN IMMEDIATE, waiting at most `lock_wait_ms` for other writers.
  Status begin(int64_t lock_wait_ms);
  Status commit();
  // Rolls back if a transaction is open; never fails.
  void rollback();
  // Runs one write statement in its own short transaction (waiting up to
  // busy_timeout_ms for the lock): the rows it changed.
  Result<int64_t> write_alone(class Stmt& q);

 private:
  static int busy_wait(void* self, int attempts);

  std::unique_ptr<Poco::Data::Session> session_;
  StoreOptions options_;
  int schema_version_;
  sqlite3* db_;
  // Until when a writer waiting for the lock keeps trying (busy handler).
  std::chrono::steady_clock::time_point lock_deadline_;
};

// A statement prepared once for the life of the connection. POCO 1.11
// prepares a Statement again on every execute(); on the per-message path
// that was 40% of the CPU (tests/bench/store_bench), so the store's
// statements use the connection's sqlite3 handle directly. Values are only
// ever bound, never spliced. A failed bind is reported by the next step().
class Stmt {
 public:
  Stmt(Connection& c, const char* sql);
  ~Stmt();
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Stmt& bind(int i, int64_t v);
  Stmt& bind(int i, std::string_view text);
  // As bind(), without SQLite's copy: `text` must stay valid until the
  // statement is reset (a Using's end) or bound again.
  Stmt& bind_static(int i, std::string_view text);
  Stmt& bind_blob(int i, std::string_view bytes);
  Stmt& bind_null(int i);
  // True while there is a row to read; an error Status otherwise.
  Result<bool> step();
  // Runs a statement that returns no row: the number of rows it changed.
  Result<int64_t> run();
  int64_t int64(int col) const { return sqlite3_column_int64(s_, col); }
  bool is_null(int col) const { return sqlite3_column_type(s_, col) == SQLITE_NULL; }
  std::string text(int col) const;
  std::string blob(int col) const;
  void reset();

 private:
  Stmt& check(int rc);
  Connection& c_;
  const char* sql_;
  sqlite3_stmt* s_ = nullptr;
  int error_ = SQLITE_OK;
};

// Resets a statement when the scope using it ends, rows read or not.
class Using {
 public:
  explicit Using(Stmt& s) : s_(s) {}
  ~Using() { s_.reset(); }
  Stmt* operator->() { return &s_; }
  Stmt& operator*() { return s_; }

 private:
  Stmt& s_;
};

// Opens the database at `path` (creating it and its directory), applies the
// pending migrations of schema/sqlite.sql. Unavailable with the reason.
Result<std::unique_ptr<Connection>> open_connection(const std::string& path, const StoreOptions& options);

// The migrations in schema/sqlite.sql, compiled in.
const char* sqlite_schema();

}  // namespace edihub::store::sqlite
