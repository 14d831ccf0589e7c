// Lease owners: who holds a key while it is processed, and the heartbeat
// that says the holder is alive. A process names itself (node id + a
// per-start instance), writes that name on the leases it takes, and beats in
// the store every quarter of the owner timeout from a thread of its own, on
// its own connection. Other processes take over the leases of an owner whose
// heartbeat stopped, and a restarted node those of its previous instance, at
// once (claim.cpp), still fenced by the attempts token.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>

#include "src/common/mutex.h"
#include <string>
#include <thread>

#include "src/common/status.h"
#include "src/gate/gate.h"

namespace edihub::gate {

// `options` with `node` and a fresh owner name for this start ("NODE:INSTANCE").
GateOptions with_owner(GateOptions options, const std::string& node);

// This machine's name and `what` (e.g. "serve:8080", "replay:4242"): a node id.
std::string node_id(const std::string& what);

class Heartbeat {
 public:
  // Beats once now (an error says the store cannot record it), then every
  // options.owner_timeout_ms / 4 until destroyed.
  static Result<std::unique_ptr<Heartbeat>> start(const std::string& store_uri, const GateOptions& options);
  ~Heartbeat();

 private:
  Heartbeat(std::string uri, GateOptions options) : uri_(std::move(uri)), options_(std::move(options)) {}
  void run();

  std::string uri_;
  GateOptions options_;
  Mutex mu_;
  std::condition_variable stop_cv_;
  bool stopping_ GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace edihub::gate
