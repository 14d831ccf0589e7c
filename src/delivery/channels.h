// How outbox rows travel. A channel makes one attempt and says what became
// of it; the outbox worker (outbox_delivery.cpp) records that and decides
// retries. Channels: http (the body POSTed as is: async MDNs), dir (an
// atomic file drop), webhook (JSON with an Idempotency-Key), as2 (signed,
// encrypted, with the partner's MDN checked), as4 (a UserMessage, its Receipt).
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "src/store/outbox.h"

namespace edihub::delivery {

struct Attempt {
  enum class Kind {
    Delivered,  // the receiver has it (its answer in `receipt`)
    Sent,       // sent; its async MDN will say
    Retry,      // not this time (down, 5xx, timeout): again later, same identity
    Failed,     // refused for good (error disposition, bad signature, 4xx): for the operator
  };
  Kind kind = Kind::Retry;
  std::string receipt;
  std::string error;
};

// The message a channel builds once for a row (header lines, body): kept in
// the row before the first send, and sent as is on every retry.
struct Prepared {
  std::string headers, body;
};

struct ChannelOptions {
  int timeout_seconds = 30;
};

// The body POSTed as is, with its header lines: 2xx delivered, else retry.
Attempt deliver_http(const store::OutboxEntry& e, const ChannelOptions& options);
// The body JSON, with Idempotency-Key: 2xx delivered; 4xx (but 408, 429) failed; else retry.
Attempt deliver_webhook(const store::OutboxEntry& e, const ChannelOptions& options);
// A file in the directory, written whole: a temporary name, fsync, rename.
// Named after the message id (made safe), so a retry replaces, never doubles.
Attempt deliver_dir(const store::OutboxEntry& e);

// The file name of a row in a directory drop.
std::string drop_name(const store::OutboxEntry& e);

}  // namespace edihub::delivery
