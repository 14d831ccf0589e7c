// AS2 (RFC 4130) as the pipeline's protocol: the envelope is in the HTTP
// headers (AS2-From, AS2-To, Message-ID), unwrapping is CMS (unwrap.h), the
// receipt is an MDN (mdn.h), signed when asked, sync in the answer or async
// through the outbox to an allowed Receipt-Delivery-Option.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "src/config/gateway.h"
#include "src/config/partners.h"
#include "src/crypto/cms.h"
#include "src/identity/credentials.h"
#include "src/protocols/as2/mdn.h"
#include "src/receivers/pipeline.h"

namespace edihub::as2 {

// What every receiving thread shares, read-only: our identity and the
// partners' certificates, loaded once.
struct Settings {
  std::string our_as2_id;
  const config::Partners* partners = nullptr;
  std::vector<crypto::Identity> identities;  // the first one signs MDNs
  identity::SigningCertificates signing_certificates;

  // Loads the partners' signing certificates; Invalid names the file.
  // REQUIRES: `partners` outlives the Settings.
  static Result<Settings> load(std::string our_as2_id, std::vector<crypto::Identity> identities,
                               const config::Partners& partners);
  // The same, with our identities read from the gateway config's files.
  static Result<Settings> from_config(const config::Gateway& gateway, const config::Partners& partners);
};

class As2Protocol : public receivers::Protocol {
 public:
  explicit As2Protocol(const Settings& settings) : s_(settings) {}

  std::string_view name() const override { return "as2"; }
  bool envelope_in_body() const override { return false; }
  receivers::Next envelope(receivers::Message& m, http::HttpAnswer* answer) override;
  store::RawDigest raw_digest(const http::HttpRequest& request) const override;
  receivers::Next unwrap(receivers::Message& m, http::HttpAnswer* answer) override;
  Result<store::Receipt> draft(receivers::Message& m, Outcome outcome, const std::string& text) override;
  Result<store::Receipt> conflict(receivers::Message& m, const std::string& detail) override;
  http::HttpAnswer answer(receivers::Message& m, Outcome outcome, const store::Receipt& receipt) override;
  // The MDN's own Message-ID, from the header lines build_mdn wrote.
  std::string receipt_message_id(const store::Receipt& receipt) const override;

 private:
  // The MDN for this message; `modifier` empty for processed.
  Result<store::Receipt> mdn(receivers::Message& m, const std::string& modifier, const std::string& text, bool with_mic,
                             const std::string& warning = {});

  const Settings& s_;
  std::string from_;        // AS2-From, unquoted
  std::string message_id_;  // Message-ID as received (checked printable)
  std::string mic_, mic_algorithm_;
  ReceiptRequest receipt_request_;
};

}  // namespace edihub::as2
