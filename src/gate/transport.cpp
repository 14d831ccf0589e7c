#include "src/gate/transport.h"

namespace edihub::gate {

namespace {

int64_t documents_of(const std::vector<InterchangeResult>& results) {
  int64_t n = 0;
  for (const auto& r : results) n += r.documents;
  return n;
}

std::string summary(const std::vector<InterchangeResult>& results) {
  std::string notes;
  for (const auto& r : results)
    notes += (r.message_id.empty() ? "interchange" : r.message_id) + " " + std::string(outcome_name(r.outcome)) +
             (r.detail.empty() ? "" : " (" + r.detail + ")") + "; ";
  return notes;
}

// The archived request, once per commit that keeps it.
Result<int64_t> archive(store::Transaction& tx, const TransportWork& w) {
  if (!w.capture) return int64_t{0};
  return tx.archive(*w.capture);
}

Status queue_async(store::Transaction& tx, const TransportWork& w, const store::Receipt& receipt) {
  if (w.async_destination.empty()) return Status::ok();
  return tx.enqueue(async_receipt(w.claim.key, w.async_destination,
                                  w.receipt_message_id ? w.receipt_message_id(receipt) : "", receipt));
}

// Answers a transport key found settled (duplicate, poison, unverifiable
// copy) from inside the transaction: its row (and async receipt) commit.
Result<Step> answer_settled(store::Transaction& tx, const TransportWork& w, const Claimed& c, TransportResult* out) {
  switch (c.kind) {
    case Claimed::Kind::Duplicate:
      out->outcome = Outcome::Duplicate;
      out->receipt = c.stored->receipt;
      out->detail = "already processed: answered with the stored receipt";
      if (out->receipt.empty()) {  // past the receipt retention: a fresh one, "duplicate"
        out->receipt = w.duplicate_receipt.empty() ? w.settlement.receipt : w.duplicate_receipt;
        out->detail = "already processed; its receipt is past its retention: a new one says duplicate";
      }
      break;
    case Claimed::Kind::Poison:
      out->outcome = Outcome::Poison;
      out->receipt = c.stored->receipt;
      out->detail = "failed " + std::to_string(c.stored->failures) + " times: answered with the stored receipt";
      break;
    default:  // Unverifiable: this copy's own negative receipt; the key keeps its state
      out->outcome = Outcome::Rejected;
      out->receipt = w.settlement.receipt;
      out->detail = "the id was processed before; this copy could not be read: " + w.settlement.error;
      break;
  }
  RETURN_IF_ERROR(queue_async(tx, w, out->receipt));
  RETURN_IF_ERROR(tx.log(transport_row(w, out->outcome, out->detail, 0, 0)));
  return Step::Commit;
}

// Settles the transport key held with `token`: the drafted settlement, the
// async receipt, the capture and the transport's row.
Result<Step> settle_transport(store::Transaction& tx, const TransportWork& w, int64_t token,
                              const std::vector<InterchangeResult>& results, int64_t capture_id, TransportResult* out) {
  store::Settlement s = w.settlement;
  if (s.state == store::KeyState::Completed && !results.empty()) s.error = summary(results);
  ASSIGN_OR_RETURN(bool settled, tx.settle_key(w.claim.key, token, w.claim.payload, s));
  if (!settled) return Status::fenced("key " + w.claim.key.message_id + " was taken over during settle");
  RETURN_IF_ERROR(queue_async(tx, w, s.receipt));
  RETURN_IF_ERROR(tx.log(transport_row(w, s.outcome, s.error, documents_of(results), capture_id)));
  out->outcome = s.outcome;
  out->receipt = s.receipt;
  out->detail = s.error;
  out->interchanges = results;
  return Step::Commit;
}

bool settles_now(Claimed::Kind k) { return k == Claimed::Kind::New || k == Claimed::Kind::Retry; }

// Answers a claim that ends the handling (everything but New and Retry).
Result<Step> answer_claim(store::Transaction& tx, const TransportWork& w, const Claimed& c, TransportResult* out) {
  switch (c.kind) {
    case Claimed::Kind::InFlight:
      out->outcome = Outcome::InFlight;
      out->detail = "message " + w.claim.key.message_id + " is being handled by another worker";
      return Step::InFlight;
    case Claimed::Kind::Conflict:
      out->outcome = Outcome::Conflict;
      out->detail = "id " + w.claim.key.message_id + " was received before with different content (sha256 " +
                    c.stored->payload.hex() + ", now " + w.claim.payload.hex() + ")";
      return Step::Rollback;
    default:
      return answer_settled(tx, w, c, out);
  }
}

// Claims the transport key in `tx`. Sets *token when this call holds it (New
// or Retry: the caller goes on); otherwise answers from what is stored and
// returns the step that ends the transaction.
Result<Step> claim_transport(store::Transaction& tx, const TransportWork& w, const GateOptions& options,
                             TransportResult* out, int64_t* token) {
  *out = TransportResult{};
  *token = 0;
  ASSIGN_OR_RETURN(Claimed c, claim_key(tx, w.claim, options));
  if (!settles_now(c.kind)) return answer_claim(tx, w, c, out);
  *token = c.token;
  return Step::Commit;
}

// The common case: everything in one transaction. REQUIRES: a failed
// settlement carries only interchanges refused before any key.
TransportResult admit_in_one_commit(Gate& gate, store::KeyStore& store, const TransportWork& w) {
  TransportResult out;
  bool in_flight = false;
  Status s = gate.run(
      store,
      [&](store::Transaction& tx) -> Result<Step> {
        int64_t token = 0;
        Result<Step> claimed = claim_transport(tx, w, gate.options(), &out, &token);
        if (!claimed.is_ok() || token == 0) return claimed;
        // The capture first: every row of this message points at it.
        ASSIGN_OR_RETURN(int64_t capture_id, archive(tx, w));
        // A refused message carries only the interchanges refused for who sent them (their rows and acks).
        std::vector<InterchangeResult> results;
        for (const InterchangeWork& iw : w.interchanges) {
          ASSIGN_OR_RETURN(InterchangeResult r, process_interchange(tx, iw, w.arrival, gate.options(), capture_id));
          if (r.outcome == Outcome::InFlight) {
            out.outcome = Outcome::InFlight;
            out.detail = r.detail;
            return Step::InFlight;
          }
          results.push_back(r);
        }
        Result<Step> settled = settle_transport(tx, w, token, results, capture_id, &out);
        out.queued = tx.enqueued() > 0;
        return settled;
      },
      &in_flight);
  if (!s.is_ok()) {
    out = TransportResult{};
    out.outcome = in_flight ? Outcome::InFlight : Outcome::Error;
    out.detail = s.message();
  }
  return out;
}

// A large message: claimed under a lease, its interchanges one transaction
// each, then a settle fenced by the token. A crash leaves the key processing
// until the lease ends; the retransmission then takes it over and finds the
// interchanges already committed as duplicates.
TransportResult admit_leased(Gate& gate, store::KeyStore& store, const TransportWork& w) {
  TransportResult out;
  int64_t token = 0;
  bool in_flight = false;
  Status claimed = gate.run(
      store, [&](store::Transaction& tx) { return claim_transport(tx, w, gate.options(), &out, &token); }, &in_flight);
  if (!claimed.is_ok()) {
    out.outcome = in_flight ? Outcome::InFlight : Outcome::Error;
    out.detail = claimed.message();
    return out;
  }
  if (token == 0) return out;  // answered from what was stored

  auto give_back = [&](const std::string& why) {
    store
        .transact(
            [&](store::Transaction& tx) -> Status {
              Result<bool> r = tx.release_key(w.claim.key, token);
              return r.is_ok() ? Status::ok() : r.status();
            },
            gate.options().inflight_wait_ms)
        .ignore();  // best effort: the lease ends on its own otherwise
    TransportResult failed;
    failed.outcome = Outcome::Error;
    failed.detail = why;
    return failed;
  };
  std::vector<InterchangeResult> results;
  for (const InterchangeWork& iw : w.interchanges) {
    InterchangeResult r = admit_interchange(gate, store, iw, w.arrival);
    if (is_transient(r.outcome)) return give_back(r.detail);
    results.push_back(std::move(r));
  }
  Status settled = gate.run(store, [&](store::Transaction& tx) -> Result<Step> {
    ASSIGN_OR_RETURN(int64_t capture_id, archive(tx, w));
    return settle_transport(tx, w, token, results, capture_id, &out);
  });
  if (!settled.is_ok()) {
    if (settled.kind() == Status::Kind::Fenced) {
      out = TransportResult{};
      out.outcome = Outcome::Error;
      out.detail = settled.message();
      return out;
    }
    return give_back(settled.message());
  }
  out.queued = true;  // the interchanges' own transactions may have queued their acknowledgments
  return out;
}

}  // namespace

store::OutboxItem async_receipt(const store::MessageKey& key, const std::string& destination,
                                const std::string& message_id, const store::Receipt& receipt) {
  return {key.partner_id,  "mdn",        key.message_id,
          "http",          destination,  message_id.empty() ? key.message_id : message_id,
          receipt.headers, receipt.body, ""};
}

store::MessageLog transport_row(const TransportWork& w, Outcome outcome, const std::string& detail, int64_t documents,
                                int64_t capture_id) {
  store::MessageLog row;
  row.partner_id = w.claim.key.partner_id;
  row.protocol = w.protocol;
  row.transport = w.arrival.transport;
  row.transport_id = w.arrival.transport_id;
  row.message_id = w.claim.key.message_id;
  row.outcome = outcome;
  row.detail = detail;
  row.bytes = w.bytes;
  row.documents = documents;
  row.duration_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - w.started).count();
  row.capture_id = capture_id;
  return row;
}

TransportResult admit_transport(Gate& gate, store::KeyStore& store, const TransportWork& work) {
  size_t payload = 0;
  for (const auto& iw : work.interchanges) payload += iw.bytes.size();
  return payload > gate.options().single_commit_max_bytes ? admit_leased(gate, store, work)
                                                          : admit_in_one_commit(gate, store, work);
}

Status store_conflict(Gate& gate, store::KeyStore& store, const TransportWork& work, const store::Receipt& answer,
                      const std::string& detail) {
  return gate.run(store, [&](store::Transaction& tx) -> Result<Step> {
    RETURN_IF_ERROR(tx.put_conflict_receipt(work.claim.key, work.claim.raw, answer));
    RETURN_IF_ERROR(queue_async(tx, work, answer));
    ASSIGN_OR_RETURN(int64_t capture_id, archive(tx, work));
    RETURN_IF_ERROR(tx.log(transport_row(work, Outcome::Conflict, detail, 0, capture_id)));
    return Step::Commit;
  });
}

}  // namespace edihub::gate
