// The Peppol business message envelope: a Standard Business Document (SBDH
// 1.3 header, then the business document) as Peppol's envelope specification
// profiles it. Pure: XML bytes in, model or error out. pugixml parses through
// the bounded loader of parsers/as4/xml.h (no DTDs or entities); the business
// document is not copied: the model gives its place in the input.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parsers/as4/xml.h"

namespace edihub::peppol {

inline constexpr std::string_view kSbdhNs = "http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader";

// A participant: "0088:5790000435951" under the authority "iso6523-actorid-upis".
struct ParticipantId {
  std::string value;
  std::string authority;
};

struct DocumentIdentification {
  std::string standard;                // the payload's namespace URI
  std::string type_version;            // "2.1"
  std::string instance_identifier;     // the sender's id for this envelope: printable ASCII, at most 200
  std::string type;                    // the payload's local name
  std::string creation_date_and_time;  // as written
};

// One BusinessScope/Scope: DOCUMENTID, PROCESSID, COUNTRY_C1 (others kept as sent).
struct Scope {
  std::string type;
  std::string instance_identifier;
  std::string identifier;  // the identifier scheme, e.g. "busdox-docid-qns"; may be empty
};

// The business document: the one element after the header, as it is in the input.
struct Payload {
  std::string namespace_uri;   // "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
  std::string local_name;      // "Invoice"
  std::string qualified_name;  // as written: "Invoice" or "inv:Invoice"
  size_t offset = 0;           // of its '<' in the input
  // Through the '>' of its end tag (of its empty-element tag): where the
  // envelope's end tag begins, less the white space before it; a comment or
  // processing instruction after the payload is not part of it.
  size_t length = 0;
  // The xmlns declarations of the envelope that the payload uses and its start
  // tag does not repeat ("xmlns:cbc", uri), in the order found: what a copy
  // standing alone must declare itself.
  std::vector<std::pair<std::string, std::string>> inherited_namespaces;
};

struct Sbd {
  std::string header_version;  // "1.0"
  ParticipantId sender, receiver;
  DocumentIdentification document;
  std::vector<Scope> scopes;  // in document order
  Payload payload;

  // The first scope of `type` ("DOCUMENTID"), or null.
  const Scope* scope(std::string_view type) const;
  std::string document_type_id() const;  // DOCUMENTID's InstanceIdentifier, or empty
  std::string process_id() const;        // PROCESSID's InstanceIdentifier, or empty
  std::string country_c1() const;        // COUNTRY_C1's InstanceIdentifier, or empty
};

enum class SbdCode {
  None,
  Xml,            // not well-formed, a DTD or entity declaration, a bound crossed
  Encoding,       // an XML declaration naming an encoding other than UTF-8
  NotSbd,         // the root is not sbdh:StandardBusinessDocument
  MissingHeader,  // no StandardBusinessDocumentHeader (first child)
  HeaderVersion,  // HeaderVersion absent or not "1.0"
  Sender,         // not exactly one Sender/Identifier with a value and an Authority
  Receiver,       // the same for Receiver
  MissingDocumentIdentification,
  MissingStandard,
  MissingTypeVersion,
  MissingInstanceIdentifier,
  BadInstanceIdentifier,  // longer than 200 or not printable ASCII
  MissingType,
  CreationDateAndTime,  // absent or not an xs:dateTime
  MissingBusinessScope,
  TooManyScopes,
  MissingDocumentIdScope,
  MissingProcessIdScope,
  DuplicateScope,      // DOCUMENTID or PROCESSID twice
  NoPayload,           // no element after the header
  MultiplePayloads,    // more than one
  StandardMismatch,    // Standard is not the payload's namespace
  TypeMismatch,        // Type is not the payload's local name
  DocumentIdMismatch,  // the DOCUMENTID does not start with "<Standard>::<Type>##"
};

// "SBDH_MISSING_INSTANCE_IDENTIFIER" ... ("" for None): what logs and tests name.
std::string_view code_name(SbdCode code);

struct SbdError {
  SbdCode code = SbdCode::None;
  std::string text;  // for people: what was wrong
  explicit operator bool() const { return code != SbdCode::None; }
};

// Every dimension of an envelope a partner controls. Peppol documents are far
// larger than AS4 headers: an invoice may embed base64 PDFs (one text node of
// tens of MiB) and carry thousands of lines (~20 elements each), so these
// bounds are the envelope's own: 100 MiB in all, a text node up to 100 MiB,
// depth 64 (UBL nests about 8 deep), 2,000,000 elements (100,000 lines),
// 64 attributes on an element, 4,000,000 in all, 100,000 namespace
// declarations (some writers declare cbc/cac on every element), names of 256
// bytes, attribute values of 64 KiB.
as4::xml::Bounds envelope_bounds();
struct SbdLimits {
  as4::xml::Bounds xml = envelope_bounds();
  size_t max_scopes = 32;
};

// Parses and checks the envelope; fills `out` or returns the first problem.
// On success out->payload.offset/length lie within `xml` and the payload is
// exactly one element whose namespace and local name the header names.
SbdError parse_sbd(std::string_view xml, Sbd* out, const SbdLimits& limits = {});

// The payload's bytes: xml.substr(offset, length). REQUIRES: `xml` is what
// parse_sbd accepted into `sbd` (empty if the span lies outside it).
std::string_view payload_bytes(std::string_view xml, const Sbd& sbd);

// The payload as a document of its own: its exact bytes, with the inherited
// namespace declarations added to its start tag (after its name). No XML
// declaration (UTF-8, the default, is what parse_sbd accepts). Same REQUIRES.
std::string standalone_payload(std::string_view xml, const Sbd& sbd);

}  // namespace edihub::peppol
