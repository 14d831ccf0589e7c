#include "src/delivery/outbox_delivery.h"

#include <algorithm>
#include <set>
#include <chrono>

#include "src/common/event_log.h"
#include "src/common/mutex.h"
#include "src/common/partner_text.h"
#include "src/store/store.h"

namespace edihub::delivery {

OutboxDelivery::OutboxDelivery(std::string store_uri, DeliveryOptions options, std::map<std::string, Channel> channels)
    : store_uri_(std::move(store_uri)), options_(options), channels_(std::move(channels)) {}

OutboxDelivery::~OutboxDelivery() { stop(); }

void OutboxDelivery::start() {
  for (int i = 0; i < std::max(1, options_.workers); ++i) threads_.emplace_back([this] { run(); });
}

void OutboxDelivery::stop() {
  {
    MutexLock lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (std::thread& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

void OutboxDelivery::wake() {
  {
    MutexLock lock(mu_);
    ++wakes_;
  }
  cv_.notify_all();
}

void OutboxDelivery::log(const store::OutboxEntry& e, const std::string& state, const std::string& error,
                         int64_t attempts, int64_t retry_ms) {
  LogLine line("outbox", state);
  line.add("kind", e.item.kind)
      .add("message_id", e.item.message_id)
      .add("reference", e.item.reference, 1000)
      .add("destination", e.item.destination, 2048)
      .add("attempts", attempts)
      .add_nonempty("error", error, 500);
  if (retry_ms > 0) line.add("retry_ms", retry_ms);
  if (state == "delivered" || state == "sent") {
    line.info();
  } else {
    line.warning();
  }
}

std::string OutboxDelivery::record(store::Store& store, const store::OutboxEntry& e, const delivery::Attempt& a) {
  using Kind = delivery::Attempt::Kind;
  const int64_t attempts = e.attempts + 1;
  const std::string id = std::to_string(e.id);
  Status s;
  std::string state;
  if (a.kind == Kind::Delivered) {
    // If this write fails the row is sent again after its lease, with the
    // same identity: the receiver's duplicate detection answers it.
    s = store.outbox_delivered(e.id, a.receipt);
    state = "delivered";
    log(e, state, "", attempts, 0);
  } else if (a.kind == Kind::Sent) {
    s = store.outbox_sent(e.id);
    state = "sent";
    log(e, state, "", attempts, 0);
  } else {
    const bool give_up = a.kind == Kind::Failed || attempts >= options_.max_attempts;
    const int64_t delay =
        std::min(options_.max_retry_ms, options_.first_retry_ms << std::min<int64_t>(attempts - 1, 20));
    Result<int64_t> now = store.now_ms();
    s = now.is_ok() ? store.outbox_retry(e.id, now.value() + delay, a.error, give_up) : now.status();
    state = give_up ? "failed" : "retry";
    log(e, state, a.error, attempts, give_up ? 0 : delay);
  }
  if (!s.is_ok()) log_error("outbox item " + id + ": the attempt could not be recorded: " + s.message());
  return state;
}

std::string OutboxDelivery::deliver(store::Store& store, store::OutboxEntry e) {
  using Kind = delivery::Attempt::Kind;
  auto channel = channels_.find(e.item.channel);
  if (channel == channels_.end())
    return record(store, e, {Kind::Failed, "", "no '" + e.item.channel + "' channel in this gateway"});
  if (channel->second.prepare && e.prepared.empty()) {
    Result<delivery::Prepared> built = channel->second.prepare(e);
    if (!built.is_ok()) return record(store, e, {Kind::Failed, "", built.status().message()});
    if (Status kept = store.outbox_prepared(e.id, built->headers, built->body); !kept.is_ok())
      return record(store, e, {Kind::Retry, "", "the message built could not be kept: " + kept.message()});
    e.prepared_headers = std::move(built->headers);
    e.prepared = std::move(built->body);
  }
  return record(store, e, channel->second.send(e));
}

Result<OutboxDelivery::Drained> OutboxDelivery::drain() {
  auto opened = store::open_store(store_uri_);
  if (!opened.is_ok()) return opened.status();
  store::Store& store = *opened.value();
  Drained d;
  std::set<int64_t> tried;  // one attempt per row and run: a partner that is down does not hold it for hours
  while (true) {
    auto due = store.due_outbox(1, (int64_t{options_.timeout_seconds} + 10) * 1000);
    if (!due.is_ok()) return due.status();
    // A row tried already in this run is due again after its backoff: left
    // leased (due again for a server after the lease) and the run ends.
    if (due->empty() || !tried.insert(due->front().id).second) return d;
    const std::string state = deliver(store, std::move(due->front()));
    (state == "delivered" ? d.delivered : state == "sent" ? d.sent : state == "retry" ? d.retrying : d.failed)++;
  }
}

void OutboxDelivery::run() {
  auto opened = store::open_store(store_uri_);
  if (!opened.is_ok()) {
    log_error("outbox delivery stopped: " + opened.status().message());
    return;
  }
  store::Store& store = *opened.value();
  while (true) {
    uint64_t seen = 0;
    {
      MutexLock lock(mu_);
      if (stopping_) return;
      seen = wakes_;
    }
    // One row at a time, leased for one attempt and a margin: no other
    // worker or node sends it meanwhile, and a crashed worker's row is
    // taken again soon after.
    auto due = store.due_outbox(1, (int64_t{options_.timeout_seconds} + 10) * 1000);
    if (due.is_ok() && !due->empty()) {
      deliver(store, std::move(due->front()));
      continue;
    }
    if (!due.is_ok()) log_error("outbox delivery: " + due.status().message());
    UniqueLock lock(mu_);
    // Every worker wakes for something new (a generation, not a flag one of them would reset).
    cv_.wait_for(lock.native(), std::chrono::milliseconds(options_.poll_ms),
                 [&]() REQUIRES(mu_) { return stopping_ || wakes_ != seen; });
  }
}

}  // namespace edihub::delivery
