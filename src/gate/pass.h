// One key through the gate with an effect that runs in the store's
// transaction: the general form of what interchanges and transports do
// (tests and the store benchmark use it directly), and its leased form for
// work that cannot run inside one transaction.
#pragma once

#include <functional>
#include <string>

#include "src/gate/claim.h"
#include "src/gate/gate.h"
#include "src/store/key_store.h"

namespace edihub::gate {

// Runs in the transaction that holds the key: business writes, then the
// settlement. An error Status rolls everything back (a transient failure:
// nothing is kept, the retry runs it again).
using Effect = std::function<Result<store::Settlement>(store::Transaction&)>;

struct KeyOutcome {
  Outcome outcome = Outcome::Error;  // the settlement's, or duplicate/poison/conflict/in-flight/error
  store::Receipt receipt;            // the answer (this settlement's, or the stored one)
  std::string detail;
};

// New or retried: the effect runs and its settlement commits with the claim,
// in one transaction. Otherwise the stored answer, or in-flight after the wait.
KeyOutcome pass_key(Gate& gate, store::KeyStore& store, const KeyClaim& claim, const Effect& effect);

// The leased form. claim_leased commits the key as processing with a lease
// (Claimed::New or Retry with its token) or says what it is; settle_leased
// then runs the effect and stores its settlement in one transaction, fenced:
// Fenced when the lease was taken over meanwhile.
Result<Claimed> claim_leased(Gate& gate, store::KeyStore& store, const KeyClaim& claim);
Status settle_leased(Gate& gate, store::KeyStore& store, const KeyClaim& claim, int64_t token, const Effect& effect);

}  // namespace edihub::gate
