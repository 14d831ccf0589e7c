// A backend's ConsoleStore, declared once: each backend defines the members
// of ConsoleBackend<its Connection> (src/store/sqlite/console.cpp,
// src/store/postgresql/console.cpp), in its own SQL dialect.
#pragma once

#include "src/store/console.h"

namespace edihub::store {

template <typename Connection>
class ConsoleBackend : public ConsoleStore {
 public:
  explicit ConsoleBackend(Connection& c) : c_(c) {}

  Result<std::vector<MessageRow>> find_messages(const MessageQuery& query) override;
  Result<std::optional<MessageRow>> message(int64_t id) override;
  Result<std::vector<MessageRow>> transport_rows(const std::string& partner_id,
                                                 const std::string& transport_id) override;
  Result<std::vector<KeyRecord>> open_keys(const std::string& state, int64_t min_failures, int limit) override;
  Result<std::vector<BookedDocument>> documents_from(const std::string& partner_id, const std::string& source) override;
  Result<std::vector<HourCount>> hourly(int64_t since_ms) override;
  Result<std::optional<CaptureHead>> capture_head(int64_t id) override;
  Result<int64_t> last_received(const std::string& partner_id) override;
  Status put_operator(const Operator& op) override;
  Result<bool> remove_operator(const std::string& name) override;
  Result<std::vector<Operator>> operators(const std::string& name) override;
  Status put_session(const std::string& token_sha256, const std::string& operator_name, const std::string& csrf,
                     int64_t expires_at_ms) override;
  Result<std::optional<ConsoleSession>> find_session(const std::string& token_sha256) override;
  Status end_session(const std::string& token_sha256) override;
  Result<int64_t> audit(const AuditEntry& entry) override;
  Result<std::vector<AuditEntry>> audit_trail(int limit) override;

 private:
  Connection& c_;
};

// The columns every message row is read with, in MessageRow's order.
inline constexpr const char* kMessageColumns =
    "SELECT id, received_at, COALESCE(partner_id, ''), protocol, transport, COALESCE(transport_id, ''),"
    " COALESCE(message_id, ''), outcome, COALESCE(detail, ''), bytes, documents, duration_ms, COALESCE(capture_id, 0)"
    " FROM messages ";

}  // namespace edihub::store
