// The Peppol Message Level Status (MLS 1.0) a receiving access point (C3)
// sends the sending access point (C2) for every business document received,
// and the Standard Business Document it travels in. Pure builders: values in,
// XML out; no clock, no randomness, no I/O (the caller makes the ids and the
// times, and decides whether an MLS is due at all).
//
// Sources: docs.peppol.eu/edelivery/specs/mls/v1.0.0 (semantic model, syntax
// binding, code lists), OpenPeppol's Schematron for it (peppol-mls 1.0.1, as
// phax/peppol-commons ships it beside the specification's example documents),
// the UBL 2.1 ApplicationResponse schema for element order, and the OpenPeppol
// Service Provider Identification Scheme (SPIS, ICD 0242) as phax/peppol-commons
// and phax/phoss-ap apply it. What the MLS requires:
// - CustomizationID urn:peppol:edec:mls:1.0, ProfileID urn:peppol:edec:mls;
//   ID, IssueDate (no zone) and IssueTime (with a zone) all present.
// - SenderParty and ReceiverParty name service providers, not end users: an
//   EndpointID with schemeID 0242 whose value is a service provider id (SPID):
//   six digits, the seat id less its three letters ("POP000999" -> "000999"),
//   optionally followed by "-<use case>[.<suffix>]".
// - One DocumentResponse: Response/ResponseCode AP (accepted, delivery to the
//   end user confirmed), AB (accepted, delivery not confirmed) or RE
//   (rejected); a Description is mandatory for RE, optional otherwise;
//   one DocumentReference/ID, the received SBDH's InstanceIdentifier.
// - LineResponse, one per issue location (LineReference/LineID, "NA" when
//   unknown), each holding one Response per issue: its Description and
//   Status/StatusReasonCode BV (business rule, fatal), BW (business rule,
//   warning), FD (delivery failed) or SV (syntax). The reason code is the
//   Status's StatusReasonCode; a line Response carries no ResponseCode.
// - RE needs at least one issue with BV, FD or SV; AP and AB may carry BW
//   issues only.
// - The MLS is itself a Peppol document: document type kMlsDocumentType
//   (reporting.h) under busdox-docid-qns, process urn:peppol:edec:mls under
//   cenbii-procid-ubl, sent from participant 0242:<our SPID> to 0242:<C2's
//   SPID>. No MLS is ever sent in answer to an MLS (see is_mls).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parsers/peppol/reporting.h"
#include "parsers/peppol/sbdh.h"

namespace edihub::peppol {

inline constexpr std::string_view kApplicationResponseNs =
    "urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2";
inline constexpr std::string_view kMlsCustomizationId = "urn:peppol:edec:mls:1.0";
inline constexpr std::string_view kMlsProcess = "urn:peppol:edec:mls";  // also the MLS's ProfileID
inline constexpr std::string_view kSpisScheme = "0242";                 // ICD of Peppol service provider ids
inline constexpr std::string_view kParticipantAuthority = "iso6523-actorid-upis";
inline constexpr std::string_view kDocumentTypeScheme = "busdox-docid-qns";
inline constexpr std::string_view kProcessScheme = "cenbii-procid-ubl";

struct MlsReason {          // one issue of an RE (or, a BW warning only, of an AP or AB)
  std::string code;         // "BV", "BW", "FD" or "SV"
  std::string description;  // for the sender's operator, e.g. "BR-CO-15: total with VAT ..."
  std::string location;     // where, when known (a rule id or an XPath); empty: "NA"
};

struct Mls {
  std::string id;             // the MLS's own identifier (the caller makes a UUID)
  std::string issue_date;     // YYYY-MM-DD
  std::string issue_time;     // hh:mm:ss[.s] with a zone ("10:00:00Z"); the spec asks for UTC
  std::string response_code;  // "AP", "RE" or "AB"
  std::string description;    // overall text: mandatory for RE, optional otherwise
  std::string sender_seat;    // C3, our seat id ("POP000999") or SPID ("000999")
  // C2, the sending access point's seat id, or the SPID the received SBDH's
  // MLS_TO scope names (the caller checks that it is one of C2's).
  std::string receiver_seat;
  std::string referenced_instance;  // the received SBDH's InstanceIdentifier
  std::vector<MlsReason> reasons;   // in the order given; grouped by location when written
};

// The SPID a seat id or SPID stands for: "POP000999" -> "000999", "000999"
// and "000999-MLS.acme" as given; empty when `seat` is neither.
std::string spid(std::string_view seat);

// The UBL ApplicationResponse, UTF-8 with an XML declaration; empty when `m`
// breaks the spec's own rules (RE without a description or without a failing
// reason, an unknown code, an empty id, a date or time not in the spec's
// form, a seat that is no seat id or SPID), with *why (when not null) saying
// which and naming the Schematron rule ("SCH-MLS-24"). Reasons are written in
// the order given, those with the same location in one LineResponse (the
// first one's place). Free text (descriptions, locations) is written with any
// byte sequence XML cannot carry (invalid UTF-8, control characters) replaced
// by U+FFFD; identifiers holding one are refused instead.
std::string build_mls(const Mls& m, std::string* why);

struct SbdHeader {
  ParticipantId sender, receiver;            // value + authority
  std::string standard, type, type_version;  // the payload's namespace, local name, "2.1"
  std::string instance_identifier, creation_date_and_time;
  std::string document_type_scheme, document_type;  // DOCUMENTID scope
  std::string process_scheme, process;              // PROCESSID scope
  std::string country_c1;                           // COUNTRY_C1 scope, may be empty (then omitted)
};

// A Standard Business Document: the header (SBDH 1.0 as Peppol's envelope
// specification profiles it, in the sh: prefix so that the payload inherits no
// default namespace), then `payload` as the business document, its bytes as
// given less a byte order mark, its XML declaration and the white space around
// it. What parse_sbd (sbdh.h) reads back into the same values, and
// standalone_payload into the payload's bytes. REQUIRES: `payload` is a UTF-8
// XML document without a DOCTYPE whose root `standard` and `type` name; the
// header values are what parse_sbd accepts (it is not checked here).
std::string build_sbd(const SbdHeader& h, std::string_view payload);

// The SBDH an MLS travels in: from participant 0242:<spid(m.sender_seat)> to
// 0242:<spid(m.receiver_seat)>, the MLS document type and process, instance
// `instance`, created `created` (xs:dateTime with a zone), COUNTRY_C1
// `country_c1`: our own country, as C1 of an MLS is the service provider that
// sends it. The envelope specification (2.0) makes COUNTRY_C1 mandatory and
// common readers refuse an envelope without it, hence no default. REQUIRES:
// build_mls(m) succeeded (else a participant value may be "0242:").
SbdHeader mls_header(const Mls& m, const std::string& instance, const std::string& created,
                     const std::string& country_c1);

// Whether a received document is itself an MLS (its document type or its
// process is the MLS's): it is answered with no MLS, whatever its outcome.
bool is_mls(std::string_view document_type, std::string_view process);

}  // namespace edihub::peppol
