// Idempotency keys: what a received thing is known by, per partner.
#pragma once

#include <string>
#include <string_view>

namespace edihub::store {

// message_id is namespaced by what it identifies (design: "The idempotency gate"):
//   as2:<Message-ID>  as4:<eb:MessageId>  x12:<ISA06>:<ISA13>  edifact:<0004>:<0020>
struct MessageKey {
  std::string partner_id;
  std::string message_id;

  static MessageKey as2(std::string partner, std::string_view message_id_header);
  static MessageKey as4(std::string partner, std::string_view eb_message_id);
  static MessageKey x12(std::string partner, std::string_view isa06, std::string_view isa13);
  static MessageKey edifact(std::string partner, std::string_view sender_0004,
                            std::string_view control_0020);

  // "as2", "as4", "x12" or "edifact": the part before the first ':'.
  std::string_view protocol() const;
  bool operator==(const MessageKey& o) const {
    return partner_id == o.partner_id && message_id == o.message_id;
  }
};

}  // namespace edihub::store
