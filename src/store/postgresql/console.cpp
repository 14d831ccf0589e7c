#include "src/store/postgresql/console.h"

#include "src/store/console_backend.h"
#include "src/store/document_sql.h"

// The specializations live in ConsoleBackend's namespace; this backend's types are used from postgresql.
namespace edihub::store {

using namespace postgresql;  // NOLINT: Connection, and the statement types of this backend

namespace {

using Console = ConsoleBackend<Connection>;

// Every row of `r` through `read`.
template <typename T, typename Read>
Result<std::vector<T>> all(const Result<Rows>& r, Read read) {
  if (!r.is_ok()) return r.status();
  std::vector<T> out;
  out.reserve(static_cast<size_t>(r->size()));
  for (int i = 0; i < r->size(); ++i) out.push_back(read(r.value(), i));
  return out;
}

MessageRow message_row(const Rows& r, int i) {
  MessageRow m;
  m.id = r.int64(i, 0);
  m.received_at_ms = r.int64(i, 1);
  m.partner_id = r.text(i, 2);
  m.protocol = r.text(i, 3);
  m.transport = r.text(i, 4);
  m.transport_id = r.text(i, 5);
  m.message_id = r.text(i, 6);
  m.outcome = r.text(i, 7);
  m.detail = r.text(i, 8);
  m.bytes = r.int64(i, 9);
  m.documents = r.int64(i, 10);
  m.duration_ms = r.int64(i, 11);
  m.capture_id = r.int64(i, 12);
  return m;
}

Status done(const Result<Rows>& r) { return r.is_ok() ? Status::ok() : r.status(); }

}  // namespace

template <>
Result<std::vector<MessageRow>> Console::find_messages(const MessageQuery& query) {
  const SqlFilter f = message_search_sql(query, true);
  Params params;
  for (const SqlValue& v : f.values) {
    if (v.is_number)
      params.add(v.number);
    else
      params.add(v.text);
  }
  return all<MessageRow>(c_.exec(std::string(kMessageColumns) + "WHERE " + f.where + " ORDER BY id DESC LIMIT " +
                                     std::to_string(query.limit),
                                 params),
                         message_row);
}

template <>
Result<std::optional<MessageRow>> Console::message(int64_t id) {
  ASSIGN_OR_RETURN(
      std::vector<MessageRow> rows,
      all<MessageRow>(c_.exec(std::string(kMessageColumns) + "WHERE id = $1", Params().add(id)), message_row));
  if (rows.empty()) return std::optional<MessageRow>();
  return std::optional<MessageRow>(std::move(rows[0]));
}

template <>
Result<std::vector<MessageRow>> Console::transport_rows(const std::string& partner_id,
                                                        const std::string& transport_id) {
  return all<MessageRow>(c_.exec(std::string(kMessageColumns) +
                                     "WHERE transport_id = $1 AND COALESCE(partner_id, '') = $2 ORDER BY id LIMIT 1000",
                                 Params().add(transport_id).add(partner_id)),
                         message_row);
}

template <>
Result<std::vector<KeyRecord>> Console::open_keys(const std::string& state, int64_t min_failures, int limit) {
  return all<KeyRecord>(
      c_.exec("SELECT partner_id, message_id, state, received_at, COALESCE(lease_until, 0), attempts, failures,"
              " COALESCE(outcome, ''), COALESCE(error, ''), COALESCE(owner, '')"
              " FROM idempotency_keys WHERE state = $1 AND state <> 'completed' AND failures >= $3"
              " ORDER BY received_at DESC LIMIT $2",
              Params().add(state).add(int64_t{limit}).add(min_failures)),
      [](const Rows& r, int i) {
        KeyRecord k;
        k.key = {r.text(i, 0), r.text(i, 1)};
        k.state = state_from(r.text(i, 2));
        k.received_at_ms = r.int64(i, 3);
        k.lease_until_ms = r.int64(i, 4);
        k.attempts = r.int64(i, 5);
        k.failures = r.int64(i, 6);
        k.outcome = r.text(i, 7);
        k.error = r.text(i, 8);
        k.owner = r.text(i, 9);
        return k;
      });
}

template <>
Result<std::vector<BookedDocument>> Console::documents_from(const std::string& partner_id, const std::string& source) {
  return all<BookedDocument>(c_.exec(documents_from_sql('$'), Params().add(partner_id).add(source)),
                             [](const Rows& r, int i) {
                               return BookedDocument{r.text(i, 0), r.text(i, 1),  r.text(i, 2), r.text(i, 3),
                                                     r.text(i, 4), r.int64(i, 5), r.int64(i, 6)};
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
  return all<HourCount>(
      c_.exec("SELECT COALESCE(partner_id, ''), outcome, received_at / 3600000, sum(answers)::bigint FROM messages"
              " WHERE received_at >= $1 AND (protocol IN ('x12', 'edifact') OR"
              " (protocol IN ('as2', 'as4') AND outcome <> 'processed'))"
              " GROUP BY 1, 2, 3 ORDER BY 3",
              Params().add(since_ms)),
      [](const Rows& r, int i) {
        return HourCount{r.text(i, 0), r.text(i, 1), r.int64(i, 2), r.int64(i, 3)};
      });
}

template <>
Result<std::optional<CaptureHead>> Console::capture_head(int64_t id) {
  // octet_length() of a TOASTed bytea reads its size, not its content.
  ASSIGN_OR_RETURN(Rows r,
                   c_.exec("SELECT head, (octet_length(head) + octet_length(body))::bigint FROM captures WHERE id = $1",
                           Params().add(id)));
  if (r.size() == 0) return std::optional<CaptureHead>();
  return std::optional<CaptureHead>(CaptureHead{r.text(0, 0), r.int64(0, 1)});
}

template <>
Result<int64_t> Console::last_received(const std::string& partner_id) {
  ASSIGN_OR_RETURN(Rows r, c_.exec("SELECT received_at FROM messages WHERE partner_id = $1 ORDER BY id DESC LIMIT 1",
                                   Params().add(partner_id)));
  return r.size() > 0 ? r.int64(0, 0) : 0;
}

template <>
Status Console::put_operator(const Operator& op) {
  return done(
      c_.exec("INSERT INTO operators (name, password_hash, role, created_at) VALUES ($1, $2, $3, " + c_.now_sql() +
                  ") ON CONFLICT (name) DO UPDATE SET password_hash = excluded.password_hash, role = excluded.role",
              Params().add(op.name).add(op.password_hash).add(op.role)));
}

template <>
Result<bool> Console::remove_operator(const std::string& name) {
  ASSIGN_OR_RETURN(Rows r, c_.exec("DELETE FROM operators WHERE name = $1", Params().add(name)));
  return r.affected() == 1;
}

template <>
Result<std::vector<Operator>> Console::operators(const std::string& name) {
  return all<Operator>(
      c_.exec("SELECT name, password_hash, role, created_at FROM operators WHERE $1::text = '' OR name = $1"
              " ORDER BY name",
              Params().add(name)),
      [](const Rows& r, int i) {
        return Operator{r.text(i, 0), r.text(i, 1), r.text(i, 2), r.int64(i, 3)};
      });
}

template <>
Status Console::put_session(const std::string& token_sha256, const std::string& operator_name, const std::string& csrf,
                            int64_t expires_at_ms) {
  if (Status s = done(c_.exec("DELETE FROM console_sessions WHERE expires_at <= " + c_.now_sql())); !s.is_ok())
    return s;
  return done(
      c_.exec("INSERT INTO console_sessions (token_sha256, operator, csrf, created_at, expires_at)"
              " VALUES ($1, $2, $3, " +
                  c_.now_sql() + ", $4)",
              Params().add(token_sha256).add(operator_name).add(csrf).add(expires_at_ms)));
}

template <>
Result<std::optional<ConsoleSession>> Console::find_session(const std::string& token_sha256) {
  ASSIGN_OR_RETURN(
      std::vector<ConsoleSession> found,
      all<ConsoleSession>(
          c_.exec("SELECT s.operator, o.role, s.csrf, s.expires_at FROM console_sessions s"
                  " JOIN operators o ON o.name = s.operator WHERE s.token_sha256 = $1 AND s.expires_at > " +
                      c_.now_sql(),
                  Params().add(token_sha256)),
          [](const Rows& r, int i) {
            return ConsoleSession{r.text(i, 0), r.text(i, 1), r.text(i, 2), r.int64(i, 3)};
          }));
  if (found.empty()) return std::optional<ConsoleSession>();
  return std::optional<ConsoleSession>(std::move(found[0]));
}

template <>
Status Console::end_session(const std::string& token_sha256) {
  return done(c_.exec("DELETE FROM console_sessions WHERE token_sha256 = $1", Params().add(token_sha256)));
}

template <>
Result<int64_t> Console::audit(const AuditEntry& e) {
  ASSIGN_OR_RETURN(Rows r,
                   c_.exec("INSERT INTO audit (at, operator, action, target, result, peer) VALUES (" + c_.now_sql() +
                               ", $1, $2, $3, $4, $5) RETURNING id",
                           Params().add(e.operator_name).add(e.action).add(e.target).add(e.result).add(e.peer)));
  return r.size() > 0 ? r.int64(0, 0) : 0;
}

template <>
Result<std::vector<AuditEntry>> Console::audit_trail(int limit) {
  return all<AuditEntry>(
      c_.exec("SELECT id, at, operator, action, target, result, COALESCE(peer, '') FROM audit ORDER BY id DESC"
              " LIMIT $1",
              Params().add(int64_t{limit})),
      [](const Rows& r, int i) {
        return AuditEntry{r.int64(i, 0), r.int64(i, 1), r.text(i, 2), r.text(i, 3),
                          r.text(i, 4),  r.text(i, 5),  r.text(i, 6)};
      });
}

std::unique_ptr<ConsoleStore> postgresql::console_store(Connection& c) { return std::make_unique<Console>(c); }

}  // namespace edihub::store
