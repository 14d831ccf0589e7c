// Acknowledgments to a partner over AS2: signed with our identity (SHA-256),
// encrypted to the partner's encryption certificate (its <as2 cipher> and
// key-transport; AES-256-CBC with RSA PKCS#1 v1.5 by default), posted to its <as2 url> under the Message-ID fixed at
// enqueue, built once and the same bytes on every retry. The sync MDN is
// checked at once (signature, Original-Message-ID, disposition, MIC); an
// async one arrives at /as2 (src/protocols/as2/mdn_intake.h).
#pragma once

#include <string>
#include <utility>

#include "src/config/partners.h"
#include "src/delivery/channels.h"
#include "src/protocols/as2/inbound.h"
#include "src/protocols/as2/partner_mdn.h"

namespace edihub::as2 {

struct As2Outbound {
  const as2::Settings* settings = nullptr;  // our identity; the partners' certificates for their MDNs
  const config::Partners* partners = nullptr;
  std::string receipt_url;  // where async MDNs come back (our /as2)
  delivery::ChannelOptions options;
};

// The MIME entity of a row's acknowledgment.
std::string as2_entity(const store::OutboxEntry& e);
// What we sign for it: the entity, or with <as2 compress> its compressed-data
// (RFC 5402: compressed before signing). The partner's MIC is over this.
std::string as2_signed_entity(const store::OutboxEntry& e, const config::Partner& partner);
// That MIC with the profile's digest (RFC 4130 7.3.1), as the MDN carries it
// ("base64, sha-256"'s first part). Deterministic: recomputed, not stored, so
// a profile's digest or compression changed while rows wait makes their MIC
// differ (the MDN then fails and says so).
as2::Mic as2_expected_mic(const store::OutboxEntry& e, const config::Partner& partner);
// The same for the row's partner as configured now (a partner no longer
// configured: the SHA-256 MIC of the plain entity).
as2::Mic as2_expected_mic_now(const store::OutboxEntry& e, const config::Partners& partners);

// The HTTP header lines and body of the AS2 message for a row.
Result<delivery::Prepared> build_as2(const store::OutboxEntry& e, const config::Partner& partner, const As2Outbound& o);
// The same for the row's partner as configured now (the outbox's prepare step).
Result<delivery::Prepared> prepare_as2(const store::OutboxEntry& e, const As2Outbound& o);
// One attempt with the prepared message: posted to the partner's <as2 url>,
// its sync MDN judged, or Sent when the MDN comes async.
delivery::Attempt deliver_as2(const store::OutboxEntry& e, const As2Outbound& o);

}  // namespace edihub::as2
