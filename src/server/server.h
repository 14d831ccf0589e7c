// The gateway's listener: POST <as2 path> through the AS2 pipeline, POST /as4
// through the AS4 pipeline, GET /healthz (alive: answered by the I/O thread,
// even when every worker is busy) and GET /readyz (the store answers), one
// log line per request. With <metrics>, a second listener serves GET
// /metrics (Prometheus, metrics.h); with <console>, a third serves the
// operator console (src/console/).
#pragma once

#include <functional>
#include <memory>

#include "src/common/status.h"
#include "src/config/gateway.h"
#include "src/gate/gate.h"
#include "src/protocols/as2/inbound.h"
#include "src/protocols/as4/inbound.h"

namespace edihub::server {

class Server {
 public:
  // `queued` is called when an async receipt was queued (wakes the deliverer).
  Server(const config::Gateway& config, const config::Partners& partners, const as2::Settings& as2,
         const as4::Settings& as4, gate::Gate& gate, std::function<void()> queued);
  ~Server();

  // Binds and starts serving. Unavailable when the address cannot be bound.
  Status start();
  // Stops accepting, lets requests in flight finish (up to `grace_ms`).
  void stop(int grace_ms);
  int port() const;
  int metrics_port() const;  // -1 without <metrics>
  int console_port() const;  // -1 without <console>

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace edihub::server
