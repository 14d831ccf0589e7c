#include "src/store/sqlite_store.h"

#include <Poco/Data/LOB.h>
#include <Poco/Data/SQLite/Connector.h>
#include <Poco/Data/SQLite/SQLiteException.h>
#include <Poco/Data/Session.h>
#include <Poco/Data/Statement.h>
#include <Poco/File.h>
#include <Poco/Path.h>

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

std::string from_blob(const BLOB& b) {
  return b.size() == 0 ? std::string() : std::string(reinterpret_cast<const char*>(b.rawContent()), b.size());
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
  SqliteTransaction(Session& session, Int64 now_ms) : s_(session), now_(now_ms) {}

  Result<Applied> put_shipment_notice(const std::string& partner, const business::ShipmentNotice& doc,
                                      const std::string& source) override;
  Result<Applied> put_invoice(const std::string& partner, const business::Invoice& doc,
                              const std::string& source) override;
  Result<int64_t> next_sequence(const std::string& name) override;
  Status enqueue(const OutboxItem& item) override;

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
  Statement insert(s_);
  int position = 0, line_number = 0;
  std::string item, item_type, supplier, quantity, unit, line_order;
  insert << "INSERT INTO shipment_notice_lines (partner_id, document_number, position, line_number,"
            " item_id, item_id_type, supplier_item, quantity, unit, order_number)"
            " VALUES (?,?,?,?,?,?,?,?,?,?)",
      use(p), use(number), use(position), use(line_number), use(item), use(item_type), use(supplier),
      use(quantity), use(unit), use(line_order);
  for (const auto& line : doc.lines) {
    ++position;
    line_number = line.line_number;
    item = line.item_id;
    item_type = line.item_id_type;
    supplier = line.supplier_item;
    quantity = line.quantity;
    unit = line.unit;
    line_order = line.order_number;
    insert.execute();
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
  Statement insert(s_);
  int position = 0, line_number = 0;
  std::string item, item_type, quantity, unit, price;
  Int64 amount = 0;
  insert << "INSERT INTO invoice_lines (partner_id, invoice_number, position, line_number, item_id,"
            " item_id_type, quantity, unit, unit_price, amount_minor) VALUES (?,?,?,?,?,?,?,?,?,?)",
      use(p), use(number), use(position), use(line_number), use(item), use(item_type), use(quantity),
      use(unit), use(price), use(amount);
  for (const auto& line : doc.lines) {
    ++position;
    line_number = line.line_number;
    item = line.item_id;
    item_type = line.item_id_type;
    quantity = line.quantity;
    unit = line.unit;
    price = line.unit_price;
    amount = line.amount_minor;
    insert.execute();
  }
  return applied;
}

Result<int64_t> SqliteTransaction::next_sequence(const std::string& name) {
  std::string n = name;
  Int64 value = 0;
  s_ << "INSERT INTO sequences (name, value) VALUES (?, 1)"
        " ON CONFLICT (name) DO UPDATE SET value = value + 1",
      use(n), now;
  s_ << "SELECT value FROM sequences WHERE name = ?", into(value), use(n), now;
  return static_cast<int64_t>(value);
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

  Result<Claim> claim(const ClaimRequest& request) override;
  Status settle(const MessageKey& key, int64_t token, const Effect& effect) override;
  Status release(const MessageKey& key, int64_t token) override;
  Result<std::optional<KeyRecord>> lookup(const MessageKey& key) override;
  Status log(const MessageLog& entry) override;
  Result<PurgeBatch> purge_keys(const PurgeRequest& request) override;
  Result<int64_t> purge_messages(int64_t cutoff_ms, int batch, bool dry_run) override;
  Result<std::vector<std::string>> partners_with_keys() override;
  Result<StatusReport> report() override;
  Result<int64_t> now_ms() override { return clock(); }

 private:
  // SQLite has no clock of its own beyond the host's: one clock for every
  // process on this machine, skewable for tests.
  Int64 clock() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
               .count() +
           options_.clock_skew_ms;
  }
  void begin() { begin_.execute(); }
  void commit() { commit_.execute(); }
  void rollback() noexcept {
    try {
      rollback_.execute();
    } catch (...) {
      // Nothing left to undo: SQLite already rolled back (e.g. on SQLITE_FULL).
    }
  }
  // Reads a key inside or outside a transaction into the bound row fields.
  bool read_key(const MessageKey& key);

  std::unique_ptr<Session> session_;
  StoreOptions options_;
  int schema_version_;
  Statement begin_, commit_, rollback_;

  // The row read_key() fills, and the statements bound to these fields.
  std::string k_partner_, k_message_;
  std::string r_protocol_, r_state_, r_payload_, r_raw_, r_outcome_, r_error_, r_headers_;
  Int64 r_received_ = 0, r_lease_ = 0, r_attempts_ = 0, r_failures_ = 0;
  int r_status_ = 0;
  BLOB r_body_;
  Statement select_key_;

  std::string i_protocol_, i_payload_, i_raw_;
  Int64 i_now_ = 0, i_lease_ = 0;
  Statement insert_key_;
};

SqliteStore::SqliteStore(std::unique_ptr<Session> session, StoreOptions options, int schema_version)
    : session_(std::move(session)),
      options_(std::move(options)),
      schema_version_(schema_version),
      begin_(*session_),
      commit_(*session_),
      rollback_(*session_),
      select_key_(*session_),
      insert_key_(*session_) {
  begin_ << "BEGIN IMMEDIATE";
  commit_ << "COMMIT";
  rollback_ << "ROLLBACK";
  select_key_ << "SELECT protocol, state, received_at, COALESCE(lease_until, 0), attempts, failures,"
                 " payload_sha256, raw_sha256, COALESCE(outcome, ''), COALESCE(error, ''),"
                 " COALESCE(receipt_status, 0), COALESCE(receipt_headers, ''), COALESCE(receipt_body, x'')"
                 " FROM idempotency_keys WHERE partner_id = ? AND message_id = ?",
      into(r_protocol_), into(r_state_), into(r_received_), into(r_lease_), into(r_attempts_),
      into(r_failures_), into(r_payload_), into(r_raw_), into(r_outcome_), into(r_error_),
      into(r_status_), into(r_headers_), into(r_body_), use(k_partner_), use(k_message_), limit(1);
  insert_key_ << "INSERT INTO idempotency_keys (partner_id, message_id, protocol, state, received_at,"
                 " updated_at, lease_until, attempts, failures, payload_sha256, raw_sha256)"
                 " VALUES (?, ?, ?, 'processing', ?, ?, ?, 1, 0, ?, ?) ON CONFLICT DO NOTHING",
      use(k_partner_), use(k_message_), use(i_protocol_), use(i_now_), use(i_now_), use(i_lease_),
      use(i_payload_), use(i_raw_);
}

bool SqliteStore::read_key(const MessageKey& key) {
  k_partner_ = key.partner_id;
  k_message_ = key.message_id;
  return select_key_.execute() > 0;
}

Result<Claim> SqliteStore::claim(const ClaimRequest& req) {
  try {
    Claim c;
    // Retransmissions of settled keys are the common case: answer them from a
    // plain read, without taking the write lock.
    if (read_key(req.key) && r_state_ != "processing" && r_payload_ == req.payload_sha256) {
      if (r_state_ == "completed" || r_failures_ >= req.max_failures) {
        c.kind = r_state_ == "completed" ? Claim::Kind::Completed : Claim::Kind::Poison;
        c.receipt = {r_status_, r_headers_, from_blob(r_body_)};
        return c;
      }
    }

    begin();
    const Int64 now_ms = clock();
    i_protocol_ = std::string(req.key.protocol());
    i_now_ = now_ms;
    i_lease_ = now_ms + req.lease_ms;
    i_payload_ = req.payload_sha256;
    i_raw_ = req.raw_sha256;
    k_partner_ = req.key.partner_id;
    k_message_ = req.key.message_id;
    if (insert_key_.execute() == 1) {
      commit();
      c.kind = Claim::Kind::Claimed;
      c.token = 1;
      return c;
    }
    if (!read_key(req.key)) {
      rollback();
      return Status::transient("key " + req.key.message_id + " vanished during claim (purged?)");
    }
    if (r_payload_ != req.payload_sha256) {
      rollback();
      c.kind = Claim::Kind::Conflict;
      c.stored_payload_sha256 = r_payload_;
      return c;
    }
    if (r_state_ == "completed" || (r_state_ == "failed" && r_failures_ >= req.max_failures)) {
      rollback();
      c.kind = r_state_ == "completed" ? Claim::Kind::Completed : Claim::Kind::Poison;
      c.receipt = {r_status_, r_headers_, from_blob(r_body_)};
      return c;
    }
    if (r_state_ == "processing" && r_lease_ > now_ms) {
      rollback();
      c.kind = Claim::Kind::InFlight;
      c.lease_until_ms = r_lease_;
      return c;
    }
    // An expired lease (a crashed worker) or a failed key: take it over with a
    // new fencing token.
    Int64 old_attempts = r_attempts_, lease = now_ms + req.lease_ms;
    std::string old_state = r_state_;
    std::string partner = req.key.partner_id, message = req.key.message_id;
    Statement takeover(*session_);
    takeover << "UPDATE idempotency_keys SET state = 'processing', attempts = attempts + 1,"
                " lease_until = ?, updated_at = ?, raw_sha256 = ?"
                " WHERE partner_id = ? AND message_id = ? AND state = ? AND attempts = ?",
        use(lease), use(i_now_), use(i_raw_), use(partner), use(message), use(old_state),
        use(old_attempts);
    if (takeover.execute() != 1) {
      rollback();
      return Status::transient("key " + req.key.message_id + " changed during claim");
    }
    commit();
    c.kind = Claim::Kind::Claimed;
    c.token = old_attempts + 1;
    c.takeover = true;
    return c;
  } catch (const Poco::Exception& e) {
    rollback();
    return from_exception(e, "claim " + req.key.message_id);
  }
}

Status SqliteStore::settle(const MessageKey& key, int64_t token, const Effect& effect) {
  try {
    begin();
    if (!read_key(key) || r_state_ != "processing" || r_attempts_ != token) {
      std::string now_state = r_state_;
      Int64 now_token = r_attempts_;
      rollback();
      return Status::fenced("key " + key.message_id + " is no longer ours (token " +
                            std::to_string(token) + ", now " + now_state + " with token " +
                            std::to_string(now_token) + ")");
    }
    SqliteTransaction tx(*session_, clock());
    Result<Settlement> settled = effect(tx);
    if (!settled.is_ok()) {
      rollback();
      return settled.status();
    }
    const Settlement& s = settled.value();
    std::string state(state_name(s.state)), headers = s.receipt.headers, outcome = s.outcome,
        error = s.error;
    std::string partner = key.partner_id, message = key.message_id;
    int status = s.receipt.status;
    BLOB body = to_blob(s.receipt.body);
    Int64 now_ms = clock(), expected = token;
    int failed = s.state == KeyState::Failed ? 1 : 0;
    Statement update(*session_);
    update << "UPDATE idempotency_keys SET state = ?, receipt_status = ?, receipt_headers = ?,"
              " receipt_body = ?, outcome = ?, error = ?, lease_until = NULL, updated_at = ?,"
              " failures = failures + ?"
              " WHERE partner_id = ? AND message_id = ? AND state = 'processing' AND attempts = ?",
        use(state), use(status), use(headers), use(body), use(outcome), use(error), use(now_ms),
        use(failed), use(partner), use(message), use(expected);
    if (update.execute() != 1) {
      rollback();
      return Status::fenced("key " + key.message_id + " was taken over during settle");
    }
    commit();
    return Status::ok();
  } catch (const Poco::Exception& e) {
    rollback();
    return from_exception(e, "settle " + key.message_id);
  }
}

Status SqliteStore::release(const MessageKey& key, int64_t token) {
  try {
    std::string partner = key.partner_id, message = key.message_id;
    Int64 now_ms = clock(), expected = token;
    // The lease ends now: the partner's retry takes the key over at once.
    *session_ << "UPDATE idempotency_keys SET lease_until = ?, updated_at = ?"
                 " WHERE partner_id = ? AND message_id = ? AND state = 'processing' AND attempts = ?",
        use(now_ms), use(now_ms), use(partner), use(message), use(expected), now;
    return Status::ok();
  } catch (const Poco::Exception& e) {
    return from_exception(e, "release " + key.message_id);
  }
}

Result<std::optional<KeyRecord>> SqliteStore::lookup(const MessageKey& key) {
  try {
    if (!read_key(key)) return std::optional<KeyRecord>();
    KeyRecord r;
    r.key = key;
    r.protocol = r_protocol_;
    r.state = state_from(r_state_);
    r.received_at_ms = r_received_;
    r.lease_until_ms = r_lease_;
    r.attempts = r_attempts_;
    r.failures = r_failures_;
    r.payload_sha256 = r_payload_;
    r.raw_sha256 = r_raw_;
    r.outcome = r_outcome_;
    r.error = r_error_;
    r.receipt = {r_status_, r_headers_, from_blob(r_body_)};
    return std::optional<KeyRecord>(std::move(r));
  } catch (const Poco::Exception& e) {
    return from_exception(e, "lookup " + key.message_id);
  }
}

Status SqliteStore::log(const MessageLog& m) {
  try {
    MessageLog e = m;
    Int64 now_ms = clock(), bytes = m.bytes, documents = m.documents, duration = m.duration_ms;
    Poco::Nullable<std::string> partner;
    if (!m.partner_id.empty()) partner = m.partner_id;
    *session_ << "INSERT INTO messages (received_at, partner_id, protocol, transport, transport_id,"
                 " message_id, outcome, bytes, documents, duration_ms, detail)"
                 " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        use(now_ms), use(partner), use(e.protocol), use(e.transport), use(e.transport_id),
        use(e.message_id), use(e.outcome), use(bytes), use(documents), use(duration), use(e.detail),
        now;
    return Status::ok();
  } catch (const Poco::Exception& e) {
    return from_exception(e, "log message");
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
