// The outbox as the gateway runs it: the delivery options from the gateway
// config and every channel (http for async MDNs, webhook, dir, as2, as4) on
// the loaded profiles and identity. `edihub serve` runs it on its workers;
// `edihub outbox run` drains it once, for a machine without a server.
#pragma once

#include <memory>

#include "src/config/gateway.h"
#include "src/config/partners.h"
#include "src/delivery/outbox_delivery.h"
#include "src/protocols/as2/inbound.h"
#include "src/protocols/as2/outbound.h"
#include "src/protocols/as4/outbound.h"
#include "src/protocols/peppol/network.h"

namespace edihub::server {

class GatewayOutbox {
 public:
  // REQUIRES: gw, partners and as2 outlive the GatewayOutbox.
  // `peppol` (may be null: no "peppol" channel) delivers Message Level Status rows.
  GatewayOutbox(const config::Gateway& gw, const config::Partners& partners, const as2::Settings& as2,
                const peppol::PeppolNetwork* peppol = nullptr);
  delivery::OutboxDelivery& delivery() { return *delivery_; }

 private:
  delivery::ChannelOptions channel_options_;
  as2::As2Outbound as2_;
  as4::As4Outbound as4_;
  std::unique_ptr<delivery::OutboxDelivery> delivery_;
};

}  // namespace edihub::server
