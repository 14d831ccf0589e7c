#include "src/gate/heartbeat.h"

#include <unistd.h>

#include <chrono>
#include <random>

#include "src/store/store.h"
#include "src/common/mutex.h"

namespace edihub::gate {

namespace {

Status beat(store::Store& store, const GateOptions& o) {
  return store.transact([&](store::Transaction& tx) { return tx.heartbeat(o.owner, o.node); }, 2000);
}

}  // namespace

GateOptions with_owner(GateOptions options, const std::string& node) {
  std::random_device random;
  char instance[17];
  std::snprintf(instance, sizeof instance, "%08x%08x", random(), random());
  options.node = node;
  options.owner = node + ":" + instance;
  return options;
}

std::string node_id(const std::string& what) {
  char host[256] = "localhost";
  gethostname(host, sizeof host - 1);
  return std::string(host) + ":" + what;
}

Result<std::unique_ptr<Heartbeat>> Heartbeat::start(const std::string& store_uri, const GateOptions& options) {
  auto opened = store::open_store(store_uri);
  if (!opened.is_ok()) return opened.status();
  if (Status s = beat(*opened.value(), options); !s.is_ok())
    return Status::unavailable("lease owner heartbeat: " + s.message());
  std::unique_ptr<Heartbeat> h(new Heartbeat(store_uri, options));
  h->thread_ = std::thread([raw = h.get()] { raw->run(); });
  return h;
}

Heartbeat::~Heartbeat() {
  {
    MutexLock lock(mu_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Heartbeat::run() {
  std::unique_ptr<store::Store> store;
  const auto every = std::chrono::milliseconds(std::max<int64_t>(options_.owner_timeout_ms / 4, 50));
  UniqueLock lock(mu_);
  while (!stop_cv_.wait_for(lock.native(), every, [&]() REQUIRES(mu_) { return stopping_; })) {
    lock.unlock();
    if (!store) {
      auto opened = store::open_store(uri_);
      if (opened.is_ok()) store = std::move(opened.value());
    }
    // A missed beat is retried at the next one; several missed ones let
    // other nodes take this process's leases (and fence its settles).
    if (store && !beat(*store, options_).is_ok()) store.reset();
    lock.lock();
  }
}

}  // namespace edihub::gate
