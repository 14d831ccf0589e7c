// The operator console's tables and reads on PostgreSQL (src/store/console.h).
#pragma once

#include "src/store/console.h"
#include "src/store/postgresql/connection.h"

namespace edihub::store::postgresql {

class Console : public ConsoleStore {
 public:
  explicit Console(Connection& c) : c_(c) {}

  Result<std::vector<MessageRow>> find_messages(const MessageQuery& query) override;
  Result<std::optional<MessageRow>> message(int64_t id) override;
  Result<std::vector<MessageRow>> transport_rows(const std::string& partner_id, const std::string& transport_id) override;
  Result<std::vector<KeyRecord>> open_keys(const std::string& state, int limit) override;
  Result<std::vector<BookedDocument>> documents_from(const std::string& partner_id, const std::string& source) override;
  Result<std::vector<HourCount>> hourly(int64_t since_ms) override;
  Result<int64_t> last_received(const std::string& partner_id) override;
  Status put_operator(const Operator& op) override;
  Result<bool> remove_operator(const std::string& name) override;
  Result<std::vector<Operator>> operators() override;
  Result<std::optional<Operator>> find_operator(const std::string& name) override;
  Status put_session(const std::string& token_sha256, const std::string& operator_name, const std::string& csrf,
                     int64_t expires_at_ms) override;
  Result<std::optional<ConsoleSession>> find_session(const std::string& token_sha256) override;
  Status end_session(const std::string& token_sha256) override;
  Result<int64_t> audit(const AuditEntry& entry) override;
  Result<std::vector<AuditEntry>> audit_trail(int limit) override;

 private:
  Result<std::vector<Operator>> named(const std::string& name);  // one, or all for ""
  Connection& c_;
};

}  // namespace edihub::store::postgresql
