// What the operator console reads and writes: the message log searched and
// shown, keys by state, documents booked from an interchange, traffic per
// hour, and the console's own operators, sessions and audit trail. Every
// read is bounded (a limit, a time range, an index).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/common/status.h"
#include "src/store/key.h"

namespace edihub::store {

struct MessageRow {
  int64_t id = 0, received_at_ms = 0;
  std::string partner_id, protocol, transport, transport_id, message_id, outcome, detail;
  int64_t bytes = 0, documents = 0, duration_ms = 0, capture_id = 0;
};

// Empty fields match everything. `text` matches a transport id or one of
// `keys` (the idempotency keys it may stand for: an AS2 or AS4 id, an
// interchange control number under each sender id); `document` an invoice or
// despatch advice number booked for one of `document_partners` (all when
// empty). Newest first, ids below `before_id`. Every filter given is an
// index look-up, none a scan of the message log.
struct MessageQuery {
  std::string partner_id, protocol, outcome, text, document;
  std::vector<std::string> keys, document_partners;
  int64_t since_ms = 0, until_ms = 0;  // 0: unbounded
  int64_t before_id = 0;               // 0: from the newest
  int limit = 50;
};

// The WHERE clause of a message search (without the word) and its values in
// order, written once for both backends: placeholders ?N (SQLite) or $N
// (PostgreSQL, numbers cast to bigint).
struct SqlValue {
  std::string text;
  int64_t number = 0;
  bool is_number = false;
};
struct SqlFilter {
  std::string where;
  std::vector<SqlValue> values;
};
SqlFilter message_search_sql(const MessageQuery& query, bool postgresql);

struct BookedDocument {
  std::string kind;  // invoice, shipment-notice
  std::string number, purpose, status, document_date;
  int64_t versions = 0, updated_at_ms = 0;
};

struct HourCount {
  std::string partner_id, outcome;
  int64_t hour = 0;  // hours since the epoch
  int64_t messages = 0;
};

// What a message page shows of an archived request: its head, and how big it is.
struct CaptureHead {
  std::string head;
  int64_t bytes = 0;  // head and body
};

struct Operator {
  std::string name, password_hash, role;  // role: viewer, operator
  int64_t created_at_ms = 0;
};

struct ConsoleSession {
  std::string operator_name, role, csrf;
  int64_t expires_at_ms = 0;
};

struct AuditEntry {
  int64_t id = 0, at_ms = 0;
  std::string operator_name, action, target, result, peer;
};

class ConsoleStore {
 public:
  virtual ~ConsoleStore() = default;

  virtual Result<std::vector<MessageRow>> find_messages(const MessageQuery& query) = 0;
  virtual Result<std::optional<MessageRow>> message(int64_t id) = 0;
  // Every row one transport message wrote (itself and its interchanges), oldest first.
  virtual Result<std::vector<MessageRow>> transport_rows(const std::string& partner_id,
                                                         const std::string& transport_id) = 0;
  // Keys in `state` (processing or failed) that failed at least
  // `min_failures` times (poison: the gate's max_failures), newest first.
  // Receipt bodies are not read.
  virtual Result<std::vector<KeyRecord>> open_keys(const std::string& state, int64_t min_failures, int limit) = 0;
  virtual Result<std::vector<BookedDocument>> documents_from(const std::string& partner_id,
                                                             const std::string& source) = 0;
  virtual Result<std::vector<HourCount>> hourly(int64_t since_ms) = 0;
  // The head of capture `id` without reading its body (which may be large).
  virtual Result<std::optional<CaptureHead>> capture_head(int64_t id) = 0;
  // When the partner's newest message arrived (ms), 0 when none is logged.
  virtual Result<int64_t> last_received(const std::string& partner_id) = 0;

  virtual Status put_operator(const Operator& op) = 0;  // added, or its password and role replaced
  virtual Result<bool> remove_operator(const std::string& name) = 0;
  // Every operator, or the one called `name`.
  virtual Result<std::vector<Operator>> operators(const std::string& name = "") = 0;
  Result<std::optional<Operator>> find_operator(const std::string& name);

  virtual Status put_session(const std::string& token_sha256, const std::string& operator_name, const std::string& csrf,
                             int64_t expires_at_ms) = 0;
  // The live session of that token digest (expired ones are not found).
  virtual Result<std::optional<ConsoleSession>> find_session(const std::string& token_sha256) = 0;
  virtual Status end_session(const std::string& token_sha256) = 0;

  // The row written (its at and id set by the store): its id.
  virtual Result<int64_t> audit(const AuditEntry& entry) = 0;
  virtual Result<std::vector<AuditEntry>> audit_trail(int limit) = 0;
};

}  // namespace edihub::store
