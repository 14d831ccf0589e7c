#include "src/common/budget.h"

namespace edihub {

bool Budget::take(size_t n) {
  size_t used = used_.load(std::memory_order_relaxed);
  do {
    if (n > capacity_ || used > capacity_ - n) return false;
  } while (!used_.compare_exchange_weak(used, used + n, std::memory_order_relaxed));
  return true;
}

Lease::Refusal Lease::take(size_t n) {
  if (n > remaining()) return Refusal::OverMessageCap;
  if (shared_ != nullptr && !shared_->take(n)) return Refusal::OverGatewayCap;
  total_ += n;
  held_ += n;
  return Refusal::None;
}

void Lease::give_back(size_t n) {
  if (n > held_) n = held_;
  if (shared_ != nullptr) shared_->give(n);
  held_ -= n;
}

void Lease::release() { give_back(held_); }

}  // namespace edihub
