// Retention: `edihub purge` deletes old keys, message-log rows and archived
// captures in short bounded batches, so live traffic never waits long on it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/common/status.h"

namespace edihub::store {

struct PurgeRequest {
  int64_t cutoff_ms = 0;                  // keys received before this go (unless live)
  std::optional<std::string> partner_id;  // only this partner; else every partner
  int batch = 1000;                       // rows deleted per transaction
  bool dry_run = false;
};

struct PurgeBatch {
  int64_t deleted = 0;    // fewer than the batch size: nothing left to delete
  int64_t kept_live = 0;  // on the last batch: old keys kept for their live lease
};

class Retention {
 public:
  virtual ~Retention() = default;
  // One batch of settled keys (and expired-lease ones) older than the cutoff,
  // with their stored conflict answers.
  virtual Result<PurgeBatch> purge_keys(const PurgeRequest& request) = 0;
  // One batch of completed keys older than the cutoff whose stored receipt is
  // dropped (the key stays: a late duplicate still has no effect). Failed and
  // poison keys keep theirs (the answer to a partner looping on them).
  virtual Result<int64_t> purge_receipts(const PurgeRequest& request) = 0;
  // One batch of message-log rows older than the cutoff.
  virtual Result<int64_t> purge_messages(int64_t cutoff_ms, int batch, bool dry_run) = 0;
  // One batch of archived captures older than the cutoff.
  virtual Result<int64_t> purge_captures(int64_t cutoff_ms, int batch, bool dry_run) = 0;
  // One batch of delivered and cancelled outbox rows older than the cutoff.
  virtual Result<int64_t> purge_outbox(int64_t cutoff_ms, int batch, bool dry_run) = 0;
  // Lease owners silent since before the cutoff that hold no lease any more
  // (one row per process start otherwise accumulates).
  virtual Result<int64_t> purge_lease_owners(int64_t cutoff_ms, bool dry_run) = 0;
  // Partners that have keys, for per-partner retention.
  virtual Result<std::vector<std::string>> partners_with_keys() = 0;
};

}  // namespace edihub::store
