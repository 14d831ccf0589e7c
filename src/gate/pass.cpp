#include "src/gate/pass.h"

namespace edihub::gate {

namespace {

// What a claim that does not run anything answers.
bool answer_stored(const Claimed& c, KeyOutcome* out) {
  switch (c.kind) {
    case Claimed::Kind::Duplicate:
      out->outcome = Outcome::Duplicate;
      out->receipt = c.stored->receipt;
      return true;
    case Claimed::Kind::Poison:
      out->outcome = Outcome::Poison;
      out->receipt = c.stored->receipt;
      out->detail = "failed " + std::to_string(c.stored->failures) + " times: the stored negative receipt";
      return true;
    case Claimed::Kind::Conflict:
    case Claimed::Kind::Unverifiable:
      out->outcome = Outcome::Conflict;
      out->detail = "key " + c.stored->key.message_id + " was received before with different content (sha256 " +
                    c.stored->payload.hex() + ")";
      return true;
    default:
      return false;
  }
}

// Runs the effect and stores its settlement on a key held with `token`.
Result<Step> settle_with(store::Transaction& tx, const KeyClaim& claim, int64_t token, const Effect& effect,
                         KeyOutcome* out) {
  ASSIGN_OR_RETURN(store::Settlement s, effect(tx));
  ASSIGN_OR_RETURN(bool stored, tx.settle_key(claim.key, token, claim.payload, s));
  if (!stored) return Status::fenced("key " + claim.key.message_id + " was taken over: settle refused");
  out->outcome = s.outcome;
  out->receipt = s.receipt;
  out->detail = s.error;
  return Step::Commit;
}

}  // namespace

KeyOutcome pass_key(Gate& gate, store::KeyStore& store, const KeyClaim& claim, const Effect& effect) {
  KeyOutcome out;
  // A retransmission of a settled key, the common case, from one read
  // without the write lock.
  if (Result<std::optional<store::KeyRecord>> known = store.lookup(claim.key); known.is_ok() && known.value()) {
    const store::KeyRecord& k = *known.value();
    Claimed seen;
    seen.stored = k;
    if (k.state == store::KeyState::Completed && k.payload == claim.payload)
      seen.kind = Claimed::Kind::Duplicate;
    else if (is_poison(k, gate.options()))
      seen.kind = Claimed::Kind::Poison;
    if (answer_stored(seen, &out)) return out;
  }
  bool in_flight = false;
  Status s = gate.run(
      store,
      [&](store::Transaction& tx) -> Result<Step> {
        out = KeyOutcome{};
        ASSIGN_OR_RETURN(Claimed c, claim_key(tx, claim, gate.options()));
        if (c.kind == Claimed::Kind::InFlight) return Step::InFlight;
        if (answer_stored(c, &out)) return Step::Rollback;
        return settle_with(tx, claim, c.token, effect, &out);
      },
      &in_flight);
  if (!s.is_ok()) {
    out = KeyOutcome{};
    out.outcome = in_flight ? Outcome::InFlight : Outcome::Error;
    out.detail = s.message();
  }
  return out;
}

Result<Claimed> claim_leased(Gate& gate, store::KeyStore& store, const KeyClaim& claim) {
  Claimed result;
  RETURN_IF_ERROR(gate.run(store, [&](store::Transaction& tx) -> Result<Step> {
    ASSIGN_OR_RETURN(Claimed c, claim_key(tx, claim, gate.options()));
    result = c;
    return c.kind == Claimed::Kind::New || c.kind == Claimed::Kind::Retry ? Step::Commit : Step::Rollback;
  }));
  return result;
}

Status settle_leased(Gate& gate, store::KeyStore& store, const KeyClaim& claim, int64_t token, const Effect& effect) {
  KeyOutcome ignored;
  return gate.run(store, [&](store::Transaction& tx) { return settle_with(tx, claim, token, effect, &ignored); });
}

}  // namespace edihub::gate
