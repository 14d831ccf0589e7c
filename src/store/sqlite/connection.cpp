#include "src/store/sqlite/connection.h"

#include <Poco/Data/SQLite/Connector.h>
#include <Poco/Data/SQLite/SQLiteException.h>
#include <Poco/Data/SQLite/Utility.h>
#include <Poco/Data/Session.h>
#include <Poco/File.h>
#include <Poco/Path.h>
#include <unistd.h>

#include <mutex>
#include <sstream>

namespace edihub::store::sqlite {

using namespace Poco::Data::Keywords;

namespace {

// A savepoint's or a statement's journal, per connection, held in memory up to
// this size (a message changes tens of pages; a purge batch may change more
// and then spills to a file as before).
constexpr int kSubJournalInMemory = 8 << 20;

}  // namespace

Connection::Connection(std::unique_ptr<Poco::Data::Session> session, StoreOptions options, int schema_version)
    : session_(std::move(session)),
      options_(std::move(options)),
      schema_version_(schema_version),
      db_(Poco::Data::SQLite::Utility::dbHandle(*session_)) {
  lock_deadline_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(options_.busy_timeout_ms);
  sqlite3_busy_handler(db_, busy_wait, this);
}

Connection::~Connection() = default;

// Waits for a lock in steps of 1 ms until the deadline. SQLite's own busy
// timeout sleeps up to 100 ms a step, so one unlucky waiter (a purge batch, a
// writer next to it) could lose the lock for seconds.
int Connection::busy_wait(void* self, int) {
  auto* c = static_cast<Connection*>(self);
  if (std::chrono::steady_clock::now() >= c->lock_deadline_) return 0;
  ::usleep(1000);
  return 1;
}

Status Connection::status(int rc, std::string_view what) const {
  const std::string text =
      std::string(what) + ": " + sqlite3_errstr(rc) +
      (db_ != nullptr && sqlite3_errcode(db_) == rc ? std::string(" (") + sqlite3_errmsg(db_) + ")" : std::string());
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Status::transient(Code::StoreBusy, "store busy: " + text);
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_NOMEM:
    case SQLITE_INTERRUPT:
      return Status::transient(text);
    case SQLITE_CANTOPEN:
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_AUTH:
      return Status::unavailable(text);
    case SQLITE_CONSTRAINT:
      return Status::invalid(text);
    default:
      return Status::transient(text);
  }
}

Status Connection::exec(const char* sql, std::string_view what) {
  int rc = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
  return rc == SQLITE_OK ? Status::ok() : status(rc, what);
}

Status Connection::begin(int64_t lock_wait_ms) {
  lock_deadline_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(lock_wait_ms);
  Status s = exec("BEGIN IMMEDIATE", "begin");
  lock_deadline_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(options_.busy_timeout_ms);
  if (!s.is_ok() && s.code() == Code::StoreBusy)
    return Status::transient(Code::StoreBusy,
                             "store busy: no write lock within " + std::to_string(lock_wait_ms) + " ms");
  return s;
}

Status Connection::commit() { return exec("COMMIT", "commit"); }

void Connection::rollback() {
  // Nothing to undo when SQLite already rolled back (e.g. on SQLITE_FULL).
  if (!sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

Result<int64_t> Connection::write_alone(Stmt& q) {
  RETURN_IF_ERROR(begin(options_.busy_timeout_ms));
  Result<int64_t> n = q.run();
  if (!n.is_ok()) {
    rollback();
    return n.status();
  }
  Status committed = commit();
  if (!committed.is_ok()) {
    rollback();
    return committed;
  }
  return n;
}

Stmt::Stmt(Connection& c, const char* sql) : c_(c), sql_(sql) {
  error_ = sqlite3_prepare_v3(c.db(), sql, -1, SQLITE_PREPARE_PERSISTENT, &s_, nullptr);
}

Stmt::~Stmt() { sqlite3_finalize(s_); }

Stmt& Stmt::check(int rc) {
  if (rc != SQLITE_OK && error_ == SQLITE_OK) error_ = rc;
  return *this;
}

Stmt& Stmt::bind(int i, int64_t v) { return s_ ? check(sqlite3_bind_int64(s_, i, v)) : *this; }
Stmt& Stmt::bind(int i, std::string_view v) {
  return s_ ? check(sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT)) : *this;
}
Stmt& Stmt::bind_static(int i, std::string_view v) {
  // A zero-length text is still text, not NULL.
  return s_ ? check(sqlite3_bind_text(s_, i, v.empty() ? "" : v.data(), static_cast<int>(v.size()), SQLITE_STATIC))
            : *this;
}
Stmt& Stmt::bind_blob(int i, std::string_view v) {
  // A zero-length blob is still a blob, not NULL.
  return s_ ? check(sqlite3_bind_blob64(s_, i, v.empty() ? "" : v.data(), v.size(), SQLITE_TRANSIENT)) : *this;
}
Stmt& Stmt::bind_null(int i) { return s_ ? check(sqlite3_bind_null(s_, i)) : *this; }

Result<bool> Stmt::step() {
  if (error_ != SQLITE_OK) {
    Status s = c_.status(error_, sql_);
    error_ = SQLITE_OK;
    return s;
  }
  int rc = sqlite3_step(s_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  Status s = c_.status(rc, sql_);
  sqlite3_reset(s_);
  return s;
}

Result<int64_t> Stmt::run() {
  RETURN_IF_ERROR(step());
  return static_cast<int64_t>(sqlite3_changes(c_.db()));
}

std::string Stmt::text(int col) const {
  const unsigned char* t = sqlite3_column_text(s_, col);
  return t == nullptr
             ? std::string()
             : std::string(reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_column_bytes(s_, col)));
}

std::string Stmt::blob(int col) const {
  const void* b = sqlite3_column_blob(s_, col);
  return b == nullptr ? std::string()
                      : std::string(static_cast<const char*>(b), static_cast<size_t>(sqlite3_column_bytes(s_, col)));
}

void Stmt::reset() {
  if (s_ == nullptr) return;
  sqlite3_reset(s_);
  sqlite3_clear_bindings(s_);
}

namespace {

// Applies the migrations of schema/sqlite.sql above the recorded version.
void migrate(Poco::Data::Session& session, int* version_out) {
  session << "CREATE TABLE IF NOT EXISTS schema_version ("
             "version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL, description TEXT)",
      now;
  int current = 0;
  session << "SELECT COALESCE(MAX(version), 0) FROM schema_version", into(current), now;

  // Each migration starts with a line "-- migration N: description".
  const std::string schema = "\n" + std::string(sqlite_schema());
  const std::string marker = "\n-- migration ";
  size_t at = schema.find(marker);
  while (at != std::string::npos) {
    size_t next = schema.find(marker, at + marker.size());
    std::string block = schema.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
    int number = std::atoi(block.c_str() + marker.size() - 1);
    if (number <= 0) throw Poco::DataException("schema/sqlite.sql: bad migration header: " + block.substr(0, 40));
    std::string description = block.substr(block.find(':') + 1, block.find('\n') - block.find(':') - 1);
    if (number > current) {
      session << "BEGIN IMMEDIATE", now;
      // Another process may have migrated while we waited for the lock:
      // read the version again under it, so a migration runs once.
      session << "SELECT COALESCE(MAX(version), 0) FROM schema_version", into(current), now;
      if (number <= current) {
        session << "COMMIT", now;
        at = next;
        continue;
      }
      try {
        // Whole-line comments go; statements end with ';' at a line end.
        std::istringstream lines(block.substr(block.find('\n') + 1));
        std::string line, sql;
        while (std::getline(lines, line)) {
          size_t first = line.find_first_not_of(" \t");
          if (first == std::string::npos || line.compare(first, 2, "--") == 0) continue;
          sql += line + "\n";
          if (line.back() == ';') {
            session << sql, now;
            sql.clear();
          }
        }
        Poco::Int64 when =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
                .count();
        session << "INSERT INTO schema_version (version, applied_at, description) VALUES (?, ?, ?)", use(number),
            use(when), use(description), now;
        session << "COMMIT", now;
      } catch (...) {
        session << "ROLLBACK", now;
        throw;
      }
      current = number;
    }
    at = next;
  }
  *version_out = current;
}

}  // namespace

namespace {

Result<std::unique_ptr<Connection>> try_open(const std::string& path, const StoreOptions& options, bool* busy) {
  *busy = false;
  try {
    if (path != ":memory:") {
      Poco::Path parent = Poco::Path(path).parent();
      if (!parent.toString().empty()) Poco::File(parent).createDirectories();
    }
    auto session = std::make_unique<Poco::Data::Session>("SQLite", path);
    // Migrations may wait for another process too; the connection installs
    // its own finer-grained busy handler afterwards.
    *session << "PRAGMA busy_timeout = " + std::to_string(options.busy_timeout_ms), now;
    std::string mode;
    *session << "PRAGMA journal_mode = WAL", into(mode), now;
    *session << "PRAGMA synchronous = " + options.synchronous, now;
    *session << "PRAGMA foreign_keys = ON", now;
    int version = 0;
    migrate(*session, &version);
    return std::make_unique<Connection>(std::move(session), options, version);
  } catch (const Poco::Data::SQLite::DBLockedException& e) {
    *busy = true;
    return Status::unavailable("open " + path + ": " + e.displayText());
  } catch (const Poco::Exception& e) {
    return Status::unavailable("open " + path + ": " + e.displayText());
  } catch (const std::exception& e) {
    return Status::unavailable("open " + path + ": " + e.what());
  }
}

}  // namespace

Result<std::unique_ptr<Connection>> open_connection(const std::string& path, const StoreOptions& options) {
  static std::once_flag registered;
  std::call_once(registered, [] {
    // Each message in a group commit is a savepoint, whose journal (the
    // pages it changed) SQLite moves to a temporary file past 64 KiB: a file
    // written page by page for every message after the first large one, and
    // thrown away at commit. Kept in memory up to kSubJournalInMemory; only
    // takes effect before SQLite's first use in the process (else ignored).
    (void)sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, kSubJournalInMemory);
    // No memory statistics (edihub reads none): without them sqlite3_malloc
    // takes no process-wide mutex, which every connection's thread met.
    (void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    // Multi-thread mode: a connection takes no mutex of its own on each call
    // (every bind, step and reset did). Each edihub connection is one
    // thread's: a store belongs to the thread that opened it, and the group
    // committer's connection to its thread.
    (void)sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
    Poco::Data::SQLite::Connector::registerConnector();
  });
  if (options.synchronous != "full" && options.synchronous != "normal" && options.synchronous != "off")
    return Status::invalid("synchronous must be full, normal or off, not '" + options.synchronous + "'");
  // Several processes opening a new file at once can meet in a lock upgrade
  // (the WAL switch, the first migration) that SQLite refuses at once rather
  // than wait for: try again, within the busy timeout.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(options.busy_timeout_ms);
  while (true) {
    bool busy = false;
    Result<std::unique_ptr<Connection>> c = try_open(path, options, &busy);
    if (c.is_ok() || !busy || std::chrono::steady_clock::now() >= deadline) return c;
    ::usleep(5000);
  }
}

}  // namespace edihub::store::sqlite
