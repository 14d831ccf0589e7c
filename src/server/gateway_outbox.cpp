#include "src/server/gateway_outbox.h"

namespace edihub::server {

namespace {

delivery::DeliveryOptions options_of(const config::Gateway& gw) {
  delivery::DeliveryOptions o;
  o.first_retry_ms = gw.outbox_first_retry_seconds * 1000LL;
  o.max_attempts = gw.outbox_max_attempts;
  o.timeout_seconds = gw.outbox_timeout_seconds;
  o.workers = gw.outbox_workers;
  return o;
}

}  // namespace

GatewayOutbox::GatewayOutbox(const config::Gateway& gw, const config::Partners& partners, const as2::Settings& as2,
                             const peppol::PeppolNetwork* peppol)
    : channel_options_{gw.outbox_timeout_seconds},
      as2_{&as2, &partners, gw.public_url, channel_options_},
      as4_{gw.as4_party_id,  gw.as4_party_type, &partners,
           channel_options_, &as2.identities,   &as2.signing_certificates} {
  using delivery::Attempt;
  using store::OutboxEntry;
  std::map<std::string, delivery::OutboxDelivery::Channel> channels{
      {"http", {{}, [this](const OutboxEntry& e) { return delivery::deliver_http(e, channel_options_); }}},
      {"webhook", {{}, [this](const OutboxEntry& e) { return delivery::deliver_webhook(e, channel_options_); }}},
      {"dir", {{}, [](const OutboxEntry& e) { return delivery::deliver_dir(e); }}},
      {"as2",
       {[this](const OutboxEntry& e) { return as2::prepare_as2(e, as2_); },
        [this](const OutboxEntry& e) { return as2::deliver_as2(e, as2_); }}},
      // Peppol's Message Level Status (kind "mls") travels over AS4 too, on Peppol's terms.
      {"as4",
       {[this, peppol, &as2](const OutboxEntry& e) -> Result<delivery::Prepared> {
          if (e.item.kind != "mls") return as4::prepare_as4(e, as4_);
          if (peppol == nullptr) return Status::invalid("an MLS row, and this gateway has no <peppol>");
          if (as2.identities.empty()) return Status::invalid("this gateway has no identity to sign the MLS with");
          return peppol->prepare_mls(e, as2.identities.front());
        },
        [this, peppol](const OutboxEntry& e) {
          if (e.item.kind == "mls" && peppol != nullptr) return peppol->deliver_mls(e, channel_options_);
          return as4::deliver_as4(e, as4_);
        }}}};
  delivery_ = std::make_unique<delivery::OutboxDelivery>(gw.store_uri, options_of(gw), std::move(channels));
}

}  // namespace edihub::server
