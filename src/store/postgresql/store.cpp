#include "src/store/postgresql/store.h"

#include "src/common/partner_text.h"
#include "src/store/postgresql/connection.h"
#include "src/store/postgresql/console.h"
#include "src/store/document_sql.h"
#include "src/store/versions.h"

namespace edihub::store::postgresql {

namespace {

Status done(const Result<Rows>& r) { return r.is_ok() ? Status::ok() : r.status(); }
Result<bool> one(const Result<Rows>& r) {
  if (!r.is_ok()) return r.status();
  return r->affected() == 1;
}

constexpr const char* kKeyColumns =
    "SELECT state, received_at, COALESCE(lease_until, 0), attempts, failures, payload_sha256, raw_sha256,"
    " COALESCE(outcome, ''), COALESCE(error, ''), COALESCE(receipt_status, 0), COALESCE(receipt_headers, ''),"
    " receipt_body, COALESCE(k.owner, ''), COALESCE(o.node, ''), COALESCE(o.heartbeat_at, 0)"
    " FROM idempotency_keys k LEFT JOIN lease_owners o ON o.id = k.owner"
    " WHERE partner_id = $1 AND message_id = $2";

Result<std::optional<KeyRecord>> read_key_row(Connection& c, const MessageKey& key) {
  ASSIGN_OR_RETURN(Rows r, c.exec(kKeyColumns, Params().add(key.partner_id).add(key.message_id)));
  if (r.size() == 0) return std::optional<KeyRecord>();
  KeyRecord k;
  k.key = key;
  k.state = state_from(r.text(0, 0));
  k.received_at_ms = r.int64(0, 1);
  k.lease_until_ms = r.int64(0, 2);
  k.attempts = r.int64(0, 3);
  k.failures = r.int64(0, 4);
  k.payload = PayloadDigest::from_hex(r.text(0, 5));
  k.raw = RawDigest::from_hex(r.text(0, 6));
  k.outcome = r.text(0, 7);
  k.error = r.text(0, 8);
  k.receipt = {static_cast<int>(r.int64(0, 9)), r.text(0, 10), r.text(0, 11)};
  k.owner = r.text(0, 12);
  k.owner_node = r.text(0, 13);
  k.owner_heartbeat_ms = r.int64(0, 14);
  return std::optional<KeyRecord>(std::move(k));
}

#define OUTBOX_COLUMNS                                                                                            \
  "id, partner_id, kind, COALESCE(reference, ''), channel, destination, message_id, COALESCE(headers, ''), body," \
  " state, attempts, created_at, next_attempt_at, COALESCE(delivered_at, 0), COALESCE(last_error, ''),"           \
  " COALESCE(prepared_headers, ''), prepared, receipt, COALESCE(order_key, '')"

std::vector<OutboxEntry> outbox_rows(const Rows& r) {
  std::vector<OutboxEntry> out;
  for (int i = 0; i < r.size(); ++i) {
    OutboxEntry e;
    e.id = r.int64(i, 0);
    e.item = {r.text(i, 1), r.text(i, 2), r.text(i, 3), r.text(i, 4), r.text(i, 5),
              r.text(i, 6), r.text(i, 7), r.text(i, 8), r.text(i, 18)};
    e.state = r.text(i, 9);
    e.attempts = r.int64(i, 10);
    e.created_at_ms = r.int64(i, 11);
    e.next_attempt_ms = r.int64(i, 12);
    e.delivered_at_ms = r.int64(i, 13);
    e.last_error = r.text(i, 14);
    e.prepared_headers = r.text(i, 15);
    e.prepared = r.text(i, 16);
    e.receipt = r.text(i, 17);
    out.push_back(std::move(e));
  }
  return out;
}

// A PostgreSQL array literal of text values ({"a","b\"c"}), for unnest():
// a document's lines go in one statement, not one per line.
class Column {
 public:
  Column& operator<<(const std::string& v) {
    out_ += out_.size() > 1 ? ",\"" : "\"";
    for (char c : v) {
      if (c == '"' || c == '\\') out_ += '\\';
      out_ += c;
    }
    out_ += '"';
    return *this;
  }
  Column& operator<<(int64_t v) { return *this << std::to_string(v); }
  Column& null() {
    out_ += out_.size() > 1 ? ",NULL" : "NULL";
    return *this;
  }
  std::string literal() const { return out_ + "}"; }

 private:
  std::string out_ = "{";
};

Result<std::optional<OutboxEntry>> first(const Result<Rows>& r) {
  if (!r.is_ok()) return r.status();
  std::vector<OutboxEntry> rows = outbox_rows(r.value());
  if (rows.empty()) return std::optional<OutboxEntry>();
  return std::optional<OutboxEntry>(std::move(rows[0]));
}

class PgTransaction : public Transaction {
 public:
  PgTransaction(Connection& c, int64_t now_ms) : c_(c), now_(now_ms) {}
  int64_t now_ms() const override { return now_; }

  Result<bool> insert_key(const MessageKey& key, const PayloadDigest& payload, const RawDigest& raw,
                          int64_t lease_until_ms, const std::string& owner) override {
    return one(
        c_.exec("INSERT INTO idempotency_keys (partner_id, message_id, protocol, state, received_at, updated_at,"
                " lease_until, attempts, failures, payload_sha256, raw_sha256, owner)"
                " VALUES ($1, $2, $3, 'processing', $4, $4, $5, 1, 0, $6, $7, NULLIF($8::text, ''))"
                " ON CONFLICT DO NOTHING",
                Params()
                    .add(key.partner_id)
                    .add(key.message_id)
                    .add(key.protocol())
                    .add(now_)
                    .add(lease_until_ms)
                    .add(payload.hex())
                    .add(raw.hex())
                    .add(owner)));
  }
  Result<std::optional<KeyRecord>> read_key(const MessageKey& key) override { return read_key_row(c_, key); }
  Result<bool> take_over(const MessageKey& key, int64_t attempts, const PayloadDigest& payload, const RawDigest& raw,
                         int64_t lease_until_ms, const std::string& owner) override {
    return one(
        c_.exec("UPDATE idempotency_keys SET state = 'processing', attempts = attempts + 1, lease_until = $1,"
                " updated_at = $2, payload_sha256 = $3, raw_sha256 = $4, owner = NULLIF($8::text, '')"
                " WHERE partner_id = $5 AND message_id = $6 AND attempts = $7 AND state <> 'completed'",
                Params()
                    .add(lease_until_ms)
                    .add(now_)
                    .add(payload.hex())
                    .add(raw.hex())
                    .add(key.partner_id)
                    .add(key.message_id)
                    .add(attempts)
                    .add(owner)));
  }
  Status heartbeat(const std::string& owner, const std::string& node) override {
    return done(
        c_.exec("INSERT INTO lease_owners (id, node, started_at, heartbeat_at) VALUES ($1, $2, $3, $3)"
                " ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at",
                Params().add(owner).add(node).add(now_)));
  }
  Result<bool> settle_key(const MessageKey& key, int64_t token, const PayloadDigest& payload,
                          const Settlement& s) override {
    return one(
        c_.exec("UPDATE idempotency_keys SET state = $1, receipt_status = $2, receipt_headers = $3, receipt_body = $4,"
                " outcome = $5, error = $6, lease_until = NULL, updated_at = $7, failures = failures + $8,"
                " payload_sha256 = CASE WHEN $9::text = '' THEN payload_sha256 ELSE $9::text END"
                " WHERE partner_id = $10 AND message_id = $11 AND state = 'processing' AND attempts = $12",
                Params()
                    .add(state_name(s.state))
                    .add(int64_t{s.receipt.status})
                    .add(s.receipt.headers)
                    .bytes(s.receipt.body)
                    .add(outcome_name(s.outcome))
                    .add(s.error)
                    .add(now_)
                    .add(int64_t{s.state == KeyState::Failed ? 1 : 0})
                    .add(payload.hex())
                    .add(key.partner_id)
                    .add(key.message_id)
                    .add(token)));
  }
  Result<bool> release_key(const MessageKey& key, int64_t token) override {
    return one(
        c_.exec("UPDATE idempotency_keys SET lease_until = $1, updated_at = $1"
                " WHERE partner_id = $2 AND message_id = $3 AND state = 'processing' AND attempts = $4",
                Params().add(now_).add(key.partner_id).add(key.message_id).add(token)));
  }
  Result<bool> forgive_key(const MessageKey& key, int64_t attempts) override {
    return one(
        c_.exec("UPDATE idempotency_keys SET failures = 0, updated_at = $1"
                " WHERE partner_id = $2 AND message_id = $3 AND state = 'failed' AND attempts = $4",
                Params().add(now_).add(key.partner_id).add(key.message_id).add(attempts)));
  }
  Status put_conflict_receipt(const MessageKey& key, const RawDigest& raw, const Receipt& r) override {
    return c_.defer(
        "INSERT INTO conflict_receipts (partner_id, message_id, raw_sha256, created_at,"
        " receipt_status, receipt_headers, receipt_body) VALUES ($1, $2, $3, $4, $5, $6, $7)"
        " ON CONFLICT DO NOTHING",
        Params()
            .add(key.partner_id)
            .add(key.message_id)
            .add(raw.hex())
            .add(now_)
            .add(int64_t{r.status})
            .add(r.headers)
            .bytes(r.body));
  }

  Result<Applied> put_document(const std::string& partner, const business::Document& doc,
                               const std::string& source) override;
  Result<int64_t> next_sequence(const std::string& name) override {
    ASSIGN_OR_RETURN(Rows r, c_.exec("INSERT INTO sequences (name, value) VALUES ($1, 1)"
                                     " ON CONFLICT (name) DO UPDATE SET value = sequences.value + 1 RETURNING value",
                                     Params().add(name)));
    return r.int64(0, 0);
  }

  Status log(const MessageLog& m) override {
    return c_.defer(
        "INSERT INTO messages (received_at, partner_id, protocol, transport, transport_id, message_id, outcome,"
        " bytes, documents, duration_ms, detail, capture_id, answers)"
        " VALUES ($1, NULLIF($2::text, ''), $3, $4, $5, $6, $7, $8, $9, $10, $11, NULLIF($12::bigint, 0), $13)",
        Params()
            .add(now_)
            .add(partner_text(m.partner_id, 128))
            .add(m.protocol)
            .add(m.transport)
            .add(partner_text(m.transport_id, 1000))
            .add(partner_text(m.message_id, 1000))
            .add(outcome_name(m.outcome))
            .add(m.bytes)
            .add(m.documents)
            .add(m.duration_ms)
            .add(partner_text(m.detail, 2000))
            .add(m.capture_id)
            .add(m.answers));
  }
  Status record_exchange(const PeppolExchange& e) override {
    static const std::string sql = exchange_insert_sql('$');
    return c_.defer(sql, Params()
                             .add(e.partner_id)
                             .add(e.message_id)
                             .add(e.direction)
                             .add(now_)
                             .add(e.other_sp)
                             .add(e.transport_profile)
                             .add(e.document_type_scheme)
                             .add(e.document_type)
                             .add(e.process_scheme)
                             .add(e.process)
                             .add(e.sender)
                             .add(e.receiver)
                             .add(e.c1_country)
                             .add(e.c4_country));
  }
  Result<int64_t> archive(const CaptureRef& cap) override {
    ASSIGN_OR_RETURN(Rows r,
                     c_.exec("INSERT INTO captures (received_at, partner_id, protocol, message_id, raw_sha256, head,"
                             " body) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                             Params()
                                 .add(now_)
                                 .add(cap.partner_id)
                                 .add(cap.protocol)
                                 .add(cap.message_id)
                                 .add(cap.raw.hex())
                                 .bytes(cap.head)
                                 .bytes(cap.body)));
    return r.int64(0, 0);
  }

 private:
  Status put_outbox(const OutboxItem& i) override {
    return c_.defer(
        "INSERT INTO outbox (partner_id, kind, reference, channel, destination, message_id, headers,"
        " body, created_at, next_attempt_at, order_key) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, NULLIF($10, "
        "''))",
        Params()
            .add(i.partner_id)
            .add(i.kind)
            .add(i.reference)
            .add(i.channel)
            .add(i.destination)
            .add(i.message_id)
            .add(i.headers)
            .bytes(i.body)
            .add(now_)
            .add(i.order_key));
  }
  Result<StoredVersion> version(const char* sql, const Params& key) {
    ASSIGN_OR_RETURN(Rows r, c_.exec(sql, key));
    StoredVersion v;
    if (r.size() > 0) v = {true, r.text(0, 0), r.text(0, 1)};
    return v;
  }

  Connection& c_;
  int64_t now_;
};

namespace {

// The values of one field over every line, as an array literal for unnest().
std::string column_of(const business::Document& doc, size_t f) {
  Column c;
  for (const auto& line : doc.lines) {
    const business::Value& v = line.at(f);
    switch (doc.type->line_fields[f].kind) {
      case business::FieldKind::Text:
      case business::FieldKind::OptionalText:
        c << v.text;
        break;
      case business::FieldKind::OptionalInteger:
        if (!v.present) {
          c.null();
          break;
        }
        [[fallthrough]];
      case business::FieldKind::Integer:
      case business::FieldKind::Flag:
        c << v.integer;
        break;
    }
  }
  return c.literal();
}

Params& add_value(Params& p, business::FieldKind kind, const business::Value& v) {
  switch (kind) {
    case business::FieldKind::Text:
    case business::FieldKind::OptionalText:
      return p.add(v.text);
    case business::FieldKind::OptionalInteger:
      if (!v.present) return p.null();
      [[fallthrough]];
    case business::FieldKind::Integer:
    case business::FieldKind::Flag:
      return p.add(v.integer);
  }
  return p;
}

// The document's key: partner, number and, for a type with a variant, its flag.
Params key_params(const std::string& partner, const business::Document& doc) {
  Params p;
  p.add(partner).add(doc.number);
  const size_t v = doc.type->variant_index();
  if (v != std::string_view::npos) p.add(doc.fields.at(v).integer);
  return p;
}

bool text_kind(business::FieldKind k) {
  return k == business::FieldKind::Text || k == business::FieldKind::OptionalText;
}

}  // namespace

Result<Applied> PgTransaction::put_document(const std::string& partner, const business::Document& doc,
                                            const std::string& source) {
  const business::DocumentType& t = *doc.type;
  const DocumentSql sql = document_sql(t, '$');
  const size_t variant = t.variant_index();
  // FOR UPDATE: two nodes booking versions of one document apply them in turn.
  ASSIGN_OR_RETURN(StoredVersion stored, version((sql.select + " FOR UPDATE").c_str(), key_params(partner, doc)));
  const Applied applied = decide_version(stored, doc.document_date, doc.purpose);
  const std::string purpose(business::purpose_name(doc.purpose));
  if (applied == Applied::IgnoredOlder) return applied;
  if (applied == Applied::Cancelled && stored.exists) {
    Params p;
    p.add(partner).add(doc.number).add(purpose).add(doc.document_date).add(source).add(now_);
    if (variant != std::string_view::npos) p.add(doc.fields.at(variant).integer);
    RETURN_IF_ERROR(c_.defer(sql.cancel, std::move(p)));
    return applied;
  }
  Params p;
  p.add(partner).add(doc.number).add(purpose).add(applied == Applied::Cancelled ? "cancelled" : "active");
  p.add(doc.document_date);
  for (size_t f = 0; f < t.fields.size(); ++f) add_value(p, t.fields[f].kind, doc.fields.at(f));
  p.add(source).add(now_);
  RETURN_IF_ERROR(c_.defer(applied == Applied::Replaced ? sql.replace : sql.insert, std::move(p)));
  if (applied == Applied::Cancelled) return applied;
  if (applied == Applied::Replaced) RETURN_IF_ERROR(c_.defer(sql.delete_lines, key_params(partner, doc)));
  if (doc.lines.empty()) return applied;
  // Every line in one statement: one array per column, unnest()ed.
  const int first = first_line_parameter(t);
  std::string columns, arrays = "$" + std::to_string(first) + "::bigint[]";
  Params lines = key_params(partner, doc);
  Column position;
  for (size_t n = 1; n <= doc.lines.size(); ++n) position << static_cast<int64_t>(n);
  lines.add(position.literal());
  for (size_t f = 0; f < t.line_fields.size(); ++f) {
    columns += ", " + std::string(t.line_fields[f].name);
    arrays += ", $" + std::to_string(first + 1 + static_cast<int>(f)) +
              (text_kind(t.line_fields[f].kind) ? "::text[]" : "::bigint[]");
    lines.add(column_of(doc, f));
  }
  const bool keyed = variant != std::string_view::npos;
  RETURN_IF_ERROR(c_.defer("INSERT INTO " + std::string(t.line_table) + " (partner_id, " +
                               std::string(t.number_column) + (keyed ? ", " + std::string(t.variant) : "") +
                               ", position" + columns + ") SELECT $1, $2, " + (keyed ? "$3, " : "") +
                               "l.* FROM unnest(" + arrays + ") AS l",
                           std::move(lines)));
  return applied;
}

class PgStore : public Store {
 public:
  explicit PgStore(std::unique_ptr<Connection> c) : c_(std::move(c)), console_(console_store(*c_)) {}

  // KeyStore
  Result<std::optional<KeyRecord>> lookup(const MessageKey& key) override { return read_key_row(*c_, key); }
  Result<std::optional<Receipt>> conflict_receipt(const MessageKey& key, const RawDigest& raw) override {
    ASSIGN_OR_RETURN(Rows r, c_->exec("SELECT receipt_status, receipt_headers, receipt_body FROM conflict_receipts"
                                      " WHERE partner_id = $1 AND message_id = $2 AND raw_sha256 = $3",
                                      Params().add(key.partner_id).add(key.message_id).add(raw.hex())));
    if (r.size() == 0) return std::optional<Receipt>();
    return std::optional<Receipt>(Receipt{static_cast<int>(r.int64(0, 0)), r.text(0, 1), r.text(0, 2)});
  }
  Status transact(const TransactionWork& work, int64_t lock_wait_ms) override;

  // MessageLogStore
  Status log(const std::vector<MessageLog>& rows) override {
    return transact(
        [&](Transaction& tx) -> Status {
          for (const auto& r : rows) RETURN_IF_ERROR(tx.log(r));
          return Status::ok();
        },
        c_->options().busy_timeout_ms);
  }

  // OutboxStore
  Status enqueue(const OutboxItem& item) override {
    return transact([&](Transaction& tx) { return tx.enqueue(item); }, c_->options().busy_timeout_ms);
  }
  Result<std::vector<OutboxEntry>> due_outbox(int limit, int64_t lease_ms) override {
    // SKIP LOCKED: a row another node is taking is not waited for, nor taken twice.
    std::vector<OutboxEntry> due;
    Status s = transact(
        [&](Transaction& tx) -> Status {
          Result<Rows> r = c_->exec(
              "UPDATE outbox SET state = 'in-flight', next_attempt_at = $1::bigint + $2::bigint WHERE id IN"
              " (SELECT id FROM outbox WHERE state IN ('pending', 'in-flight') AND next_attempt_at <= $1"
              " AND " OUTBOX_IN_ORDER
              " ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED) RETURNING " OUTBOX_COLUMNS,
              Params().add(tx.now_ms()).add(lease_ms).add(int64_t{limit}));
          if (!r.is_ok()) return r.status();
          due = outbox_rows(r.value());
          return Status::ok();
        },
        c_->options().busy_timeout_ms);
    if (!s.is_ok()) return s;
    return due;
  }
  Status outbox_prepared(int64_t id, const std::string& headers, const std::string& bytes) override {
    return done(c_->exec("UPDATE outbox SET prepared_headers = $1, prepared = $2 WHERE id = $3 AND prepared IS NULL",
                         Params().add(headers).bytes(bytes).add(id)));
  }
  Status outbox_delivered(int64_t id, const std::string& receipt) override {
    return done(
        c_->exec("UPDATE outbox SET state = 'delivered', attempts = attempts + 1, last_error = NULL,"
                 " receipt = $1, delivered_at = " +
                     c_->now_sql() + " WHERE id = $2",
                 Params().bytes(receipt).add(id)));
  }
  Status outbox_sent(int64_t id) override {
    return done(c_->exec("UPDATE outbox SET state = 'sent', attempts = attempts + 1, last_error = NULL WHERE id = $1",
                         Params().add(id)));
  }
  Status outbox_retry(int64_t id, int64_t next_attempt_ms, const std::string& error, bool give_up) override {
    return done(
        c_->exec("UPDATE outbox SET state = $1, attempts = attempts + 1, next_attempt_at = $2,"
                 " last_error = $3 WHERE id = $4",
                 Params().add(give_up ? "failed" : "pending").add(next_attempt_ms).add(error).add(id)));
  }
  Result<std::optional<OutboxEntry>> outbox_awaiting(const std::string& partner_id,
                                                     const std::string& message_id) override {
    return first(c_->exec("SELECT " OUTBOX_COLUMNS " FROM outbox WHERE message_id = $1 AND partner_id = $2"
                          " AND channel = 'as2' AND (state = 'sent' OR (state IN ('in-flight', 'pending')"
                          " AND prepared IS NOT NULL)) ORDER BY id DESC LIMIT 1",
                          Params().add(message_id).add(partner_id)));
  }
  Status outbox_answered(int64_t id, bool delivered, const std::string& receipt, const std::string& error) override {
    return done(
        c_->exec("UPDATE outbox SET state = $1, receipt = $2, last_error = NULLIF($3::text, ''),"
                 " delivered_at = " +
                     c_->now_sql() + " WHERE id = $4",
                 Params().add(delivered ? "delivered" : "failed").bytes(receipt).add(error).add(id)));
  }
  Result<std::vector<OutboxEntry>> list_outbox(const OutboxFilter& f) override {
    ASSIGN_OR_RETURN(Rows r, c_->exec("SELECT " OUTBOX_COLUMNS " FROM outbox WHERE ($1::text = '' OR partner_id = $1)"
                                      " AND ($2::text = '' OR state = $2) AND ($4::text = '' OR reference = $4)"
                                      " ORDER BY id DESC LIMIT $3",
                                      Params()
                                          .add(f.partner_id.value_or(""))
                                          .add(f.state.value_or(""))
                                          .add(int64_t{f.limit})
                                          .add(f.reference.value_or(""))));
    return outbox_rows(r);
  }
  Result<std::optional<OutboxEntry>> outbox_entry(int64_t id) override {
    return first(c_->exec("SELECT " OUTBOX_COLUMNS " FROM outbox WHERE id = $1", Params().add(id)));
  }
  Result<bool> outbox_retry_now(int64_t id) override {
    return one(c_->exec("UPDATE outbox SET state = 'pending', next_attempt_at = " + c_->now_sql() +
                            ", attempts = CASE state WHEN 'failed' THEN 0 ELSE attempts END"
                            " WHERE id = $1 AND state IN ('pending', 'failed')",
                        Params().add(id)));
  }
  Result<bool> outbox_cancel(int64_t id) override {
    return one(c_->exec("UPDATE outbox SET state = 'cancelled' WHERE id = $1 AND state IN ('pending', 'failed')",
                        Params().add(id)));
  }

  // CaptureStore
  Result<std::vector<CaptureInfo>> list_captures(const CaptureFilter& f) override {
    ASSIGN_OR_RETURN(
        Rows r,
        c_->exec("SELECT id, received_at, partner_id, protocol, message_id, (length(head) + length(body))::bigint"
                 " FROM captures WHERE ($1::text = '' OR partner_id = $1) AND ($2::text = '' OR message_id = $2)"
                 " AND received_at >= $3 ORDER BY id DESC LIMIT $4",
                 Params()
                     .add(f.partner_id.value_or(""))
                     .add(f.message_id.value_or(""))
                     .add(f.since_ms)
                     .add(int64_t{f.limit})));
    std::vector<CaptureInfo> out;
    out.reserve(static_cast<size_t>(r.size()));
    for (int i = 0; i < r.size(); ++i)
      out.push_back({r.int64(i, 0), r.int64(i, 1), r.int64(i, 5), r.text(i, 2), r.text(i, 3), r.text(i, 4)});
    return out;
  }
  Result<std::optional<Capture>> read_capture(int64_t id) override {
    ASSIGN_OR_RETURN(Rows r, c_->exec("SELECT partner_id, protocol, message_id, raw_sha256, head, body FROM captures"
                                      " WHERE id = $1",
                                      Params().add(id)));
    if (r.size() == 0) return std::optional<Capture>();
    return std::optional<Capture>(Capture{r.text(0, 0), r.text(0, 1), r.text(0, 2),
                                          crypto::RawDigest::from_hex(r.text(0, 3)), r.text(0, 4), r.text(0, 5)});
  }

  // Retention: each batch its own short transaction; no table lock.
  Result<PurgeBatch> purge_keys(const PurgeRequest& req) override;
  Result<int64_t> purge_messages(int64_t cutoff_ms, int batch, bool dry_run) override {
    if (dry_run) return scalar("SELECT count(*) FROM messages WHERE received_at < $1", Params().add(cutoff_ms));
    return delete_batch("DELETE FROM messages WHERE id IN (SELECT id FROM messages WHERE received_at < $1 LIMIT $2)",
                        cutoff_ms, batch);
  }
  Result<int64_t> purge_captures(int64_t cutoff_ms, int batch, bool dry_run) override {
    if (dry_run) return scalar("SELECT count(*) FROM captures WHERE received_at < $1", Params().add(cutoff_ms));
    return delete_batch("DELETE FROM captures WHERE id IN (SELECT id FROM captures WHERE received_at < $1 LIMIT $2)",
                        cutoff_ms, batch);
  }
  Result<int64_t> purge_outbox(int64_t cutoff_ms, int batch, bool dry_run) override {
    if (dry_run)
      return scalar("SELECT count(*) FROM outbox WHERE state IN ('delivered', 'cancelled') AND created_at < $1",
                    Params().add(cutoff_ms));
    return delete_batch(
        "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE state IN ('delivered',"
        " 'cancelled') AND created_at < $1 LIMIT $2)",
        cutoff_ms, batch);
  }
  Result<int64_t> purge_receipts(const PurgeRequest& req) override {
    const std::string partner = req.partner_id.value_or("");
    if (req.dry_run)
      return scalar(
          "SELECT count(*) FROM idempotency_keys WHERE received_at < $1 AND ($2::text = '' OR partner_id = $2)"
          " AND state = 'completed' AND receipt_body IS NOT NULL",
          Params().add(req.cutoff_ms).add(partner));
    Result<Rows> r = c_->exec(
        "UPDATE idempotency_keys k SET receipt_status = NULL, receipt_headers = NULL, receipt_body = NULL FROM"
        " (SELECT partner_id, message_id FROM idempotency_keys WHERE received_at < $1"
        " AND ($2::text = '' OR partner_id = $2) AND state = 'completed' AND receipt_body IS NOT NULL"
        " LIMIT $3 FOR UPDATE SKIP LOCKED) b WHERE k.partner_id = b.partner_id AND k.message_id = b.message_id",
        Params().add(req.cutoff_ms).add(partner).add(int64_t{req.batch}));
    if (!r.is_ok()) return r.status();
    return r->affected();
  }
  Result<int64_t> purge_lease_owners(int64_t cutoff_ms, bool dry_run) override {
    const std::string gone =
        " FROM lease_owners WHERE heartbeat_at < $1 AND NOT EXISTS (SELECT 1 FROM idempotency_keys"
        " WHERE owner = lease_owners.id AND state = 'processing')";
    if (dry_run) return scalar("SELECT count(*)" + gone, Params().add(cutoff_ms));
    ASSIGN_OR_RETURN(Rows r, c_->exec("DELETE" + gone, Params().add(cutoff_ms)));
    return r.affected();
  }
  Result<std::vector<std::string>> partners_with_keys() override {
    ASSIGN_OR_RETURN(Rows r, c_->exec("SELECT DISTINCT partner_id FROM idempotency_keys ORDER BY partner_id"));
    std::vector<std::string> out;
    out.reserve(static_cast<size_t>(r.size()));
    for (int i = 0; i < r.size(); ++i) out.push_back(r.text(i, 0));
    return out;
  }

  // Reports
  Result<StatusReport> report() override;
  Result<Gauges> gauges(int max_failures) override;
  Result<int64_t> now_ms() override { return c_->clock_ms(); }
  Result<std::vector<PeppolExchange>> peppol_exchanges(int64_t from_ms, int64_t to_ms) override {
    static const std::string sql = exchange_select_sql('$');
    ASSIGN_OR_RETURN(Rows r, c_->exec(sql.c_str(), Params().add(from_ms).add(to_ms)));
    std::vector<PeppolExchange> out;
    out.reserve(static_cast<size_t>(r.size()));
    for (int i = 0; i < r.size(); ++i) {
      out.push_back(exchange_of([&](int col) { return r.text(i, col); }, r.int64(i, 3)));
    }
    return out;
  }

  ConsoleStore& console() override { return *console_; }

 private:
  Result<int64_t> scalar(const std::string& sql, const Params& p = {}) {
    ASSIGN_OR_RETURN(Rows r, c_->exec(sql, p));
    return r.size() > 0 ? r.int64(0, 0) : 0;
  }
  Result<int64_t> delete_batch(const char* sql, int64_t cutoff, int64_t batch) {
    ASSIGN_OR_RETURN(Rows r, c_->exec(sql, Params().add(cutoff).add(batch)));
    return r.affected();
  }

  std::unique_ptr<Connection> c_;
  std::unique_ptr<ConsoleStore> console_;
};

Status PgStore::transact(const TransactionWork& work, int64_t lock_wait_ms) {
  // A serialization failure or a deadlock runs the work again from the start
  // (the gate's work is written to be re-run); three times at most.
  constexpr int kTries = 3;
  for (int attempt = 1;; ++attempt) {
    ASSIGN_OR_RETURN(int64_t now, c_->begin(lock_wait_ms));
    PgTransaction tx(*c_, now);
    Status s;
    try {
      s = work(tx);
    } catch (const std::exception& e) {  // work returns values; this is the last line, not the path
      s = Status::transient(std::string("transaction failed: ") + e.what());
    }
    if (s.is_ok()) {
      s = c_->commit();
      if (s.is_ok()) return s;
    }
    const bool again = c_->retryable() && attempt < kTries;
    c_->rollback();
    if (!again) return s;
  }
}

Result<PurgeBatch> PgStore::purge_keys(const PurgeRequest& req) {
  PurgeBatch b;
  ASSIGN_OR_RETURN(int64_t now, c_->clock_ms());
  const std::string partner = req.partner_id.value_or("");
  const char* live_sql =
      "SELECT count(*) FROM idempotency_keys WHERE received_at < $1 AND ($2::text = '' OR partner_id = $2)"
      " AND state = 'processing' AND lease_until > $3";
  if (req.dry_run) {
    Result<int64_t> count = scalar(
        "SELECT count(*) FROM idempotency_keys WHERE received_at < $1 AND ($2::text = '' OR partner_id = $2)"
        " AND (state <> 'processing' OR lease_until <= $3)",
        Params().add(req.cutoff_ms).add(partner).add(now));
    Result<int64_t> live = scalar(live_sql, Params().add(req.cutoff_ms).add(partner).add(now));
    if (!count.is_ok()) return count.status();
    if (!live.is_ok()) return live.status();
    b.deleted = count.value();
    b.kept_live = live.value();
    return b;
  }
  RETURN_IF_ERROR(transact(
      [&](Transaction&) -> Status {
        // One batch of keys (SKIP LOCKED: never wait on a key a message holds),
        // and the conflict answers stored for them.
        ASSIGN_OR_RETURN(
            Rows r, c_->exec("WITH batch AS (SELECT partner_id, message_id FROM idempotency_keys WHERE received_at < $1"
                             " AND ($2::text = '' OR partner_id = $2) AND (state <> 'processing' OR lease_until <= $3)"
                             " LIMIT $4 FOR UPDATE SKIP LOCKED),"
                             " conflicts AS (DELETE FROM conflict_receipts c USING batch"
                             " WHERE c.partner_id = batch.partner_id AND c.message_id = batch.message_id)"
                             " DELETE FROM idempotency_keys k USING batch"
                             " WHERE k.partner_id = batch.partner_id AND k.message_id = batch.message_id",
                             Params().add(req.cutoff_ms).add(partner).add(now).add(int64_t{req.batch})));
        b.deleted = r.affected();
        return Status::ok();
      },
      c_->options().busy_timeout_ms));
  if (b.deleted < req.batch) {  // the last batch: say what stayed behind
    ASSIGN_OR_RETURN(int64_t live, scalar(live_sql, Params().add(req.cutoff_ms).add(partner).add(now)));
    b.kept_live = live;
  }
  return b;
}

Result<StatusReport> PgStore::report() {
  StatusReport r;
  r.schema_version = c_->schema_version();
  Result<Rows> keys = c_->exec(
      "SELECT partner_id, protocol, state, count(*) FROM idempotency_keys"
      " GROUP BY partner_id, protocol, state ORDER BY 1, 2, 3");
  if (!keys.is_ok()) return keys.status();
  for (int i = 0; i < keys->size(); ++i)
    r.keys.push_back({keys->text(i, 0), keys->text(i, 1), keys->text(i, 2), keys->int64(i, 3)});
  ASSIGN_OR_RETURN(Rows span, c_->exec("SELECT COALESCE(MIN(received_at), 0), COALESCE(MAX(received_at), 0)"
                                       " FROM idempotency_keys"));
  r.oldest_received_ms = span.int64(0, 0);
  r.newest_received_ms = span.int64(0, 1);
  ASSIGN_OR_RETURN(int64_t now, c_->clock_ms());
  ASSIGN_OR_RETURN(
      Rows outcomes,
      c_->exec("SELECT outcome, sum(answers)::bigint FROM messages WHERE received_at >= $1 GROUP BY outcome",
               Params().add(now - 24LL * 3600 * 1000)));
  for (int i = 0; i < outcomes.size(); ++i) r.outcomes_24h[outcomes.text(i, 0)] = outcomes.int64(i, 1);
  std::vector<std::string> tables = document_tables();
  for (const char* other : {"messages", "outbox", "captures"}) tables.emplace_back(other);
  std::string sql = "SELECT ";
  for (const std::string& table : tables) sql += "(SELECT count(*) FROM " + table + "), ";
  ASSIGN_OR_RETURN(Rows counts, c_->exec(sql + "pg_database_size(current_database())"));
  int col = 0;
  for (const std::string& table : tables) r.business_rows[table] = counts.int64(0, col++);
  r.store_bytes = counts.int64(0, col);
  return r;
}

Result<Gauges> PgStore::gauges(int max_failures) {
  Gauges g;
  g.schema_version = c_->schema_version();
  ASSIGN_OR_RETURN(Rows keys,
                   c_->exec("SELECT state, count(*), count(*) FILTER (WHERE failures >= $1) FROM idempotency_keys"
                            " WHERE state <> 'completed' GROUP BY state",
                            Params().add(int64_t{max_failures})));
  for (int i = 0; i < keys.size(); ++i) {
    g.open_keys[keys.text(i, 0)] = keys.int64(i, 1);
    if (keys.text(i, 0) == "failed") g.poison_keys = keys.int64(i, 2);
  }
  Result<Rows> outbox = c_->exec(
      "SELECT state, count(*), min(created_at) FROM outbox"
      " WHERE state IN ('pending', 'in-flight', 'sent', 'failed') GROUP BY state");
  if (!outbox.is_ok()) return outbox.status();
  for (int i = 0; i < outbox->size(); ++i) g.outbox[outbox->text(i, 0)] = {outbox->int64(i, 1), outbox->int64(i, 2)};
  ASSIGN_OR_RETURN(Rows size, c_->exec("SELECT pg_database_size(current_database())"));
  g.store_bytes = size.int64(0, 0);
  ASSIGN_OR_RETURN(int64_t purged, scalar("SELECT COALESCE(max(at), 0) FROM audit WHERE action = 'purge'"));
  g.last_purge_ms = purged;
  return g;
}

}  // namespace

Result<std::unique_ptr<Store>> open_postgresql_store(const std::string& uri, const StoreOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<Connection> c, Connection::open(uri, options));
  return std::unique_ptr<Store>(new PgStore(std::move(c)));
}

}  // namespace edihub::store::postgresql
