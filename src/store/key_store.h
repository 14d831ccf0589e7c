// The key store: one indexed read for what is known of a key, and write
// transactions in which the gate claims and settles keys.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "src/common/status.h"
#include "src/store/key.h"
#include "src/store/transaction.h"

namespace edihub::store {

// Work inside a transaction: an error Status rolls everything back.
using TransactionWork = std::function<Status(Transaction&)>;

class KeyStore {
 public:
  virtual ~KeyStore() = default;
  // What is stored for the key, from one indexed read (no lock taken).
  virtual Result<std::optional<KeyRecord>> lookup(const MessageKey& key) = 0;
  // The stored answer to a conflicting message with exactly these bytes.
  virtual Result<std::optional<Receipt>> conflict_receipt(const MessageKey& key, const RawDigest& raw) = 0;
  // Runs `work` in one write transaction and commits it durably (per the
  // store's durability setting), or rolls back and returns its error. Waits
  // at most `lock_wait_ms` for the write lock; then Transient "store busy".
  virtual Status transact(const TransactionWork& work, int64_t lock_wait_ms) = 0;
};

}  // namespace edihub::store
