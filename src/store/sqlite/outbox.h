// The outbox table on SQLite (see src/store/outbox.h for the states).
#pragma once

#include "src/store/outbox.h"
#include "src/store/sqlite/connection.h"

namespace edihub::store::sqlite {

class Outbox {
 public:
  explicit Outbox(Connection& c);

  // True when a row is due at `now_ms`: a read, outside any write transaction.
  Result<bool> any_due(int64_t now_ms);
  // `due`: in one transaction the caller holds.
  Result<std::vector<OutboxEntry>> take_due(int limit, int64_t now_ms, int64_t lease_ms);
  Status prepared(int64_t id, const std::string& headers, const std::string& bytes);
  Status delivered(int64_t id, const std::string& receipt, int64_t now_ms);
  Status sent(int64_t id);
  Status retry(int64_t id, int64_t next_attempt_ms, const std::string& error, bool give_up);
  Result<std::optional<OutboxEntry>> awaiting(const std::string& partner_id, const std::string& message_id);
  Status answered(int64_t id, bool delivered, const std::string& receipt, const std::string& error, int64_t now_ms);
  Result<std::vector<OutboxEntry>> list(const OutboxFilter& filter);
  Result<std::optional<OutboxEntry>> entry(int64_t id);
  Result<bool> retry_now(int64_t id, int64_t now_ms);
  Result<bool> cancel(int64_t id);

 private:
  Connection& c_;
  Stmt any_due_;  // asked on every wake and poll of the outbox workers: prepared once
};

}  // namespace edihub::store::sqlite
