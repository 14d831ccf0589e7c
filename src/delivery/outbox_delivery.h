// The outbox worker: takes the rows whose time has come (leased, so that
// several workers or nodes never send one row at once), hands each to its
// channel (src/delivery/channels.h) and records what became of it:
// delivered, sent (an async MDN awaited), retried with exponential backoff
// kept in the store (it survives a restart), or failed for the operator.
#pragma once

#include <condition_variable>
#include <functional>
#include <map>
#include <cstdint>
#include <mutex>

#include "src/common/mutex.h"
#include <string>
#include <thread>
#include <vector>

#include "src/delivery/channels.h"
#include "src/store/store.h"

namespace edihub::delivery {

struct DeliveryOptions {
  int64_t first_retry_ms = 5000;                // doubled after each failure ...
  int64_t max_retry_ms = int64_t{3600} * 1000;  // ... up to this
  int max_attempts = 12;                        // then the item is failed, for the operator
  int timeout_seconds = 30;
  int workers = 4;         // threads, each leasing one row at a time
  int64_t poll_ms = 1000;  // new items also wake the worker at once
};

class OutboxDelivery {
 public:
  // A way out. `prepare` (may be empty) builds the message once; it is kept
  // in the row before `send` makes the first attempt, so a crash between the
  // two cannot send a second, different message under the same identity.
  struct Channel {
    std::function<Result<delivery::Prepared>(const store::OutboxEntry&)> prepare;
    std::function<delivery::Attempt(const store::OutboxEntry&)> send;
  };

  // `channels` by name (http, dir, webhook, as2, as4); a row on a channel
  // this worker lacks fails with that said.
  OutboxDelivery(std::string store_uri, DeliveryOptions options, std::map<std::string, Channel> channels);
  ~OutboxDelivery();
  void start();
  void stop();
  // Something was queued: deliver now rather than at the next poll.
  void wake();

  // What drain() did with the rows that were due.
  struct Drained {
    int64_t delivered = 0, sent = 0, retrying = 0, failed = 0;
  };
  // In the calling thread, without start(): every row due now, one attempt
  // each, until none is left that this run has not tried.
  // Invalid: the store could not be opened or read.
  Result<Drained> drain();

 private:
  void run();
  // One leased row: prepared (once), sent, recorded; returns record()'s state.
  std::string deliver(store::Store& store, store::OutboxEntry e);
  // Records the attempt's result on the row; returns the state it left it in
  // ("delivered", "sent", "retry", "failed").
  std::string record(store::Store& store, const store::OutboxEntry& e, const delivery::Attempt& a);
  void log(const store::OutboxEntry& e, const std::string& state, const std::string& error, int64_t attempts,
           int64_t retry_ms);

  std::string store_uri_;
  DeliveryOptions options_;
  std::map<std::string, Channel> channels_;
  std::vector<std::thread> threads_;
  Mutex mu_;
  std::condition_variable cv_;
  bool stopping_ GUARDED_BY(mu_) = false;
  uint64_t wakes_ GUARDED_BY(mu_) = 0;  // wake() calls so far
};

}  // namespace edihub::delivery
