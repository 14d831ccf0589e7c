// The AS2 receiver: one HTTP request in, one HTTP answer out. A thin stage
// chain: identify the partner, answer a byte-identical retransmission from the
// store, unwrap, enforce the partner's security policy, run each interchange
// through the gate, and answer with an MDN that is stored for retransmissions.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "src/config/gateway.h"
#include "src/config/partners.h"
#include "src/crypto/cms.h"
#include "src/gate/gate.h"
#include "src/gate/interchanges.h"
#include "src/receivers/http.h"
#include "src/store/store.h"

namespace edihub::as2 {

using receivers::HeaderList;
using receivers::HttpAnswer;
using receivers::HttpRequest;
using receivers::join_headers;
using receivers::log_transport;
using receivers::split_headers;

// What every receiving thread shares, read-only: our identity and the
// partners' certificates, loaded once.
struct As2Context {
  std::string our_as2_id;
  std::vector<crypto::Identity> identities;  // the first one signs MDNs
  const config::Partners* partners = nullptr;
  std::map<std::string, std::vector<crypto::Certificate>> signing_certificates;  // by partner id
  size_t max_decompressed_bytes = 100 << 20;
  std::function<void()> queued;  // called after an async MDN was queued (wakes the deliverer)

  // Loads the partners' signing certificates; Invalid names the file.
  static Result<As2Context> load(std::string our_as2_id, std::vector<crypto::Identity> identities,
                                 const config::Partners& partners);
  // The same, with our identities read from the gateway config's files.
  static Result<As2Context> from_config(const config::Gateway& gateway, const config::Partners& partners);
};

// Per thread: it uses that thread's Store.
class Receiver {
 public:
  Receiver(const As2Context& context, gate::Gate& gate, store::Store& store)
      : context_(context), gate_(gate), store_(store), intake_(gate, store, *context.partners) {}

  // Handles the request and logs one messages row for it.
  HttpAnswer receive(const HttpRequest& request);

 private:
  HttpAnswer handle(const HttpRequest& request);
  const As2Context& context_;
  gate::Gate& gate_;
  store::Store& store_;
  gate::InterchangeIntake intake_;
};

}  // namespace edihub::as2
