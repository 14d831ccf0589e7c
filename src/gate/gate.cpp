#include "src/gate/gate.h"

#include <algorithm>
#include <chrono>

namespace edihub::gate {

using store::Claim;

std::string_view outcome_name(Outcome::Kind k) {
  switch (k) {
    case Outcome::Kind::Processed: return "processed";
    case Outcome::Kind::Failed: return "failed";
    case Outcome::Kind::Duplicate: return "duplicate";
    case Outcome::Kind::Poison: return "poison";
    case Outcome::Kind::Conflict: return "conflict";
    case Outcome::Kind::InFlight: return "in-flight";
    case Outcome::Kind::Transient: return "transient";
  }
  return "transient";
}

void Gate::wait_for_settle(int64_t max_ms) {
  std::unique_lock<std::mutex> lock(mu_);
  const uint64_t seen = generation_;
  settled_.wait_for(lock, std::chrono::milliseconds(max_ms), [&] { return generation_ != seen; });
}

void Gate::notify_settled() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++generation_;
  }
  settled_.notify_all();
}

namespace {

Outcome settled_outcome(const store::Settlement& settled) {
  Outcome out;
  out.kind = settled.state == store::KeyState::Completed ? Outcome::Kind::Processed : Outcome::Kind::Failed;
  out.receipt = settled.receipt;
  out.settlement = settled;
  out.detail = settled.error;
  return out;
}

}  // namespace

Outcome Gate::pass(store::Store& store, store::ClaimRequest request, const store::Effect& effect) {
  return run(store, std::move(request), &effect, nullptr);
}

Outcome Gate::pass_leased(store::Store& store, store::ClaimRequest request, const Work& work) {
  return run(store, std::move(request), nullptr, &work);
}

Outcome Gate::run(store::Store& store, store::ClaimRequest request, const store::Effect* effect,
                  const Work* work) {
  request.lease_ms = options_.lease_ms;
  request.max_failures = options_.max_failures;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(options_.inflight_wait_ms);
  int64_t poll_ms = 5;
  Outcome out;
  store::Settlement settled;
  auto in_transaction = [&](store::Transaction& tx) -> Result<store::Settlement> {
    Result<store::Settlement> r = (*effect)(tx);
    if (r.is_ok()) settled = r.value();
    return r;
  };
  const store::Effect first_pass = in_transaction;
  while (true) {
    // A new key is handled in the transaction that inserts it; only a key seen
    // before (in flight, crashed, failed), or work that cannot run inside the
    // store's transaction, goes through the leased path below.
    Result<Claim> claim = work == nullptr ? store.claim(request, &first_pass, &settled) : store.claim(request);
    if (!claim.is_ok()) {
      out.kind = Outcome::Kind::Transient;
      out.detail = claim.status().message();
      return out;
    }
    switch (claim->kind) {
      case Claim::Kind::Completed:
        out.kind = Outcome::Kind::Duplicate;
        out.receipt = claim->receipt;
        return out;
      case Claim::Kind::Poison:
        out.kind = Outcome::Kind::Poison;
        out.receipt = claim->receipt;
        out.detail = "failed " + std::to_string(options_.max_failures) +
                     " times: answered with the stored negative receipt";
        return out;
      case Claim::Kind::Conflict:
        out.kind = Outcome::Kind::Conflict;
        out.detail = "key " + request.key.message_id + " was received before with different content (sha256 " +
                     claim->stored_payload_sha256 + ", now " + request.payload_sha256 + ")";
        return out;
      case Claim::Kind::InFlight: {
        auto now = std::chrono::steady_clock::now();
        if (now >= deadline) {
          out.kind = Outcome::Kind::InFlight;
          out.detail = "key " + request.key.message_id + " is still being handled by another worker";
          return out;
        }
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
        wait_for_settle(std::min<int64_t>(poll_ms, left));
        poll_ms = std::min<int64_t>(poll_ms * 2, 200);
        continue;
      }
      case Claim::Kind::Settled:
        notify_settled();
        return settled_outcome(settled);
      case Claim::Kind::Claimed: break;
    }

    // Claimed with a lease: run the handling, then settle, fenced by our token.
    const int64_t token = claim->token;
    Status s;
    if (work != nullptr) {
      Result<store::Settlement> done = (*work)();
      if (!done.is_ok()) {
        s = done.status();
      } else {
        settled = done.value();
        s = store.settle(request.key, token, [&](store::Transaction& tx) -> Result<store::Settlement> {
          for (const auto& item : settled.outbox) {
            Status queued = tx.enqueue(item);
            if (!queued.is_ok()) return queued;
          }
          return settled;
        });
      }
    } else {
      s = store.settle(request.key, token, first_pass);
    }
    if (s.is_ok()) {
      notify_settled();
      return settled_outcome(settled);
    }
    if (s.kind() != Status::Kind::Fenced) {
      // Nothing was committed: give the key back so the partner's retry runs it.
      store.release(request.key, token);
      notify_settled();
    }
    out.kind = Outcome::Kind::Transient;
    out.detail = s.message();
    return out;
  }
}

}  // namespace edihub::gate
