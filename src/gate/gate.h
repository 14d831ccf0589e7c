// The idempotent receiver: claim -> business handling -> settle, so that each
// key's business effect happens exactly once and every retransmission gets the
// stored receipt back unchanged.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

#include "src/store/store.h"

namespace edihub::gate {

struct GateOptions {
  int64_t lease_ms = 5 * 60 * 1000;  // longer than the slowest handling
  int max_failures = 5;              // permanent failures before a key is poison
  int64_t inflight_wait_ms = 10000;  // how long a duplicate waits for the original
};

struct Outcome {
  enum class Kind {
    Processed,  // this call ran the handling and committed it (receipt positive)
    Failed,     // this call stored a permanent failure (receipt negative)
    Duplicate,  // settled before with the same content: the stored receipt
    Poison,     // failed too often: the stored negative receipt, nothing run
    Conflict,   // same key, different content: nothing run
    InFlight,   // the original is still being handled: answer transiently
    Transient,  // store or downstream trouble: the claim was released, retry later
  };
  Kind kind = Kind::Transient;
  store::Receipt receipt;  // the answer, for Processed, Failed, Duplicate and Poison
  store::Settlement settlement;  // what this call stored (Processed / Failed)
  std::string detail;      // for the log and the operator
};

std::string_view outcome_name(Outcome::Kind k);

// One Gate per process (thread-safe as long as each thread brings its own
// Store). Duplicates of a key in flight wait on a condition the Gate signals
// when a key settles here, and poll the store for settles elsewhere.
class Gate {
 public:
  explicit Gate(GateOptions options) : options_(options) {}

  // Runs `effect` for request.key unless the key was seen before. The effect
  // returns the settlement (completed with the receipt, or failed with a
  // negative receipt for a permanent failure) or an error Status for a
  // transient failure, which releases the claim.
  Outcome pass(store::Store& store, store::ClaimRequest request, const store::Effect& effect);

  // For handling that writes through the store itself and so cannot run in
  // the claim's transaction (an AS2 message: its interchanges pass the gate
  // on their own keys). The key is claimed with a lease, `work` runs, then its
  // settlement is stored, fenced by the claim's token. An error Status from
  // `work` releases the key.
  using Work = std::function<Result<store::Settlement>()>;
  Outcome pass_leased(store::Store& store, store::ClaimRequest request, const Work& work);

  const GateOptions& options() const { return options_; }

 private:
  Outcome run(store::Store& store, store::ClaimRequest request, const store::Effect* effect,
              const Work* work);
  void wait_for_settle(int64_t max_ms);
  void notify_settled();

  GateOptions options_;
  std::mutex mu_;
  std::condition_variable settled_;
  uint64_t generation_ = 0;
};

}  // namespace edihub::gate
