#include "src/gate/claim.h"

namespace edihub::gate {

using store::KeyState;

bool is_poison(const store::KeyRecord& k, const GateOptions& o) {
  return k.state == KeyState::Failed && k.failures >= o.max_failures;
}

bool owner_gone(const store::KeyRecord& k, int64_t now_ms, const GateOptions& o) {
  if (k.owner.empty()) return false;  // nobody named: the lease alone decides
  // This node started again: what its previous instance held is nobody's.
  if (!o.node.empty() && k.owner_node == o.node && k.owner != o.owner) return true;
  // Its owner stopped beating (or never beat: it died before its first).
  return k.owner_heartbeat_ms + o.owner_timeout_ms < now_ms;
}

Result<Claimed> claim_key(store::Transaction& tx, const KeyClaim& c, const GateOptions& o) {
  Claimed out;
  const int64_t lease_until = tx.now_ms() + o.lease_ms;
  ASSIGN_OR_RETURN(bool inserted, tx.insert_key(c.key, c.payload, c.raw, lease_until, o.owner));
  if (inserted) {
    out.kind = Claimed::Kind::New;
    out.token = 1;
    return out;
  }
  ASSIGN_OR_RETURN(std::optional<store::KeyRecord> row, tx.read_key(c.key));
  if (!row) return Status::transient("key " + c.key.message_id + " vanished during claim (purged?)");
  const store::KeyRecord& k = *row;
  out.stored = k;
  switch (k.state) {
    case KeyState::Completed:
      if (c.payload.empty()) {
        out.kind = Claimed::Kind::Unverifiable;
      } else {
        out.kind = k.payload == c.payload ? Claimed::Kind::Duplicate : Claimed::Kind::Conflict;
      }
      return out;
    case KeyState::Failed:
      if (is_poison(k, o)) {
        out.kind = Claimed::Kind::Poison;
        return out;
      }
      break;  // processed again
    case KeyState::Processing:
      if (k.lease_until_ms > tx.now_ms() && !owner_gone(k, tx.now_ms(), o)) {
        out.kind = Claimed::Kind::InFlight;
        return out;
      }
      break;  // a crashed worker's: taken over
  }
  ASSIGN_OR_RETURN(bool taken, tx.take_over(c.key, k.attempts, c.payload, c.raw, lease_until, o.owner));
  if (!taken) return Status::transient("key " + c.key.message_id + " changed during claim");
  out.kind = Claimed::Kind::Retry;
  out.token = k.attempts + 1;
  return out;
}

}  // namespace edihub::gate
