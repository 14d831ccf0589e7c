#include "src/store/sqlite_store.h"

#include <Poco/Data/LOB.h>
#include <Poco/Data/SQLite/Connector.h>
#include <Poco/Data/SQLite/SQLiteException.h>
#include <Poco/Data/SQLite/Utility.h>
#include <Poco/Data/Session.h>
#include <Poco/Data/Statement.h>
#include <Poco/File.h>
#include <Poco/Path.h>

#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <mutex>
#include <sstream>
#include <vector>

namespace edihub::store {

namespace {

using namespace Poco::Data::Keywords;
using Poco::Data::BLOB;
using Poco::Data::Session;
using Poco::Data::Statement;
using Poco::Int64;

// POCO throws; this adapter turns its exceptions into Status values.
Status from_exception(const Poco::Exception& e, const std::string& what) {
  const std::string text = what + ": " + e.displayText();
  if (dynamic_cast<const Poco::Data::SQLite::DBLockedException*>(&e) ||
      dynamic_cast<const Poco::Data::SQLite::TableLockedException*>(&e))
    return Status::transient("store busy, " + text);
  if (dynamic_cast<const Poco::Data::SQLite::DatabaseFullException*>(&e) ||
      dynamic_cast<const Poco::Data::SQLite::IOErrorException*>(&e) ||
      dynamic_cast<const Poco::Data::SQLite::NoMemoryException*>(&e))
    return Status::transient(text);
  if (dynamic_cast<const Poco::Data::SQLite::CantOpenDBFileException*>(&e) ||
      dynamic_cast<const Poco::Data::SQLite::CorruptImageException*>(&e) ||
      dynamic_cast<const Poco::Data::SQLite::DBAccessDeniedException*>(&e) ||
      dynamic_cast<const Poco::Data::SQLite::ReadOnlyException*>(&e))
    return Status::unavailable(text);
  if (dynamic_cast<const Poco::Data::SQLite::ConstraintViolationException*>(&e))
    return Status::invalid(text);
  return Status::transient(text);
}

BLOB to_blob(const std::string& s) {
  return BLOB(reinterpret_cast<const unsigned char*>(s.data()), s.size());
}

// Dates are digits CCYYMMDD[HHMM[SS]]: pad to compare versions of a document.
std::string date_key(const std::string& date) {
  std::string d = date.substr(0, 14);
  d.resize(14, '0');
  return d;
}

int purpose_rank(business::Purpose p) {
  switch (p) {
    case business::Purpose::Original: return 0;
    case business::Purpose::Replace: return 1;
    case business::Purpose::Cancel: return 2;
  }
  return 0;
}

business::Purpose purpose_from(const std::string& s) {
  if (s == "replace") return business::Purpose::Replace;
  if (s == "cancel") return business::Purpose::Cancel;
  return business::Purpose::Original;
}

KeyState state_from(const std::string& s) {
  if (s == "completed") return KeyState::Completed;
  if (s == "failed") return KeyState::Failed;
  return KeyState::Processing;
}

// A statement prepared once for the life of the connection. POCO 1.11
// prepares a Statement again on every execute(); on the per-message path that
// was 40% of the CPU (tests/bench/store_bench), so these use the connection's
// sqlite3 handle directly. Values are still only ever bound, never spliced.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) : db_(db) {
    int rc = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s_, nullptr);
    if (rc != SQLITE_OK) Poco::Data::SQLite::Utility::throwException(db, rc, sql);
  }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Stmt& bind(int i, int64_t v) { return check(sqlite3_bind_int64(s_, i, v)); }
  Stmt& bind(int i, std::string_view v) {
    return check(sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
  }
  Stmt& bind_blob(int i, std::string_view v) {
    return check(sqlite3_bind_blob(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
  }
  // True while there is a row to read.
  bool step() {
    int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    sqlite3_reset(s_);
    Poco::Data::SQLite::Utility::throwException(db_, rc);
    return false;
  }
  // Runs a statement that returns no row; the number of rows it changed.
  int64_t run() {
    step();
    return sqlite3_changes(db_);
  }
  int64_t int64(int col) { return sqlite3_column_int64(s_, col); }
  std::string text(int col) {
    const unsigned char* t = sqlite3_column_text(s_, col);
    return t == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(t), sqlite3_column_bytes(s_, col));
  }
  std::string blob(int col) {
    const void* b = sqlite3_column_blob(s_, col);
    return b == nullptr ? std::string() : std::string(static_cast<const char*>(b), sqlite3_column_bytes(s_, col));
  }
  void reset() {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }

 private:
  Stmt& check(int rc) {
    if (rc != SQLITE_OK) Poco::Data::SQLite::Utility::throwException(db_, rc);
    return *this;
  }
  sqlite3* db_;
  sqlite3_stmt* s_ = nullptr;
};

// Resets a statement when the scope using it ends, rows read or not.
class Using {
 public:
  explicit Using(Stmt& s) : s_(s) {}
  ~Using() { s_.reset(); }
  Stmt* operator->() { return &s_; }

 private:
  Stmt& s_;
};

// The per-message statements of one connection.
struct Hot {
  explicit Hot(sqlite3* db)
      : begin(db, "BEGIN IMMEDIATE"),
        commit(db, "COMMIT"),
        rollback(db, "ROLLBACK"),
        select_key(db,
                   "SELECT protocol, state, received_at, COALESCE(lease_until, 0), attempts, failures,"
                   " payload_sha256, raw_sha256, COALESCE(outcome, ''), COALESCE(error, ''),"
                   " COALESCE(receipt_status, 0), COALESCE(receipt_headers, ''), receipt_body"
                   " FROM idempotency_keys WHERE partner_id = ?1 AND message_id = ?2"),
        insert_key(db,
                   "INSERT INTO idempotency_keys (partner_id, message_id, protocol, state, received_at,"
                   " updated_at, lease_until, attempts, failures, payload_sha256, raw_sha256)"
                   " VALUES (?1, ?2, ?3, 'processing', ?4, ?4, ?5, 1, 0, ?6, ?7) ON CONFLICT DO NOTHING"),
        takeover(db,
                 "UPDATE idempotency_keys SET state = 'processing', attempts = attempts + 1,"
                 " lease_until = ?1, updated_at = ?2, raw_sha256 = ?3"
                 " WHERE partner_id = ?4 AND message_id = ?5 AND state = ?6 AND attempts = ?7"),
        settle(db,
               "UPDATE idempotency_keys SET state = ?1, receipt_status = ?2, receipt_headers = ?3,"
               " receipt_body = ?4, outcome = ?5, error = ?6, lease_until = NULL, updated_at = ?7,"
               " failures = failures + ?8"
               " WHERE partner_id = ?9 AND message_id = ?10 AND state = 'processing' AND attempts = ?11"),
        release(db,
                "UPDATE idempotency_keys SET lease_until = ?1, updated_at = ?1"
                " WHERE partner_id = ?2 AND message_id = ?3 AND state = 'processing' AND attempts = ?4"),
        sequence(db,
                 "INSERT INTO sequences (name, value) VALUES (?1, 1)"
                 " ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value"),
        log(db,
            "INSERT INTO messages (received_at, partner_id, protocol, transport, transport_id,"
            " message_id, outcome, bytes, documents, duration_ms, detail)"
            " VALUES (?1, NULLIF(?2, ''), ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"),
        // Document lines: hundreds per document, so prepared once too.
        shipment_line(db,
                      "INSERT INTO shipment_notice_lines (partner_id, document_number, position, line_number,"
                      " item_id, item_id_type, supplier_item, quantity, unit, order_number)"
                      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"),
        invoice_line(db,
                     "INSERT INTO invoice_lines (partner_id, invoice_number, position, line_number, item_id,"
                     " item_id_type, quantity, unit, unit_price, amount_minor)"
                     " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)") {}

  Stmt begin, commit, rollback, select_key, insert_key, takeover, settle, release, sequence, log;
  Stmt shipment_line, invoice_line;
};

// Waits for a lock in steps of 1 ms up to the timeout. SQLite's own busy
// timeout sleeps up to 100 ms a step, so one unlucky waiter (a purge batch, a
// writer next to it) could lose the lock for seconds.
int busy_wait(void* timeout_ms, int attempts) {
  if (attempts >= *static_cast<int*>(timeout_ms)) return 0;
  ::usleep(1000);
  return 1;
}

Status write_log(Hot& hot, int64_t now_ms, const MessageLog& m) {
  Using q(hot.log);
  q->bind(1, now_ms).bind(2, m.partner_id).bind(3, m.protocol).bind(4, m.transport);
  q->bind(5, m.transport_id).bind(6, m.message_id).bind(7, m.outcome).bind(8, m.bytes);
  q->bind(9, m.documents).bind(10, m.duration_ms).bind(11, m.detail);
  q->run();
  return Status::ok();
}

// Applies the migrations of schema/sqlite.sql above the recorded version.
void migrate(Session& session, int* version_out) {
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
        Int64 when = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
        session << "INSERT INTO schema_version (version, applied_at, description) VALUES (?, ?, ?)",
            use(number), use(when), use(description), now;
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

class SqliteStore;

class SqliteTransaction : public Transaction {
 public:
  SqliteTransaction(Session& session, Hot& hot, Int64 now_ms) : s_(session), hot_(hot), now_(now_ms) {}

  Result<Applied> put_shipment_notice(const std::string& partner, const business::ShipmentNotice& doc,
                                      const std::string& source) override;
  Result<Applied> put_invoice(const std::string& partner, const business::Invoice& doc,
                              const std::string& source) override;
  Result<int64_t> next_sequence(const std::string& name) override;
  Status enqueue(const OutboxItem& item) override;
  Status log(const MessageLog& entry) override { return write_log(hot_, now_, entry); }

 private:
  // Existing version of a document: (date, purpose). Empty when none.
  struct Version {
    bool exists = false;
    std::string date, purpose;
  };
  Version version_of(const char* table, const char* number_column, const std::string& partner,
                     const std::string& number);
  // Whether `incoming` supersedes `stored`: later date, or same date and a
  // stronger purpose (original < replace < cancel).
  static bool supersedes(const std::string& date, business::Purpose purpose, const Version& stored);

  Session& s_;
  Hot& hot_;
  Int64 now_;
};

SqliteTransaction::Version SqliteTransaction::version_of(const char* table, const char* number_column,
                                                         const std::string& partner,
                                                         const std::string& number) {
  Version v;
  std::string p = partner, n = number;
  Statement q(s_);
  q << "SELECT document_date, purpose FROM " << table << " WHERE partner_id = ? AND " << number_column
    << " = ?",
      into(v.date), into(v.purpose), use(p), use(n), limit(1);
  v.exists = q.execute() > 0;
  return v;
}

bool SqliteTransaction::supersedes(const std::string& date, business::Purpose purpose,
                                   const Version& stored) {
  const std::string a = date_key(date), b = date_key(stored.date);
  if (a != b) return a > b;
  return purpose_rank(purpose) > purpose_rank(purpose_from(stored.purpose));
}

Result<Applied> SqliteTransaction::put_shipment_notice(const std::string& partner,
                                                       const business::ShipmentNotice& doc,
                                                       const std::string& source) {
  std::string p = partner, number = doc.document_number, src = source;
  std::string purpose(business::purpose_name(doc.purpose));
  const bool cancel = doc.purpose == business::Purpose::Cancel;
  std::string status = cancel ? "cancelled" : "active";
  std::string date = doc.document_date, ship_date = doc.ship_date, order = doc.order_number,
              from = doc.ship_from, to = doc.ship_to, carrier = doc.carrier,
              weight = doc.gross_weight;
  Version stored = version_of("shipment_notices", "document_number", partner, doc.document_number);
  Applied applied;
  if (!stored.exists) {
    s_ << "INSERT INTO shipment_notices (partner_id, document_number, purpose, status, document_date,"
          " ship_date, order_number, ship_from, ship_to, carrier, gross_weight, source, versions,"
          " created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,1,?,?)",
        use(p), use(number), use(purpose), use(status), use(date), use(ship_date), use(order),
        use(from), use(to), use(carrier), use(weight), use(src), use(now_), use(now_), now;
    applied = cancel ? Applied::Cancelled : Applied::Inserted;
  } else if (!supersedes(doc.document_date, doc.purpose, stored)) {
    return Applied::IgnoredOlder;
  } else if (cancel) {
    s_ << "UPDATE shipment_notices SET purpose = ?, status = 'cancelled', document_date = ?,"
          " source = ?, versions = versions + 1, updated_at = ? WHERE partner_id = ? AND document_number = ?",
        use(purpose), use(date), use(src), use(now_), use(p), use(number), now;
    return Applied::Cancelled;
  } else {
    s_ << "UPDATE shipment_notices SET purpose = ?, status = 'active', document_date = ?, ship_date = ?,"
          " order_number = ?, ship_from = ?, ship_to = ?, carrier = ?, gross_weight = ?, source = ?,"
          " versions = versions + 1, updated_at = ? WHERE partner_id = ? AND document_number = ?",
        use(purpose), use(date), use(ship_date), use(order), use(from), use(to), use(carrier),
        use(weight), use(src), use(now_), use(p), use(number), now;
    s_ << "DELETE FROM shipment_notice_lines WHERE partner_id = ? AND document_number = ?", use(p),
        use(number), now;
    applied = Applied::Replaced;
  }
  if (cancel) return applied;
  int64_t position = 0;
  for (const auto& line : doc.lines) {
    Using q(hot_.shipment_line);
    q->bind(1, p).bind(2, number).bind(3, ++position).bind(4, int64_t{line.line_number});
    q->bind(5, line.item_id).bind(6, line.item_id_type).bind(7, line.supplier_item).bind(8, line.quantity);
    q->bind(9, line.unit).bind(10, line.order_number);
    q->run();
  }
  return applied;
}

Result<Applied> SqliteTransaction::put_invoice(const std::string& partner, const business::Invoice& doc,
                                               const std::string& source) {
  std::string p = partner, number = doc.invoice_number, src = source;
  std::string purpose(business::purpose_name(doc.purpose));
  const bool cancel = doc.purpose == business::Purpose::Cancel;
  std::string status = cancel ? "cancelled" : "active";
  std::string date = doc.document_date, order = doc.order_number, currency = doc.currency;
  int credit = doc.credit_note ? 1 : 0;
  Int64 total = doc.total_minor;
  Poco::Nullable<Int64> tax, line_total;
  if (doc.tax_minor) tax = *doc.tax_minor;
  if (doc.line_total_minor) line_total = *doc.line_total_minor;
  Version stored = version_of("invoices", "invoice_number", partner, doc.invoice_number);
  Applied applied;
  if (!stored.exists) {
    s_ << "INSERT INTO invoices (partner_id, invoice_number, credit_note, purpose, status, document_date,"
          " order_number, currency, total_minor, tax_minor, line_total_minor, source, versions,"
          " created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,1,?,?)",
        use(p), use(number), use(credit), use(purpose), use(status), use(date), use(order),
        use(currency), use(total), use(tax), use(line_total), use(src), use(now_), use(now_), now;
    applied = cancel ? Applied::Cancelled : Applied::Inserted;
  } else if (!supersedes(doc.document_date, doc.purpose, stored)) {
    return Applied::IgnoredOlder;
  } else if (cancel) {
    s_ << "UPDATE invoices SET purpose = ?, status = 'cancelled', document_date = ?, source = ?,"
          " versions = versions + 1, updated_at = ? WHERE partner_id = ? AND invoice_number = ?",
        use(purpose), use(date), use(src), use(now_), use(p), use(number), now;
    return Applied::Cancelled;
  } else {
    s_ << "UPDATE invoices SET credit_note = ?, purpose = ?, status = 'active', document_date = ?,"
          " order_number = ?, currency = ?, total_minor = ?, tax_minor = ?, line_total_minor = ?,"
          " source = ?, versions = versions + 1, updated_at = ? WHERE partner_id = ? AND invoice_number = ?",
        use(credit), use(purpose), use(date), use(order), use(currency), use(total), use(tax),
        use(line_total), use(src), use(now_), use(p), use(number), now;
    s_ << "DELETE FROM invoice_lines WHERE partner_id = ? AND invoice_number = ?", use(p), use(number),
        now;
    applied = Applied::Replaced;
  }
  if (cancel) return applied;
  int64_t position = 0;
  for (const auto& line : doc.lines) {
    Using q(hot_.invoice_line);
    q->bind(1, p).bind(2, number).bind(3, ++position).bind(4, int64_t{line.line_number});
    q->bind(5, line.item_id).bind(6, line.item_id_type).bind(7, line.quantity).bind(8, line.unit);
    q->bind(9, line.unit_price).bind(10, line.amount_minor);
    q->run();
  }
  return applied;
}

Result<int64_t> SqliteTransaction::next_sequence(const std::string& name) {
  Using q(hot_.sequence);
  q->bind(1, name);
  q->step();
  return q->int64(0);
}

Status SqliteTransaction::enqueue(const OutboxItem& item) {
  OutboxItem i = item;
  BLOB body = to_blob(item.body);
  s_ << "INSERT INTO outbox (partner_id, kind, reference, destination, headers, body, created_at,"
        " next_attempt_at) VALUES (?,?,?,?,?,?,?,?)",
      use(i.partner_id), use(i.kind), use(i.reference), use(i.destination), use(i.headers), use(body),
      use(now_), use(now_), now;
  return Status::ok();
}

class SqliteStore : public Store {
 public:
  SqliteStore(std::unique_ptr<Session> session, StoreOptions options, int schema_version);

  Result<Claim> claim(const ClaimRequest& request, const Effect* first_pass,
                      Settlement* settled) override;
  Status settle(const MessageKey& key, int64_t token, const Effect& effect) override;
  Status release(const MessageKey& key, int64_t token) override;
  Result<std::optional<KeyRecord>> lookup(const MessageKey& key) override;
  Status log(const MessageLog& entry) override;
  Status enqueue(const OutboxItem& item) override;
  Result<std::vector<OutboxEntry>> due_outbox(int limit, int64_t lease_ms) override;
  Status outbox_sent(int64_t id) override;
  Status outbox_retry(int64_t id, int64_t next_attempt_ms, const std::string& error, bool give_up) override;
  Result<PurgeBatch> purge_keys(const PurgeRequest& request) override;
  Result<int64_t> purge_messages(int64_t cutoff_ms, int batch, bool dry_run) override;
  Result<std::vector<std::string>> partners_with_keys() override;
  Result<StatusReport> report() override;
  Result<int64_t> now_ms() override { return clock(); }

 private:
  // A key's row as read_key() found it.
  struct Row {
    std::string protocol, state, payload, raw, outcome, error;
    int64_t received = 0, lease = 0, attempts = 0, failures = 0;
    Receipt receipt;
  };

  // SQLite has no clock of its own beyond the host's: one clock for every
  // process on this machine, skewable for tests.
  Int64 clock() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
               .count() +
           options_.clock_skew_ms;
  }
  void begin() { Using(hot_->begin)->run(); }
  void commit() { Using(hot_->commit)->run(); }
  void rollback() noexcept {
    try {
      if (!sqlite3_get_autocommit(db_)) Using(hot_->rollback)->run();
    } catch (...) {
      // Nothing left to undo: SQLite already rolled back (e.g. on SQLITE_FULL).
    }
  }
  bool read_key(const MessageKey& key, Row* row);
  // Stores an effect's settlement on a key we hold with `token`; false when fenced.
  bool write_settlement(const MessageKey& key, int64_t token, const Settlement& s);

  std::unique_ptr<Session> session_;
  StoreOptions options_;
  int schema_version_;
  sqlite3* db_;
  std::unique_ptr<Hot> hot_;
};

SqliteStore::SqliteStore(std::unique_ptr<Session> session, StoreOptions options, int schema_version)
    : session_(std::move(session)),
      options_(std::move(options)),
      schema_version_(schema_version),
      db_(Poco::Data::SQLite::Utility::dbHandle(*session_)),
      hot_(std::make_unique<Hot>(db_)) {
  sqlite3_busy_handler(db_, busy_wait, &options_.busy_timeout_ms);
}

bool SqliteStore::read_key(const MessageKey& key, Row* row) {
  Using q(hot_->select_key);
  q->bind(1, key.partner_id).bind(2, key.message_id);
  if (!q->step()) return false;
  row->protocol = q->text(0);
  row->state = q->text(1);
  row->received = q->int64(2);
  row->lease = q->int64(3);
  row->attempts = q->int64(4);
  row->failures = q->int64(5);
  row->payload = q->text(6);
  row->raw = q->text(7);
  row->outcome = q->text(8);
  row->error = q->text(9);
  row->receipt = {static_cast<int>(q->int64(10)), q->text(11), q->blob(12)};
  return true;
}

bool SqliteStore::write_settlement(const MessageKey& key, int64_t token, const Settlement& s) {
  Using q(hot_->settle);
  q->bind(1, state_name(s.state)).bind(2, s.receipt.status).bind(3, s.receipt.headers);
  q->bind_blob(4, s.receipt.body).bind(5, s.outcome).bind(6, s.error).bind(7, clock());
  q->bind(8, s.state == KeyState::Failed ? 1 : 0).bind(9, key.partner_id).bind(10, key.message_id);
  q->bind(11, token);
  return q->run() == 1;
}

Result<Claim> SqliteStore::claim(const ClaimRequest& req, const Effect* first_pass, Settlement* settled) {
  try {
    Claim c;
    Row row;
    // Retransmissions of settled keys are the common case: answer them from a
    // plain read, without taking the write lock.
    if (read_key(req.key, &row) && row.state != "processing" && row.payload == req.payload_sha256 &&
        (row.state == "completed" || row.failures >= req.max_failures)) {
      c.kind = row.state == "completed" ? Claim::Kind::Completed : Claim::Kind::Poison;
      c.receipt = row.receipt;
      return c;
    }

    begin();
    const Int64 now_ms = clock();
    {
      Using insert(hot_->insert_key);
      insert->bind(1, req.key.partner_id).bind(2, req.key.message_id).bind(3, req.key.protocol());
      insert->bind(4, now_ms).bind(5, now_ms + req.lease_ms).bind(6, req.payload_sha256);
      insert->bind(7, req.raw_sha256);
      if (insert->run() == 1) {
        c.kind = Claim::Kind::Claimed;
        c.token = 1;
      }
    }
    if (c.kind == Claim::Kind::Claimed && c.token == 1) {
      if (first_pass != nullptr) {
        // New key: its handling commits with the insert, or nothing does.
        SqliteTransaction tx(*session_, *hot_, now_ms);
        Result<Settlement> r = (*first_pass)(tx);
        if (!r.is_ok()) {
          rollback();
          return r.status();
        }
        write_settlement(req.key, 1, r.value());
        commit();
        if (settled != nullptr) *settled = r.value();
        c.kind = Claim::Kind::Settled;
        return c;
      }
      commit();
      return c;
    }
    if (!read_key(req.key, &row)) {
      rollback();
      return Status::transient("key " + req.key.message_id + " vanished during claim (purged?)");
    }
    if (row.payload != req.payload_sha256) {
      rollback();
      c.kind = Claim::Kind::Conflict;
      c.stored_payload_sha256 = row.payload;
      return c;
    }
    if (row.state == "completed" || (row.state == "failed" && row.failures >= req.max_failures)) {
      rollback();
      c.kind = row.state == "completed" ? Claim::Kind::Completed : Claim::Kind::Poison;
      c.receipt = row.receipt;
      return c;
    }
    if (row.state == "processing" && row.lease > now_ms) {
      rollback();
      c.kind = Claim::Kind::InFlight;
      c.lease_until_ms = row.lease;
      return c;
    }
    // An expired lease (a crashed worker) or a failed key: take it over with a
    // new fencing token.
    Using takeover(hot_->takeover);
    takeover->bind(1, now_ms + req.lease_ms).bind(2, now_ms).bind(3, req.raw_sha256);
    takeover->bind(4, req.key.partner_id).bind(5, req.key.message_id).bind(6, row.state);
    takeover->bind(7, row.attempts);
    if (takeover->run() != 1) {
      rollback();
      return Status::transient("key " + req.key.message_id + " changed during claim");
    }
    commit();
    c.kind = Claim::Kind::Claimed;
    c.token = row.attempts + 1;
    c.takeover = true;
    return c;
  } catch (const Poco::Exception& e) {
    rollback();
    return from_exception(e, "claim " + req.key.message_id);
  } catch (const std::exception& e) {  // from a first-pass effect
    rollback();
    return Status::transient("claim " + req.key.message_id + ": " + e.what());
  }
}

Status SqliteStore::settle(const MessageKey& key, int64_t token, const Effect& effect) {
  try {
    begin();
    Row row;
    if (!read_key(key, &row) || row.state != "processing" || row.attempts != token) {
      rollback();
      return Status::fenced("key " + key.message_id + " is no longer ours (token " +
                            std::to_string(token) + ", now " + row.state + " with token " +
                            std::to_string(row.attempts) + ")");
    }
    SqliteTransaction tx(*session_, *hot_, clock());
    Result<Settlement> settled = effect(tx);
    if (!settled.is_ok()) {
      rollback();
      return settled.status();
    }
    if (!write_settlement(key, token, settled.value())) {
      rollback();
      return Status::fenced("key " + key.message_id + " was taken over during settle");
    }
    commit();
    return Status::ok();
  } catch (const Poco::Exception& e) {
    rollback();
    return from_exception(e, "settle " + key.message_id);
  } catch (const std::exception& e) {  // from the effect
    rollback();
    return Status::transient("settle " + key.message_id + ": " + e.what());
  }
}

Status SqliteStore::release(const MessageKey& key, int64_t token) {
  try {
    // The lease ends now: the partner's retry takes the key over at once.
    Using q(hot_->release);
    q->bind(1, clock()).bind(2, key.partner_id).bind(3, key.message_id).bind(4, token);
    q->run();
    return Status::ok();
  } catch (const Poco::Exception& e) {
    return from_exception(e, "release " + key.message_id);
  }
}

Result<std::optional<KeyRecord>> SqliteStore::lookup(const MessageKey& key) {
  try {
    Row row;
    if (!read_key(key, &row)) return std::optional<KeyRecord>();
    KeyRecord r;
    r.key = key;
    r.protocol = row.protocol;
    r.state = state_from(row.state);
    r.received_at_ms = row.received;
    r.lease_until_ms = row.lease;
    r.attempts = row.attempts;
    r.failures = row.failures;
    r.payload_sha256 = row.payload;
    r.raw_sha256 = row.raw;
    r.outcome = row.outcome;
    r.error = row.error;
    r.receipt = row.receipt;
    return std::optional<KeyRecord>(std::move(r));
  } catch (const Poco::Exception& e) {
    return from_exception(e, "lookup " + key.message_id);
  }
}

Status SqliteStore::log(const MessageLog& m) {
  try {
    return write_log(*hot_, clock(), m);
  } catch (const Poco::Exception& e) {
    return from_exception(e, "log message");
  }
}

Status SqliteStore::enqueue(const OutboxItem& item) {
  try {
    begin();
    SqliteTransaction tx(*session_, *hot_, clock());
    Status s = tx.enqueue(item);
    commit();
    return s;
  } catch (const Poco::Exception& e) {
    rollback();
    return from_exception(e, "enqueue");
  }
}

Result<std::vector<OutboxEntry>> SqliteStore::due_outbox(int limit, int64_t lease_ms) {
  try {
    std::vector<OutboxEntry> out;
    begin();
    Int64 now_ms = clock(), lease_until = now_ms + lease_ms, n = limit;
    Int64 id = 0, attempts = 0;
    std::string partner, kind, reference, destination, headers;
    BLOB body;
    Statement q(*session_);
    q << "SELECT id, partner_id, kind, COALESCE(reference, ''), destination, COALESCE(headers, ''), body, attempts"
         " FROM outbox WHERE state = 'pending' AND next_attempt_at <= ?"
         " AND (destination LIKE 'http://%' OR destination LIKE 'https://%') ORDER BY next_attempt_at LIMIT ?",
        into(id), into(partner), into(kind), into(reference), into(destination), into(headers), into(body),
        into(attempts), use(now_ms), use(n), range(0, 1);
    while (!q.done()) {
      if (q.execute() == 0) break;
      OutboxEntry e;
      e.id = id;
      e.attempts = attempts;
      e.item = {partner, kind, reference, destination, headers,
                body.size() ? std::string(reinterpret_cast<const char*>(body.rawContent()), body.size()) : ""};
      out.push_back(std::move(e));
    }
    for (const auto& e : out) {
      Int64 eid = e.id;
      *session_ << "UPDATE outbox SET next_attempt_at = ? WHERE id = ?", use(lease_until), use(eid), now;
    }
    commit();
    return out;
  } catch (const Poco::Exception& e) {
    rollback();
    return from_exception(e, "outbox");
  }
}

Status SqliteStore::outbox_sent(int64_t id) {
  try {
    Int64 i = id;
    *session_ << "UPDATE outbox SET state = 'sent', attempts = attempts + 1, last_error = NULL WHERE id = ?", use(i), now;
    return Status::ok();
  } catch (const Poco::Exception& e) {
    return from_exception(e, "outbox sent");
  }
}

Status SqliteStore::outbox_retry(int64_t id, int64_t next_attempt_ms, const std::string& error, bool give_up) {
  try {
    Int64 i = id, next = next_attempt_ms;
    std::string state = give_up ? "failed" : "pending", err = error;
    *session_ << "UPDATE outbox SET state = ?, attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ?",
        use(state), use(next), use(err), use(i), now;
    return Status::ok();
  } catch (const Poco::Exception& e) {
    return from_exception(e, "outbox retry");
  }
}

Result<PurgeBatch> SqliteStore::purge_keys(const PurgeRequest& req) {
  try {
    PurgeBatch b;
    Int64 cutoff = req.cutoff_ms, now_ms = clock(), batch = req.batch;
    std::string partner = req.partner_id.value_or("");
    const std::string which =
        " FROM idempotency_keys WHERE received_at < ? AND (? = '' OR partner_id = ?)";
    const std::string not_live = " AND (state <> 'processing' OR lease_until <= ?)";
    if (req.dry_run) {
      Int64 count = 0, live = 0;
      *session_ << "SELECT count(*)" + which + not_live, into(count), use(cutoff), use(partner),
          use(partner), use(now_ms), now;
      *session_ << "SELECT count(*)" + which + " AND state = 'processing' AND lease_until > ?",
          into(live), use(cutoff), use(partner), use(partner), use(now_ms), now;
      b.deleted = count;
      b.kept_live = live;
      return b;
    }
    begin();
    Statement del(*session_);
    del << "DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid" + which + not_live +
               " LIMIT ?)",
        use(cutoff), use(partner), use(partner), use(now_ms), use(batch);
    b.deleted = static_cast<int64_t>(del.execute());
    commit();
    if (b.deleted < batch) {  // the last batch: say what stayed behind
      Int64 live = 0;
      *session_ << "SELECT count(*)" + which + " AND state = 'processing' AND lease_until > ?",
          into(live), use(cutoff), use(partner), use(partner), use(now_ms), now;
      b.kept_live = live;
    }
    return b;
  } catch (const Poco::Exception& e) {
    rollback();
    return from_exception(e, "purge keys");
  }
}

Result<int64_t> SqliteStore::purge_messages(int64_t cutoff_ms, int batch, bool dry_run) {
  try {
    Int64 cutoff = cutoff_ms, n = batch;
    if (dry_run) {
      Int64 count = 0;
      *session_ << "SELECT count(*) FROM messages WHERE received_at < ?", into(count), use(cutoff), now;
      return static_cast<int64_t>(count);
    }
    begin();
    Statement del(*session_);
    del << "DELETE FROM messages WHERE id IN (SELECT id FROM messages WHERE received_at < ? LIMIT ?)",
        use(cutoff), use(n);
    int64_t deleted = static_cast<int64_t>(del.execute());
    commit();
    return deleted;
  } catch (const Poco::Exception& e) {
    rollback();
    return from_exception(e, "purge messages");
  }
}

Result<std::vector<std::string>> SqliteStore::partners_with_keys() {
  try {
    std::vector<std::string> partners;
    *session_ << "SELECT DISTINCT partner_id FROM idempotency_keys ORDER BY partner_id", into(partners),
        now;
    return partners;
  } catch (const Poco::Exception& e) {
    return from_exception(e, "list partners");
  }
}

Result<StatusReport> SqliteStore::report() {
  try {
    StatusReport r;
    r.schema_version = schema_version_;
    {
      std::string partner, protocol, state;
      Int64 count = 0;
      Statement q(*session_);
      q << "SELECT partner_id, protocol, state, count(*) FROM idempotency_keys"
           " GROUP BY partner_id, protocol, state ORDER BY 1, 2, 3",
          into(partner), into(protocol), into(state), into(count), range(0, 1);
      while (!q.done()) {
        if (q.execute() == 0) break;
        r.keys.push_back({partner, protocol, state, count});
      }
    }
    Int64 oldest = 0, newest = 0;
    *session_ << "SELECT COALESCE(MIN(received_at), 0), COALESCE(MAX(received_at), 0) FROM idempotency_keys",
        into(oldest), into(newest), now;
    r.oldest_received_ms = oldest;
    r.newest_received_ms = newest;
    {
      std::string outcome;
      Int64 count = 0, since = clock() - 24 * 3600 * 1000LL;
      Statement q(*session_);
      q << "SELECT outcome, count(*) FROM messages WHERE received_at >= ? GROUP BY outcome",
          into(outcome), into(count), use(since), range(0, 1);
      while (!q.done()) {
        if (q.execute() == 0) break;
        r.outcomes_24h[outcome] = count;
      }
    }
    for (const char* table : {"shipment_notices", "shipment_notice_lines", "invoices", "invoice_lines",
                              "messages", "outbox"}) {
      Int64 count = 0;
      *session_ << std::string("SELECT count(*) FROM ") + table, into(count), now;
      r.business_rows[table] = count;
    }
    Int64 pages = 0, page_size = 0;
    *session_ << "PRAGMA page_count", into(pages), now;
    *session_ << "PRAGMA page_size", into(page_size), now;
    r.store_bytes = pages * page_size;
    return r;
  } catch (const Poco::Exception& e) {
    return from_exception(e, "status report");
  }
}

}  // namespace

std::string_view state_name(KeyState s) {
  switch (s) {
    case KeyState::Processing: return "processing";
    case KeyState::Completed: return "completed";
    case KeyState::Failed: return "failed";
  }
  return "processing";
}

std::string_view applied_name(Applied a) {
  switch (a) {
    case Applied::Inserted: return "inserted";
    case Applied::Replaced: return "replaced";
    case Applied::Cancelled: return "cancelled";
    case Applied::IgnoredOlder: return "ignored-older";
  }
  return "inserted";
}

Result<std::unique_ptr<Store>> open_sqlite_store(const std::string& path, const StoreOptions& options) {
  static std::once_flag registered;
  std::call_once(registered, [] { Poco::Data::SQLite::Connector::registerConnector(); });
  if (options.synchronous != "full" && options.synchronous != "normal" && options.synchronous != "off")
    return Status::invalid("synchronous must be full, normal or off, not '" + options.synchronous + "'");
  try {
    if (path != ":memory:") {
      Poco::Path parent = Poco::Path(path).parent();
      if (!parent.toString().empty()) Poco::File(parent).createDirectories();
    }
    auto session = std::make_unique<Session>("SQLite", path);
    // Migrations may wait for another process too; the store installs its own
    // finer-grained busy handler afterwards.
    *session << "PRAGMA busy_timeout = " + std::to_string(options.busy_timeout_ms), now;
    std::string mode;
    *session << "PRAGMA journal_mode = WAL", into(mode), now;
    *session << "PRAGMA synchronous = " + options.synchronous, now;
    *session << "PRAGMA foreign_keys = ON", now;
    int version = 0;
    migrate(*session, &version);
    return std::unique_ptr<Store>(new SqliteStore(std::move(session), options, version));
  } catch (const Poco::Exception& e) {
    Status s = from_exception(e, "open " + path);
    return Status::unavailable(s.message());
  } catch (const std::exception& e) {
    return Status::unavailable("open " + path + ": " + e.what());
  }
}

Result<std::unique_ptr<Store>> open_store(const std::string& uri, StoreOptions options) {
  const std::string scheme = "sqlite:";
  if (uri.rfind(scheme, 0) != 0)
    return Status::invalid("unsupported store URI '" + uri + "': expected sqlite:PATH[?synchronous=full|normal]");
  std::string path = uri.substr(scheme.size());
  if (auto q = path.find('?'); q != std::string::npos) {
    std::istringstream params(path.substr(q + 1));
    path = path.substr(0, q);
    std::string kv;
    while (std::getline(params, kv, '&')) {
      auto eq = kv.find('=');
      std::string k = kv.substr(0, eq), v = eq == std::string::npos ? "" : kv.substr(eq + 1);
      if (k == "synchronous") {
        for (auto& ch : v) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        options.synchronous = v;
      } else if (k == "busy_timeout_ms") {
        options.busy_timeout_ms = std::atoi(v.c_str());
      } else {
        return Status::invalid("unknown store option '" + k + "' in '" + uri + "'");
      }
    }
  }
  if (path.empty()) return Status::invalid("store URI '" + uri + "' has no path");
  return open_sqlite_store(path, options);
}

}  // namespace edihub::store
