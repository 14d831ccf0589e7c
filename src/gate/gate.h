// The idempotent receiver: claim -> business handling -> settle, so that each
// key's business effect happens exactly once and every retransmission gets the
// stored receipt back unchanged. The rules for one key are in claim.h; this
// file runs work in the store's transactions and makes duplicates of a key in
// flight wait, bounded.
#pragma once

#include <array>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>

#include "src/common/mutex.h"
#include <string>

#include "src/store/key_store.h"

namespace edihub::gate {

struct GateOptions {
  int64_t lease_ms = int64_t{5} * 60 * 1000;  // longer than the slowest handling
  int max_failures = 5;                       // permanent failures before a key is poison
  int64_t inflight_wait_ms = 10000;           // how long a duplicate waits for the original
  // A message whose payload is larger is handled under a lease, one
  // interchange per transaction, so that it never holds the write lock long.
  size_t single_commit_max_bytes = 4u << 20;
  // Who this process is when it holds a lease: node id + ':' + a per-start
  // instance (src/gate/heartbeat.h), and its node. Empty: leases name nobody
  // and only expire. A lease whose owner stopped beating `owner_timeout_ms`
  // ago, or that a previous instance of this node holds, is taken over at once.
  std::string owner, node;
  int64_t owner_timeout_ms = 10000;
};

// What a transaction's work asks for at its end.
enum class Step {
  Commit,    // commit what it wrote
  Rollback,  // nothing to keep
  InFlight,  // a key it needs is held by another worker: roll back, wait, run again
};

// What the gate has done since the process started, for /metrics.
struct GateStats {
  static constexpr std::array<int64_t, 10> kCommitBucketsMs = {1, 2, 5, 10, 25, 50, 100, 250, 1000, 5000};
  int64_t running = 0;            // transactions under way now
  int64_t inflight_waits = 0;     // times a duplicate waited for the original to settle
  int64_t inflight_wait_ms = 0;   // how long they waited, together
  int64_t inflight_timeouts = 0;  // waits that ended without the original settling
  int64_t commits = 0;            // transactions committed
  int64_t commit_ms_sum = 0;      // their duration (work and commit, group commit's wait included)
  std::array<int64_t, kCommitBucketsMs.size()> commit_buckets{};  // committed within each bound (not cumulative)
};

// One Gate per process (thread-safe as long as each thread brings its own
// Store). A duplicate of a key in flight waits on a condition the Gate
// signals when a transaction commits here, and polls for commits elsewhere.
class Gate {
 public:
  explicit Gate(GateOptions options) : options_(std::move(options)) {}

  using Work = std::function<Result<Step>(store::Transaction&)>;

  // Runs `work` in one transaction. While it answers InFlight, rolls back and
  // runs it again until the in-flight wait is over (then Transient with
  // *in_flight set). The wait for the write lock counts against the same
  // bound: a duplicate never waits longer than inflight_wait_ms in all.
  // REQUIRES: `work` can run several times (it starts from scratch each time).
  Status run(store::KeyStore& store, const Work& work, bool* in_flight = nullptr);

  const GateOptions& options() const { return options_; }
  GateStats stats() const;

 private:
  void wait_for_settle(int64_t max_ms);
  void notify_settled();
  void count_commit(int64_t ms);

  GateOptions options_;
  Mutex mu_;
  std::condition_variable settled_;
  uint64_t generation_ GUARDED_BY(mu_) = 0;
  mutable Mutex stats_mu_;
  GateStats stats_ GUARDED_BY(stats_mu_);
};

}  // namespace edihub::gate
