#include "src/store/sqlite/keys.h"

namespace edihub::store::sqlite {

Keys::Keys(Connection& c)
    : select_(c,
              "SELECT state, received_at, COALESCE(lease_until, 0), attempts, failures, payload_sha256, raw_sha256,"
              " COALESCE(outcome, ''), COALESCE(error, ''), COALESCE(receipt_status, 0),"
              " COALESCE(receipt_headers, ''), receipt_body, COALESCE(k.owner, ''), COALESCE(o.node, ''),"
              " COALESCE(o.heartbeat_at, 0)"
              " FROM idempotency_keys k LEFT JOIN lease_owners o ON o.id = k.owner"
              " WHERE partner_id = ?1 AND message_id = ?2"),
      insert_(c,
              "INSERT INTO idempotency_keys (partner_id, message_id, protocol, state, received_at, updated_at,"
              " lease_until, attempts, failures, payload_sha256, raw_sha256, owner)"
              " VALUES (?1, ?2, ?3, 'processing', ?4, ?4, ?5, 1, 0, ?6, ?7, NULLIF(?8, '')) ON CONFLICT DO NOTHING"),
      take_over_(c,
                 "UPDATE idempotency_keys SET state = 'processing', attempts = attempts + 1, lease_until = ?1,"
                 " updated_at = ?2, payload_sha256 = ?3, raw_sha256 = ?4, owner = NULLIF(?8, '')"
                 " WHERE partner_id = ?5 AND message_id = ?6 AND attempts = ?7 AND state <> 'completed'"),
      settle_(c,
              "UPDATE idempotency_keys SET state = ?1, receipt_status = ?2, receipt_headers = ?3,"
              " receipt_body = ?4, outcome = ?5, error = ?6, lease_until = NULL, updated_at = ?7,"
              " failures = failures + ?8, payload_sha256 = CASE WHEN ?9 = '' THEN payload_sha256 ELSE ?9 END"
              " WHERE partner_id = ?10 AND message_id = ?11 AND state = 'processing' AND attempts = ?12"),
      release_(c,
               "UPDATE idempotency_keys SET lease_until = ?1, updated_at = ?1"
               " WHERE partner_id = ?2 AND message_id = ?3 AND state = 'processing' AND attempts = ?4"),
      forgive_(c,
               "UPDATE idempotency_keys SET failures = 0, updated_at = ?1"
               " WHERE partner_id = ?2 AND message_id = ?3 AND state = 'failed' AND attempts = ?4"),
      put_conflict_(c,
                    "INSERT INTO conflict_receipts (partner_id, message_id, raw_sha256, created_at, receipt_status,"
                    " receipt_headers, receipt_body) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING"),
      get_conflict_(c,
                    "SELECT receipt_status, receipt_headers, receipt_body FROM conflict_receipts"
                    " WHERE partner_id = ?1 AND message_id = ?2 AND raw_sha256 = ?3"),
      heartbeat_(c,
                 "INSERT INTO lease_owners (id, node, started_at, heartbeat_at) VALUES (?1, ?2, ?3, ?3)"
                 " ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at") {}

Result<bool> Keys::insert(const MessageKey& key, const PayloadDigest& payload, const RawDigest& raw, int64_t now_ms,
                          int64_t lease_until_ms, const std::string& owner) {
  Using q(insert_);
  q->bind(1, key.partner_id).bind(2, key.message_id).bind(3, key.protocol()).bind(4, now_ms);
  q->bind(5, lease_until_ms).bind(6, payload.hex()).bind(7, raw.hex()).bind(8, owner);
  ASSIGN_OR_RETURN(int64_t n, q->run());
  return n == 1;
}

Result<std::optional<KeyRecord>> Keys::read(const MessageKey& key) {
  Using q(select_);
  q->bind(1, key.partner_id).bind(2, key.message_id);
  ASSIGN_OR_RETURN(bool row, q->step());
  if (!row) return std::optional<KeyRecord>();
  KeyRecord r;
  r.key = key;
  r.state = state_from(q->text(0));
  r.received_at_ms = q->int64(1);
  r.lease_until_ms = q->int64(2);
  r.attempts = q->int64(3);
  r.failures = q->int64(4);
  r.payload = PayloadDigest::from_hex(q->text(5));
  r.raw = RawDigest::from_hex(q->text(6));
  r.outcome = q->text(7);
  r.error = q->text(8);
  r.receipt = {static_cast<int>(q->int64(9)), q->text(10), q->blob(11)};
  r.owner = q->text(12);
  r.owner_node = q->text(13);
  r.owner_heartbeat_ms = q->int64(14);
  return std::optional<KeyRecord>(std::move(r));
}

Result<bool> Keys::take_over(const MessageKey& key, int64_t attempts, const PayloadDigest& payload,
                             const RawDigest& raw, int64_t now_ms, int64_t lease_until_ms, const std::string& owner) {
  Using q(take_over_);
  q->bind(1, lease_until_ms).bind(2, now_ms).bind(3, payload.hex()).bind(4, raw.hex());
  q->bind(5, key.partner_id).bind(6, key.message_id).bind(7, attempts).bind(8, owner);
  ASSIGN_OR_RETURN(int64_t n, q->run());
  return n == 1;
}

Result<bool> Keys::settle(const MessageKey& key, int64_t token, const PayloadDigest& payload, const Settlement& s,
                          int64_t now_ms) {
  Using q(settle_);
  q->bind(1, state_name(s.state)).bind(2, s.receipt.status).bind(3, s.receipt.headers);
  q->bind_blob(4, s.receipt.body).bind(5, outcome_name(s.outcome)).bind(6, s.error).bind(7, now_ms);
  q->bind(8, s.state == KeyState::Failed ? 1 : 0).bind(9, payload.hex()).bind(10, key.partner_id);
  q->bind(11, key.message_id).bind(12, token);
  ASSIGN_OR_RETURN(int64_t n, q->run());
  return n == 1;
}

Result<bool> Keys::release(const MessageKey& key, int64_t token, int64_t now_ms) {
  Using q(release_);
  q->bind(1, now_ms).bind(2, key.partner_id).bind(3, key.message_id).bind(4, token);
  ASSIGN_OR_RETURN(int64_t n, q->run());
  return n == 1;
}

Result<bool> Keys::forgive(const MessageKey& key, int64_t attempts, int64_t now_ms) {
  Using q(forgive_);
  q->bind(1, now_ms).bind(2, key.partner_id).bind(3, key.message_id).bind(4, attempts);
  ASSIGN_OR_RETURN(int64_t n, q->run());
  return n == 1;
}

Status Keys::put_conflict_receipt(const MessageKey& key, const RawDigest& raw, const Receipt& r, int64_t now_ms) {
  Using q(put_conflict_);
  q->bind(1, key.partner_id).bind(2, key.message_id).bind(3, raw.hex()).bind(4, now_ms);
  q->bind(5, r.status).bind(6, r.headers).bind_blob(7, r.body);
  Result<int64_t> n = q->run();
  return n.is_ok() ? Status::ok() : n.status();
}

Status Keys::heartbeat(const std::string& owner, const std::string& node, int64_t now_ms) {
  Using q(heartbeat_);
  q->bind(1, owner).bind(2, node).bind(3, now_ms);
  Result<int64_t> n = q->run();
  return n.is_ok() ? Status::ok() : n.status();
}

Result<std::optional<Receipt>> Keys::conflict_receipt(const MessageKey& key, const RawDigest& raw) {
  Using q(get_conflict_);
  q->bind(1, key.partner_id).bind(2, key.message_id).bind(3, raw.hex());
  ASSIGN_OR_RETURN(bool row, q->step());
  if (!row) return std::optional<Receipt>();
  return std::optional<Receipt>(Receipt{static_cast<int>(q->int64(0)), q->text(1), q->blob(2)});
}

}  // namespace edihub::store::sqlite
