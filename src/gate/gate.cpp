#include "src/gate/gate.h"
#include "src/common/mutex.h"

#include <algorithm>
#include <chrono>

namespace edihub::gate {

void Gate::wait_for_settle(int64_t max_ms) {
  UniqueLock lock(mu_);
  const uint64_t seen = generation_;
  settled_.wait_for(lock.native(), std::chrono::milliseconds(max_ms),
                    [&]() REQUIRES(mu_) { return generation_ != seen; });
}

void Gate::notify_settled() {
  {
    MutexLock lock(mu_);
    ++generation_;
  }
  settled_.notify_all();
}

GateStats Gate::stats() const {
  MutexLock lock(stats_mu_);
  return stats_;
}

void Gate::count_commit(int64_t ms) {
  MutexLock lock(stats_mu_);
  ++stats_.commits;
  stats_.commit_ms_sum += ms;
  for (size_t i = 0; i < GateStats::kCommitBucketsMs.size(); ++i) {
    if (ms <= GateStats::kCommitBucketsMs[i]) {
      ++stats_.commit_buckets[i];
      break;
    }
  }
}

Status Gate::run(store::KeyStore& store, const Work& work, bool* in_flight) {
  using Clock = std::chrono::steady_clock;
  auto ms_since = [](Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
  };
  {
    MutexLock lock(stats_mu_);
    ++stats_.running;
  }
  struct Done {
    Gate& g;
    ~Done() {
      MutexLock lock(g.stats_mu_);
      --g.stats_.running;
    }
  } done{*this};
  const auto deadline = Clock::now() + std::chrono::milliseconds(options_.inflight_wait_ms);
  auto left_ms = [&] {
    return std::max<int64_t>(0, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
  };
  if (in_flight != nullptr) *in_flight = false;
  int64_t poll_ms = 5;
  while (true) {
    Step step = Step::Rollback;
    bool rolled_back = false;  // by the work's own choice, not by an error
    const auto began = Clock::now();
    Status s = store.transact(
        [&](store::Transaction& tx) -> Status {
          ASSIGN_OR_RETURN(Step r, work(tx));
          step = r;
          if (step == Step::Commit) return Status::ok();
          rolled_back = true;
          return Status::invalid(Code::RolledBack,
                                 "rolled back by the gate");  // transact() rolls back; never seen outside
        },
        // At least a little: a busy store still gets a chance at the lock.
        std::max<int64_t>(left_ms(), 50));
    if (s.is_ok()) {
      notify_settled();
      count_commit(ms_since(began));
      return s;
    }
    if (rolled_back) {
      if (step != Step::InFlight) return Status::ok();
      const int64_t left = left_ms();
      if (left == 0) {
        {
          MutexLock lock(stats_mu_);
          ++stats_.inflight_timeouts;
        }
        if (in_flight != nullptr) *in_flight = true;
        return Status::transient("still being handled by another worker after " +
                                 std::to_string(options_.inflight_wait_ms) + " ms");
      }
      const auto waited = Clock::now();
      wait_for_settle(std::min(poll_ms, left));
      {
        MutexLock lock(stats_mu_);
        ++stats_.inflight_waits;
        stats_.inflight_wait_ms += ms_since(waited);
      }
      poll_ms = std::min<int64_t>(poll_ms * 2, 200);
      continue;
    }
    if (s.code() == Code::StoreBusy && left_ms() == 0)
      return Status::transient(Code::StoreBusy,
                               "store busy: no write lock within " + std::to_string(options_.inflight_wait_ms) + " ms");
    return s;
  }
}

}  // namespace edihub::gate
