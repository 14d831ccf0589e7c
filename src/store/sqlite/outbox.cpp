#include "src/store/sqlite/outbox.h"

namespace edihub::store::sqlite {

namespace {

constexpr const char* kColumns =
    "id, partner_id, kind, COALESCE(reference, ''), channel, destination, message_id, COALESCE(headers, ''), body,"
    " state, attempts, created_at, next_attempt_at, COALESCE(delivered_at, 0), COALESCE(last_error, ''),"
    " COALESCE(prepared_headers, ''), prepared, receipt, COALESCE(order_key, '')";

OutboxEntry read_entry(const Stmt& q) {
  OutboxEntry e;
  e.id = q.int64(0);
  e.item = {q.text(1), q.text(2), q.text(3), q.text(4), q.text(5), q.text(6), q.text(7), q.blob(8), q.text(18)};
  e.state = q.text(9);
  e.attempts = q.int64(10);
  e.created_at_ms = q.int64(11);
  e.next_attempt_ms = q.int64(12);
  e.delivered_at_ms = q.int64(13);
  e.last_error = q.text(14);
  e.prepared_headers = q.text(15);
  e.prepared = q.blob(16);
  e.receipt = q.blob(17);
  return e;
}

// A row due at ?1: what any_due asks and take_due takes.
#define OUTBOX_DUE " FROM outbox WHERE state IN ('pending', 'in-flight') AND next_attempt_at <= ?1 AND " OUTBOX_IN_ORDER

Status done(const Result<int64_t>& r) { return r.is_ok() ? Status::ok() : r.status(); }

Result<std::vector<OutboxEntry>> rows(Stmt& q) {
  std::vector<OutboxEntry> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.step());
    if (!row) return out;
    out.push_back(read_entry(q));
  }
}

}  // namespace

Outbox::Outbox(Connection& c) : c_(c), any_due_(c, "SELECT 1" OUTBOX_DUE " LIMIT 1") {}

Result<bool> Outbox::any_due(int64_t now_ms) {
  Using q(any_due_);
  q->bind(1, now_ms);
  return q->step();
}

Result<std::vector<OutboxEntry>> Outbox::take_due(int limit, int64_t now_ms, int64_t lease_ms) {
  Stmt q(c_, (std::string("SELECT ") + kColumns + OUTBOX_DUE " ORDER BY next_attempt_at LIMIT ?2").c_str());
  q.bind(1, now_ms).bind(2, int64_t{limit});
  Result<std::vector<OutboxEntry>> due = rows(q);
  if (!due.is_ok()) return due;
  // In flight until the lease ends: a deliverer that dies gives them back by itself.
  Stmt take(c_, "UPDATE outbox SET state = 'in-flight', next_attempt_at = ?1 WHERE id = ?2");
  for (const auto& e : due.value()) {
    Using u(take);
    u->bind(1, now_ms + lease_ms).bind(2, e.id);
    RETURN_IF_ERROR(done(u->run()));
  }
  return due;
}

Status Outbox::prepared(int64_t id, const std::string& headers, const std::string& bytes) {
  Stmt q(c_, "UPDATE outbox SET prepared_headers = ?1, prepared = ?2 WHERE id = ?3 AND prepared IS NULL");
  q.bind(1, headers).bind_blob(2, bytes).bind(3, id);
  return done(q.run());
}

Status Outbox::delivered(int64_t id, const std::string& receipt, int64_t now_ms) {
  Stmt q(c_,
         "UPDATE outbox SET state = 'delivered', attempts = attempts + 1, last_error = NULL, receipt = ?1,"
         " delivered_at = ?2 WHERE id = ?3");
  q.bind_blob(1, receipt).bind(2, now_ms).bind(3, id);
  return done(q.run());
}

Status Outbox::sent(int64_t id) {
  Stmt q(c_, "UPDATE outbox SET state = 'sent', attempts = attempts + 1, last_error = NULL WHERE id = ?1");
  q.bind(1, id);
  return done(q.run());
}

Status Outbox::retry(int64_t id, int64_t next_attempt_ms, const std::string& error, bool give_up) {
  Stmt q(c_,
         "UPDATE outbox SET state = ?1, attempts = attempts + 1, next_attempt_at = ?2, last_error = ?3 WHERE id = ?4");
  q.bind(1, give_up ? "failed" : "pending").bind(2, next_attempt_ms).bind(3, error).bind(4, id);
  return done(q.run());
}

Result<std::optional<OutboxEntry>> Outbox::awaiting(const std::string& partner_id, const std::string& message_id) {
  Stmt q(c_, (std::string("SELECT ") + kColumns +
              " FROM outbox WHERE message_id = ?1 AND partner_id = ?2 AND channel = 'as2' AND"
              " (state = 'sent' OR (state IN ('in-flight', 'pending') AND prepared IS NOT NULL))"
              " ORDER BY id DESC LIMIT 1")
                 .c_str());
  q.bind(1, message_id).bind(2, partner_id);
  ASSIGN_OR_RETURN(std::vector<OutboxEntry> found, rows(q));
  if (found.empty()) return std::optional<OutboxEntry>();
  return std::optional<OutboxEntry>(std::move(found[0]));
}

Status Outbox::answered(int64_t id, bool delivered, const std::string& receipt, const std::string& error,
                        int64_t now_ms) {
  Stmt q(c_,
         "UPDATE outbox SET state = ?1, receipt = ?2, last_error = NULLIF(?3, ''), delivered_at = ?4 WHERE id = ?5");
  q.bind(1, delivered ? "delivered" : "failed").bind_blob(2, receipt).bind(3, error).bind(4, now_ms).bind(5, id);
  return done(q.run());
}

Result<std::vector<OutboxEntry>> Outbox::list(const OutboxFilter& f) {
  Stmt q(c_, (std::string("SELECT ") + kColumns +
              " FROM outbox WHERE (?1 = '' OR partner_id = ?1) AND (?2 = '' OR state = ?2)"
              " AND (?4 = '' OR reference = ?4) ORDER BY id DESC LIMIT ?3")
                 .c_str());
  q.bind(1, f.partner_id.value_or("")).bind(2, f.state.value_or("")).bind(3, int64_t{f.limit});
  q.bind(4, f.reference.value_or(""));
  return rows(q);
}

Result<std::optional<OutboxEntry>> Outbox::entry(int64_t id) {
  Stmt q(c_, (std::string("SELECT ") + kColumns + " FROM outbox WHERE id = ?1").c_str());
  q.bind(1, id);
  ASSIGN_OR_RETURN(std::vector<OutboxEntry> found, rows(q));
  if (found.empty()) return std::optional<OutboxEntry>();
  return std::optional<OutboxEntry>(std::move(found[0]));
}

Result<bool> Outbox::retry_now(int64_t id, int64_t now_ms) {
  Stmt q(c_,
         "UPDATE outbox SET state = 'pending', next_attempt_at = ?1, "
         "attempts = CASE state WHEN 'failed' THEN 0 ELSE attempts END "
         "WHERE id = ?2 AND state IN ('pending', 'failed')");
  q.bind(1, now_ms).bind(2, id);
  ASSIGN_OR_RETURN(int64_t n, q.run());
  return n == 1;
}

Result<bool> Outbox::cancel(int64_t id) {
  Stmt q(c_, "UPDATE outbox SET state = 'cancelled' WHERE id = ?1 AND state IN ('pending', 'failed')");
  q.bind(1, id);
  ASSIGN_OR_RETURN(int64_t n, q.run());
  return n == 1;
}

}  // namespace edihub::store::sqlite
