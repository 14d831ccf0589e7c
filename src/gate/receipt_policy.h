// The receipt policy, protocol-blind: why a message is refused for good
// (Failure, decided from the error's code), and the functional
// acknowledgment of an interchange. How each protocol says a Failure (the AS2
// disposition modifier, the AS4 EBMS code, the HTTP status) is the protocol's:
// protocols/as2/mdn.h, protocols/as4/inbound.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "parsers/edi/interchange.h"
#include "src/common/outcome.h"
#include "src/config/partners.h"

namespace edihub::gate {

// Why a transport message is refused for good (a permanent failure).
enum class Failure {
  None,
  DecryptionFailed,      // not to us, or a key we cannot use
  AuthenticationFailed,  // signed by a certificate the partner profile does not list
  IntegrityCheckFailed,  // the signature does not verify
  DecompressionFailed,
  InsufficientSecurity,  // unsigned or unencrypted where the profile requires it
  Malformed,             // the MIME structure, the SOAP envelope, the payload cannot be read
  NotEdi,                // an EDI content type whose content is no interchange
  Configuration,         // the gateway cannot answer as asked (no identity to sign with)
  // The payload is the partner's to send but not as written: an interchange
  // whose sender id is not its own (nor one it may send for), or addressed to
  // an id that is not the gateway's.
  SenderNotAuthorized,
  NotAddressedToUs,
  // A business document that breaks a rule its booking depends on (a Peppol
  // invoice whose totals do not add up): nothing of it is booked.
  DocumentRejected,
};

// The failure a permanent error's code stands for (crypto's and unwrap's:
// Code::DecryptionFailed ...); Malformed for any other. Never read from the message.
Failure failure_of(Code code);

// The functional acknowledgment of `ic` (its errors decide accept or reject)
// with control number `number` (from the sequences table): TA1 for an
// interchange-level X12 error or, with `duplicate`, TA1 025; else 997 below
// version 00501 and 999 from it; CONTRL for EDIFACT (UCI 26 for a duplicate).
// `policy` may choose 997 or 999 for X12 whatever the version (its x12 setting).
// `parties` names the acknowledgment's own sender and recipient when they are
// not the original's recipient and sender.
struct AckParties {
  std::optional<edi::Party> sender, recipient;
};
std::string acknowledgment(const edi::Interchange& ic, int64_t number, bool duplicate,
                           const config::Partner::Acknowledgments* policy = nullptr, const AckParties& parties = {});

// True when `policy` wants application errors of an EDIFACT `ic` in an
// APERAK (aperak="errors"): acknowledgment() then leaves them out of the CONTRL.
bool wants_aperak(const edi::Interchange& ic, const config::Partner::Acknowledgments* policy);
// The APERAKs for `ic`'s messages not booked for an application error, with
// UNB 0020 `number` (parsers/edifact/aperak.h); empty when it has none.
std::string aperak_acknowledgment(const edi::Interchange& ic, int64_t number, const AckParties& parties = {});

// A TA1 for `ic` (accepted, or rejected with its first interchange-level error).
std::string ta1_acknowledgment(const edi::Interchange& ic, int64_t number, const AckParties& parties = {});

// What goes back to the partner for an interchange whose stored
// acknowledgment is `stored_kind` ("ta1", "997", "999", "contrl"), per its
// profile: that acknowledgment (or nothing), plus a positive TA1 when the
// profile says ta1="requested" and ISA14 asks for one.
struct AckPlan {
  bool send_stored = false;
  bool send_ta1_accepted = false;
};
AckPlan ack_plan(const edi::Interchange& ic, std::string_view stored_kind,
                 const config::Partner::Acknowledgments& policy);
// The kind of acknowledgment acknowledgment() builds for `ic`.
std::string_view acknowledgment_kind(const edi::Interchange& ic, bool duplicate,
                                     const config::Partner::Acknowledgments* policy = nullptr);

}  // namespace edihub::gate
