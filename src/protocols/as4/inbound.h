// AS4 (ebMS 3.0 + AS4 profile) as the pipeline's protocol: the envelope is
// eb:Messaging in the SOAP 1.2 root part (alone or SwA multipart/related),
// the WS-Security signature is checked against the partner's certificates
// and policy (crypto/ws_security.h), payloads are attachments by cid: (gzip
// when so declared), the receipt is an eb:Receipt signal or an eb:Error.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "parsers/as4/user_message.h"
#include "src/config/gateway.h"
#include "src/config/partners.h"
#include "src/crypto/ws_security.h"
#include "src/identity/credentials.h"
#include "src/protocols/as4/network.h"
#include "src/receivers/pipeline.h"

namespace edihub::as4 {

// The ebMS 3.0 error code of a refusal (EBMS:0101 FailedAuthentication ...).
std::string_view ebms_code(gate::Failure f);

struct Settings {
  std::string our_party_id, our_party_type;  // eb:To must name us
  const config::Partners* partners = nullptr;
  identity::SigningCertificates signing_certificates;  // WS-Security signers, by partner id
  std::vector<crypto::Identity> identities;            // the first signs Receipts to signed messages
  // The network with rules of its own (Peppol), when the gateway joins one;
  // not owned, outlives the Settings.
  const Network* network = nullptr;

  // Our party from the gateway config, the partners' certificates loaded.
  static Result<Settings> from_config(const config::Gateway& gw, const config::Partners& partners);
};

// One per message: it keeps what the envelope stage read.
class As4Protocol : public receivers::Protocol {
 public:
  explicit As4Protocol(const Settings& settings) : s_(settings) {}

  std::string_view name() const override { return "as4"; }
  bool envelope_in_body() const override { return true; }
  receivers::Next envelope(receivers::Message& m, http::HttpAnswer* answer) override;
  store::RawDigest raw_digest(const http::HttpRequest& request) const override;
  receivers::Next unwrap(receivers::Message& m, http::HttpAnswer* answer) override;
  Result<store::Receipt> draft(receivers::Message& m, Outcome outcome, const std::string& text) override;
  Result<store::Receipt> conflict(receivers::Message& m, const std::string& detail) override;
  http::HttpAnswer answer(receivers::Message& m, Outcome outcome, const store::Receipt& receipt) override;
  bool keys(receivers::Message& m) override;

 private:
  // The network m.partner belongs to, or null.
  const Network* network_of(const receivers::Message& m) const;
  // WS-Security before anything reads a payload; false: m.failure is set.
  bool check_security(receivers::Message& m);
  // A signal to a message whose signature verified is signed (eDelivery).
  Result<store::Receipt> signed_if_authenticated(store::Receipt receipt) const;

  const Settings& s_;
  UserMessage um_;
  std::string_view soap_;                                // the root part, a view into the request
  std::map<std::string, std::string_view> attachments_;  // by Content-ID, views (transfer encoding removed below)
  std::map<std::string, std::string> attachment_types_;
  std::map<std::string, std::string> decoded_;  // attachments that had a transfer encoding
  std::string error_code_;                      // an EBMS code more precise than the failure's
  std::string error_detail_;                    // its eb:ErrorDetail, when the network fixes one
  crypto::wss::Checked security_;               // what the signature covered, who signed
};

}  // namespace edihub::as4
