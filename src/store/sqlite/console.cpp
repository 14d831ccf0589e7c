#include "src/store/sqlite/console.h"

#include "src/store/console_backend.h"
#include "src/store/document_sql.h"

// The specializations live in ConsoleBackend's namespace; this backend's types are used from sqlite.
namespace edihub::store {

using namespace sqlite;  // NOLINT: Connection, and the statement types of this backend

namespace {

using Console = ConsoleBackend<Connection>;

// Reads every row of `q` with `read`.
template <typename T, typename Read>
Result<std::vector<T>> all(Stmt& q, Read read) {
  std::vector<T> out;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.step());
    if (!row) return out;
    out.push_back(read(q));
  }
}

MessageRow message_row(const Stmt& q) {
  MessageRow m;
  m.id = q.int64(0);
  m.received_at_ms = q.int64(1);
  m.partner_id = q.text(2);
  m.protocol = q.text(3);
  m.transport = q.text(4);
  m.transport_id = q.text(5);
  m.message_id = q.text(6);
  m.outcome = q.text(7);
  m.detail = q.text(8);
  m.bytes = q.int64(9);
  m.documents = q.int64(10);
  m.duration_ms = q.int64(11);
  m.capture_id = q.int64(12);
  return m;
}

Status done(const Result<int64_t>& r) { return r.is_ok() ? Status::ok() : r.status(); }

}  // namespace

template <>
Result<std::vector<MessageRow>> Console::find_messages(const MessageQuery& query) {
  const SqlFilter f = message_search_sql(query, false);
  const std::string sql =
      std::string(kMessageColumns) + "WHERE " + f.where + " ORDER BY id DESC LIMIT " + std::to_string(query.limit);
  Stmt q(c_, sql.c_str());
  int i = 0;
  for (const SqlValue& v : f.values) {
    if (v.is_number)
      q.bind(++i, v.number);
    else
      q.bind(++i, v.text);
  }
  return all<MessageRow>(q, message_row);
}

template <>
Result<std::optional<MessageRow>> Console::message(int64_t id) {
  Stmt q(c_, (std::string(kMessageColumns) + "WHERE id = ?1").c_str());
  q.bind(1, id);
  ASSIGN_OR_RETURN(std::vector<MessageRow> rows, all<MessageRow>(q, message_row));
  if (rows.empty()) return std::optional<MessageRow>();
  return std::optional<MessageRow>(std::move(rows[0]));
}

template <>
Result<std::vector<MessageRow>> Console::transport_rows(const std::string& partner_id,
                                                        const std::string& transport_id) {
  Stmt q(c_, (std::string(kMessageColumns) +
              "WHERE transport_id = ?1 AND COALESCE(partner_id, '') = ?2 ORDER BY id LIMIT 1000")
                 .c_str());
  q.bind(1, transport_id).bind(2, partner_id);
  return all<MessageRow>(q, message_row);
}

template <>
Result<std::vector<KeyRecord>> Console::open_keys(const std::string& state, int64_t min_failures, int limit) {
  Stmt q(c_,
         "SELECT partner_id, message_id, state, received_at, COALESCE(lease_until, 0), attempts, failures,"
         " COALESCE(outcome, ''), COALESCE(error, ''), COALESCE(owner, '')"
         " FROM idempotency_keys INDEXED BY idempotency_keys_open"
         " WHERE state = ?1 AND state <> 'completed' AND failures >= ?3 ORDER BY received_at DESC LIMIT ?2");
  q.bind(1, state).bind(2, int64_t{limit}).bind(3, min_failures);
  return all<KeyRecord>(q, [](const Stmt& r) {
    KeyRecord k;
    k.key = {r.text(0), r.text(1)};
    k.state = state_from(r.text(2));
    k.received_at_ms = r.int64(3);
    k.lease_until_ms = r.int64(4);
    k.attempts = r.int64(5);
    k.failures = r.int64(6);
    k.outcome = r.text(7);
    k.error = r.text(8);
    k.owner = r.text(9);
    return k;
  });
}

template <>
Result<std::vector<BookedDocument>> Console::documents_from(const std::string& partner_id, const std::string& source) {
  static const std::string sql = documents_from_sql('?');
  Stmt q(c_, sql.c_str());
  q.bind(1, partner_id).bind(2, source);
  return all<BookedDocument>(q, [](const Stmt& r) {
    return BookedDocument{r.text(0), r.text(1), r.text(2), r.text(3), r.text(4), r.int64(5), r.int64(6)};
  });
}

template <>
Result<std::vector<HourCount>> Console::hourly(int64_t since_ms) {
  // Every interchange (whatever brought it), and the transport messages that
  // are not represented by their interchanges: those not processed (a
  // retransmission answered from the store, a refusal, a conflict, a payload
  // that is not EDI). Five rejected interchanges in a processed AS2 message
  // count as five rejected; a count row of 37 answers past a client's limits
  // as 37.
  Stmt q(c_,
         "SELECT COALESCE(partner_id, ''), outcome, received_at / 3600000, sum(answers) FROM messages"
         " WHERE received_at >= ?1 AND (protocol IN ('x12', 'edifact') OR"
         " (protocol IN ('as2', 'as4') AND outcome <> 'processed'))"
         " GROUP BY 1, 2, 3 ORDER BY 3");
  q.bind(1, since_ms);
  return all<HourCount>(q, [](const Stmt& r) { return HourCount{r.text(0), r.text(1), r.int64(2), r.int64(3)}; });
}

template <>
Result<std::optional<CaptureHead>> Console::capture_head(int64_t id) {
  // length() of a blob reads its size, not its content.
  Stmt q(c_, "SELECT head, length(head) + length(body) FROM captures WHERE id = ?1");
  q.bind(1, id);
  ASSIGN_OR_RETURN(bool row, q.step());
  if (!row) return std::optional<CaptureHead>();
  return std::optional<CaptureHead>(CaptureHead{q.blob(0), q.int64(1)});
}

template <>
Result<int64_t> Console::last_received(const std::string& partner_id) {
  Stmt q(c_, "SELECT received_at FROM messages WHERE partner_id = ?1 ORDER BY id DESC LIMIT 1");
  q.bind(1, partner_id);
  ASSIGN_OR_RETURN(bool row, q.step());
  return row ? q.int64(0) : 0;
}

template <>
Status Console::put_operator(const Operator& op) {
  Stmt q(c_,
         "INSERT INTO operators (name, password_hash, role, created_at) VALUES (?1, ?2, ?3, ?4)"
         " ON CONFLICT (name) DO UPDATE SET password_hash = excluded.password_hash, role = excluded.role");
  q.bind(1, op.name).bind(2, op.password_hash).bind(3, op.role).bind(4, c_.clock_ms());
  return done(c_.write_alone(q));
}

template <>
Result<bool> Console::remove_operator(const std::string& name) {
  Stmt q(c_, "DELETE FROM operators WHERE name = ?1");
  q.bind(1, name);
  ASSIGN_OR_RETURN(int64_t n, c_.write_alone(q));
  return n == 1;
}

template <>
Result<std::vector<Operator>> Console::operators(const std::string& name) {
  Stmt q(c_, "SELECT name, password_hash, role, created_at FROM operators WHERE ?1 = '' OR name = ?1 ORDER BY name");
  q.bind(1, name);
  return all<Operator>(q, [](const Stmt& r) { return Operator{r.text(0), r.text(1), r.text(2), r.int64(3)}; });
}

template <>
Status Console::put_session(const std::string& token_sha256, const std::string& operator_name, const std::string& csrf,
                            int64_t expires_at_ms) {
  const int64_t now = c_.clock_ms();
  Stmt expired(c_, "DELETE FROM console_sessions WHERE expires_at <= ?1");
  expired.bind(1, now);
  RETURN_IF_ERROR(done(c_.write_alone(expired)));
  Stmt q(c_,
         "INSERT INTO console_sessions (token_sha256, operator, csrf, created_at, expires_at)"
         " VALUES (?1, ?2, ?3, ?4, ?5)");
  q.bind(1, token_sha256).bind(2, operator_name).bind(3, csrf).bind(4, now).bind(5, expires_at_ms);
  return done(c_.write_alone(q));
}

template <>
Result<std::optional<ConsoleSession>> Console::find_session(const std::string& token_sha256) {
  Stmt q(c_,
         "SELECT s.operator, o.role, s.csrf, s.expires_at FROM console_sessions s"
         " JOIN operators o ON o.name = s.operator WHERE s.token_sha256 = ?1 AND s.expires_at > ?2");
  q.bind(1, token_sha256).bind(2, c_.clock_ms());
  ASSIGN_OR_RETURN(std::vector<ConsoleSession> found, all<ConsoleSession>(q, [](const Stmt& r) {
                     return ConsoleSession{r.text(0), r.text(1), r.text(2), r.int64(3)};
                   }));
  if (found.empty()) return std::optional<ConsoleSession>();
  return std::optional<ConsoleSession>(std::move(found[0]));
}

template <>
Status Console::end_session(const std::string& token_sha256) {
  Stmt q(c_, "DELETE FROM console_sessions WHERE token_sha256 = ?1");
  q.bind(1, token_sha256);
  return done(c_.write_alone(q));
}

template <>
Result<int64_t> Console::audit(const AuditEntry& e) {
  Stmt q(c_, "INSERT INTO audit (at, operator, action, target, result, peer) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  q.bind(1, c_.clock_ms()).bind(2, e.operator_name).bind(3, e.action).bind(4, e.target).bind(5, e.result);
  q.bind(6, e.peer);
  RETURN_IF_ERROR(c_.write_alone(q));
  return sqlite3_last_insert_rowid(c_.db());  // this connection's insert
}

template <>
Result<std::vector<AuditEntry>> Console::audit_trail(int limit) {
  Stmt q(c_,
         "SELECT id, at, operator, action, target, result, COALESCE(peer, '') FROM audit ORDER BY id DESC LIMIT ?1");
  q.bind(1, int64_t{limit});
  return all<AuditEntry>(q, [](const Stmt& r) {
    return AuditEntry{r.int64(0), r.int64(1), r.text(2), r.text(3), r.text(4), r.text(5), r.text(6)};
  });
}

std::unique_ptr<ConsoleStore> sqlite::console_store(Connection& c) { return std::make_unique<Console>(c); }

}  // namespace edihub::store
