// The ebMS 3.0 header of an AS4 message: eb:Messaging/eb:UserMessage in a
// SOAP 1.2 envelope. Pure: XML bytes in, model or EBMS error out. pugixml
// parses; no DTDs or entities are accepted, and depth, size and counts are
// bounded.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parsers/as4/xml.h"

namespace edihub::as4 {

inline constexpr std::string_view kSoap12Ns = "http://www.w3.org/2003/05/soap-envelope";
inline constexpr std::string_view kSoap11Ns = "http://schemas.xmlsoap.org/soap/envelope/";
inline constexpr std::string_view kEbmsNs = "http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/";

// An eb:Property: its name, value and (Peppol's originalSender and
// finalRecipient carry one) its type attribute.
struct Property {
  std::string name, value, type;
};
using Properties = std::vector<Property>;

struct Party {
  std::string id;
  std::string type;  // may be empty
};

// The value of the first property named `name`, or empty.
std::string property_value(const Properties& properties, std::string_view name);

struct PartInfo {
  std::string href;       // "cid:..." for an attachment, "#id" or empty for the SOAP body
  Properties properties;  // PartProperties: MimeType, CharacterSet, CompressionType ...
  std::string property(std::string_view name) const { return property_value(properties, name); }
};

struct UserMessage {
  std::string timestamp, message_id, ref_to_message_id;
  std::vector<Party> from, to;
  std::string from_role, to_role;
  std::string agreement_ref, service, service_type, action, conversation_id;
  Properties message_properties;
  std::vector<PartInfo> parts;
  // SOAP header blocks other than eb:Messaging with mustUnderstand="true"
  // (namespace, local name), e.g. wsse:Security: the receiver must process
  // them or answer a MustUnderstand fault, never a Receipt.
  std::vector<std::pair<std::string, std::string>> not_understood;
  // The eb:UserMessage element as received, with the namespace declarations in
  // scope added: what an unsigned Receipt carries back.
  std::string xml_copy;
};

// An ebMS error to answer with (EBMS:0001, 0003, 0004, 0006, 0009, 0303 ...).
struct Error {
  std::string code;                  // "EBMS:0009"
  std::string short_description;     // "InvalidHeader"
  std::string detail;                // what was wrong, for the partner's operator
  std::string error_detail;          // eb:ErrorDetail, when a profile fixes one (Peppol's PEPPOL:NOT_SERVICED)
  std::string severity = "failure";  // "warning" only for EBMS:0006, which is an answer, not a fault
  explicit operator bool() const { return !code.empty(); }
};

Error ebms_error(std::string_view code, std::string detail);  // fills the short description

struct Limits {
  xml::Bounds xml;  // the SOAP envelope's (payloads travel as attachments): 1 MiB, depth 32, 5000 elements ...
  size_t max_parts = 100;
};

// Parses the envelope; fills `out` or returns the error to answer with. A
// PullRequest signal yields EBMS:0006 (nothing to pull: this gateway queues no
// messages for partners) with out->message_id set to the PullRequest's id.
Error parse_user_message(std::string_view xml, UserMessage* out, const Limits& limits = {});

// The response signals, as complete SOAP 1.2 envelopes.
struct SignalInfo {
  std::string message_id;  // the signal's own
  std::string timestamp;   // xsd:dateTime, UTC
  std::string ref_to_message_id;
};
// eb:Receipt with a copy of the received UserMessage (the AS4 unsigned form).
std::string build_receipt(const SignalInfo& info, const UserMessage& received);

// A ds:Reference of a received signature (crypto/ws_security.h reads them),
// whole: the NRI Receipt repeats it for the sender's own check.
struct SignedReference {
  std::string uri;   // "#id" or "cid:..."
  std::string type;  // the Type attribute, when present
  std::string digest_method, digest_value;
  struct Transform {
    std::string algorithm;
    // exc-c14n's ec:InclusiveNamespaces PrefixList, as sent (WSS4J and the
    // senders built on it, Domibus among them, write one by default).
    std::optional<std::string> inclusive_prefixes;
    bool operator==(const Transform& o) const {
      return algorithm == o.algorithm && inclusive_prefixes == o.inclusive_prefixes;
    }
  };
  std::vector<Transform> transforms;  // in order
};
// eb:Receipt with ebbp:NonRepudiationInformation: one MessagePartNRInformation
// holding a copy of each ds:Reference of the received signature (the AS4
// signed form; crypto::wss::sign_envelope signs it).
std::string build_nr_receipt(const SignalInfo& info, const std::vector<SignedReference>& references);
// eb:Error with errorCode, severity, category, shortDescription and Description.
std::string build_error(const SignalInfo& info, const Error& error);
// A SOAP 1.2 MustUnderstand fault naming the header blocks not processed
// (env:NotUnderstood, SOAP 1.2 part 1, 5.4.8).
std::string build_must_understand_fault(const std::vector<std::pair<std::string, std::string>>& blocks);

}  // namespace edihub::as4
