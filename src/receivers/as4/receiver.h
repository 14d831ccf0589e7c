// The AS4 receiver (ebMS 3.0 + AS4 profile, unsigned messages): a SOAP 1.2
// envelope alone or with SwA attachments in, a Receipt or an eb:Error out.
// The same gate and interchange intake as AS2; the Receipt is stored on the
// as4:<MessageId> key and returned byte for byte to retransmissions.
#pragma once

#include <string>

#include "src/config/partners.h"
#include "src/gate/gate.h"
#include "src/gate/interchanges.h"
#include "src/receivers/http.h"
#include "src/store/store.h"

namespace edihub::as4 {

struct As4Context {
  std::string our_party_id, our_party_type;  // eb:To must name us
  const config::Partners* partners = nullptr;
  size_t max_payload_bytes = 100 << 20;  // after gunzip, all parts together
};

// Per thread: it uses that thread's Store.
class Receiver {
 public:
  Receiver(const As4Context& context, gate::Gate& gate, store::Store& store)
      : context_(context), gate_(gate), store_(store), intake_(gate, store, *context.partners) {}

  // Handles the request and logs one messages row for it.
  receivers::HttpAnswer receive(const receivers::HttpRequest& request);

 private:
  receivers::HttpAnswer handle(const receivers::HttpRequest& request);
  const As4Context& context_;
  gate::Gate& gate_;
  store::Store& store_;
  gate::InterchangeIntake intake_;
};

}  // namespace edihub::as4
