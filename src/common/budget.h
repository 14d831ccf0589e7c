// Memory a partner can make the gateway hold, counted. A Budget is shared by
// every request (the gateway-wide cap); a Lease is one message's share of it
// with the message's own cap, given back when the message is done.
#pragma once

#include <atomic>
#include <cstddef>

namespace edihub {

class Budget {
 public:
  explicit Budget(size_t capacity) : capacity_(capacity) {}
  Budget(const Budget&) = delete;
  Budget& operator=(const Budget&) = delete;

  // Takes `n` bytes if they fit; false (and nothing taken) when they do not.
  bool take(size_t n);
  void give(size_t n) { used_.fetch_sub(n, std::memory_order_relaxed); }
  size_t used() const { return used_.load(std::memory_order_relaxed); }
  size_t capacity() const { return capacity_; }

 private:
  const size_t capacity_;
  std::atomic<size_t> used_{0};
};

// One message's bytes: at most `cap` in total (every layer of an unwrap
// counts, per message, not per layer), and only while the shared Budget has
// room. Not thread-safe: one message, one thread.
class Lease {
 public:
  enum class Refusal { None, OverMessageCap, OverGatewayCap };

  Lease(Budget* shared, size_t cap) : shared_(shared), cap_(cap) {}
  ~Lease() { release(); }
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;

  // Counts `n` more bytes; says which cap refused them otherwise.
  Refusal take(size_t n);
  // Gives back bytes no longer held (a layer released); they still count
  // towards the message cap, which bounds the total work, not only the peak.
  void give_back(size_t n);
  void release();
  size_t total() const { return total_; }
  size_t cap() const { return cap_; }
  size_t remaining() const { return total_ < cap_ ? cap_ - total_ : 0; }

 private:
  Budget* shared_;
  size_t cap_;
  size_t total_ = 0;  // every byte ever taken
  size_t held_ = 0;   // taken and not given back
};

}  // namespace edihub
