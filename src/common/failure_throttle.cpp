#include "src/common/failure_throttle.h"
#include "src/common/mutex.h"

namespace edihub {

FailureThrottle::Entry& FailureThrottle::entry(const std::string& peer) {
  const auto now = std::chrono::steady_clock::now();
  auto it = by_peer_.find(peer);
  if (it != by_peer_.end() && now - it->second.since > window_) {
    by_peer_.erase(it);
    it = by_peer_.end();
  }
  if (it == by_peer_.end()) {
    if (by_peer_.size() >= 4096) by_peer_.clear();
    it = by_peer_.emplace(peer, Entry{0, 0, now}).first;
  }
  return it->second;
}

bool FailureThrottle::blocked(const std::string& peer) {
  MutexLock lock(mu_);
  auto it = by_peer_.find(peer);
  if (it == by_peer_.end()) return false;
  return entry(peer).failures >= max_;
}

void FailureThrottle::failed(const std::string& peer) {
  MutexLock lock(mu_);
  ++entry(peer).failures;
}

int FailureThrottle::refused(const std::string& peer) {
  MutexLock lock(mu_);
  return ++entry(peer).refused;
}

}  // namespace edihub
