// Acknowledgments to a partner over AS4 (unsigned for now: the WS-Security
// issue adds signing and encryption): one UserMessage per row, its MessageId
// the row's, fixed when it was queued, with the acknowledgment as a SwA
// attachment (gzip with <as4 compress>), pushed to the partner's <as4 url>.
// The partner's eb:Receipt delivers the row and is kept; an eb:Error fails it
// with its code and description.
#pragma once

#include <string>

#include "src/config/partners.h"
#include "src/delivery/channels.h"

namespace edihub::as4 {

struct As4Outbound {
  std::string our_party_id, our_party_type;  // eb:From
  const config::Partners* partners = nullptr;
  delivery::ChannelOptions options;
};

// The eb:MessageId of a row: its message id without angle brackets.
std::string as4_message_id(const store::OutboxEntry& e);

// The HTTP header lines and multipart/related body of the AS4 message for a
// row (eb:Timestamp: when the row was queued, so a rebuild is the same).
Result<delivery::Prepared> build_as4(const store::OutboxEntry& e, const config::Partner& partner, const As4Outbound& o);
// The same for the row's partner as configured now (the outbox's prepare step).
Result<delivery::Prepared> prepare_as4(const store::OutboxEntry& e, const As4Outbound& o);
// One attempt with the prepared message: posted to the partner's <as4 url>,
// its answer read as a signal.
delivery::Attempt deliver_as4(const store::OutboxEntry& e, const As4Outbound& o);

}  // namespace edihub::as4
