// The SQLite Transaction: the per-concern statements of one connection
// (keys.cpp, business.cpp, records.cpp) at one moment of the store's clock.
#pragma once

#include "src/store/sqlite/business.h"
#include "src/store/sqlite/keys.h"
#include "src/store/sqlite/records.h"
#include "src/store/transaction.h"

namespace edihub::store::sqlite {

class SqliteTransaction : public Transaction {
 public:
  SqliteTransaction(Keys& keys, Business& business, Records& records, int64_t now_ms)
      : keys_(keys), business_(business), records_(records), now_(now_ms) {}

  int64_t now_ms() const override { return now_; }
  Result<bool> insert_key(const MessageKey& key, const PayloadDigest& payload, const RawDigest& raw,
                          int64_t lease_until_ms, const std::string& owner) override {
    return keys_.insert(key, payload, raw, now_, lease_until_ms, owner);
  }
  Result<std::optional<KeyRecord>> read_key(const MessageKey& key) override { return keys_.read(key); }
  Result<bool> take_over(const MessageKey& key, int64_t attempts, const PayloadDigest& payload, const RawDigest& raw,
                         int64_t lease_until_ms, const std::string& owner) override {
    return keys_.take_over(key, attempts, payload, raw, now_, lease_until_ms, owner);
  }
  Status heartbeat(const std::string& owner, const std::string& node) override {
    return keys_.heartbeat(owner, node, now_);
  }
  Result<bool> settle_key(const MessageKey& key, int64_t token, const PayloadDigest& payload,
                          const Settlement& s) override {
    return keys_.settle(key, token, payload, s, now_);
  }
  Result<bool> release_key(const MessageKey& key, int64_t token) override { return keys_.release(key, token, now_); }
  Result<bool> forgive_key(const MessageKey& key, int64_t attempts) override {
    return keys_.forgive(key, attempts, now_);
  }
  Status put_conflict_receipt(const MessageKey& key, const RawDigest& raw, const Receipt& r) override {
    return keys_.put_conflict_receipt(key, raw, r, now_);
  }
  Result<Applied> put_document(const std::string& partner, const business::Document& doc,
                               const std::string& source) override {
    return business_.put_document(partner, doc, source, now_);
  }
  Result<int64_t> next_sequence(const std::string& name) override { return business_.next_sequence(name); }
  Status log(const MessageLog& entry) override { return records_.log(entry, now_); }
  Result<int64_t> archive(const CaptureRef& capture) override { return records_.archive(capture, now_); }
  Status record_exchange(const PeppolExchange& e) override { return records_.record_exchange(e, now_); }

 private:
  Status put_outbox(const OutboxItem& item) override { return records_.enqueue(item, now_); }

  Keys& keys_;
  Business& business_;
  Records& records_;
  int64_t now_;
};

}  // namespace edihub::store::sqlite
