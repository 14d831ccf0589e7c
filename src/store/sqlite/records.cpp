#include "src/store/sqlite/records.h"

#include "src/common/partner_text.h"

namespace edihub::store::sqlite {

namespace {

// Kept for the process: a statement keeps the text it was prepared from.
const std::string& exchange_insert() {
  static const std::string sql = exchange_insert_sql('?');
  return sql;
}

}  // namespace

Records::Records(Connection& c)
    : c_(c),
      log_(c,
           "INSERT INTO messages (received_at, partner_id, protocol, transport, transport_id, message_id, outcome,"
           " bytes, documents, duration_ms, detail, capture_id, answers)"
           " VALUES (?1, NULLIF(?2, ''), ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, NULLIF(?12, 0), ?13)"),
      enqueue_(
          c,
          "INSERT INTO outbox (partner_id, kind, reference, channel, destination, message_id, headers, body,"
          " created_at, next_attempt_at, order_key) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, NULLIF(?10, ''))"),
      archive_(c,
               "INSERT INTO captures (received_at, partner_id, protocol, message_id, raw_sha256, head, body)"
               " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"),
      exchange_(c, exchange_insert().c_str()) {}

Status Records::record_exchange(const PeppolExchange& e, int64_t now_ms) {
  Using q(exchange_);
  q->bind(1, e.partner_id).bind(2, e.message_id).bind(3, e.direction).bind(4, now_ms).bind(5, e.other_sp);
  q->bind(6, e.transport_profile).bind(7, e.document_type_scheme).bind(8, e.document_type);
  q->bind(9, e.process_scheme).bind(10, e.process).bind(11, e.sender).bind(12, e.receiver);
  q->bind(13, e.c1_country).bind(14, e.c4_country);
  Result<int64_t> n = q->run();
  return n.is_ok() ? Status::ok() : n.status();
}

Status Records::log(const MessageLog& m, int64_t now_ms) {
  Using q(log_);
  q->bind(1, now_ms).bind(2, partner_text(m.partner_id, 128)).bind(3, m.protocol).bind(4, m.transport);
  q->bind(5, partner_text(m.transport_id, 1000)).bind(6, partner_text(m.message_id, 1000));
  q->bind(7, outcome_name(m.outcome)).bind(8, m.bytes).bind(9, m.documents).bind(10, m.duration_ms);
  q->bind(11, partner_text(m.detail, 2000)).bind(12, m.capture_id).bind(13, m.answers);
  Result<int64_t> n = q->run();
  return n.is_ok() ? Status::ok() : n.status();
}

Status Records::enqueue(const OutboxItem& i, int64_t now_ms) {
  Using q(enqueue_);
  q->bind(1, i.partner_id).bind(2, i.kind).bind(3, i.reference).bind(4, i.channel).bind(5, i.destination);
  q->bind(6, i.message_id).bind(7, i.headers).bind_blob(8, i.body).bind(9, now_ms).bind(10, i.order_key);
  Result<int64_t> n = q->run();
  return n.is_ok() ? Status::ok() : n.status();
}

Result<int64_t> Records::archive(const CaptureRef& cap, int64_t now_ms) {
  Using q(archive_);
  q->bind(1, now_ms).bind(2, cap.partner_id).bind(3, cap.protocol).bind(4, cap.message_id).bind(5, cap.raw.hex());
  q->bind_blob(6, cap.head).bind_blob(7, cap.body);
  RETURN_IF_ERROR(q->run());
  return static_cast<int64_t>(sqlite3_last_insert_rowid(c_.db()));
}

}  // namespace edihub::store::sqlite
