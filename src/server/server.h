// The HTTP server: POCO HTTPServer with a bounded thread pool and queue,
// POST <as2 path> to the AS2 receiver, POST /as4 to the AS4 receiver, GET
// /healthz for load balancers.
#pragma once

#include <memory>
#include <string>

#include "src/common/status.h"
#include "src/config/gateway.h"
#include "src/gate/gate.h"
#include "src/receivers/as2/receiver.h"
#include "src/receivers/as4/receiver.h"

namespace edihub::server {

class Server {
 public:
  Server(const config::Gateway& config, const as2::As2Context& as2, const as4::As4Context& as4, gate::Gate& gate);
  ~Server();

  // Binds and starts serving. Unavailable when the address cannot be bound.
  Status start();
  // Stops accepting, lets requests in flight finish (up to `grace_ms`).
  void stop(int grace_ms);
  int port() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace edihub::server
