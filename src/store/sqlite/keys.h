// idempotency_keys and conflict_receipts on SQLite: the key primitives the
// gate's rules are written on.
#pragma once

#include <optional>

#include "src/store/key.h"
#include "src/store/sqlite/connection.h"

namespace edihub::store::sqlite {

class Keys {
 public:
  explicit Keys(Connection& c);

  Result<bool> insert(const MessageKey& key, const PayloadDigest& payload, const RawDigest& raw, int64_t now_ms,
                      int64_t lease_until_ms, const std::string& owner);
  Result<std::optional<KeyRecord>> read(const MessageKey& key);
  Result<bool> take_over(const MessageKey& key, int64_t attempts, const PayloadDigest& payload, const RawDigest& raw,
                         int64_t now_ms, int64_t lease_until_ms, const std::string& owner);
  Status heartbeat(const std::string& owner, const std::string& node, int64_t now_ms);
  Result<bool> settle(const MessageKey& key, int64_t token, const PayloadDigest& payload, const Settlement& s,
                      int64_t now_ms);
  Result<bool> release(const MessageKey& key, int64_t token, int64_t now_ms);
  Result<bool> forgive(const MessageKey& key, int64_t attempts, int64_t now_ms);
  Status put_conflict_receipt(const MessageKey& key, const RawDigest& raw, const Receipt& r, int64_t now_ms);
  Result<std::optional<Receipt>> conflict_receipt(const MessageKey& key, const RawDigest& raw);

 private:
  Stmt select_, insert_, take_over_, settle_, release_, forgive_, put_conflict_, get_conflict_, heartbeat_;
};

}  // namespace edihub::store::sqlite
