// One libpq connection: statements prepared once per connection (on first
// use, by their SQL text), parameters bound (text, or binary for bytea),
// results in binary format. Errors are Status values: a lock wait past its
// bound is Transient "store busy", a serialization failure or deadlock is
// Transient and marked retryable, a lost connection Unavailable.
#pragma once

#include <libpq-fe.h>

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
  // Several statements, no parameters, one round trip (simple query protocol).
  Status simple(const std::string& sql);

  // BEGIN with lock waits bounded by `lock_wait_ms`; the transaction's
  // clock (the database's now(), plus the test skew).
  Result<int64_t> begin(int64_t lock_wait_ms);
  Status commit();
  void rollback();
  // The database's clock now, plus the test skew.
  Result<int64_t> clock_ms();
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
  // The statement's name on this connection, prepared on first use.
  Result<std::string> prepared(const std::string& sql, int parameters);
  Status migrate();

  PGconn* c_;
  StoreOptions options_;
  std::unordered_map<std::string, std::string> prepared_;  // SQL -> statement name
  int64_t lock_wait_ms_ = 0;
  bool retryable_ = false;
  int schema_version_ = 0;
};

}  // namespace edihub::store::postgresql
