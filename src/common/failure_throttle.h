// Failed logins and partner authentications, counted per client address:
// after `max_failures` within `window` the address is blocked for the rest of
// the window, so that a guesser costs neither a PBKDF2 per try nor a store
// write per refusal. In memory, per process (per node behind a balancer);
// bounded (cleared when it tracks 4096 addresses).
#pragma once

#include <chrono>
#include <map>
#include <mutex>

#include "src/common/mutex.h"
#include <string>

namespace edihub {

class FailureThrottle {
 public:
  FailureThrottle(int max_failures, std::chrono::steady_clock::duration window) : max_(max_failures), window_(window) {}

  // True when `peer` has failed max_failures times within its window.
  bool blocked(const std::string& peer);
  // One more failure by `peer`.
  void failed(const std::string& peer);
  // One more request refused because `peer` is blocked: how many so far in
  // its window (1 for the first), so that only the first is written down.
  int refused(const std::string& peer);

  std::chrono::minutes window_minutes() const { return std::chrono::duration_cast<std::chrono::minutes>(window_); }

 private:
  struct Entry {
    int failures = 0, refused = 0;
    std::chrono::steady_clock::time_point since;
  };
  // The peer's entry, reset when its window is over. REQUIRES: mu_ held.
  Entry& entry(const std::string& peer) REQUIRES(mu_);

  const int max_;
  const std::chrono::steady_clock::duration window_;
  Mutex mu_;
  std::map<std::string, Entry> by_peer_ GUARDED_BY(mu_);
};

}  // namespace edihub
