// The gate's rules for one key, applied inside a transaction (design: "The
// idempotency gate"): new, retried, duplicate, poison, conflict or in flight.
// One implementation on the store's key primitives, for every backend.
#pragma once

#include <cstdint>
#include <optional>

#include "src/gate/gate.h"
#include "src/store/transaction.h"

namespace edihub::gate {

struct KeyClaim {
  store::MessageKey key;
  store::PayloadDigest payload;  // empty when the content could not be read (a failed unwrap)
  store::RawDigest raw;
};

struct Claimed {
  enum class Kind {
    New,           // inserted: ours, with token 1
    Retry,         // a failed key or an expired lease taken over: ours, with a new token
    Duplicate,     // completed with the same content: `stored` holds the receipt
    Poison,        // failed max_failures times: `stored` holds the negative receipt
    Conflict,      // completed with other content: nothing may run
    Unverifiable,  // completed, and this copy could not be read: nothing may run
    InFlight,      // another worker holds a live lease
  };
  Kind kind = Kind::New;
  int64_t token = 0;
  std::optional<store::KeyRecord> stored;  // the row as found, when there was one
};

// The poison rule, in one place: a key failed `max_failures` times is not
// processed again; its stored negative receipt answers every copy. claim_key()
// applies it inside the transaction (authoritative); the quicker look-ups
// before a transaction (the pipeline's stored stage, pass_key) read a key
// with the same function, so that they can never disagree with it.
bool is_poison(const store::KeyRecord& k, const GateOptions& options);

// True when the lease on a processing key is held by an owner that is gone:
// a previous instance of this node, or one whose heartbeat stopped.
bool owner_gone(const store::KeyRecord& k, int64_t now_ms, const GateOptions& options);

// Claims `claim.key` in `tx`. A failed key is processed again whatever its
// content (the cause may have been fixed), until it is poison.
Result<Claimed> claim_key(store::Transaction& tx, const KeyClaim& claim, const GateOptions& options);

}  // namespace edihub::gate
