// The outbox: everything that leaves the gateway, queued in the transaction
// that caused it and delivered by workers with retries: async MDNs,
// functional acknowledgments to partners (AS2, AS4, a directory), booked
// documents to the back office (a webhook, a directory). A row keeps its
// identity (message_id) on every retry, so the receiver's own duplicate
// detection works.
//
//   pending -> in-flight -> delivered                  (sync answer, or a directory)
//                        -> sent -> delivered | failed (waiting for an async MDN)
//                        -> pending (retry later) | failed (given up)
//   pending | failed -> cancelled (the operator)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/common/status.h"

namespace edihub::store {

// The SQL condition, on a row of `outbox`, that no earlier row of its
// order_key is still to deliver: what both stores add to "due".
#define OUTBOX_IN_ORDER                                                    \
  "(order_key IS NULL OR NOT EXISTS (SELECT 1 FROM outbox AS earlier"      \
  " WHERE earlier.order_key = outbox.order_key AND earlier.id < outbox.id" \
  " AND earlier.state IN ('pending', 'in-flight', 'failed')))"

struct OutboxItem {
  std::string partner_id;
  std::string kind;         // mdn, 997, 999, ta1, contrl, aperak, document
  std::string reference;    // the key it answers, or the document version
  std::string channel;      // http (posted as is), as2, as4, dir, webhook
  std::string destination;  // URL or directory
  std::string message_id;   // fixed at enqueue, reused on every retry
  std::string headers, body;
  // The versions of one document (a back-office event's "invoice:acme:INV-1"):
  // a row is not due while an earlier row of the same key is pending, in
  // flight or failed. Empty: delivered in no particular order.
  std::string order_key;
};

// The media type an acknowledgment of `kind` travels as: application/edifact
// for an EDIFACT one (contrl, aperak), application/edi-x12 for the others.
inline const char* acknowledgment_media_type(std::string_view kind) {
  return kind == "contrl" || kind == "aperak" ? "application/edifact" : "application/edi-x12";
}

struct OutboxEntry {
  int64_t id = 0;
  OutboxItem item;
  std::string state;
  int64_t attempts = 0;
  int64_t created_at_ms = 0, next_attempt_ms = 0, delivered_at_ms = 0;
  std::string last_error;
  std::string prepared_headers, prepared;  // the message as first built, when it was
  std::string receipt;                     // the partner's answer, when delivered
};

struct OutboxFilter {
  std::optional<std::string> partner_id, state;
  std::optional<std::string> reference;  // the key the rows answer (an interchange's acks)
  int limit = 100;
};

class OutboxStore {
 public:
  virtual ~OutboxStore() = default;
  // Queues one item in its own transaction.
  virtual Status enqueue(const OutboxItem& item) = 0;
  // Up to `limit` items whose time has come (pending, or in-flight with an
  // expired lease: a deliverer that died), taken in-flight for `lease_ms`,
  // so that no other deliverer sends them meanwhile.
  virtual Result<std::vector<OutboxEntry>> due_outbox(int limit, int64_t lease_ms) = 0;
  // The message as built for its first attempt, kept for every retry.
  virtual Status outbox_prepared(int64_t id, const std::string& headers, const std::string& bytes) = 0;
  // Delivered, with the partner's answer (a sync MDN, a Receipt; empty for a directory).
  virtual Status outbox_delivered(int64_t id, const std::string& receipt) = 0;
  // Sent, its async MDN awaited.
  virtual Status outbox_sent(int64_t id) = 0;
  // A failed attempt: retried at `next_attempt_ms`, or failed for good.
  virtual Status outbox_retry(int64_t id, int64_t next_attempt_ms, const std::string& error, bool give_up) = 0;
  // The AS2 row to `partner_id` whose async MDN `message_id` answers: one of
  // our messages (channel as2; never an MDN we send, a webhook ...) that was
  // actually posted (sent, or prepared and posted at least once), not settled.
  virtual Result<std::optional<OutboxEntry>> outbox_awaiting(const std::string& partner_id,
                                                             const std::string& message_id) = 0;
  // The final state of a sent row once its async MDN came: delivered, or failed with why.
  virtual Status outbox_answered(int64_t id, bool delivered, const std::string& receipt, const std::string& error) = 0;

  // For the operator (`edihub outbox`): newest first.
  virtual Result<std::vector<OutboxEntry>> list_outbox(const OutboxFilter& filter) = 0;
  virtual Result<std::optional<OutboxEntry>> outbox_entry(int64_t id) = 0;
  // Retry now: a pending or failed row goes pending, due at once; a failed
  // one starts a new round of attempts (its count back to 0: the message log
  // keeps the history). False when the row is in another state (in flight,
  // sent, delivered, cancelled).
  virtual Result<bool> outbox_retry_now(int64_t id) = 0;
  // Cancel: a pending or failed row is never sent. False otherwise.
  virtual Result<bool> outbox_cancel(int64_t id) = 0;
};

}  // namespace edihub::store
