#include "src/store/postgresql/connection.h"

#include <endian.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace edihub::store::postgresql {

const char* postgresql_schema();  // generated from schema/postgresql.sql

namespace {

constexpr Oid kBool = 16, kInt8 = 20, kInt2 = 21, kInt4 = 23;

// Every transaction's BEGIN, whether it goes alone or in a pipeline.
constexpr const char* kBegin = "BEGIN ISOLATION LEVEL READ COMMITTED";

std::string trimmed(const char* message) {
  std::string m = message == nullptr ? "" : message;
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  return m;
}

}  // namespace

Params& Params::add(int64_t v) {
  values_.push_back(std::to_string(v));
  nulls_.push_back(false);
  formats_.push_back(0);
  return *this;
}

Params& Params::add(std::string_view text) {
  values_.emplace_back(text);
  nulls_.push_back(false);
  formats_.push_back(0);
  return *this;
}

Params& Params::bytes(std::string_view b) {
  values_.emplace_back(b);
  nulls_.push_back(false);
  formats_.push_back(1);
  return *this;
}

Params& Params::null() {
  values_.emplace_back();
  nulls_.push_back(true);
  formats_.push_back(0);
  return *this;
}

int64_t Rows::affected() const {
  const char* n = PQcmdTuples(r_.get());
  return n == nullptr || *n == '\0' ? 0 : std::atoll(n);
}

int64_t Rows::int64(int row, int col) const {
  if (is_null(row, col)) return 0;
  const char* v = PQgetvalue(r_.get(), row, col);
  switch (PQftype(r_.get(), col)) {
    case kInt8: {
      uint64_t n;
      std::memcpy(&n, v, 8);
      return static_cast<int64_t>(be64toh(n));
    }
    case kInt4: {
      uint32_t n;
      std::memcpy(&n, v, 4);
      return static_cast<int32_t>(be32toh(n));
    }
    case kInt2: {
      uint16_t n;
      std::memcpy(&n, v, 2);
      return static_cast<int16_t>(be16toh(n));
    }
    case kBool:
      return *v != 0;
    default:
      return 0;
  }
}

std::string Rows::text(int row, int col) const {
  if (is_null(row, col)) return {};
  return std::string(PQgetvalue(r_.get(), row, col), static_cast<size_t>(PQgetlength(r_.get(), row, col)));
}

Connection::~Connection() { PQfinish(c_); }

Result<std::unique_ptr<Connection>> Connection::open(const std::string& uri, const StoreOptions& options) {
  PGconn* c = PQconnectdb(uri.c_str());
  if (PQstatus(c) != CONNECTION_OK) {
    Status s = Status::unavailable("PostgreSQL at '" + uri + "': " + trimmed(PQerrorMessage(c)));
    PQfinish(c);
    return s;
  }
  std::unique_ptr<Connection> conn(new Connection(c, options));
  // Notices (a table that exists ...) are not for the operator's terminal.
  PQsetNoticeProcessor(
      c, [](void*, const char*) {}, nullptr);
  Status s = conn->simple("SET client_min_messages = warning; SET statement_timeout = 0");
  if (s.is_ok()) s = conn->migrate();
  if (!s.is_ok()) return s;
  return conn;
}

Status Connection::error_from(PGresult* r, const char* what) {
  const char* state = r != nullptr ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
  const std::string code = state != nullptr ? state : "";
  const std::string message = trimmed(r != nullptr ? PQresultErrorMessage(r) : PQerrorMessage(c_));
  retryable_ = code == "40001" || code == "40P01";
  if (code == "55P03")  // lock_timeout: another transaction holds what we need
    return Status::transient(Code::StoreBusy,
                             "store busy: no write lock within " + std::to_string(lock_wait_ms_) + " ms");
  if (PQstatus(c_) != CONNECTION_OK || code.rfind("08", 0) == 0 || code == "57P01") {
    prepared_.clear();
    PQreset(c_);  // for the next call; this one failed
    return Status::unavailable(std::string("PostgreSQL connection lost during ") + what + ": " + message);
  }
  if (retryable_) return Status::transient(std::string("PostgreSQL ") + what + ": " + message + " (retry)");
  return Status::transient(std::string("PostgreSQL ") + what + ": " + message);
}

Result<std::string> Connection::prepared(const std::string& sql, int parameters) {
  auto it = prepared_.find(sql);
  if (it != prepared_.end()) return it->second;
  const std::string name = "s" + std::to_string(prepared_.size() + 1);
  PGresult* r = PQprepare(c_, name.c_str(), sql.c_str(), parameters, nullptr);
  if (PQresultStatus(r) != PGRES_COMMAND_OK) {
    Status s = error_from(r, "prepare");
    PQclear(r);
    return s.kind() == Status::Kind::Unavailable ? s : Status::transient(s.message() + " [" + sql.substr(0, 80) + "]");
  }
  PQclear(r);
  return prepared_.emplace(sql, name).first->second;
}

Result<Rows> Connection::rows_of(PGresult* r) {
  const ExecStatusType st = PQresultStatus(r);
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
    Status s = error_from(r, "statement");
    PQclear(r);
    return s;
  }
  retryable_ = false;
  return Rows(r);
}

void Connection::bind(const Params& p, std::vector<const char*>* values, std::vector<int>* lengths) {
  values->resize(p.values_.size());
  lengths->resize(p.values_.size());
  for (size_t i = 0; i < p.values_.size(); ++i) {
    (*values)[i] = p.nulls_[i] ? nullptr : p.values_[i].data();
    (*lengths)[i] = static_cast<int>(p.values_[i].size());
  }
}

Result<Rows> Connection::exec(const std::string& sql, const Params& p) {
  ASSIGN_OR_RETURN(std::string name, prepared(sql, static_cast<int>(p.values_.size())));
  if (begin_pending_ || !deferred_.empty()) return exec_pipelined(Last::Statement, name.c_str(), &p);
  std::vector<const char*> values;
  std::vector<int> lengths;
  bind(p, &values, &lengths);
  return rows_of(PQexecPrepared(c_, name.c_str(), static_cast<int>(values.size()), values.data(), lengths.data(),
                                p.formats_.data(), 1));
}

Status Connection::defer(const std::string& sql, Params params) {
  ASSIGN_OR_RETURN(std::string name, prepared(sql, static_cast<int>(params.values_.size())));
  deferred_.push_back(Deferred{std::move(name), std::move(params)});
  return Status::ok();
}

Result<Rows> Connection::exec_pipelined(Last last, const char* name, const Params* params) {
  const bool opening = begin_pending_;
  begin_pending_ = false;
  std::vector<Deferred> deferred = std::move(deferred_);
  deferred_.clear();
  std::string bound_name;
  if (opening) {
    // set_config(..., true) is SET LOCAL as a statement that takes a parameter.
    ASSIGN_OR_RETURN(bound_name, prepared("SELECT set_config('lock_timeout', $1, true)", 1));
  }
  const std::string timeout = lock_bound();
  const char* timeout_value = timeout.c_str();
  auto send = [&](const char* statement, const Params& p) {
    std::vector<const char*> values;
    std::vector<int> lengths;
    bind(p, &values, &lengths);
    return PQsendQueryPrepared(c_, statement, static_cast<int>(values.size()), values.data(), lengths.data(),
                               p.formats_.data(), 1) == 1;
  };
  bool sent = PQenterPipelineMode(c_) == 1;
  if (sent && opening)
    sent = PQsendQueryParams(c_, kBegin, 0, nullptr, nullptr, nullptr, nullptr, 1) == 1 &&
           PQsendQueryPrepared(c_, bound_name.c_str(), 1, &timeout_value, nullptr, nullptr, 1) == 1;
  for (const Deferred& d : deferred) sent = sent && send(d.name.c_str(), d.params);
  if (sent && last == Last::Statement) sent = send(name, *params);
  if (sent && last == Last::Commit)
    sent = PQsendQueryParams(c_, "COMMIT", 0, nullptr, nullptr, nullptr, nullptr, 1) == 1;
  sent = sent && PQpipelineSync(c_) == 1;
  // Each statement's result, then the end of the pipeline. A statement after
  // one that failed answers PGRES_PIPELINE_ABORTED.
  const size_t expected = (opening ? 2 : 0) + deferred.size() + (last == Last::Nothing ? 0 : 1);
  std::vector<PGresult*> results;
  results.reserve(expected);
  while (sent && results.size() < expected) {
    PGresult* r = PQgetResult(c_);
    if (r == nullptr) break;
    while (PGresult* extra = PQgetResult(c_)) PQclear(extra);  // up to the statement's terminating null
    results.push_back(r);
  }
  leave_pipeline();
  auto clear = [&]() {
    for (PGresult* r : results) PQclear(r);
  };
  for (size_t i = 0; i < results.size(); ++i) {
    const ExecStatusType st = PQresultStatus(results[i]);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) continue;
    const char* what = opening && i < 2 ? "begin" : last == Last::Commit && i + 1 == expected ? "commit" : "statement";
    Status failed = error_from(results[i], what);
    clear();
    return failed;
  }
  if (!sent || results.size() != expected || results.empty()) {
    Status failed = error_from(nullptr, opening ? "begin" : "statement");
    clear();
    return failed;
  }
  PGresult* answer = results.back();
  results.pop_back();
  clear();
  retryable_ = false;
  return Rows(answer);
}

void Connection::leave_pipeline() {
  // Bounded: a few results at most are left (the ones read above, the sync);
  // a broken connection gives none and is reset by error_from().
  for (int i = 0; i < 16 && PQpipelineStatus(c_) != PQ_PIPELINE_OFF; ++i) {
    if (PQexitPipelineMode(c_) == 1) return;
    PGresult* r = PQgetResult(c_);
    if (r == nullptr && PQstatus(c_) != CONNECTION_OK) return;
    PQclear(r);
  }
}

Status Connection::simple(const std::string& sql) {
  if (!deferred_.empty()) {
    Result<Rows> flushed = exec_pipelined(Last::Nothing);
    if (!flushed.is_ok()) return flushed.status();
  }
  if (begin_pending_) {
    begin_pending_ = false;
    return simple(begin_sql() + "; " + sql);
  }
  PGresult* r = PQexec(c_, sql.c_str());
  const ExecStatusType st = PQresultStatus(r);
  Status s = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK ? Status::ok() : error_from(r, "command");
  PQclear(r);
  return s;
}

std::string Connection::lock_bound() const { return std::to_string(std::max<int64_t>(lock_wait_ms_, 1)); }

std::string Connection::begin_sql() const { return std::string(kBegin) + "; SET LOCAL lock_timeout = " + lock_bound(); }

void Connection::saw_clock(int64_t db_ms) {
  clock_db_ms_ = db_ms;
  clock_at_ = std::chrono::steady_clock::now();
  clock_read_ = true;
}

Result<int64_t> Connection::begin(int64_t lock_wait_ms) {
  lock_wait_ms_ = lock_wait_ms;
  deferred_.clear();
  const auto since = std::chrono::steady_clock::now() - clock_at_;
  if (clock_read_ && since < kClockReuse) {
    begin_pending_ = true;
    return clock_db_ms_ + std::chrono::duration_cast<std::chrono::milliseconds>(since).count() + options_.clock_skew_ms;
  }
  // One round trip (the simple query protocol runs them in order and answers
  // with the last): the transaction, its lock bound and its clock.
  const std::string sql = begin_sql() + "; SELECT (extract(epoch FROM now()) * 1000)::bigint";
  PGresult* r = PQexec(c_, sql.c_str());
  if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
    Status s = error_from(r, "begin");
    PQclear(r);
    if (PQtransactionStatus(c_) != PQTRANS_IDLE) rollback();
    return s;
  }
  saw_clock(std::atoll(PQgetvalue(r, 0, 0)));
  PQclear(r);
  return clock_db_ms_ + options_.clock_skew_ms;
}

Status Connection::commit() {
  if (!deferred_.empty()) {  // the deferred writes and COMMIT: one round trip
    Result<Rows> committed = exec_pipelined(Last::Commit);
    return committed.is_ok() ? Status::ok() : committed.status();
  }
  if (begin_pending_) {  // nothing was sent: nothing to commit
    begin_pending_ = false;
    return Status::ok();
  }
  return simple("COMMIT");
}

void Connection::rollback() {
  deferred_.clear();  // never sent
  if (begin_pending_) {
    begin_pending_ = false;
    return;
  }
  PGresult* r = PQexec(c_, "ROLLBACK");
  PQclear(r);
}

Status Connection::migrate() {
  // Nodes starting at once: one migrates, the others wait here and find it done.
  constexpr const char* kLock = "SELECT pg_advisory_lock(4246398500)";
  constexpr const char* kUnlock = "SELECT pg_advisory_unlock(4246398500)";
  Status s = simple(kLock);
  if (!s.is_ok()) return s;
  auto fail = [&](Status why) {
    if (PQtransactionStatus(c_) != PQTRANS_IDLE) rollback();
    simple(kUnlock).ignore();
    return why;
  };
  s = simple(
      "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL,"
      " description TEXT NOT NULL)");
  if (!s.is_ok()) return fail(s);
  Result<Rows> current = exec("SELECT COALESCE(MAX(version), 0) FROM schema_version");
  if (!current.is_ok()) return fail(current.status());
  schema_version_ = static_cast<int>(current->int64(0, 0));
  // Each migration starts with a line "-- migration N: description".
  const std::string schema = postgresql_schema();
  const std::string marker = "\n-- migration ";
  for (size_t at = schema.find(marker); at != std::string::npos;) {
    const size_t next = schema.find(marker, at + marker.size());
    const std::string block = schema.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
    at = next;
    const int number = std::atoi(block.c_str() + marker.size() - 1);
    if (number <= 0)
      return fail(Status::unavailable("schema/postgresql.sql: bad migration header: " + block.substr(0, 40)));
    if (number <= schema_version_) continue;
    const size_t eol = block.find('\n');
    const size_t colon = block.find(':');
    const std::string description = colon < eol ? block.substr(colon + 2, eol - colon - 2) : "";
    s = simple("BEGIN");
    if (s.is_ok()) s = simple(block);
    if (s.is_ok()) {
      Result<Rows> r = exec(
          "INSERT INTO schema_version (version, applied_at, description)"
          " VALUES ($1, (extract(epoch FROM now()) * 1000)::bigint, $2)",
          Params().add(int64_t{number}).add(description));
      if (!r.is_ok()) s = r.status();
    }
    if (s.is_ok()) s = simple("COMMIT");
    if (!s.is_ok())
      return fail(
          Status::unavailable("schema/postgresql.sql migration " + std::to_string(number) + ": " + s.message()));
    schema_version_ = number;
  }
  return simple(kUnlock);
}

Result<int64_t> Connection::clock_ms() {
  ASSIGN_OR_RETURN(Rows r, exec("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint"));
  saw_clock(r.int64(0, 0));
  return clock_db_ms_ + options_.clock_skew_ms;
}

}  // namespace edihub::store::postgresql
