// A transport message (AS2 or AS4) through the gate. Everything costly is
// done before: unwrapping, reading the interchanges, drafting (and signing)
// the receipt. Then one transaction commits the transport key, the
// interchange keys, the business rows, the log rows, the stored receipt, the
// async receipt in the outbox and the archived request: one durable commit
// per new message. A payload above GateOptions::single_commit_max_bytes is
// handled under a lease instead: the transport key is claimed, each
// interchange commits on its own, then the settle is fenced by the token.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "src/gate/claim.h"
#include "src/gate/gate.h"
#include "src/gate/interchanges.h"
#include "src/store/captures.h"
#include "src/store/key_store.h"

namespace edihub::gate {

struct TransportWork {
  KeyClaim claim;        // the transport key (as2:/as4:) with the digests of this copy
  std::string protocol;  // "as2", "as4"
  Arrival arrival;
  // What a new (or retried) key settles to, drafted outside the lock: the
  // positive receipt, or the negative one of a permanent failure (then the
  // payload digest is empty when the content could not be read).
  store::Settlement settlement;
  std::vector<InterchangeWork> interchanges;
  std::optional<store::CaptureRef> capture;
  std::string async_destination;  // non-empty: the receipt also goes there (async MDN)
  // The id an async receipt goes out under: the protocol reads it from the
  // receipt (the MDN's own Message-ID); empty: the transport key's id.
  std::function<std::string(const store::Receipt&)> receipt_message_id;
  // The key was found completed with its receipt past the receipt retention
  // (purged): a duplicate is answered with this fresh receipt that says so.
  bool receipt_gone = false;
  store::Receipt duplicate_receipt;
  int64_t bytes = 0;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
};

struct TransportResult {
  Outcome outcome = Outcome::Error;
  store::Receipt receipt;  // this copy's (processed, rejected) or the stored one (duplicate, poison)
  std::string detail;
  std::vector<InterchangeResult> interchanges;
  bool queued = false;  // the outbox got something to send (acknowledgments, document events, an async MDN)
};

// Outcome Conflict: nothing was written; the caller drafts the answer and
// stores it with store_conflict(). Outcome Error / InFlight: nothing was
// committed (a leased claim was released); the partner retries.
TransportResult admit_transport(Gate& gate, store::KeyStore& store, const TransportWork& work);

// Keeps the answer to a conflicting copy by its raw digest (so the same bytes
// are answered from the store), with its log row and capture, in one commit.
Status store_conflict(Gate& gate, store::KeyStore& store, const TransportWork& work, const store::Receipt& answer,
                      const std::string& detail);

// The outbox row of an async receipt (AS2 async MDN) for `key`, to
// `destination`, identified by `message_id` (the receipt's own; empty: the key's).
store::OutboxItem async_receipt(const store::MessageKey& key, const std::string& destination,
                                const std::string& message_id, const store::Receipt& receipt);

// The transport message's `messages` row.
store::MessageLog transport_row(const TransportWork& work, Outcome outcome, const std::string& detail,
                                int64_t documents, int64_t capture_id);

}  // namespace edihub::gate
