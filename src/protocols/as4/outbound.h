// What edihub sends over AS4: acknowledgments to a partner (and, through the
// same functions, Peppol's Message Level Status, src/protocols/peppol): one
// UserMessage per outbox row, its MessageId the row's, fixed when it was
// queued, each payload a SwA attachment (gzip with <as4 compress>), signed
// and encrypted as the partner's profile asks (<as4 sign encrypt>: the
// eDelivery AS4 profile, crypto/ws_security.h), pushed to the partner's URL.
// The partner's eb:Receipt delivers the row and is kept, after, for a signed
// message, its signature is checked (the partner's certificate, or a CA's
// trust) and its NonRepudiationInformation matched to what we signed; an
// eb:Error fails it with its code and description.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "parsers/as4/signal.h"
#include "src/config/partners.h"
#include "src/crypto/cms.h"
#include "src/delivery/channels.h"
#include "src/identity/credentials.h"

namespace edihub::as4 {

struct As4Outbound {
  std::string our_party_id, our_party_type;  // eb:From
  const config::Partners* partners = nullptr;
  delivery::ChannelOptions options;
  const std::vector<crypto::Identity>* identities = nullptr;            // the first signs; may be null: nothing signed
  const identity::SigningCertificates* signing_certificates = nullptr;  // who may sign Receipts, by partner id
};

// The eb:MessageId of a row: its message id without angle brackets.
std::string as4_message_id(const store::OutboxEntry& e);

// How one message goes out: its header, one payload each, its security.
struct Outgoing {
  OutgoingMessage message;                           // parts: content ids, media types, gzip flags
  std::vector<std::string> data;                     // each part's octets, before compression
  const crypto::Identity* sign_with = nullptr;       // null: unsigned
  const crypto::Certificate* encrypt_for = nullptr;  // null: not encrypted (needs sign_with)
};
// The HTTP header lines and multipart/related body (boundary from `unique`).
Result<delivery::Prepared> build_outgoing(const Outgoing& out, const std::string& unique);

// The HTTP header lines and multipart/related body of the AS4 message for a
// row (eb:Timestamp: when the row was queued, so a rebuild is the same).
Result<delivery::Prepared> build_as4(const store::OutboxEntry& e, const config::Partner& partner, const As4Outbound& o);
// The same for the row's partner as configured now (the outbox's prepare step).
Result<delivery::Prepared> prepare_as4(const store::OutboxEntry& e, const As4Outbound& o);

// Who may sign the partner's Receipt to a signed message: empty when
// `signer` may, else why not (its certificate is not the partner's ...).
using ReceiptSigner = std::function<std::string(const crypto::Certificate& signer)>;
// One attempt with the prepared message, posted to `url`, its answer read as
// a signal. To a signed message the Receipt must be signed by one that
// `signer` accepts and repeat each of our ds:References in its
// NonRepudiationInformation; an unsigned Receipt delivers an unsigned one.
delivery::Attempt deliver_prepared(const store::OutboxEntry& e, const std::string& url, const ReceiptSigner& signer,
                                   const delivery::ChannelOptions& options);
// deliver_prepared to the row's partner's <as4 url>, its Receipt signed by one of its signing certificates.
delivery::Attempt deliver_as4(const store::OutboxEntry& e, const As4Outbound& o);

}  // namespace edihub::as4
