// Acknowledgments to a partner over AS2: signed with our identity (SHA-256),
// encrypted to the partner's encryption certificate (its <as2 cipher> and
// key-transport; AES-256-CBC with RSA PKCS#1 v1.5 by default), posted to its <as2 url> under the Message-ID fixed at
// enqueue, built once and the same bytes on every retry. The sync MDN is
// checked at once (signature, Original-Message-ID, disposition, MIC); an
// async one arrives at /as2 (src/receivers/mdn_intake.h).
#pragma once

#include <string>
#include <utility>

#include "src/config/partners.h"
#include "src/receivers/as2/as2.h"
#include "src/server/delivery/channels.h"

namespace edihub::server::delivery {

struct As2Outbound {
  const as2::Settings* settings = nullptr;  // our identity; the partners' certificates for their MDNs
  const config::Partners* partners = nullptr;
  std::string receipt_url;                  // where async MDNs come back (our /as2)
  ChannelOptions options;
};

// The MIME entity we sign for a row: what the partner's MIC is computed over.
std::string as2_entity(const store::OutboxEntry& e);
// That MIC: base64 SHA-256 of the entity (RFC 4130 7.3.1).
std::string as2_expected_mic(const store::OutboxEntry& e);

// The HTTP header lines and body of the AS2 message for a row.
Result<Prepared> build_as2(const store::OutboxEntry& e, const config::Partner& partner, const As2Outbound& o);
// The same for the row's partner as configured now (the outbox's prepare step).
Result<Prepared> prepare_as2(const store::OutboxEntry& e, const As2Outbound& o);
// One attempt with the prepared message: posted to the partner's <as2 url>,
// its sync MDN judged, or Sent when the MDN comes async.
Attempt deliver_as2(const store::OutboxEntry& e, const As2Outbound& o);

}  // namespace edihub::server::delivery
