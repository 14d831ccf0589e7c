// An AS4 network with rules of its own (Peppol: src/protocols/peppol/),
// for the partners whose profile belongs to it: the AS4 stages call it
// where the network decides who sent a message, which P-Mode values it must
// carry, which signers are trusted and what its payloads are. The gateway
// makes one at start; every receiving thread shares it read-only.
#pragma once

#include <string>

#include "parsers/as4/user_message.h"
#include "src/config/partners.h"
#include "src/crypto/cms.h"
#include "src/receivers/pipeline.h"

namespace edihub::as4 {

class Network {
 public:
  virtual ~Network() = default;
  // Whether `partner`'s profile is one of this network's.
  virtual bool serves(const config::Partner& partner) const = 0;
  // The profile for a message whose eb:From no <as4 party-id> lists (Peppol:
  // the sending access point's seat id), or null.
  virtual const config::Partner* sender(const UserMessage& um) const = 0;
  // The network's P-Mode values, eb:To included, once the sender is one of
  // its partners: an error to answer with, or none.
  virtual Error check_envelope(const UserMessage& um) const = 0;
  // Whether a signer the partner does not pin is trusted for this message:
  // empty when it is, else why not (answered EBMS:0101).
  virtual std::string check_signer(const crypto::Certificate& signer, const UserMessage& um) const = 0;
  // The keys stage: the payloads (m.payloads, unwrapped) read as the
  // network's documents into m.work.interchanges; or m.failure and
  // m.failure_text set, and *error the EBMS error to answer with.
  virtual void keys(receivers::Message& m, const UserMessage& um, Error* error) const = 0;
};

}  // namespace edihub::as4
