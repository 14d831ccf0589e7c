#include "parsers/as4/user_message.h"

#include <pugixml.hpp>

#include "parsers/as4/xml.h"

namespace edihub::as4 {

using xml::attribute;
using xml::child;
using xml::is;
using xml::local_name;
using xml::namespace_of;
using xml::text;

std::string property_value(const Properties& properties, std::string_view name) {
  for (const Property& p : properties)
    if (p.name == name) return p.value;
  return {};
}

Error ebms_error(std::string_view code, std::string detail) {
  Error e;
  e.code = std::string(code);
  e.detail = std::move(detail);
  if (code == "EBMS:0001")
    e.short_description = "ValueNotRecognized";
  else if (code == "EBMS:0002")
    e.short_description = "FeatureNotSupported";
  else if (code == "EBMS:0003")
    e.short_description = "ValueInconsistent";
  else if (code == "EBMS:0006")
    e.short_description = "EmptyMessagePartitionChannel";
  else if (code == "EBMS:0009")
    e.short_description = "InvalidHeader";
  else if (code == "EBMS:0010")
    e.short_description = "ProcessingModeMismatch";
  else if (code == "EBMS:0101")
    e.short_description = "FailedAuthentication";
  else if (code == "EBMS:0102")
    e.short_description = "FailedDecryption";
  else if (code == "EBMS:0103")
    e.short_description = "PolicyNoncompliance";
  else if (code == "EBMS:0303")
    e.short_description = "DecompressionFailure";
  else
    e.short_description = "Other";
  if (code == "EBMS:0006") e.severity = "warning";  // "nothing to pull" is an answer, not a fault
  return e;
}

// Long on purpose: one pass over eb:UserMessage in document order; to split with the AS4 protocol folder.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
Error parse_user_message(std::string_view bytes, UserMessage* out, const Limits& limits) {
  pugi::xml_document doc;
  if (std::string why = xml::load(bytes, limits.xml, &doc); !why.empty())
    return ebms_error("EBMS:0009", "the SOAP envelope is " + why);

  pugi::xml_node envelope = doc.document_element();
  if (is(envelope, kSoap11Ns, "Envelope"))
    return ebms_error("EBMS:0009", "SOAP 1.1 envelope: AS4 messages use SOAP 1.2");
  if (!is(envelope, kSoap12Ns, "Envelope"))
    return ebms_error("EBMS:0009", "the root element is not a SOAP 1.2 Envelope");
  pugi::xml_node header = child(envelope, kSoap12Ns, "Header");
  pugi::xml_node messaging = header ? child(header, kEbmsNs, "Messaging") : pugi::xml_node();
  if (!messaging) return ebms_error("EBMS:0009", "no eb:Messaging header");
  pugi::xml_node um = child(messaging, kEbmsNs, "UserMessage");
  if (!um) {
    pugi::xml_node signal = child(messaging, kEbmsNs, "SignalMessage");
    pugi::xml_node pull = signal ? child(signal, kEbmsNs, "PullRequest") : pugi::xml_node();
    if (!pull) return ebms_error("EBMS:0009", "eb:Messaging holds no eb:UserMessage");
    out->message_id = text(child(child(signal, kEbmsNs, "MessageInfo"), kEbmsNs, "MessageId"));
    std::string mpc = pull.attribute("mpc").value();
    return ebms_error("EBMS:0006", "no messages are waiting to be pulled on MPC '" +
                                       (mpc.empty() ? std::string("default") : mpc) + "'");
  }

  UserMessage m;
  // Header blocks the receiver must process or fault on (SOAP 1.2 part 1, 5.2.3).
  for (pugi::xml_node block : header.children()) {
    if (block.type() != pugi::node_element || block == messaging) continue;
    std::string mu;
    for (pugi::xml_attribute a : block.attributes()) {
      std::string_view an = a.name();
      size_t colon = an.find(':');
      if (colon == std::string_view::npos || an.substr(colon + 1) != "mustUnderstand") continue;
      const std::string decl = "xmlns:" + std::string(an.substr(0, colon));
      for (pugi::xml_node p = block; p; p = p.parent())
        if (pugi::xml_attribute d = p.attribute(decl.c_str())) {
          if (std::string_view(d.value()) == kSoap12Ns) mu = a.value();
          break;
        }
    }
    if (mu == "true" || mu == "1")
      m.not_understood.push_back({std::string(namespace_of(block)), std::string(local_name(block))});
  }
  pugi::xml_node info = child(um, kEbmsNs, "MessageInfo");
  if (!info) return ebms_error("EBMS:0009", "eb:UserMessage has no eb:MessageInfo");
  m.timestamp = text(child(info, kEbmsNs, "Timestamp"));
  m.message_id = text(child(info, kEbmsNs, "MessageId"));
  m.ref_to_message_id = text(child(info, kEbmsNs, "RefToMessageId"));
  if (m.message_id.empty()) return ebms_error("EBMS:0009", "eb:MessageInfo has no eb:MessageId");
  if (m.message_id.size() > 256) return ebms_error("EBMS:0009", "eb:MessageId longer than 256 characters");

  pugi::xml_node party_info = child(um, kEbmsNs, "PartyInfo");
  for (const char* side : {"From", "To"}) {
    pugi::xml_node p = party_info ? child(party_info, kEbmsNs, side) : pugi::xml_node();
    if (!p) return ebms_error("EBMS:0009", std::string("eb:PartyInfo has no eb:") + side);
    auto& parties = std::string(side) == "From" ? m.from : m.to;
    for (pugi::xml_node id : p.children())
      if (is(id, kEbmsNs, "PartyId")) parties.push_back({text(id), attribute(id, "type")});
    if (parties.empty()) return ebms_error("EBMS:0009", std::string("eb:") + side + " has no eb:PartyId");
    (std::string(side) == "From" ? m.from_role : m.to_role) = text(child(p, kEbmsNs, "Role"));
  }

  pugi::xml_node collab = child(um, kEbmsNs, "CollaborationInfo");
  if (!collab) return ebms_error("EBMS:0009", "eb:UserMessage has no eb:CollaborationInfo");
  m.agreement_ref = text(child(collab, kEbmsNs, "AgreementRef"));
  pugi::xml_node service = child(collab, kEbmsNs, "Service");
  m.service = text(service);
  m.service_type = attribute(service, "type");
  m.action = text(child(collab, kEbmsNs, "Action"));
  m.conversation_id = text(child(collab, kEbmsNs, "ConversationId"));
  if (m.service.empty() || m.action.empty())
    return ebms_error("EBMS:0009", "eb:CollaborationInfo needs eb:Service and eb:Action");

  if (pugi::xml_node props = child(um, kEbmsNs, "MessageProperties"))
    for (pugi::xml_node p : props.children())
      if (is(p, kEbmsNs, "Property"))
        m.message_properties.push_back({attribute(p, "name"), text(p), attribute(p, "type")});

  if (pugi::xml_node payload = child(um, kEbmsNs, "PayloadInfo")) {
    for (pugi::xml_node part : payload.children()) {
      if (!is(part, kEbmsNs, "PartInfo")) continue;
      if (m.parts.size() >= limits.max_parts)
        return ebms_error("EBMS:0009", "more than " + std::to_string(limits.max_parts) + " eb:PartInfo");
      PartInfo pi;
      pi.href = attribute(part, "href");
      if (pugi::xml_node props = child(part, kEbmsNs, "PartProperties"))
        for (pugi::xml_node p : props.children())
          if (is(p, kEbmsNs, "Property"))
            pi.properties.push_back({attribute(p, "name"), text(p), attribute(p, "type")});
      m.parts.push_back(std::move(pi));
    }
  }
  // The copy for the Receipt, self-contained: the in-scope xmlns declarations.
  pugi::xml_document copy;
  pugi::xml_node root = copy.append_copy(um);
  for (pugi::xml_node p = um.parent(); p; p = p.parent()) {
    if (p.type() != pugi::node_element) continue;
    for (pugi::xml_attribute a : p.attributes()) {
      std::string_view name = a.name();
      if ((name == "xmlns" || name.rfind("xmlns:", 0) == 0) && !root.attribute(a.name()))
        root.append_attribute(a.name()) = a.value();
    }
  }
  m.xml_copy = xml::print(root);
  *out = std::move(m);
  return {};
}

namespace {

// A SOAP 1.2 envelope with eb:Messaging/eb:SignalMessage/eb:MessageInfo; the
// caller adds the Receipt or Error after MessageInfo.
pugi::xml_node signal_envelope(pugi::xml_document* doc, const SignalInfo& info) {
  pugi::xml_node env = doc->append_child("S12:Envelope");
  env.append_attribute("xmlns:S12") = std::string(kSoap12Ns).c_str();
  env.append_attribute("xmlns:eb") = std::string(kEbmsNs).c_str();
  pugi::xml_node messaging = env.append_child("S12:Header").append_child("eb:Messaging");
  messaging.append_attribute("S12:mustUnderstand") = "true";
  pugi::xml_node signal = messaging.append_child("eb:SignalMessage");
  pugi::xml_node mi = signal.append_child("eb:MessageInfo");
  mi.append_child("eb:Timestamp").text() = info.timestamp.c_str();
  mi.append_child("eb:MessageId").text() = info.message_id.c_str();
  if (!info.ref_to_message_id.empty()) mi.append_child("eb:RefToMessageId").text() = info.ref_to_message_id.c_str();
  env.append_child("S12:Body");
  return signal;
}

std::string category_of(std::string_view code) {
  if (code == "EBMS:0009") return "Unpackaging";
  if (code == "EBMS:0006") return "Communication";
  if (code == "EBMS:0101" || code == "EBMS:0102" || code == "EBMS:0103") return "Processing";
  return "Content";
}

}  // namespace

std::string build_receipt(const SignalInfo& info, const UserMessage& received) {
  pugi::xml_document doc;
  pugi::xml_node signal = signal_envelope(&doc, info);
  pugi::xml_node receipt = signal.append_child("eb:Receipt");
  pugi::xml_document copy;
  if (copy.load_buffer(received.xml_copy.data(), received.xml_copy.size(), pugi::parse_default & ~pugi::parse_doctype))
    receipt.append_copy(copy.document_element());
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + xml::print(doc);
}

std::string build_nr_receipt(const SignalInfo& info, const std::vector<SignedReference>& references) {
  constexpr const char* kEbbp = "http://docs.oasis-open.org/ebxml-bp/ebbp-signals-2.0";
  constexpr const char* kDs = "http://www.w3.org/2000/09/xmldsig#";
  pugi::xml_document doc;
  pugi::xml_node signal = signal_envelope(&doc, info);
  pugi::xml_node nri = signal.append_child("eb:Receipt").append_child("ebbp:NonRepudiationInformation");
  nri.append_attribute("xmlns:ebbp") = kEbbp;
  nri.append_attribute("xmlns:ds") = kDs;
  for (const SignedReference& r : references) {
    pugi::xml_node ref = nri.append_child("ebbp:MessagePartNRInformation").append_child("ds:Reference");
    ref.append_attribute("URI") = r.uri.c_str();
    if (!r.type.empty()) ref.append_attribute("Type") = r.type.c_str();
    if (!r.transforms.empty()) {
      pugi::xml_node transforms = ref.append_child("ds:Transforms");
      for (const SignedReference::Transform& t : r.transforms) {
        pugi::xml_node transform = transforms.append_child("ds:Transform");
        transform.append_attribute("Algorithm") = t.algorithm.c_str();
        if (t.inclusive_prefixes) {
          pugi::xml_node inclusive = transform.append_child("ec:InclusiveNamespaces");
          inclusive.append_attribute("xmlns:ec") = "http://www.w3.org/2001/10/xml-exc-c14n#";
          inclusive.append_attribute("PrefixList") = t.inclusive_prefixes->c_str();
        }
      }
    }
    ref.append_child("ds:DigestMethod").append_attribute("Algorithm") = r.digest_method.c_str();
    ref.append_child("ds:DigestValue").text() = r.digest_value.c_str();
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + xml::print(doc);
}

std::string build_error(const SignalInfo& info, const Error& error) {
  pugi::xml_document doc;
  pugi::xml_node signal = signal_envelope(&doc, info);
  pugi::xml_node e = signal.append_child("eb:Error");
  e.append_attribute("errorCode") = error.code.c_str();
  e.append_attribute("severity") = error.severity.c_str();
  e.append_attribute("category") = category_of(error.code).c_str();
  e.append_attribute("shortDescription") = error.short_description.c_str();
  if (!info.ref_to_message_id.empty()) e.append_attribute("refToMessageInError") = info.ref_to_message_id.c_str();
  pugi::xml_node d = e.append_child("eb:Description");
  d.append_attribute("xml:lang") = "en";
  d.text() = error.detail.c_str();
  if (!error.error_detail.empty()) e.append_child("eb:ErrorDetail").text() = error.error_detail.c_str();
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + xml::print(doc);
}

}  // namespace edihub::as4

namespace edihub::as4 {

std::string build_must_understand_fault(const std::vector<std::pair<std::string, std::string>>& blocks) {
  pugi::xml_document doc;
  pugi::xml_node env = doc.append_child("env:Envelope");
  env.append_attribute("xmlns:env") = std::string(kSoap12Ns).c_str();
  pugi::xml_node header = env.append_child("env:Header");
  int n = 0;
  for (const auto& [ns, local] : blocks) {
    const std::string prefix = "h" + std::to_string(++n);
    pugi::xml_node nu = header.append_child("env:NotUnderstood");
    nu.append_attribute("qname") = (prefix + ":" + local).c_str();
    nu.append_attribute(("xmlns:" + prefix).c_str()) = ns.c_str();
  }
  pugi::xml_node fault = env.append_child("env:Body").append_child("env:Fault");
  fault.append_child("env:Code").append_child("env:Value").text() = "env:MustUnderstand";
  pugi::xml_node text = fault.append_child("env:Reason").append_child("env:Text");
  text.append_attribute("xml:lang") = "en";
  std::string names;
  for (const auto& b : blocks) names += (names.empty() ? "" : ", ") + b.second + " (" + b.first + ")";
  text.text() = ("header blocks marked mustUnderstand that this gateway does not process: " + names).c_str();
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + xml::print(doc);
}

}  // namespace edihub::as4
