// One write transaction: everything a received message changes commits
// together or not at all (keys, business rows, log rows, outbox, capture).
// Every call returns a value; nothing throws through the caller's code.
// REQUIRES: a Transaction is used only inside the work it was given to.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "src/business/documents.h"
#include "src/business/registry.h"
#include "src/common/status.h"
#include "src/store/captures.h"
#include "src/store/exchanges.h"
#include "src/store/key.h"
#include "src/store/message_log.h"
#include "src/store/outbox.h"

namespace edihub::store {

// What booking a document did.
enum class Applied { Inserted, Replaced, Cancelled, IgnoredOlder };
std::string_view applied_name(Applied a);

class Transaction {
 public:
  virtual ~Transaction() = default;
  // The store's clock when the transaction began (ms since the epoch; the
  // database's own clock where the backend has one).
  virtual int64_t now_ms() const = 0;

  // Keys. The gate's rules (src/gate/claim.cpp) are written on these.
  // INSERT ... ON CONFLICT DO NOTHING as processing with attempts = 1; true
  // when this call inserted it. `owner` names who holds the lease (see
  // heartbeat); empty: nobody, the lease alone decides.
  virtual Result<bool> insert_key(const MessageKey& key, const PayloadDigest& payload, const RawDigest& raw,
                                  int64_t lease_until_ms, const std::string& owner = {}) = 0;
  virtual Result<std::optional<KeyRecord>> read_key(const MessageKey& key) = 0;
  // Takes a key over (failed, or processing with an expired lease): state
  // processing, attempts + 1 (the new fencing token), the digests of this
  // attempt. False when the row no longer has `attempts` (someone else won).
  virtual Result<bool> take_over(const MessageKey& key, int64_t attempts, const PayloadDigest& payload,
                                 const RawDigest& raw, int64_t lease_until_ms, const std::string& owner = {}) = 0;
  // Says that lease owner `owner` (node id + instance) of node `node` is
  // alive now: its leases hold while it beats (src/gate/heartbeat.h).
  virtual Status heartbeat(const std::string& owner, const std::string& node) = 0;
  // Stores the settlement on a processing key held with `token`; false when fenced.
  virtual Result<bool> settle_key(const MessageKey& key, int64_t token, const PayloadDigest& payload,
                                  const Settlement& settlement) = 0;
  // Ends the lease now, so the partner's retry takes the key over at once.
  virtual Result<bool> release_key(const MessageKey& key, int64_t token) = 0;
  // The operator's release of a poison key (failed, still with `attempts`):
  // its failure count back to 0, so the partner's next retransmission is
  // processed. False when the key moved on meanwhile.
  virtual Result<bool> forgive_key(const MessageKey& key, int64_t attempts) = 0;
  // The answer to a conflicting message, by its raw digest: a partner looping
  // on it is answered from here, without a private-key operation.
  virtual Status put_conflict_receipt(const MessageKey& key, const RawDigest& raw, const Receipt& receipt) = 0;

  // Business rows: a document of any registry type (src/business/registry.h)
  // into its table and line table. Replacements and cancellations apply in
  // document-date order: an older version arriving late changes nothing
  // (IgnoredOlder).
  virtual Result<Applied> put_document(const std::string& partner, const business::Document& doc,
                                       const std::string& source) = 0;
  Result<Applied> put_shipment_notice(const std::string& partner, const business::ShipmentNotice& doc,
                                      const std::string& source) {
    return put_document(partner, business::to_document(doc), source);
  }
  Result<Applied> put_invoice(const std::string& partner, const business::Invoice& doc, const std::string& source) {
    return put_document(partner, business::to_document(doc), source);
  }
  // The next value of a named counter, from 1; rolled back with the transaction.
  virtual Result<int64_t> next_sequence(const std::string& name) = 0;

  virtual Status log(const MessageLog& entry) = 0;
  // Queues `item` in the outbox, counted: enqueued() says whether this
  // transaction gave the outbox anything to send (its workers are woken then).
  Status enqueue(const OutboxItem& item) {
    Status s = put_outbox(item);
    if (s.is_ok()) ++enqueued_;
    return s;
  }
  int64_t enqueued() const { return enqueued_; }
  // Archives a received request; its id for the message-log rows.
  virtual Result<int64_t> archive(const CaptureRef& capture) = 0;
  // Keeps a Peppol document exchanged, for the reports (exchanged_at is this
  // transaction's clock); a second row for the same key changes nothing.
  virtual Status record_exchange(const PeppolExchange& exchange) = 0;

 private:
  virtual Status put_outbox(const OutboxItem& item) = 0;
  int64_t enqueued_ = 0;
};

}  // namespace edihub::store
