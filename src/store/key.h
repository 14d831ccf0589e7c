// Idempotency keys: what a received thing is known by, per partner, and what
// the store keeps for it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "src/common/outcome.h"
#include "src/crypto/digest.h"

namespace edihub::store {

using crypto::PayloadDigest;
using crypto::RawDigest;

// message_id is namespaced by what it identifies (design: "The idempotency gate"):
//   as2:<Message-ID>  as4:<eb:MessageId>  x12:<ISA06>:<ISA13>  edifact:<0004>:<0020>
// These factories are the one place a key is formatted and trimmed; the
// `messages` row of the same thing carries the same string.
struct MessageKey {
  std::string partner_id;
  std::string message_id;

  static MessageKey as2(std::string partner, std::string_view message_id_header);
  static MessageKey as4(std::string partner, std::string_view eb_message_id);
  static MessageKey x12(std::string partner, std::string_view isa06, std::string_view isa13);
  static MessageKey edifact(std::string partner, std::string_view sender_0004, std::string_view control_0020);
  // A Peppol document: its sending participant ("0088:5790000435951") and SBDH InstanceIdentifier.
  static MessageKey peppol(std::string partner, std::string_view participant, std::string_view instance);

  // "as2", "as4", "x12", "edifact" or "peppol": the part before the first ':'.
  std::string_view protocol() const;
  bool operator==(const MessageKey& o) const { return partner_id == o.partner_id && message_id == o.message_id; }
};

enum class KeyState { Processing, Completed, Failed };
std::string_view state_name(KeyState s);  // "processing" / "completed" / "failed"
KeyState state_from(std::string_view name);

// The answer given for a key, kept so a retransmission gets it byte for byte.
struct Receipt {
  int status = 0;       // HTTP status; 0 where there is no HTTP answer (replay)
  std::string headers;  // header lines needed to reproduce it, "Name: value\r\n" each
  std::string body;     // exact bytes
  bool empty() const { return status == 0 && headers.empty() && body.empty(); }
  bool operator==(const Receipt& o) const { return status == o.status && headers == o.headers && body == o.body; }
};

struct KeyRecord {
  MessageKey key;
  KeyState state = KeyState::Processing;
  int64_t received_at_ms = 0;
  int64_t lease_until_ms = 0;
  int64_t attempts = 0;  // also the fencing token
  int64_t failures = 0;
  PayloadDigest payload;  // empty while unknown (a message that could not be unwrapped)
  RawDigest raw;
  std::string outcome, error;
  Receipt receipt;
  // Who holds the lease (empty: nobody named), its node and last heartbeat
  // (0: it never beat).
  std::string owner, owner_node;
  int64_t owner_heartbeat_ms = 0;
};

// The end state a settle writes, with the receipt to store.
struct Settlement {
  KeyState state = KeyState::Completed;  // Completed or Failed
  Receipt receipt;
  Outcome outcome = Outcome::Processed;
  std::string error;  // for failed keys: why, for the operator; notes otherwise
};

}  // namespace edihub::store
