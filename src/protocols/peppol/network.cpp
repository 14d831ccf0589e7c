#include "src/protocols/peppol/network.h"

#include <Poco/JSON/Object.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <sstream>

#include "parsers/peppol/mls.h"
#include "parsers/peppol/sbdh.h"
#include "parsers/ubl/ubl.h"
#include "src/business/ubl_documents.h"
#include "src/common/event_log.h"
#include "src/common/partner_text.h"
#include "src/common/utc.h"
#include "src/crypto/random.h"
#include "src/http/message.h"
#include "src/protocols/as4/outbound.h"

namespace edihub::peppol {

// What reading the UBL document decided: a document to book, or why not
// (for the AS4 error, and as the MLS's reasons).
struct Reading {
  business::ReadDocument read;
  std::string rejection;
  gate::Failure failure = gate::Failure::None;
  std::vector<peppol::MlsReason> reasons;
  // The EBMS error when the refusal goes on the AS4 level (no MLS endpoint):
  // EBMS:0003 for parties that disagree with the envelope, else EBMS:0004.
  std::string_view ebms = "EBMS:0004";
};

namespace {

using as4::ebms_error;

// The value and type of the eb:Property `name`, or null.
const as4::Property* property(const as4::UserMessage& um, std::string_view name) {
  for (const as4::Property& p : um.message_properties)
    if (p.name == name) return &p;
  return nullptr;
}

std::string quoted(const std::string& s) { return "'" + partner_text(s, 256) + "'"; }

// Peppol identifiers compare without regard to case (the Policy for use of
// Identifiers): participant values, schemes, document types, processes.
std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}
bool same_id(const std::string& a, const std::string& b) { return lower(a) == lower(b); }

// A BusinessScope's identifier scheme, Peppol's default when it names none.
std::string scheme_of(const peppol::Scope* scope, std::string_view fallback) {
  return scope->identifier.empty() ? std::string(fallback) : scope->identifier;
}

// Where the SBDH and the AS4 header disagree, what the sender's operator must
// fix; empty when they agree. The sending access point wrote both: eb:Action
// is the document type as "SCHEME::VALUE" (the bare value accepted too),
// eb:Service the process with its scheme as type.
std::string disagreement(const peppol::Sbd& sbd, const as4::UserMessage& um) {
  const as4::Property* sender = property(um, "originalSender");
  const as4::Property* recipient = property(um, "finalRecipient");
  if (!same_id(sender->value, sbd.sender.value) || !same_id(sender->type, sbd.sender.authority))
    return "the SBDH sender " + quoted(sbd.sender.authority + "::" + sbd.sender.value) +
           " is not the originalSender property " + quoted(sender->type + "::" + sender->value);
  if (!same_id(recipient->value, sbd.receiver.value) || !same_id(recipient->type, sbd.receiver.authority))
    return "the SBDH receiver " + quoted(sbd.receiver.authority + "::" + sbd.receiver.value) +
           " is not the finalRecipient property " + quoted(recipient->type + "::" + recipient->value);
  const peppol::Scope* doc = sbd.scope("DOCUMENTID");
  const std::string scheme = scheme_of(doc, kDocumentTypeScheme);
  if (!same_id(um.action, scheme + "::" + doc->instance_identifier) && !same_id(um.action, doc->instance_identifier))
    return "the SBDH document type " + quoted(scheme + "::" + doc->instance_identifier) + " is not eb:Action " +
           quoted(um.action);
  const peppol::Scope* process = sbd.scope("PROCESSID");
  const std::string process_scheme = scheme_of(process, kProcessScheme);
  if (!same_id(um.service, process->instance_identifier) || !same_id(um.service_type, process_scheme))
    return "the SBDH process " + quoted(process_scheme + "::" + process->instance_identifier) + " is not eb:Service " +
           quoted(um.service_type + "::" + um.service);
  return "";
}

// The SBD's bytes before and after its CreationDateAndTime's value, or the
// bytes and nothing when that value is not found exactly where the header
// has it: what tells a duplicate from a conflict. A sender's "send again"
// writes a new creation time under the same InstanceIdentifier, which the
// Peppol specifications make the document's identity: the same document.
std::pair<std::string_view, std::string_view> around_creation_time(std::string_view bytes, const peppol::Sbd& sbd) {
  const size_t tag = bytes.find("CreationDateAndTime");
  const size_t open_end = tag == std::string_view::npos ? tag : bytes.find('>', tag);
  const size_t close = open_end == std::string_view::npos ? open_end : bytes.find("</", open_end);
  if (close == std::string_view::npos) return {bytes, {}};
  std::string_view value = bytes.substr(open_end + 1, close - open_end - 1);
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front())) != 0) value.remove_prefix(1);
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back())) != 0) value.remove_suffix(1);
  if (value.empty() || value != sbd.document.creation_date_and_time) return {bytes, {}};
  return {bytes.substr(0, open_end + 1), bytes.substr(close)};
}

// "0088:5790000435951" from a UBL EndpointID and its schemeID.
std::string endpoint_text(const ubl::Identifier& id) { return id.scheme + ":" + id.value; }

// Where the UBL parties are not the SBDH's participants (the Peppol envelope
// rules: the sender is the seller's endpoint, the receiver the buyer's).
std::string party_disagreement(const peppol::Sbd& sbd, const ubl::Party& from, const ubl::Party& to,
                               const char* from_role, const char* to_role) {
  if (!same_id(endpoint_text(from.endpoint), sbd.sender.value))
    return "the SBDH sender " + quoted(sbd.sender.value) + " is not the " + from_role + "'s EndpointID " +
           quoted(endpoint_text(from.endpoint));
  if (!same_id(endpoint_text(to.endpoint), sbd.receiver.value))
    return "the SBDH receiver " + quoted(sbd.receiver.value) + " is not the " + to_role + "'s EndpointID " +
           quoted(endpoint_text(to.endpoint));
  return "";
}

// The first fatal finding and how many more, for the sender's operator.
std::string findings_text(const std::vector<ubl::Finding>& findings) {
  std::string first;
  size_t fatal = 0;
  for (const ubl::Finding& f : findings) {
    if (f.severity != ubl::Severity::Fatal) continue;
    if (fatal++ == 0) first = f.rule + ": " + f.text + (f.path.empty() ? "" : " (" + f.path + ")");
  }
  return partner_text(first, 600) + (fatal > 1 ? " (and " + std::to_string(fatal - 1) + " more)" : "");
}

// Above this the back office's event carries the booked fields without the
// UBL itself (the capture keeps it): as for the EDI path's canonical JSON.
constexpr size_t kMaxEventXmlBytes = 4 << 20;

// The whole document for the back office: the envelope's identifiers and the
// original UBL (a document of its own, namespaces declared).
std::string message_json(const peppol::Sbd& sbd, const std::string& ubl) {
  Poco::JSON::Object o(Poco::JSON_PRESERVE_KEY_ORDER);
  o.set("schema", "edihub-peppol/1");
  Poco::JSON::Object::Ptr h = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  h->set("sender", sbd.sender.value);
  h->set("receiver", sbd.receiver.value);
  h->set("instance_identifier", sbd.document.instance_identifier);
  h->set("creation_date_and_time", sbd.document.creation_date_and_time);
  h->set("document_type", sbd.document_type_id());
  h->set("process", sbd.process_id());
  if (!sbd.country_c1().empty()) h->set("country_c1", sbd.country_c1());
  o.set("sbdh", h);
  o.set("root", sbd.payload.local_name);
  if (ubl.size() <= kMaxEventXmlBytes) {
    o.set("xml", ubl);
  } else {
    o.set("xml_omitted_bytes", static_cast<int64_t>(ubl.size()));
  }
  std::ostringstream out;
  o.stringify(out);
  return out.str();
}

// Fatal findings as MLS reasons (BV: a business rule), at most kMaxReasons.
constexpr size_t kMaxReasons = 50;
std::vector<peppol::MlsReason> reasons_of(const std::vector<ubl::Finding>& findings) {
  std::vector<peppol::MlsReason> out;
  for (const ubl::Finding& f : findings)
    if (f.severity == ubl::Severity::Fatal && out.size() < kMaxReasons)
      out.push_back({"BV", partner_text(f.rule + ": " + f.text, 500), partner_text(f.path, 300)});
  return out;
}

Reading rejected(gate::Failure failure, std::string text, const char* code) {
  Reading r;
  r.failure = failure;
  r.reasons.push_back({code, partner_text(text, 500), ""});
  r.rejection = std::move(text);
  return r;
}

// The UBL document read, checked by its rules and against the envelope's
// participants, mapped to the document it books as.
Reading read_ubl(const peppol::Sbd& sbd, const std::string& ubl, ubl::DocumentType type) {
  std::vector<ubl::Finding> findings;
  std::string parties;
  Reading r;
  if (type == ubl::DocumentType::DespatchAdvice) {
    ubl::DespatchAdvice advice;
    if (ubl::Error e = ubl::parse_despatch_advice(ubl, &advice))
      return rejected(gate::Failure::Malformed, "the despatch advice cannot be read: " + e.text, "SV");
    parties = party_disagreement(sbd, advice.supplier, advice.customer, "despatch supplier", "delivery customer");
    findings = ubl::validate(advice);
    if (!ubl::rejects(findings)) r.read = business::read_document(advice);
  } else {
    ubl::Invoice invoice;
    if (ubl::Error e = ubl::parse_invoice(ubl, &invoice))
      return rejected(gate::Failure::Malformed, "the invoice cannot be read: " + e.text, "SV");
    parties = party_disagreement(sbd, invoice.supplier, invoice.customer, "seller", "buyer");
    findings = ubl::validate(invoice);
    if (!ubl::rejects(findings)) r.read = business::read_document(invoice);
  }
  // The parties first: a document sent under the wrong participants is an
  // envelope fault (EBMS:0003) whatever else is wrong with it.
  if (!parties.empty()) {
    Reading out = rejected(gate::Failure::Malformed, parties, "BV");
    out.ebms = "EBMS:0003";
    return out;
  }
  if (ubl::rejects(findings)) {
    Reading out = rejected(gate::Failure::DocumentRejected, "the document breaks " + findings_text(findings), "BV");
    out.reasons = reasons_of(findings);
    return out;
  }
  if (!r.read.error.empty())
    return rejected(gate::Failure::DocumentRejected,
                    "the document cannot be booked: " + partner_text(r.read.error, 400), "BV");
  return r;
}

// Where the sending access point `seat` takes its Message Level Status, or null.
const config::Partner::Peppol::Mls* mls_endpoint(const config::Partner& partner, const std::string& seat) {
  auto it = partner.peppol.mls.find(seat);
  return it == partner.peppol.mls.end() ? nullptr : &it->second;
}

}  // namespace

Result<std::unique_ptr<PeppolNetwork>> PeppolNetwork::from_config(const config::Gateway& gw,
                                                                  const config::Partners& partners) {
  if (!gw.peppol.enabled) {
    for (const config::Partner& p : partners.all())
      if (p.is_peppol())
        return Status::invalid(p.file +
                               ": <peppol seat> needs the gateway's <peppol> (our seat, participants, AP CAs)");
    return std::unique_ptr<PeppolNetwork>();
  }
  ASSIGN_OR_RETURN(crypto::TrustStore trust, crypto::TrustStore::load(gw.peppol.ap_cas, gw.peppol.crls));
  for (const config::Partner& p : partners.all())
    for (const auto& [seat, mls] : p.peppol.mls) {
      if (gw.peppol.country.empty())
        return Status::invalid(p.file + ": <peppol seat=\"" + seat +
                               "\" mls-url> needs the gateway's <peppol country> (COUNTRY_C1 of the MLS we send)");
      Result<crypto::Certificate> cert = crypto::Certificate::load_pem_file(mls.certificate);
      if (!cert.is_ok()) return Status::invalid(p.file + ": <peppol mls-certificate>: " + cert.status().message());
    }
  return std::unique_ptr<PeppolNetwork>(new PeppolNetwork(gw.peppol, std::move(trust), partners));
}

PeppolNetwork::PeppolNetwork(config::Peppol settings, crypto::TrustStore trust, const config::Partners& partners)
    : settings_(std::move(settings)), trust_(std::move(trust)), partners_(partners) {
  if (!settings_.ocsp) return;
  identity::OcspChecker::Options o;
  o.responder = settings_.ocsp_responder;
  o.timeout_ms = settings_.ocsp_timeout_ms;
  o.accept_unreachable = settings_.ocsp_accept_unreachable;
  ocsp_ = std::make_unique<identity::OcspChecker>(std::move(o));
}

// By the seat id alone: a PartyId of another type is the P-Mode's fault
// (EBMS:0010 from check_envelope), not an unknown sender (EBMS:0001).
const config::Partner* PeppolNetwork::sender(const as4::UserMessage& um) const {
  if (um.from.empty()) return nullptr;
  return partners_.peppol_sender(um.from[0].id);
}

// Long on purpose: the Peppol P-Mode's values in the order the profile lists them.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
as4::Error PeppolNetwork::check_envelope(const as4::UserMessage& um) const {
  if (um.agreement_ref != kAgreement)
    return ebms_error("EBMS:0010", "eb:AgreementRef is " + quoted(um.agreement_ref) + ", not the Peppol agreement " +
                                       std::string(kAgreement));
  if (um.from.size() != 1 || um.from[0].type != kPartyType)
    return ebms_error("EBMS:0010", "eb:From must be one PartyId of type " + std::string(kPartyType));
  if (um.to.size() != 1 || um.to[0].type != kPartyType || um.to[0].id != settings_.seat)
    return ebms_error("EBMS:0003", "eb:To " + quoted(um.to.empty() ? "" : um.to[0].id) +
                                       " is not this access point (seat " + settings_.seat + ", type " +
                                       std::string(kPartyType) + ")");
  if (um.service.empty() || um.service_type.empty())
    return ebms_error("EBMS:0009",
                      "eb:Service must be the process identifier, its type the scheme (cenbii-procid-ubl)");
  if (um.action.empty()) return ebms_error("EBMS:0009", "eb:Action must be the document type identifier");
  for (const char* name : {"originalSender", "finalRecipient"}) {
    const as4::Property* p = property(um, name);
    if (p == nullptr || p->value.empty() || p->type.empty())
      return ebms_error("EBMS:0009", std::string("eb:MessageProperties needs the property ") + name +
                                         " with its type (" + std::string(kParticipantAuthority) + ")");
  }
  if (um.parts.size() != 1 || um.parts[0].href.rfind("cid:", 0) != 0)
    return ebms_error("EBMS:0009",
                      "a Peppol message carries exactly one payload, as an attachment (cid:); this one has " +
                          std::to_string(um.parts.size()) + " eb:PartInfo");
  return {};
}

std::string PeppolNetwork::trusted(const crypto::Certificate& cert) const {
  crypto::Certificate issuer;
  const int64_t at = now();
  if (std::string why = trust_.verify(cert, at, &issuer); !why.empty()) return why;
  if (ocsp_ != nullptr && issuer.get() != nullptr) return ocsp_->check(trust_, cert, issuer, at);
  return "";
}

std::string PeppolNetwork::check_signer(const crypto::Certificate& signer, const as4::UserMessage& um) const {
  if (std::string why = trusted(signer); !why.empty()) return why;
  const std::string seat = crypto::TrustStore::common_name(signer);
  const std::string from = um.from.empty() ? "" : um.from[0].id;
  if (seat != from)
    return "its CN " + quoted(seat) + " is not the sending access point's seat id in eb:From " + quoted(from);
  return "";
}

bool PeppolNetwork::ours(const std::string& participant) const {
  for (const std::string& p : settings_.participants)
    if (same_id(p, participant)) return true;
  return false;
}

// Long on purpose: the keys stage's checks in the order a receiving access point makes them.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
void PeppolNetwork::keys(receivers::Message& m, const as4::UserMessage& um, as4::Error* error) const {
  auto refuse = [&](gate::Failure failure, std::string_view code, std::string text, std::string detail = "") {
    m.failure = failure;
    m.failure_text = text;
    *error = as4::ebms_error(code, std::move(text));
    error->error_detail = std::move(detail);
  };
  if (m.payloads.size() != 1)
    return refuse(gate::Failure::Malformed, "EBMS:0009", "a Peppol message carries exactly one payload");
  const std::string& bytes = m.payloads[0].bytes;
  peppol::Sbd sbd;
  if (peppol::SbdError e = peppol::parse_sbd(bytes, &sbd))
    return refuse(gate::Failure::Malformed, "EBMS:0004",
                  "the payload is not a Peppol Standard Business Document (" + std::string(peppol::code_name(e.code)) +
                      "): " + partner_text(e.text, 400));
  // The document's key and owner are made of the sender: bounded (Peppol allows 50 characters after the scheme).
  constexpr size_t kMaxParticipant = 100;
  if (sbd.sender.value.size() > kMaxParticipant || sbd.receiver.value.size() > kMaxParticipant)
    return refuse(gate::Failure::Malformed, "EBMS:0004",
                  "an SBDH participant identifier is longer than " + std::to_string(kMaxParticipant) + " characters");
  if (std::string why = disagreement(sbd, um); !why.empty()) return refuse(gate::Failure::Malformed, "EBMS:0003", why);
  if (!ours(sbd.receiver.value))
    return refuse(
        gate::Failure::NotAddressedToUs, "EBMS:0004",
        "the receiving participant " + partner_text(sbd.receiver.value, 100) + " is not served by this access point",
        "PEPPOL:NOT_SERVICED");
  const ubl::DocumentType type = ubl::document_type(sbd.payload.namespace_uri, sbd.payload.local_name);
  if (type == ubl::DocumentType::Unknown)
    return refuse(gate::Failure::NotAddressedToUs, "EBMS:0004",
                  "the document type " + partner_text(sbd.document_type_id(), 300) +
                      " is not served by this access point (UBL Invoice, CreditNote and DespatchAdvice are)",
                  "PEPPOL:NOT_SERVICED");
  const std::string ubl = peppol::standalone_payload(bytes, sbd);
  Reading r = read_ubl(sbd, ubl, type);
  const config::Partner::Peppol::Mls* mls = mls_endpoint(*m.partner, um.from[0].id);
  // Refused: told in a Message Level Status where the sending AP takes one, else on the AS4 level.
  if (!r.rejection.empty() && mls == nullptr) return refuse(r.failure, r.ebms, r.rejection);

  gate::InterchangeWork w;
  w.kind = gate::InterchangeKind::Peppol;
  w.protocol = "peppol";
  w.bytes = bytes;
  w.partner_id = m.partner->id;
  w.partner = m.partner;
  w.reply_to = m.partner;
  w.documents_owner = sbd.sender.value;
  w.key = store::MessageKey::peppol(m.partner->id, lower(sbd.sender.value), sbd.document.instance_identifier);
  const auto [before, after] = around_creation_time(bytes, sbd);
  w.digest = store::PayloadDigest::of({before, after});
  w.raw = store::RawDigest::of(bytes);
  // The sender may ask for failures only (the SBDH's MLS_TYPE); never an MLS to an MLS.
  const peppol::Scope* wants = sbd.scope("MLS_TYPE");
  const bool failures_only = wants != nullptr && wants->instance_identifier == "FAILURE_ONLY";
  if (mls != nullptr && !peppol::is_mls(sbd.document_type_id(), sbd.process_id()) &&
      !(failures_only && r.rejection.empty()))
    if (std::optional<store::OutboxItem> status = mls_item(sbd, um.from[0].id, *mls, *m.partner, r)) {
      status->partner_id = m.partner->id;
      status->reference = w.key->message_id;
      w.answers.push_back(std::move(*status));
    }
  if (!r.rejection.empty()) {
    w.rejection = r.rejection;
    m.work.interchanges.push_back(std::move(w));
    return;
  }
  if (m.partner->documents.via != config::Partner::Documents::Via::None)
    r.read.document.canonical = message_json(sbd, ubl);
  w.documents.push_back(std::move(r.read.document));
  store::PeppolExchange e;
  e.partner_id = w.key->partner_id;
  e.message_id = w.key->message_id;
  e.other_sp = um.from[0].id;
  const peppol::Scope* doc = sbd.scope("DOCUMENTID");
  const peppol::Scope* process = sbd.scope("PROCESSID");
  e.document_type_scheme = scheme_of(doc, kDocumentTypeScheme);
  e.document_type = doc->instance_identifier;
  e.process_scheme = scheme_of(process, kProcessScheme);
  e.process = process->instance_identifier;
  e.sender = sbd.sender.value;
  e.receiver = sbd.receiver.value;
  e.c1_country = sbd.country_c1();
  e.c4_country = country_of(sbd.receiver.value);
  w.exchange = std::move(e);
  m.work.interchanges.push_back(std::move(w));
}

std::string PeppolNetwork::country_of(const std::string& participant) const {
  for (size_t i = 0; i < settings_.participants.size(); ++i)
    if (same_id(settings_.participants[i], participant)) return settings_.countries[i];
  return "";
}

std::optional<store::OutboxItem> PeppolNetwork::mls_item(const peppol::Sbd& sbd, const std::string& seat,
                                                         const config::Partner::Peppol::Mls& endpoint,
                                                         const config::Partner& owner, const Reading& reading) const {
  const std::string now_text = iso_utc(now() * 1000);  // 2026-12-03T10:00:00Z
  peppol::Mls mls;
  mls.id = crypto::random_uuid();
  mls.issue_date = now_text.substr(0, 10);
  mls.issue_time = now_text.substr(11);
  // Booked, and with a back office to deliver to: accepted, its delivery to the
  // end user not confirmed yet (AB); booked in the company's own store alone: AP.
  const bool back_office = owner.documents.via != config::Partner::Documents::Via::None;
  mls.response_code = !reading.rejection.empty() ? "RE" : back_office ? "AB" : "AP";
  if (!reading.rejection.empty()) mls.description = partner_text(reading.rejection, 500);
  mls.sender_seat = settings_.seat;
  mls.receiver_seat = seat;
  mls.referenced_instance = sbd.document.instance_identifier;
  mls.reasons = reading.reasons;
  std::string why;
  const std::string xml = peppol::build_mls(mls, &why);
  if (xml.empty()) {
    LogLine("peppol", "no MLS").add("seat", seat).add("detail", why, 300).warning();
    return std::nullopt;
  }
  const peppol::SbdHeader header = peppol::mls_header(mls, crypto::random_uuid(), now_text, settings_.country);
  store::OutboxItem item;
  item.kind = "mls";
  item.reference = "";   // set by the caller: the document's key
  item.channel = "as4";  // kind "mls": the outbox's AS4 channel hands it to prepare_mls and deliver_mls
  item.destination = endpoint.url;
  item.message_id = "<mls-" + mls.id + "@edihub>";
  item.headers = "To-Seat: " + seat + "\r\n";
  item.body = peppol::build_sbd(header, xml);
  return item;
}

namespace {

// The access point an MLS row goes to: its To-Seat header line.
std::string to_seat(const store::OutboxEntry& e) {
  for (const auto& [name, value] : http::split_headers(e.item.headers))
    if (name == "To-Seat") return value;
  return "";
}

}  // namespace

Result<delivery::Prepared> PeppolNetwork::prepare_mls(const store::OutboxEntry& e,
                                                      const crypto::Identity& identity) const {
  const config::Partner* partner = partners_.find(e.item.partner_id);
  const std::string seat = to_seat(e);
  if (partner == nullptr) return Status::invalid("partner '" + e.item.partner_id + "' is no longer configured");
  const config::Partner::Peppol::Mls* endpoint = mls_endpoint(*partner, seat);
  if (endpoint == nullptr)
    return Status::invalid("partner '" + partner->id + "' no longer names an mls-url for seat '" + seat + "'");
  ASSIGN_OR_RETURN(crypto::Certificate to, crypto::Certificate::load_pem_file(endpoint->certificate));
  as4::Outgoing out;
  as4::OutgoingMessage& m = out.message;
  m.message_id = as4::as4_message_id(e);
  m.timestamp = iso_utc(e.created_at_ms);
  m.from = {settings_.seat, std::string(kPartyType)};
  m.to = {seat, std::string(kPartyType)};
  m.agreement_ref = std::string(kAgreement);
  m.service = std::string(peppol::kMlsProcess);
  m.service_type = std::string(peppol::kProcessScheme);
  m.action = std::string(peppol::kDocumentTypeScheme) + "::" + std::string(peppol::kMlsDocumentType);
  m.conversation_id = m.message_id;
  m.message_properties = {{"originalSender", std::string(peppol::kSpisScheme) + ":" + peppol::spid(settings_.seat),
                           std::string(kParticipantAuthority)},
                          {"finalRecipient", std::string(peppol::kSpisScheme) + ":" + peppol::spid(seat),
                           std::string(kParticipantAuthority)}};
  m.parts.push_back({"sbd." + m.message_id, "application/xml", true});
  out.data.push_back(e.item.body);
  out.sign_with = &identity;
  out.encrypt_for = &to;
  return as4::build_outgoing(out, std::to_string(e.id));
}

delivery::Attempt PeppolNetwork::deliver_mls(const store::OutboxEntry& e,
                                             const delivery::ChannelOptions& options) const {
  const config::Partner* partner = partners_.find(e.item.partner_id);
  const std::string seat = to_seat(e);
  const config::Partner::Peppol::Mls* endpoint = partner != nullptr ? mls_endpoint(*partner, seat) : nullptr;
  // The URL named now: an operator who fixes it and retries means the new one.
  const std::string url = endpoint != nullptr ? endpoint->url : e.item.destination;
  auto receipt_signer = [this, seat](const crypto::Certificate& signer) -> std::string {
    if (std::string why = trusted(signer); !why.empty()) return why;
    const std::string cn = crypto::TrustStore::common_name(signer);
    return cn == seat ? "" : "its CN " + quoted(cn) + " is not the access point we sent to (" + seat + ")";
  };
  return as4::deliver_prepared(e, url, receipt_signer, options);
}

int64_t PeppolNetwork::now() const { return test_now_ != 0 ? test_now_ : static_cast<int64_t>(std::time(nullptr)); }

}  // namespace edihub::peppol
