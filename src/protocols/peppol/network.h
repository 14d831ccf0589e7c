// Peppol (OpenPeppol AS4 profile 2.0): edihub as a receiving access point
// (C3). A Peppol message is AS4 One-Way/Push, signed and encrypted, from an
// access point (C2) whose certificate chains to the configured Peppol AP CAs
// and whose CN, its seat id, is eb:From; its payload is a Standard Business
// Document whose header names the sending participant (C1), the receiving
// one (C4, one of ours), the document type and the process, which must agree
// with the AS4 properties. The document, a UBL 2.1 invoice, credit note or
// despatch advice, is booked under its sending participant, keyed by the
// SBDH InstanceIdentifier: sent again under a new MessageId, it is a
// duplicate and is not booked twice.
//
// The AS4 stages (src/protocols/as4) call this where Peppol decides; the
// gateway makes one PeppolNetwork at start from <peppol> and the profiles
// with <peppol seat>, shared read-only by every receiving thread.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "src/config/gateway.h"
#include "src/config/partners.h"
#include "src/crypto/trust.h"
#include "src/identity/ocsp.h"
#include "src/delivery/channels.h"
#include "src/protocols/as4/network.h"

namespace edihub::peppol {

struct Sbd;
struct Reading;

// The Peppol AS4 profile's fixed P-Mode values.
inline constexpr std::string_view kAgreement = "urn:fdc:peppol.eu:2017:agreements:tia:ap_provider";
inline constexpr std::string_view kPartyType = "urn:fdc:peppol.eu:2017:identifiers:ap";

class PeppolNetwork : public as4::Network {
 public:
  // From the gateway's <peppol> (its AP CAs and CRLs loaded now); null when
  // the gateway has none. Invalid when a CA or CRL file cannot be used, or a
  // profile has <peppol seat> without a <peppol> in the gateway.
  static Result<std::unique_ptr<PeppolNetwork>> from_config(const config::Gateway& gw,
                                                            const config::Partners& partners);

  bool serves(const config::Partner& partner) const override { return partner.is_peppol(); }
  const config::Partner* sender(const as4::UserMessage& um) const override;
  as4::Error check_envelope(const as4::UserMessage& um) const override;
  std::string check_signer(const crypto::Certificate& signer, const as4::UserMessage& um) const override;
  void keys(receivers::Message& m, const as4::UserMessage& um, as4::Error* error) const override;

  // The outbox's AS4 channel for a Message Level Status row (kind "mls") (mls_item) as a
  // Peppol AS4 message from our seat to the row's To-Seat, its SBD gzipped,
  // signed by `identity` and encrypted to that access point's mls-certificate
  // as its profile names them now; then posted to its mls-url, whose signed
  // Receipt must come from an access point certificate of that seat that
  // the AP CAs vouch for and repeat our signed references.
  Result<delivery::Prepared> prepare_mls(const store::OutboxEntry& e, const crypto::Identity& identity) const;
  delivery::Attempt deliver_mls(const store::OutboxEntry& e, const delivery::ChannelOptions& options) const;

  // The clock trust is checked at (seconds since the epoch): the real one
  // unless a test sets another.
  void set_clock_for_test(int64_t now) { test_now_ = now; }

 private:
  PeppolNetwork(config::Peppol settings, crypto::TrustStore trust, const config::Partners& partners);
  bool ours(const std::string& participant) const;
  // Empty when an access point certificate is one the AP CAs vouch for now
  // (chain, validity, CRL, and OCSP when configured); else why not.
  std::string trusted(const crypto::Certificate& cert) const;
  // The Message Level Status for a document (AP, AB when `owner`, the
  // sending AP's profile, delivers documents to a back office, or RE with
  // `reading`'s reasons) as an outbox row to `endpoint`; partner and reference unset.
  std::optional<store::OutboxItem> mls_item(const peppol::Sbd& sbd, const std::string& seat,
                                            const config::Partner::Peppol::Mls& endpoint, const config::Partner& owner,
                                            const Reading& reading) const;
  std::string country_of(const std::string& participant) const;
  int64_t now() const;

  config::Peppol settings_;
  crypto::TrustStore trust_;
  const config::Partners& partners_;
  std::unique_ptr<identity::OcspChecker> ocsp_;  // null: no OCSP; thread-safe
  int64_t test_now_ = 0;
};

}  // namespace edihub::peppol
