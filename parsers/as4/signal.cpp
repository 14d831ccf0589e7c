#include "parsers/as4/signal.h"

#include "parsers/as4/xml.h"

namespace edihub::as4 {

namespace {

constexpr const char* kInitiator = "http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/initiator";
constexpr const char* kResponder = "http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/responder";

void party(pugi::xml_node info, const char* side, const Party& p, const char* role) {
  pugi::xml_node n = info.append_child(side);
  pugi::xml_node id = n.append_child("eb:PartyId");
  if (!p.type.empty()) id.append_attribute("type") = p.type.c_str();
  id.text() = p.id.c_str();
  n.append_child("eb:Role").text() = role;
}

void property(pugi::xml_node props, const char* name, const std::string& value) {
  pugi::xml_node p = props.append_child("eb:Property");
  p.append_attribute("name") = name;
  p.text() = value.c_str();
}

}  // namespace

namespace {

constexpr std::string_view kDsNs = "http://www.w3.org/2000/09/xmldsig#";

// A ds:Reference's URI, digest method and value (what a receipt must repeat).
SignedReference reference_of(const pugi::xml_node& ref) {
  SignedReference r;
  r.uri = xml::attribute(ref, "URI");
  r.digest_method = xml::attribute(xml::child(ref, kDsNs, "DigestMethod"), "Algorithm");
  r.digest_value = xml::text(xml::child(ref, kDsNs, "DigestValue"));
  return r;
}

}  // namespace

std::string build_user_message(const OutgoingMessage& m) {
  pugi::xml_document doc;
  pugi::xml_node env = doc.append_child("S12:Envelope");
  env.append_attribute("xmlns:S12") = std::string(kSoap12Ns).c_str();
  env.append_attribute("xmlns:eb") = std::string(kEbmsNs).c_str();
  pugi::xml_node messaging = env.append_child("S12:Header").append_child("eb:Messaging");
  messaging.append_attribute("S12:mustUnderstand") = "true";
  pugi::xml_node um = messaging.append_child("eb:UserMessage");
  pugi::xml_node mi = um.append_child("eb:MessageInfo");
  mi.append_child("eb:Timestamp").text() = m.timestamp.c_str();
  mi.append_child("eb:MessageId").text() = m.message_id.c_str();
  pugi::xml_node parties = um.append_child("eb:PartyInfo");
  party(parties, "eb:From", m.from, kInitiator);
  party(parties, "eb:To", m.to, kResponder);
  pugi::xml_node collab = um.append_child("eb:CollaborationInfo");
  if (!m.agreement_ref.empty()) collab.append_child("eb:AgreementRef").text() = m.agreement_ref.c_str();
  pugi::xml_node service = collab.append_child("eb:Service");
  if (!m.service_type.empty()) service.append_attribute("type") = m.service_type.c_str();
  service.text() = m.service.c_str();
  collab.append_child("eb:Action").text() = m.action.c_str();
  collab.append_child("eb:ConversationId").text() = m.conversation_id.c_str();
  if (!m.message_properties.empty()) {
    pugi::xml_node props = um.append_child("eb:MessageProperties");
    for (const Property& p : m.message_properties) {
      pugi::xml_node n = props.append_child("eb:Property");
      n.append_attribute("name") = p.name.c_str();
      if (!p.type.empty()) n.append_attribute("type") = p.type.c_str();
      n.text() = p.value.c_str();
    }
  }
  pugi::xml_node payload = um.append_child("eb:PayloadInfo");
  for (const OutgoingPart& p : m.parts) {
    pugi::xml_node pi = payload.append_child("eb:PartInfo");
    pi.append_attribute("href") = ("cid:" + p.content_id).c_str();
    pugi::xml_node props = pi.append_child("eb:PartProperties");
    property(props, "MimeType", p.mime_type);
    if (p.gzip) property(props, "CompressionType", "application/gzip");
  }
  env.append_child("S12:Body");
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + xml::print(doc);
}

std::vector<SignedReference> signature_references(std::string_view bytes, const Limits& limits) {
  std::vector<SignedReference> out;
  pugi::xml_document doc;
  if (!xml::load(bytes, limits.xml, &doc).empty()) return out;
  pugi::xml_node header = xml::child(doc.document_element(), kSoap12Ns, "Header");
  for (pugi::xml_node security : header.children()) {
    if (xml::local_name(security) != "Security") continue;
    pugi::xml_node info = xml::child(xml::child(security, kDsNs, "Signature"), kDsNs, "SignedInfo");
    for (pugi::xml_node ref : info.children())
      if (xml::is(ref, kDsNs, "Reference") && out.size() < limits.max_parts + 10) out.push_back(reference_of(ref));
  }
  return out;
}

const Signal::Problem* Signal::failure() const {
  for (const Problem& p : errors)
    if (p.severity != "warning") return &p;
  return nullptr;
}

std::string parse_signal(std::string_view bytes, Signal* out, const Limits& limits) {
  pugi::xml_document doc;
  if (std::string why = xml::load(bytes, limits.xml, &doc); !why.empty()) return "the answer is " + why;
  pugi::xml_node envelope = doc.document_element();
  // Read leniently: SOAP 1.1 as well, which some ebMS 3 stacks answer with.
  const std::string_view soap = xml::is(envelope, kSoap11Ns, "Envelope") ? kSoap11Ns : kSoap12Ns;
  if (!xml::is(envelope, soap, "Envelope")) return "the answer is not a SOAP envelope";
  pugi::xml_node header = xml::child(envelope, soap, "Header");
  pugi::xml_node messaging = header ? xml::child(header, kEbmsNs, "Messaging") : pugi::xml_node();
  pugi::xml_node signal = messaging ? xml::child(messaging, kEbmsNs, "SignalMessage") : pugi::xml_node();
  if (!signal) return "the answer has no eb:Messaging/eb:SignalMessage";
  Signal s;
  pugi::xml_node info = xml::child(signal, kEbmsNs, "MessageInfo");
  s.message_id = xml::text(xml::child(info, kEbmsNs, "MessageId"));
  s.ref_to_message_id = xml::text(xml::child(info, kEbmsNs, "RefToMessageId"));
  pugi::xml_node receipt = xml::child(signal, kEbmsNs, "Receipt");
  s.receipt = static_cast<bool>(receipt);
  for (pugi::xml_node nri : receipt.children()) {
    if (xml::local_name(nri) != "NonRepudiationInformation") continue;
    for (pugi::xml_node part : nri.children()) {
      if (xml::local_name(part) != "MessagePartNRInformation") continue;
      if (s.non_repudiation.size() >= limits.max_parts + 10) break;
      if (pugi::xml_node ref = xml::child(part, kDsNs, "Reference")) s.non_repudiation.push_back(reference_of(ref));
    }
  }
  for (pugi::xml_node e : signal.children()) {
    if (!xml::is(e, kEbmsNs, "Error")) continue;
    if (s.errors.size() >= limits.max_parts) break;
    Signal::Problem p{xml::attribute(e, "errorCode"), xml::attribute(e, "severity"),
                      xml::attribute(e, "shortDescription"), xml::text(xml::child(e, kEbmsNs, "Description"))};
    // An error may name the message it is about instead of MessageInfo.
    if (s.ref_to_message_id.empty()) s.ref_to_message_id = xml::attribute(e, "refToMessageInError");
    s.errors.push_back(std::move(p));
  }
  if (!s.receipt && s.errors.empty()) return "the eb:SignalMessage holds neither eb:Receipt nor eb:Error";
  *out = std::move(s);
  return {};
}

}  // namespace edihub::as4
