// The sending side of AS4: the UserMessage edihub pushes to a partner, and
// the signal that partner answers with (eb:Receipt or eb:Error). Pure: the
// builder takes a model, the reader bytes, bounded as the UserMessage parser.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parsers/as4/user_message.h"

namespace edihub::as4 {

// One payload as an attachment ("cid:" + content_id), with what PartProperties say.
struct OutgoingPart {
  std::string content_id;  // without angle brackets
  std::string mime_type;   // "application/edi-x12"
  bool gzip = false;       // CompressionType application/gzip (the AS4 compression feature)
};

struct OutgoingMessage {
  std::string message_id, timestamp;  // fixed when the row was queued / prepared
  Party from, to;
  std::string agreement_ref;  // empty: none (a Peppol P-Mode names one)
  std::string service, service_type, action, conversation_id;
  Properties message_properties;  // eb:MessageProperties (Peppol's originalSender, finalRecipient)
  std::vector<OutgoingPart> parts;
};

// The SOAP 1.2 envelope (with the XML declaration) of a UserMessage with the
// default ebMS roles.
std::string build_user_message(const OutgoingMessage& m);

// The ds:References of the signature in a SOAP envelope's wsse:Security
// header (what a non-repudiation Receipt must repeat), empty without one.
std::vector<SignedReference> signature_references(std::string_view soap, const Limits& limits = {});

// What a partner answered: one signal referring to our message.
struct Signal {
  struct Problem {
    std::string code, severity, short_description, description;
  };
  std::string message_id, ref_to_message_id;
  bool receipt = false;         // an eb:Receipt
  std::vector<Problem> errors;  // eb:Error elements (a failure or warning each)
  // The eb:Receipt's ebbp:NonRepudiationInformation: the ds:Reference each
  // MessagePartNRInformation repeats (URI, digest method and value).
  std::vector<SignedReference> non_repudiation;
  // The first failure (not a warning), or nullptr.
  const Problem* failure() const;
};

// Reads the SOAP envelope a partner answered with. Returns empty, or what
// makes it unreadable ("not well-formed XML: ...", "no eb:SignalMessage").
std::string parse_signal(std::string_view bytes, Signal* out, const Limits& limits = {});

}  // namespace edihub::as4
