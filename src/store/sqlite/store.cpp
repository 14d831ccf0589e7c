// The SQLite Store: WAL, a bounded wait for the write lock, foreign keys;
// every write in a BEGIN IMMEDIATE transaction. The per-concern statements
// live in keys.cpp, business.cpp and records.cpp; this file composes them.
#include "src/store/sqlite/store.h"

#include <sstream>

#include "src/store/document_sql.h"
#include "src/store/sqlite/business.h"
#include "src/store/sqlite/connection.h"
#include "src/store/sqlite/console.h"
#include "src/store/sqlite/group_commit.h"
#include "src/store/sqlite/keys.h"
#include "src/store/sqlite/outbox.h"
#include "src/store/sqlite/records.h"
#include "src/store/sqlite/transaction.h"

namespace edihub::store::sqlite {

namespace {

Status done(const Result<int64_t>& r) { return r.is_ok() ? Status::ok() : r.status(); }

class SqliteStore : public Store {
 public:
  SqliteStore(std::unique_ptr<Connection> c, std::shared_ptr<GroupCommitter> committer)
      : c_(std::move(c)),
        committer_(std::move(committer)),
        keys_(*c_),
        business_(*c_),
        records_(*c_),
        outbox_(*c_),
        console_(console_store(*c_)) {}

  // KeyStore
  Result<std::optional<KeyRecord>> lookup(const MessageKey& key) override { return keys_.read(key); }
  Result<std::optional<Receipt>> conflict_receipt(const MessageKey& key, const RawDigest& raw) override {
    return keys_.conflict_receipt(key, raw);
  }
  Status transact(const TransactionWork& work, int64_t lock_wait_ms) override {
    return committer_ ? committer_->submit(work, lock_wait_ms) : transact_here(work, lock_wait_ms);
  }

  // MessageLogStore
  Status log(const std::vector<MessageLog>& rows) override {
    return transact_here(
        [&](Transaction& tx) -> Status {
          for (const auto& r : rows) {
            RETURN_IF_ERROR(tx.log(r));
          }
          return Status::ok();
        },
        c_->options().busy_timeout_ms);
  }

  // OutboxStore
  Status enqueue(const OutboxItem& item) override {
    return transact_here([&](Transaction& tx) { return tx.enqueue(item); }, c_->options().busy_timeout_ms);
  }
  Result<std::vector<OutboxEntry>> due_outbox(int limit, int64_t lease_ms) override;
  Status outbox_prepared(int64_t id, const std::string& headers, const std::string& bytes) override {
    return outbox_.prepared(id, headers, bytes);
  }
  Status outbox_delivered(int64_t id, const std::string& receipt) override {
    return outbox_.delivered(id, receipt, c_->clock_ms());
  }
  Status outbox_sent(int64_t id) override { return outbox_.sent(id); }
  Status outbox_retry(int64_t id, int64_t next_attempt_ms, const std::string& error, bool give_up) override {
    return outbox_.retry(id, next_attempt_ms, error, give_up);
  }
  Result<std::optional<OutboxEntry>> outbox_awaiting(const std::string& partner_id,
                                                     const std::string& message_id) override {
    return outbox_.awaiting(partner_id, message_id);
  }
  Status outbox_answered(int64_t id, bool delivered, const std::string& receipt, const std::string& error) override {
    return outbox_.answered(id, delivered, receipt, error, c_->clock_ms());
  }
  Result<std::vector<OutboxEntry>> list_outbox(const OutboxFilter& filter) override { return outbox_.list(filter); }
  Result<std::optional<OutboxEntry>> outbox_entry(int64_t id) override { return outbox_.entry(id); }
  Result<bool> outbox_retry_now(int64_t id) override { return outbox_.retry_now(id, c_->clock_ms()); }
  Result<bool> outbox_cancel(int64_t id) override { return outbox_.cancel(id); }

  // CaptureStore
  Result<std::vector<CaptureInfo>> list_captures(const CaptureFilter& filter) override;
  Result<std::optional<Capture>> read_capture(int64_t id) override;

  // Retention
  Result<PurgeBatch> purge_keys(const PurgeRequest& request) override;
  Result<int64_t> purge_messages(int64_t cutoff_ms, int batch, bool dry_run) override;
  Result<int64_t> purge_captures(int64_t cutoff_ms, int batch, bool dry_run) override;
  Result<int64_t> purge_outbox(int64_t cutoff_ms, int batch, bool dry_run) override;
  Result<int64_t> purge_lease_owners(int64_t cutoff_ms, bool dry_run) override;
  Result<int64_t> purge_receipts(const PurgeRequest& request) override;
  Result<std::vector<std::string>> partners_with_keys() override;

  // Reports
  Result<StatusReport> report() override;
  Result<Gauges> gauges(int max_failures) override;
  Result<int64_t> now_ms() override { return c_->clock_ms(); }
  Result<std::vector<PeppolExchange>> peppol_exchanges(int64_t from_ms, int64_t to_ms) override;

  ConsoleStore& console() override { return *console_; }

 private:
  // A transaction on this connection (what uses its own statements).
  Status transact_here(const TransactionWork& work, int64_t lock_wait_ms);
  // A count(*)-style query with bound values: its first column.
  template <typename... Binds>
  Result<int64_t> scalar(const char* sql, Binds... binds);
  // One write statement (a DELETE or UPDATE of a batch) with bound values, in
  // its own short transaction: the rows it changed.
  template <typename... Binds>
  Result<int64_t> write_batch(const char* sql, Binds... binds);

  std::unique_ptr<Connection> c_;
  std::shared_ptr<GroupCommitter> committer_;  // null: commits on c_
  Keys keys_;
  Business business_;
  Records records_;
  Outbox outbox_;
  std::unique_ptr<ConsoleStore> console_;
};

template <typename... Binds>
Result<int64_t> SqliteStore::scalar(const char* sql, Binds... binds) {
  Stmt q(*c_, sql);
  int i = 0;
  (q.bind(++i, binds), ...);
  ASSIGN_OR_RETURN(bool row, q.step());
  return row ? q.int64(0) : 0;
}

Status SqliteStore::transact_here(const TransactionWork& work, int64_t lock_wait_ms) {
  RETURN_IF_ERROR(c_->begin(lock_wait_ms));
  SqliteTransaction tx(keys_, business_, records_, c_->clock_ms());
  Status s;
  try {
    s = work(tx);
  } catch (const std::exception& e) {  // work returns values; this is the last line, not the path
    s = Status::transient(std::string("transaction failed: ") + e.what());
  }
  if (!s.is_ok()) {
    c_->rollback();
    return s;
  }
  Status committed = c_->commit();
  if (!committed.is_ok()) c_->rollback();
  return committed;
}

Result<std::vector<OutboxEntry>> SqliteStore::due_outbox(int limit, int64_t lease_ms) {
  std::vector<OutboxEntry> due;
  // Asked on every wake and poll of the outbox workers: often nothing is due.
  // A read says so without the write lock the gate's commits queue behind.
  ASSIGN_OR_RETURN(bool any, outbox_.any_due(c_->clock_ms()));
  if (!any) return due;
  RETURN_IF_ERROR(transact_here(
      [&](Transaction& tx) -> Status {
        ASSIGN_OR_RETURN(std::vector<OutboxEntry> taken, outbox_.take_due(limit, tx.now_ms(), lease_ms));
        due = std::move(taken);
        return Status::ok();
      },
      c_->options().busy_timeout_ms));
  return due;
}

Result<std::vector<CaptureInfo>> SqliteStore::list_captures(const CaptureFilter& f) {
  Stmt q(*c_,
         "SELECT id, received_at, partner_id, protocol, message_id, length(head) + length(body) FROM captures"
         " WHERE (?1 = '' OR partner_id = ?1) AND (?2 = '' OR message_id = ?2) AND received_at >= ?3"
         " ORDER BY id DESC LIMIT ?4");
  q.bind(1, f.partner_id.value_or("")).bind(2, f.message_id.value_or("")).bind(3, f.since_ms);
  q.bind(4, int64_t{f.limit});
  std::vector<CaptureInfo> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.step());
    if (!row) break;
    out.push_back({q.int64(0), q.int64(1), q.int64(5), q.text(2), q.text(3), q.text(4)});
  }
  return out;
}

Result<std::optional<Capture>> SqliteStore::read_capture(int64_t id) {
  Stmt q(*c_, "SELECT partner_id, protocol, message_id, raw_sha256, head, body FROM captures WHERE id = ?1");
  q.bind(1, id);
  ASSIGN_OR_RETURN(bool row, q.step());
  if (!row) return std::optional<Capture>();
  return std::optional<Capture>(
      Capture{q.text(0), q.text(1), q.text(2), crypto::RawDigest::from_hex(q.text(3)), q.blob(4), q.blob(5)});
}

template <typename... Binds>
Result<int64_t> SqliteStore::write_batch(const char* sql, Binds... binds) {
  Stmt q(*c_, sql);
  int i = 0;
  (q.bind(++i, binds), ...);
  return c_->write_alone(q);
}

Result<PurgeBatch> SqliteStore::purge_keys(const PurgeRequest& req) {
  PurgeBatch b;
  const int64_t now = c_->clock_ms();
  const std::string partner = req.partner_id.value_or("");
  const char* live_sql =
      "SELECT count(*) FROM idempotency_keys WHERE received_at < ?1 AND (?2 = '' OR partner_id = ?2)"
      " AND state = 'processing' AND lease_until > ?3";
  if (req.dry_run) {
    Result<int64_t> count = scalar(
        "SELECT count(*) FROM idempotency_keys WHERE received_at < ?1 AND (?2 = '' OR partner_id = ?2)"
        " AND (state <> 'processing' OR lease_until <= ?3)",
        req.cutoff_ms, std::string_view(partner), now);
    Result<int64_t> live = scalar(live_sql, req.cutoff_ms, std::string_view(partner), now);
    if (!count.is_ok()) return count.status();
    if (!live.is_ok()) return live.status();
    b.deleted = count.value();
    b.kept_live = live.value();
    return b;
  }
  RETURN_IF_ERROR(transact_here(
      [&](Transaction&) -> Status {
        // The keys of one batch, and the conflict answers stored for them.
        Stmt conflicts(*c_,
                       "DELETE FROM conflict_receipts WHERE (partner_id, message_id) IN (SELECT partner_id, message_id"
                       " FROM idempotency_keys WHERE received_at < ?1 AND (?2 = '' OR partner_id = ?2)"
                       " AND (state <> 'processing' OR lease_until <= ?3) LIMIT ?4)");
        conflicts.bind(1, req.cutoff_ms).bind(2, partner).bind(3, now).bind(4, int64_t{req.batch});
        RETURN_IF_ERROR(done(conflicts.run()));
        Stmt del(*c_,
                 "DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM idempotency_keys"
                 " WHERE received_at < ?1 AND (?2 = '' OR partner_id = ?2)"
                 " AND (state <> 'processing' OR lease_until <= ?3) LIMIT ?4)");
        del.bind(1, req.cutoff_ms).bind(2, partner).bind(3, now).bind(4, int64_t{req.batch});
        ASSIGN_OR_RETURN(int64_t n, del.run());
        b.deleted = n;
        return Status::ok();
      },
      c_->options().busy_timeout_ms));
  if (b.deleted < req.batch) {  // the last batch: say what stayed behind
    ASSIGN_OR_RETURN(int64_t live, scalar(live_sql, req.cutoff_ms, std::string_view(partner), now));
    b.kept_live = live;
  }
  return b;
}

Result<int64_t> SqliteStore::purge_messages(int64_t cutoff_ms, int batch, bool dry_run) {
  if (dry_run) return scalar("SELECT count(*) FROM messages WHERE received_at < ?1", cutoff_ms);
  return write_batch("DELETE FROM messages WHERE id IN (SELECT id FROM messages WHERE received_at < ?1 LIMIT ?2)",
                     cutoff_ms, batch);
}

Result<int64_t> SqliteStore::purge_captures(int64_t cutoff_ms, int batch, bool dry_run) {
  if (dry_run) return scalar("SELECT count(*) FROM captures WHERE received_at < ?1", cutoff_ms);
  return write_batch("DELETE FROM captures WHERE id IN (SELECT id FROM captures WHERE received_at < ?1 LIMIT ?2)",
                     cutoff_ms, batch);
}

Result<int64_t> SqliteStore::purge_outbox(int64_t cutoff_ms, int batch, bool dry_run) {
  if (dry_run)
    return scalar("SELECT count(*) FROM outbox WHERE state IN ('delivered', 'cancelled') AND created_at < ?1",
                  cutoff_ms);
  return write_batch(
      "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE state IN ('delivered', 'cancelled')"
      " AND created_at < ?1 LIMIT ?2)",
      cutoff_ms, batch);
}

Result<int64_t> SqliteStore::purge_receipts(const PurgeRequest& req) {
  const std::string partner = req.partner_id.value_or("");
  if (req.dry_run)
    return scalar(
        "SELECT count(*) FROM idempotency_keys WHERE received_at < ?1 AND (?2 = '' OR partner_id = ?2)"
        " AND state = 'completed' AND receipt_body IS NOT NULL",
        req.cutoff_ms, std::string_view(partner));
  return write_batch(
      "UPDATE idempotency_keys SET receipt_status = NULL, receipt_headers = NULL, receipt_body = NULL"
      " WHERE rowid IN (SELECT rowid FROM idempotency_keys WHERE received_at < ?1"
      " AND (?2 = '' OR partner_id = ?2) AND state = 'completed' AND receipt_body IS NOT NULL LIMIT ?3)",
      req.cutoff_ms, std::string_view(partner), int64_t{req.batch});
}

Result<int64_t> SqliteStore::purge_lease_owners(int64_t cutoff_ms, bool dry_run) {
  constexpr const char* kGone =
      " FROM lease_owners WHERE heartbeat_at < ?1 AND NOT EXISTS (SELECT 1 FROM idempotency_keys"
      " WHERE owner = lease_owners.id AND state = 'processing')";
  if (dry_run) return scalar((std::string("SELECT count(*)") + kGone).c_str(), cutoff_ms);
  return write_batch((std::string("DELETE") + kGone).c_str(), cutoff_ms);
}

Result<std::vector<std::string>> SqliteStore::partners_with_keys() {
  Stmt q(*c_, "SELECT DISTINCT partner_id FROM idempotency_keys ORDER BY partner_id");
  std::vector<std::string> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.step());
    if (!row) break;
    out.push_back(q.text(0));
  }
  return out;
}

Result<std::vector<PeppolExchange>> SqliteStore::peppol_exchanges(int64_t from_ms, int64_t to_ms) {
  const std::string sql = exchange_select_sql('?');
  Stmt q(*c_, sql.c_str());
  q.bind(1, from_ms).bind(2, to_ms);
  std::vector<PeppolExchange> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.step());
    if (!row) break;
    out.push_back(exchange_of([&](int i) { return q.text(i); }, q.int64(3)));
  }
  return out;
}

Result<StatusReport> SqliteStore::report() {
  StatusReport r;
  r.schema_version = c_->schema_version();
  {
    Stmt q(*c_,
           "SELECT partner_id, protocol, state, count(*) FROM idempotency_keys"
           " GROUP BY partner_id, protocol, state ORDER BY 1, 2, 3");
    while (true) {
      ASSIGN_OR_RETURN(bool row, q.step());
      if (!row) break;
      r.keys.push_back({q.text(0), q.text(1), q.text(2), q.int64(3)});
    }
  }
  {
    Stmt q(*c_, "SELECT COALESCE(MIN(received_at), 0), COALESCE(MAX(received_at), 0) FROM idempotency_keys");
    RETURN_IF_ERROR(q.step());
    r.oldest_received_ms = q.int64(0);
    r.newest_received_ms = q.int64(1);
  }
  {
    Stmt q(*c_, "SELECT outcome, sum(answers) FROM messages WHERE received_at >= ?1 GROUP BY outcome");
    q.bind(1, c_->clock_ms() - 24LL * 3600 * 1000);
    while (true) {
      ASSIGN_OR_RETURN(bool row, q.step());
      if (!row) break;
      r.outcomes_24h[q.text(0)] = q.int64(1);
    }
  }
  std::vector<std::string> tables = document_tables();
  for (const char* other : {"messages", "outbox", "captures"}) tables.emplace_back(other);
  for (const std::string& table : tables) {
    ASSIGN_OR_RETURN(int64_t n, scalar(("SELECT count(*) FROM " + table).c_str()));
    r.business_rows[table] = n;
  }
  Result<int64_t> pages = scalar("PRAGMA page_count"), page_size = scalar("PRAGMA page_size");
  if (!pages.is_ok()) return pages.status();
  if (!page_size.is_ok()) return page_size.status();
  r.store_bytes = pages.value() * page_size.value();
  return r;
}

Result<Gauges> SqliteStore::gauges(int max_failures) {
  Gauges g;
  g.schema_version = c_->schema_version();
  {
    Stmt q(*c_,
           "SELECT state, count(*), sum(failures >= ?1) FROM idempotency_keys INDEXED BY idempotency_keys_open"
           " WHERE state <> 'completed' GROUP BY state");
    q.bind(1, int64_t{max_failures});
    while (true) {
      ASSIGN_OR_RETURN(bool row, q.step());
      if (!row) break;
      g.open_keys[q.text(0)] = q.int64(1);
      if (q.text(0) == "failed") g.poison_keys = q.int64(2);
    }
  }
  {
    Stmt q(
        *c_,
        "SELECT state, count(*), min(created_at) FROM outbox WHERE state IN ('pending', 'in-flight', 'sent', 'failed')"
        " GROUP BY state");
    while (true) {
      ASSIGN_OR_RETURN(bool row, q.step());
      if (!row) break;
      g.outbox[q.text(0)] = {q.int64(1), q.int64(2)};
    }
  }
  Result<int64_t> pages = scalar("PRAGMA page_count"), page_size = scalar("PRAGMA page_size");
  if (!pages.is_ok()) return pages.status();
  if (!page_size.is_ok()) return page_size.status();
  g.store_bytes = pages.value() * page_size.value();
  ASSIGN_OR_RETURN(int64_t purged, scalar("SELECT COALESCE(max(at), 0) FROM audit WHERE action = 'purge'"));
  g.last_purge_ms = purged;
  return g;
}

}  // namespace

Result<std::unique_ptr<Store>> open_sqlite_store(const std::string& path, const StoreOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<Connection> c, open_connection(path, options));
  std::shared_ptr<GroupCommitter> committer;
  if (options.group_commit) {
    ASSIGN_OR_RETURN(std::shared_ptr<GroupCommitter> g, GroupCommitter::for_path(path, options));
    committer = std::move(g);
  }
  return std::unique_ptr<Store>(new SqliteStore(std::move(c), std::move(committer)));
}

}  // namespace edihub::store::sqlite
