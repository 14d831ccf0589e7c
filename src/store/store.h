// The store: idempotency keys, the message log and the business tables, behind
// a small interface with one SQL implementation per backend. The gate knows
// nothing of SQLite or PostgreSQL.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/business/documents.h"
#include "src/common/status.h"
#include "src/store/key.h"

namespace edihub::store {

enum class KeyState { Processing, Completed, Failed };
std::string_view state_name(KeyState s);  // "processing" / "completed" / "failed"

// The answer given for a key, kept so a retransmission gets it byte for byte.
struct Receipt {
  int status = 0;       // HTTP status; 0 where there is no HTTP answer (replay)
  std::string headers;  // header lines needed to reproduce it, "Name: value\r\n" each
  std::string body;     // exact bytes
  bool operator==(const Receipt& o) const {
    return status == o.status && headers == o.headers && body == o.body;
  }
};

struct ClaimRequest {
  MessageKey key;
  std::string payload_sha256;  // hex; decides duplicate (same) or conflict (different)
  std::string raw_sha256;      // hex of the bytes as received
  int64_t lease_ms = 300000;   // longer than the slowest handling
  int max_failures = 5;        // after this many permanent failures the key is poison
};

struct Claim {
  enum class Kind {
    Settled,    // new key, and the first-pass effect ran and committed with it
    Claimed,    // ours: handle it, then settle() or release() with `token`
    Completed,  // settled before with the same payload: `receipt` is the answer
    Poison,     // failed max_failures times: `receipt` is the stored negative answer
    Conflict,   // the key exists with a different payload digest
    InFlight,   // another worker holds a live lease
  };
  Kind kind = Kind::Claimed;
  int64_t token = 0;
  bool takeover = false;        // Claimed by taking over an expired lease or a failed key
  Receipt receipt;
  std::string stored_payload_sha256;
  int64_t lease_until_ms = 0;   // InFlight: when the holder's lease ends
};

struct KeyRecord {
  MessageKey key;
  std::string protocol;
  KeyState state = KeyState::Processing;
  int64_t received_at_ms = 0;
  int64_t lease_until_ms = 0;
  int64_t attempts = 0;
  int64_t failures = 0;
  std::string payload_sha256, raw_sha256, outcome, error;
  Receipt receipt;
};

// What booking a document did.
enum class Applied { Inserted, Replaced, Cancelled, IgnoredOlder };
std::string_view applied_name(Applied a);

struct OutboxItem {
  std::string partner_id, kind, reference, destination, headers, body;
};

struct OutboxEntry {
  int64_t id = 0;
  OutboxItem item;
  int64_t attempts = 0;
};

// One row of the message log: what happened to one received thing.
struct MessageLog {
  std::string partner_id, protocol, transport, transport_id, message_id, outcome, detail;
  int64_t bytes = 0, documents = 0, duration_ms = 0;
};

// Business writes inside a settle's transaction. REQUIRES: only used inside
// the Effect it was given to.
class Transaction {
 public:
  virtual ~Transaction() = default;
  // Books a document; replacements and cancellations apply in document-date
  // order: an older version arriving late changes nothing (IgnoredOlder).
  virtual Result<Applied> put_shipment_notice(const std::string& partner,
                                              const business::ShipmentNotice& doc,
                                              const std::string& source) = 0;
  virtual Result<Applied> put_invoice(const std::string& partner, const business::Invoice& doc,
                                      const std::string& source) = 0;
  // The next value of a named counter, from 1; rolled back with the transaction.
  virtual Result<int64_t> next_sequence(const std::string& name) = 0;
  virtual Status enqueue(const OutboxItem& item) = 0;
  // A message-log row committed with the business effect.
  virtual Status log(const MessageLog& entry) = 0;
};

// The end state a settle writes, with the receipt to store.
struct Settlement {
  KeyState state = KeyState::Completed;  // Completed or Failed
  Receipt receipt;
  std::string outcome;  // processed, duplicate, rejected ...
  std::string error;    // for failed keys: why, for the operator
  std::vector<OutboxItem> outbox;  // queued in the same transaction (async MDNs)
};

// Runs inside the settle transaction: business writes, then the settlement.
// An error Status rolls everything back and is returned by settle().
using Effect = std::function<Result<Settlement>(Transaction&)>;


struct PurgeRequest {
  int64_t cutoff_ms = 0;          // keys received before this go (unless live)
  std::optional<std::string> partner_id;  // only this partner; else every partner
  int batch = 1000;               // keys deleted per transaction
  bool dry_run = false;
};

struct PurgeBatch {
  int64_t deleted = 0;    // fewer than the batch size: nothing left to delete
  int64_t kept_live = 0;  // on the last batch: old keys kept for their live lease
};

struct StateCount {
  std::string partner_id, protocol, state;
  int64_t keys = 0;
};

struct StatusReport {
  std::vector<StateCount> keys;
  int64_t oldest_received_ms = 0, newest_received_ms = 0;
  std::map<std::string, int64_t> outcomes_24h;  // messages by outcome, last 24 hours
  std::map<std::string, int64_t> business_rows;  // table -> rows
  int64_t store_bytes = 0;
  int schema_version = 0;
};

class Store {
 public:
  virtual ~Store() = default;

  // Atomic claim: inserts the key as processing, or reports what it is; takes
  // over an expired lease or a failed key (below max_failures) with a new token.
  // With `first_pass`, a new key's effect runs in the very transaction that
  // inserts it, and its settlement commits with it (kind Settled; the effect's
  // settlement is in *settled): one commit per message, and a crash leaves no
  // trace. An error Status from the effect rolls the insert back too.
  virtual Result<Claim> claim(const ClaimRequest& request, const Effect* first_pass = nullptr,
                              Settlement* settled = nullptr) = 0;
  // In one transaction: checks `token` still owns the key, runs `effect` and
  // stores its settlement. Fenced when another worker took the key over.
  virtual Status settle(const MessageKey& key, int64_t token, const Effect& effect) = 0;
  // Gives a claimed key back (transient failure): the next claim takes it over at once.
  virtual Status release(const MessageKey& key, int64_t token) = 0;
  virtual Result<std::optional<KeyRecord>> lookup(const MessageKey& key) = 0;

  virtual Status log(const MessageLog& entry) = 0;

  // Outbox delivery. enqueue() queues one item in its own transaction.
  virtual Status enqueue(const OutboxItem& item) = 0;
  // Up to `limit` pending items with an http(s) destination whose time has
  // come; each is leased for `lease_ms` so that another deliverer skips it.
  virtual Result<std::vector<OutboxEntry>> due_outbox(int limit, int64_t lease_ms) = 0;
  virtual Status outbox_sent(int64_t id) = 0;
  // A failed attempt: retried at `next_attempt_ms`, or failed for good.
  virtual Status outbox_retry(int64_t id, int64_t next_attempt_ms, const std::string& error, bool give_up) = 0;

  // Deletes one batch of settled keys (and expired-lease ones) older than the cutoff.
  virtual Result<PurgeBatch> purge_keys(const PurgeRequest& request) = 0;
  // Deletes one batch of message-log rows older than the cutoff.
  virtual Result<int64_t> purge_messages(int64_t cutoff_ms, int batch, bool dry_run) = 0;
  // Partners that have keys, for per-partner retention.
  virtual Result<std::vector<std::string>> partners_with_keys() = 0;

  virtual Result<StatusReport> report() = 0;
  // The store's clock, in ms since the epoch: leases and received_at use it.
  virtual Result<int64_t> now_ms() = 0;
};

struct StoreOptions {
  // SQLite: FULL makes every commit durable before a positive receipt; NORMAL
  // (WAL) may lose the last commits on power loss, never corrupts.
  std::string synchronous = "full";
  int busy_timeout_ms = 30000;
  // Added to the store's clock: lets tests move time forward without sleeping.
  int64_t clock_skew_ms = 0;
};

// Opens "sqlite:PATH[?synchronous=normal|full]" and brings its schema up to
// date. Unavailable (with the reason) when it cannot.
Result<std::unique_ptr<Store>> open_store(const std::string& uri, StoreOptions options = {});

}  // namespace edihub::store
