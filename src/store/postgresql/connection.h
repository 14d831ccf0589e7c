// One libpq connection: statements prepared once per connection (on first
// use, by their SQL text), parameters bound (text, or binary for bytea),
// results in binary format. Errors are Status values: a lock wait past its
// bound is Transient "store busy", a serialization failure or deadlock is
// Transient and marked retryable, a lost connection Unavailable.
#pragma once

#include <libpq-fe.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "src/common/status.h"
#include "src/store/store.h"

namespace edihub::store::postgresql {

// Bound parameters, in order ($1, $2 ...).
class Params {
 public:
  Params& add(int64_t v);
  Params& add(std::string_view text);
  Params& add(const std::string& text) { return add(std::string_view(text)); }
  Params& add(const char* text) { return add(std::string_view(text)); }
  Params& bytes(std::string_view b);  // bytea, sent as is (binary format)
  Params& null();

 private:
  friend class Connection;
  std::vector<std::string> values_;
  std::vector<bool> nulls_;
  std::vector<int> formats_;
};

// A result set, binary format. Column accessors by index.
class Rows {
 public:
  explicit Rows(PGresult* r) : r_(r, PQclear) {}
  int size() const { return PQntuples(r_.get()); }
  int64_t affected() const;  // rows an INSERT/UPDATE/DELETE touched
  bool is_null(int row, int col) const { return PQgetisnull(r_.get(), row, col) != 0; }
  int64_t int64(int row, int col) const;     // int2/4/8 or bool; 0 for NULL
  std::string text(int row, int col) const;  // text or bytea bytes; empty for NULL

 private:
  std::unique_ptr<PGresult, void (*)(PGresult*)> r_;
};

class Connection {
 public:
  // Connects with a libpq URI ("postgresql://user@host:port/db?...") and
  // brings the schema up to date (schema/postgresql.sql, under an advisory lock).
  static Result<std::unique_ptr<Connection>> open(const std::string& uri, const StoreOptions& options);
  ~Connection();

  // Runs `sql` (prepared on first use on this connection) with `params`.
  Result<Rows> exec(const std::string& sql, const Params& params = {});
  // Queues a write whose only answer is success or an error (an INSERT of a
  // log row, an outbox row ...): it is sent with the transaction's next
  // statement that needs an answer, or with its COMMIT, in one pipeline, one
  // round trip for all. Its error, if it fails, is that statement's, and the
  // transaction is rolled back as a whole; rollback() drops what is queued.
  // Within a transaction only.
  Status defer(const std::string& sql, Params params);
  // Several statements, no parameters, one round trip (simple query protocol).
  Status simple(const std::string& sql);

  // BEGIN with lock waits bounded by `lock_wait_ms`; the transaction's
  // clock (the database's clock, plus the test skew).
  //
  // Within kClockReuse of the last time this connection read the database's
  // clock, the clock is that reading carried forward by the steady clock, and
  // nothing is sent yet: BEGIN and the lock bound go with the transaction's
  // first statement, in one round trip (libpq's pipeline mode). Otherwise
  // BEGIN, the lock bound and a clock reading are one round trip of their own.
  Result<int64_t> begin(int64_t lock_wait_ms);
  Status commit();
  void rollback();
  // The database's clock now, plus the test skew.
  Result<int64_t> clock_ms();
  // How long a reading of the database's clock is carried forward.
  static constexpr std::chrono::milliseconds kClockReuse{1000};
  // The same clock as an SQL expression (a literal: no parameter), for a
  // statement to read it without a round trip of its own.
  std::string now_sql() const {
    return "((extract(epoch FROM clock_timestamp()) * 1000)::bigint + " + std::to_string(options_.clock_skew_ms) + ")";
  }

  // True when the last error was a serialization failure or a deadlock:
  // the transaction may be run again from the start.
  bool retryable() const { return retryable_; }
  const StoreOptions& options() const { return options_; }
  int schema_version() const { return schema_version_; }

 private:
  Connection(PGconn* c, StoreOptions options) : c_(c), options_(std::move(options)) {}
  Status error_from(PGresult* r, const char* what);
  // `p` as libpq takes it: pointers into its values (null for NULL), their lengths.
  static void bind(const Params& p, std::vector<const char*>* values, std::vector<int>* lengths);
  // A finished statement's result as Rows, or its error.
  Result<Rows> rows_of(PGresult* r);
  // What a pipeline ends with: a statement, COMMIT, or nothing more.
  enum class Last { Statement, Commit, Nothing };
  // BEGIN and the lock bound (when BEGIN was not sent yet), the deferred
  // writes and the last statement (`name` with `params`, when `last` says so)
  // in one pipeline, one round trip. The first error is the result.
  Result<Rows> exec_pipelined(Last last, const char* name = nullptr, const Params* params = nullptr);
  // Leaves pipeline mode, whatever was left unread.
  void leave_pipeline();
  // lock_timeout for this transaction, in ms (0 would mean no bound).
  std::string lock_bound() const;
  // BEGIN and the lock bound as SQL, for the simple query protocol.
  std::string begin_sql() const;
  // Remembers a reading of the database's clock (without the skew).
  void saw_clock(int64_t db_ms);
  // The statement's name on this connection, prepared on first use.
  Result<std::string> prepared(const std::string& sql, int parameters);
  Status migrate();

  PGconn* c_;
  StoreOptions options_;
  std::unordered_map<std::string, std::string> prepared_;  // SQL -> statement name
  struct Deferred {
    std::string name;  // the prepared statement
    Params params;
  };
  std::vector<Deferred> deferred_;
  int64_t lock_wait_ms_ = 0;
  // begin() returned, BEGIN not sent: the next statement sends it.
  bool begin_pending_ = false;
  // The last reading of the database's clock and when it was made.
  int64_t clock_db_ms_ = 0;
  std::chrono::steady_clock::time_point clock_at_{};
  bool clock_read_ = false;
  bool retryable_ = false;
  int schema_version_ = 0;
};

}  // namespace edihub::store::postgresql
