#include "parsers/peppol/mls.h"

#include <pugixml.hpp>

#include <cstdint>
#include <map>
#include "parsers/peppol/text.h"

namespace edihub::peppol {

namespace {

constexpr std::string_view kCacNs = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2";
constexpr std::string_view kCbcNs = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";
constexpr std::string_view kNotAvailable = "NA";           // the LineID of an issue whose location is unknown
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// --- Checking ----------------------------------------------------------------

bool blank(std::string_view s) {
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return false;
  return true;
}

using text::add;
using text::digits;
using text::number;
using text::StringWriter;

// xs:date without a zone, as SCH-MLS-04 wants it: exactly YYYY-MM-DD, a real day.
bool plain_date(std::string_view s) {
  if (s.size() != 10 || !digits(s, 0, 4) || s[4] != '-' || !digits(s, 5, 2) || s[7] != '-' || !digits(s, 8, 2))
    return false;
  return text::calendar_date(number(s, 0, 4), number(s, 5, 2), number(s, 8, 2));
}

// xs:time with the zone SCH-MLS-06 requires: hh:mm:ss[.s+](Z|+hh:mm|-hh:mm).
bool zoned_time(std::string_view s) {
  if (s.size() < 9 || !digits(s, 0, 2) || s[2] != ':' || !digits(s, 3, 2) || s[5] != ':' || !digits(s, 6, 2))
    return false;
  if (number(s, 0, 2) > 23 || number(s, 3, 2) > 59 || number(s, 6, 2) > 59) return false;
  size_t i = 8;
  if (s[i] == '.') {
    size_t j = i + 1;
    while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
    if (j == i + 1) return false;
    i = j;
  }
  const std::string_view zone = s.substr(i);
  if (zone == "Z") return true;
  return zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && digits(zone, 1, 2) && zone[3] == ':' &&
         digits(zone, 4, 2) && number(zone, 1, 2) <= 14 && number(zone, 4, 2) <= 59;
}

bool spid_char(char c, std::string_view extra) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
         extra.find(c) != std::string_view::npos;
}

// SPIS: a main id of six digits, optionally "-" and a use case id (3 to 12 of
// [0-9A-Z_]), optionally "." and a provider suffix (3 to 24 of [0-9A-Z-._~]),
// letters in either case (the Schematron matches case-insensitively).
bool spid_form(std::string_view s) {
  if (!digits(s, 0, 6)) return false;
  if (s.size() == 6) return true;
  if (s[6] != '-') return false;
  const size_t dot = s.find('.', 7);
  const std::string_view use_case = s.substr(7, dot == std::string_view::npos ? std::string_view::npos : dot - 7);
  if (use_case.size() < 3 || use_case.size() > 12) return false;
  for (char c : use_case)
    if (!spid_char(c, "_")) return false;
  if (dot == std::string_view::npos) return true;
  const std::string_view suffix = s.substr(dot + 1);
  if (suffix.size() < 3 || suffix.size() > 24) return false;
  for (char c : suffix)
    if (!spid_char(c, "-._~")) return false;
  return true;
}

// The length of the UTF-8 sequence at s[i] if it is one XML 1.0 allows
// (#x9, #xA, #xD, #x20-#xD7FF, #xE000-#xFFFD, #x10000-#x10FFFF), else 0.
size_t xml_char(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return (c >= 0x20 || c == 0x09 || c == 0x0A || c == 0x0D) && c != 0x7F ? 1 : 0;
  size_t n;
  uint32_t cp;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  const bool shortest = (n == 3 && cp >= 0x800) || (n == 4 && cp >= 0x10000) || n == 2;
  const bool allowed = cp <= 0xD7FF || (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
  return shortest && allowed ? n : 0;
}

bool xml_text(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = xml_char(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

// Free text as XML can carry it: each byte that starts no allowed character
// becomes U+FFFD. DEL (0x7F) is allowed by XML but replaced too: it has no
// place in a message for an operator.
std::string xml_safe(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const size_t n = xml_char(s, i);
    if (n == 0) {
      out += kReplacement;
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

bool refuse(std::string* why, std::string text) {
  if (why != nullptr) *why = std::move(text);
  return false;
}

std::string quoted(std::string_view v) {
  constexpr size_t kShown = 80;
  return "'" + xml_safe(v.substr(0, kShown)) + (v.size() > kShown ? "...'" : "'");
}

bool failing(std::string_view code) { return code == "BV" || code == "FD" || code == "SV"; }

// The spec's rules that its values alone decide (the rest hold by construction).
bool check(const Mls& m, std::string* why) {
  if (blank(m.id)) return refuse(why, "the MLS ID is empty (SCH-MLS-03)");
  if (!xml_text(m.id)) return refuse(why, "the MLS ID holds bytes XML cannot carry");
  if (!plain_date(m.issue_date))
    return refuse(why, "issue date " + quoted(m.issue_date) + " is not a date YYYY-MM-DD without a zone (SCH-MLS-04)");
  if (!zoned_time(m.issue_time))
    return refuse(why, "issue time " + quoted(m.issue_time) +
                           " is not a time hh:mm:ss[.s] with a zone, Z or +hh:mm (SCH-MLS-05, SCH-MLS-06)");
  if (spid(m.sender_seat).empty())
    return refuse(why, "sender " + quoted(m.sender_seat) +
                           " is neither a seat id (P, 2 letters, 6 digits) nor a service provider id (SCH-MLS-09)");
  if (spid(m.receiver_seat).empty())
    return refuse(why, "receiver " + quoted(m.receiver_seat) +
                           " is neither a seat id (P, 2 letters, 6 digits) nor a service provider id (SCH-MLS-14)");
  const std::string& rc = m.response_code;
  if (rc != "AP" && rc != "AB" && rc != "RE")
    return refuse(why, "response code " + quoted(rc) + " is not AP, AB or RE (SCH-MLS-19)");
  if (rc == "RE" && blank(m.description))
    return refuse(why, "an RE status needs a description (SCH-MLS-20, SCH-MLS-21)");
  if (blank(m.referenced_instance)) return refuse(why, "the referenced SBDH InstanceIdentifier is empty (SCH-MLS-26)");
  if (!xml_text(m.referenced_instance))
    return refuse(why, "the referenced SBDH InstanceIdentifier holds bytes XML cannot carry");
  bool any_failing = false;
  for (size_t i = 0; i < m.reasons.size(); ++i) {
    const MlsReason& r = m.reasons[i];
    const std::string which = "reason " + std::to_string(i + 1);
    if (r.code != "BV" && r.code != "BW" && r.code != "FD" && r.code != "SV")
      return refuse(why, which + ": code " + quoted(r.code) + " is not BV, BW, FD or SV (SCH-MLS-31)");
    if (blank(r.description)) return refuse(why, which + " has no description (SCH-MLS-28, SCH-MLS-29)");
    any_failing = any_failing || failing(r.code);
  }
  if (rc == "RE" && m.reasons.empty()) return refuse(why, "an RE status needs at least one reason (SCH-MLS-23)");
  if (rc == "RE" && !any_failing)
    return refuse(why, "an RE status needs at least one reason coded BV, FD or SV, not only BW (SCH-MLS-24)");
  if (rc != "RE" && any_failing)
    return refuse(why, "an " + rc + " status may carry BW reasons only, not BV, FD or SV (SCH-MLS-25)");
  return true;
}

// --- Writing -----------------------------------------------------------------

void set(pugi::xml_node n, const char* attribute, std::string_view value) {
  n.append_attribute(attribute).set_value(std::string(value).c_str());
}

void add_party(pugi::xml_node root, const char* name, const std::string& seat) {
  set(add(root.append_child(name), "cbc:EndpointID", spid(seat)), "schemeID", kSpisScheme);
}

std::string location_of(const MlsReason& r) {
  return blank(r.location) ? std::string(kNotAvailable) : xml_safe(r.location);
}

void add_reasons(pugi::xml_node response, const std::vector<MlsReason>& reasons) {
  // One LineResponse per location, placed where its first issue stands. The
  // spec's model groups the issues that share a location (BG-001 holding
  // BG-002s) and its examples follow that, but no Schematron rule checks it:
  // a reader that expects one issue per LineResponse would be wrong either way.
  std::map<std::string, pugi::xml_node> lines;
  for (const MlsReason& r : reasons) {
    const std::string where = location_of(r);
    pugi::xml_node& line = lines[where];
    if (!line) {
      line = response.append_child("cac:LineResponse");
      add(line.append_child("cac:LineReference"), "cbc:LineID", where);
    }
    pugi::xml_node issue = line.append_child("cac:Response");
    add(issue, "cbc:Description", xml_safe(r.description));
    add(issue.append_child("cac:Status"), "cbc:StatusReasonCode", r.code);
  }
}

pugi::xml_node declare(pugi::xml_document* doc) {
  pugi::xml_node decl = doc->append_child(pugi::node_declaration);
  decl.append_attribute("version").set_value("1.0");
  decl.append_attribute("encoding").set_value("UTF-8");
  return decl;
}

std::string finish(const pugi::xml_document& doc) {
  StringWriter w;
  doc.save(w, "  ", pugi::format_indent, pugi::encoding_utf8);
  return std::move(w.out);
}

bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// The payload as the envelope holds it: no byte order mark, no XML
// declaration, no white space around the document.
std::string_view payload_body(std::string_view p) {
  if (p.substr(0, 3) == "\xEF\xBB\xBF") p.remove_prefix(3);
  while (!p.empty() && space(p.front())) p.remove_prefix(1);
  if (p.size() > 5 && p.substr(0, 5) == "<?xml" && (space(p[5]) || p[5] == '?')) {
    const size_t end = p.find("?>");
    if (end != std::string_view::npos) p.remove_prefix(end + 2);
  }
  while (!p.empty() && space(p.front())) p.remove_prefix(1);
  while (!p.empty() && space(p.back())) p.remove_suffix(1);
  return p;
}

void add_scope(pugi::xml_node scope, const char* type, const std::string& value, const std::string& scheme) {
  pugi::xml_node s = scope.append_child("sh:Scope");
  add(s, "sh:Type", type);
  add(s, "sh:InstanceIdentifier", value);
  if (!scheme.empty()) add(s, "sh:Identifier", scheme);
}

void add_participant(pugi::xml_node header, const char* side, const ParticipantId& p) {
  set(add(header.append_child(side), "sh:Identifier", p.value), "Authority", p.authority);
}

}  // namespace

// The published rule list of MLS 1.0.0 (its RC Schematron) asked only for a
// four-digit scheme on the parties; Schematron 1.0.1 (December 2025) wants
// scheme 0242 and an SPID, which is what a seat id maps to here.
std::string spid(std::string_view seat) {
  if (seat_id(seat)) return std::string(seat.substr(3));
  if (spid_form(seat)) return std::string(seat);
  return {};
}

std::string build_mls(const Mls& m, std::string* why) {
  if (!check(m, why)) return {};
  if (why != nullptr) why->clear();

  pugi::xml_document doc;
  declare(&doc);
  // Namespaces as the specification's examples declare them: UBL's document
  // namespace as the default, cac and cbc by prefix.
  pugi::xml_node root = doc.append_child("ApplicationResponse");
  set(root, "xmlns", kApplicationResponseNs);
  set(root, "xmlns:cac", kCacNs);
  set(root, "xmlns:cbc", kCbcNs);
  // UBL 2.1's order: CustomizationID, ProfileID, ID, IssueDate, IssueTime,
  // SenderParty, ReceiverParty, DocumentResponse.
  add(root, "cbc:CustomizationID", kMlsCustomizationId);
  add(root, "cbc:ProfileID", kMlsProcess);
  add(root, "cbc:ID", m.id);
  add(root, "cbc:IssueDate", m.issue_date);
  add(root, "cbc:IssueTime", m.issue_time);
  add_party(root, "cac:SenderParty", m.sender_seat);
  add_party(root, "cac:ReceiverParty", m.receiver_seat);
  // DocumentResponse: Response (ResponseCode, Description), DocumentReference, LineResponse*.
  pugi::xml_node response = root.append_child("cac:DocumentResponse");
  pugi::xml_node overall = response.append_child("cac:Response");
  add(overall, "cbc:ResponseCode", m.response_code);
  if (!blank(m.description)) add(overall, "cbc:Description", xml_safe(m.description));
  add(response.append_child("cac:DocumentReference"), "cbc:ID", m.referenced_instance);
  add_reasons(response, m.reasons);
  return finish(doc);
}

std::string build_sbd(const SbdHeader& h, std::string_view payload) {
  pugi::xml_document doc;
  declare(&doc);
  pugi::xml_node root = doc.append_child("sh:StandardBusinessDocument");
  set(root, "xmlns:sh", kSbdhNs);
  pugi::xml_node header = root.append_child("sh:StandardBusinessDocumentHeader");
  add(header, "sh:HeaderVersion", "1.0");
  add_participant(header, "sh:Sender", h.sender);
  add_participant(header, "sh:Receiver", h.receiver);
  pugi::xml_node id = header.append_child("sh:DocumentIdentification");
  add(id, "sh:Standard", h.standard);
  add(id, "sh:TypeVersion", h.type_version);
  add(id, "sh:InstanceIdentifier", h.instance_identifier);
  add(id, "sh:Type", h.type);
  add(id, "sh:CreationDateAndTime", h.creation_date_and_time);
  pugi::xml_node scope = header.append_child("sh:BusinessScope");
  add_scope(scope, "DOCUMENTID", h.document_type, h.document_type_scheme);
  add_scope(scope, "PROCESSID", h.process, h.process_scheme);
  if (!h.country_c1.empty()) add_scope(scope, "COUNTRY_C1", h.country_c1, {});

  // The payload goes in as bytes, not through pugixml: what the sender signed
  // or hashed stays byte for byte, and a large invoice is not parsed twice.
  std::string out = finish(doc);
  const std::string_view end_tag = "</sh:StandardBusinessDocument>";
  const size_t at = out.rfind(end_tag);
  const std::string_view body = payload_body(payload);
  std::string inserted;
  inserted.reserve(body.size() + 1);
  inserted.append(body).append("\n");
  out.insert(at, inserted);
  return out;
}

SbdHeader mls_header(const Mls& m, const std::string& instance, const std::string& created,
                     const std::string& country_c1) {
  SbdHeader h;
  h.sender = {std::string(kSpisScheme) + ":" + spid(m.sender_seat), std::string(kParticipantAuthority)};
  h.receiver = {std::string(kSpisScheme) + ":" + spid(m.receiver_seat), std::string(kParticipantAuthority)};
  h.standard = std::string(kApplicationResponseNs);
  h.type = "ApplicationResponse";
  h.type_version = "2.1";
  h.instance_identifier = instance;
  h.creation_date_and_time = created;
  h.document_type_scheme = std::string(kDocumentTypeScheme);
  h.document_type = std::string(kMlsDocumentType);
  h.process_scheme = std::string(kProcessScheme);
  h.process = std::string(kMlsProcess);
  h.country_c1 = country_c1;
  return h;
}

// Either identifier is enough: answering a document that merely claims to be an
// MLS costs one status less, answering a real one could start a loop. The MLS
// spec speaks of MLS only; a Peppol MLR (BIS 36a, another ApplicationResponse)
// is an end user's business document and is answered like any other.
bool is_mls(std::string_view document_type, std::string_view process) {
  return document_type == kMlsDocumentType || process == kMlsProcess;
}

}  // namespace edihub::peppol
