#include "parsers/peppol/sbdh.h"

#include <pugixml.hpp>

#include <cctype>
#include <unordered_set>
#include "parsers/peppol/text.h"

namespace edihub::peppol {

namespace xml = as4::xml;

namespace {

constexpr size_t kMaxInstanceIdentifier = 200;

SbdError fail(SbdCode code, std::string text) { return SbdError{code, std::move(text)}; }

// A partner's value in an error text: quoted, cut when long.
std::string quote(std::string_view v) {
  constexpr size_t kShown = 80;
  if (v.size() <= kShown) return "'" + std::string(v) + "'";
  return "'" + std::string(v.substr(0, kShown)) + "...'";
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

// The encoding an XML declaration names ("" when none): the loader reads
// UTF-8 only, so a Latin-1 envelope would be misread, not refused, without this.
std::string declared_encoding(std::string_view bytes) {
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF") bytes.remove_prefix(3);
  if (bytes.substr(0, 5) != "<?xml") return {};
  const size_t end = bytes.find("?>");
  if (end == std::string_view::npos) return {};
  std::string_view decl = bytes.substr(0, end);
  const size_t at = decl.find("encoding");
  if (at == std::string_view::npos) return {};
  const size_t open = decl.find_first_of("\"'", at);
  if (open == std::string_view::npos) return {};
  const size_t close = decl.find(decl[open], open + 1);
  if (close == std::string_view::npos) return {};
  return std::string(decl.substr(open + 1, close - open - 1));
}

bool printable_ascii(std::string_view s) {
  for (char c : s)
    if (c < 0x21 || c > 0x7E) return false;
  return true;
}

using text::calendar_date;
using text::digits;
using text::number;

// xs:dateTime as Peppol senders write it: YYYY-MM-DDThh:mm:ss, an optional
// fraction, an optional zone (Z or +hh:mm).
bool date_time(std::string_view s) {
  if (s.size() < 19 || !digits(s, 0, 4) || s[4] != '-' || !digits(s, 5, 2) || s[7] != '-' || !digits(s, 8, 2) ||
      s[10] != 'T' || !digits(s, 11, 2) || s[13] != ':' || !digits(s, 14, 2) || s[16] != ':' || !digits(s, 17, 2))
    return false;
  if (!calendar_date(number(s, 0, 4), number(s, 5, 2), number(s, 8, 2))) return false;
  if (number(s, 11, 2) > 23 || number(s, 14, 2) > 59 || number(s, 17, 2) > 59) return false;
  size_t i = 19;
  if (i < s.size() && s[i] == '.') {
    size_t j = i + 1;
    while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
    if (j == i + 1) return false;
    i = j;
  }
  std::string_view zone = s.substr(i);
  if (zone.empty() || zone == "Z") return true;
  return zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && digits(zone, 1, 2) && zone[3] == ':' &&
         digits(zone, 4, 2) && number(zone, 1, 2) <= 14 && number(zone, 4, 2) <= 59;
}

std::vector<pugi::xml_node> element_children(const pugi::xml_node& n) {
  std::vector<pugi::xml_node> out;
  for (pugi::xml_node c : n.children())
    if (c.type() == pugi::node_element) out.push_back(c);
  return out;
}

size_t count_children(const pugi::xml_node& n, std::string_view local) {
  size_t count = 0;
  for (pugi::xml_node c : n.children())
    if (xml::is(c, kSbdhNs, local)) ++count;
  return count;
}

// Where the element starting at `start` (its '<') ends: just past the '>' of
// its end tag or of its empty-element tag; npos if the bytes end first. The
// document is known well-formed (pugixml read it), so tags, comments, CDATA
// and processing instructions are only told apart, not checked.
size_t element_end(std::string_view s, size_t start) {
  size_t depth = 0;
  size_t i = start;
  while (i < s.size()) {
    if (s[i] != '<') {
      i = s.find('<', i);
      if (i == std::string_view::npos) return i;
      continue;
    }
    std::string_view rest = s.substr(i);
    if (rest.substr(0, 4) == "<!--") {
      i = s.find("-->", i + 4);
      if (i == std::string_view::npos) return i;
      i += 3;
    } else if (rest.substr(0, 9) == "<![CDATA[") {
      i = s.find("]]>", i + 9);
      if (i == std::string_view::npos) return i;
      i += 3;
    } else if (rest.substr(0, 2) == "<?") {
      i = s.find("?>", i + 2);
      if (i == std::string_view::npos) return i;
      i += 2;
    } else if (rest.substr(0, 2) == "</") {
      i = s.find('>', i + 2);
      if (i == std::string_view::npos) return i;
      ++i;
      if (depth == 0 || --depth == 0) return i;
    } else {
      // A start tag: '>' may stand inside a quoted attribute value.
      char quote_char = 0;
      size_t j = i + 1;
      for (; j < s.size(); ++j) {
        const char c = s[j];
        if (quote_char != 0) {
          if (c == quote_char) quote_char = 0;
        } else if (c == '"' || c == '\'') {
          quote_char = c;
        } else if (c == '>') {
          break;
        }
      }
      if (j >= s.size()) return std::string_view::npos;
      const bool empty_element = s[j - 1] == '/';
      i = j + 1;
      if (!empty_element)
        ++depth;
      else if (depth == 0)
        return i;
    }
  }
  return std::string_view::npos;
}

bool is_declaration(std::string_view name) { return name == "xmlns" || name.substr(0, 6) == "xmlns:"; }

// The prefix a qualified name uses: "cbc" for "cbc:ID", "" for "ID".
std::string_view prefix_of(std::string_view qname) {
  const size_t colon = qname.find(':');
  return colon == std::string_view::npos ? std::string_view() : qname.substr(0, colon);
}

// The envelope's declarations the payload needs: declared on an ancestor
// (the nearest wins), not on the payload's start tag, and used by a name in
// the payload (an element's prefix or its absence, an attribute's prefix).
std::vector<std::pair<std::string, std::string>> inherited_namespaces(const pugi::xml_node& payload) {
  std::vector<std::pair<std::string, std::string>> candidates;
  std::unordered_set<std::string> seen;
  for (pugi::xml_attribute a : payload.attributes())
    if (is_declaration(a.name())) seen.insert(a.name());
  for (pugi::xml_node p = payload.parent(); p && p.type() == pugi::node_element; p = p.parent())
    for (pugi::xml_attribute a : p.attributes())
      if (is_declaration(a.name()) && seen.insert(a.name()).second) candidates.emplace_back(a.name(), a.value());
  if (candidates.empty()) return {};

  // The prefixes the candidates declare ("" for xmlns), then one pass over
  // the payload's names marking the ones in use.
  std::unordered_set<std::string_view> wanted, used;
  for (const auto& c : candidates) wanted.insert(std::string_view(c.first).substr(c.first == "xmlns" ? 5 : 6));
  auto note = [&](std::string_view prefix) {
    if (wanted.count(prefix) != 0) used.insert(prefix);
  };
  pugi::xml_node n = payload;
  while (n) {
    if (n.type() == pugi::node_element) {
      note(prefix_of(n.name()));
      for (pugi::xml_attribute a : n.attributes()) {
        const std::string_view name = a.name();
        if (!is_declaration(name) && name.find(':') != std::string_view::npos) note(prefix_of(name));
      }
    }
    if (n.first_child()) {
      n = n.first_child();
      continue;
    }
    while (n != payload && !n.next_sibling()) n = n.parent();
    if (n == payload) break;
    n = n.next_sibling();
  }
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& c : candidates)
    if (used.count(std::string_view(c.first).substr(c.first == "xmlns" ? 5 : 6)) != 0) out.push_back(std::move(c));
  return out;
}

std::string escape_attribute(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

SbdError read_party(const pugi::xml_node& header, const char* side, SbdCode code, ParticipantId* out) {
  const size_t n = count_children(header, side);
  if (n != 1)
    return fail(code, "the header has " + std::to_string(n) + " " + side + " elements; Peppol requires exactly one");
  const pugi::xml_node party = xml::child(header, kSbdhNs, side);
  const size_t ids = count_children(party, "Identifier");
  if (ids != 1) return fail(code, std::string(side) + " has " + std::to_string(ids) + " Identifier elements, not one");
  const pugi::xml_node id = xml::child(party, kSbdhNs, "Identifier");
  out->value = xml::text(id);
  out->authority = id.attribute("Authority").value();
  if (out->value.empty()) return fail(code, std::string(side) + "/Identifier is empty");
  if (out->authority.empty()) return fail(code, std::string(side) + "/Identifier has no Authority attribute");
  return {};
}

SbdError read_document_identification(const pugi::xml_node& header, DocumentIdentification* out) {
  const pugi::xml_node di = xml::child(header, kSbdhNs, "DocumentIdentification");
  if (!di) return fail(SbdCode::MissingDocumentIdentification, "the header has no DocumentIdentification");
  out->standard = xml::text(xml::child(di, kSbdhNs, "Standard"));
  out->type_version = xml::text(xml::child(di, kSbdhNs, "TypeVersion"));
  out->instance_identifier = xml::text(xml::child(di, kSbdhNs, "InstanceIdentifier"));
  out->type = xml::text(xml::child(di, kSbdhNs, "Type"));
  out->creation_date_and_time = xml::text(xml::child(di, kSbdhNs, "CreationDateAndTime"));
  if (out->standard.empty()) return fail(SbdCode::MissingStandard, "DocumentIdentification has no Standard");
  if (out->type_version.empty()) return fail(SbdCode::MissingTypeVersion, "DocumentIdentification has no TypeVersion");
  if (out->instance_identifier.empty())
    return fail(SbdCode::MissingInstanceIdentifier, "DocumentIdentification has no InstanceIdentifier");
  if (out->instance_identifier.size() > kMaxInstanceIdentifier)
    return fail(SbdCode::BadInstanceIdentifier, "InstanceIdentifier is " +
                                                    std::to_string(out->instance_identifier.size()) +
                                                    " characters long; at most 200 are allowed");
  if (!printable_ascii(out->instance_identifier))
    return fail(SbdCode::BadInstanceIdentifier,
                "InstanceIdentifier " + quote(out->instance_identifier) +
                    " holds a character other than printable ASCII (no spaces, controls or non-ASCII)");
  if (out->type.empty()) return fail(SbdCode::MissingType, "DocumentIdentification has no Type");
  if (out->creation_date_and_time.empty())
    return fail(SbdCode::CreationDateAndTime, "DocumentIdentification has no CreationDateAndTime");
  if (!date_time(out->creation_date_and_time))
    return fail(SbdCode::CreationDateAndTime, "CreationDateAndTime " + quote(out->creation_date_and_time) +
                                                  " is not a date and time YYYY-MM-DDThh:mm:ss[.s][zone]");
  return {};
}

SbdError read_scopes(const pugi::xml_node& header, const SbdLimits& limits, std::vector<Scope>* out) {
  const pugi::xml_node scope = xml::child(header, kSbdhNs, "BusinessScope");
  if (!scope) return fail(SbdCode::MissingBusinessScope, "the header has no BusinessScope");
  for (pugi::xml_node s : scope.children()) {
    if (!xml::is(s, kSbdhNs, "Scope")) continue;
    if (out->size() >= limits.max_scopes)
      return fail(SbdCode::TooManyScopes,
                  "BusinessScope has more than " + std::to_string(limits.max_scopes) + " Scope");
    out->push_back({xml::text(xml::child(s, kSbdhNs, "Type")), xml::text(xml::child(s, kSbdhNs, "InstanceIdentifier")),
                    xml::text(xml::child(s, kSbdhNs, "Identifier"))});
  }
  struct Required {
    const char* type;
    SbdCode missing;
  };
  for (const Required& r : {Required{"DOCUMENTID", SbdCode::MissingDocumentIdScope},
                            Required{"PROCESSID", SbdCode::MissingProcessIdScope}}) {
    size_t n = 0;
    for (const Scope& s : *out)
      if (s.type == r.type) {
        ++n;
        if (s.instance_identifier.empty())
          return fail(r.missing, std::string("the ") + r.type + " scope has no InstanceIdentifier");
      }
    if (n == 0) return fail(r.missing, std::string("BusinessScope has no ") + r.type + " scope");
    if (n > 1)
      return fail(SbdCode::DuplicateScope,
                  std::string("BusinessScope has ") + std::to_string(n) + " " + r.type + " scopes");
  }
  return {};
}

SbdError read_payload(std::string_view bytes, const pugi::xml_node& node, Payload* out) {
  out->namespace_uri = std::string(xml::namespace_of(node));
  out->local_name = std::string(xml::local_name(node));
  out->qualified_name = node.name();
  const ptrdiff_t name_at = node.offset_debug();
  // offset_debug() is where the name starts; the tag opens one byte before.
  if (name_at < 1 || static_cast<size_t>(name_at) >= bytes.size() || bytes[name_at - 1] != '<' ||
      bytes.substr(name_at, out->qualified_name.size()) != out->qualified_name)
    return fail(SbdCode::Xml, "the business document's position in the input could not be determined");
  out->offset = static_cast<size_t>(name_at) - 1;
  const size_t end = element_end(bytes, out->offset);
  if (end == std::string_view::npos)
    return fail(SbdCode::Xml, "the business document's end could not be found in the input");
  out->length = end - out->offset;
  out->inherited_namespaces = inherited_namespaces(node);
  return {};
}

SbdError check_agreement(const Sbd& sbd) {
  const DocumentIdentification& d = sbd.document;
  if (d.standard != sbd.payload.namespace_uri)
    return fail(SbdCode::StandardMismatch, "Standard " + quote(d.standard) +
                                               " is not the business document's namespace " +
                                               quote(sbd.payload.namespace_uri));
  if (d.type != sbd.payload.local_name)
    return fail(SbdCode::TypeMismatch,
                "Type " + quote(d.type) + " is not the business document's name " + quote(sbd.payload.local_name));
  // A Peppol document type identifier is "<root namespace>::<root name>##<customization>::<version>".
  const std::string prefix = d.standard + "::" + d.type + "##";
  const std::string doc_id = sbd.document_type_id();
  if (doc_id.compare(0, prefix.size(), prefix) != 0)
    return fail(SbdCode::DocumentIdMismatch,
                "the DOCUMENTID scope " + quote(doc_id) + " does not start with " + quote(prefix));
  return {};
}

}  // namespace

as4::xml::Bounds envelope_bounds() { return as4::xml::business_document_bounds(); }

const Scope* Sbd::scope(std::string_view type) const {
  for (const Scope& s : scopes)
    if (s.type == type) return &s;
  return nullptr;
}

std::string Sbd::document_type_id() const {
  const Scope* s = scope("DOCUMENTID");
  return s ? s->instance_identifier : std::string();
}

std::string Sbd::process_id() const {
  const Scope* s = scope("PROCESSID");
  return s ? s->instance_identifier : std::string();
}

std::string Sbd::country_c1() const {
  const Scope* s = scope("COUNTRY_C1");
  return s ? s->instance_identifier : std::string();
}

std::string_view code_name(SbdCode code) {
  switch (code) {
    case SbdCode::None:
      return "";
    case SbdCode::Xml:
      return "SBDH_XML";
    case SbdCode::Encoding:
      return "SBDH_ENCODING";
    case SbdCode::NotSbd:
      return "SBDH_NOT_SBD";
    case SbdCode::MissingHeader:
      return "SBDH_MISSING_HEADER";
    case SbdCode::HeaderVersion:
      return "SBDH_HEADER_VERSION";
    case SbdCode::Sender:
      return "SBDH_SENDER";
    case SbdCode::Receiver:
      return "SBDH_RECEIVER";
    case SbdCode::MissingDocumentIdentification:
      return "SBDH_MISSING_DOCUMENT_IDENTIFICATION";
    case SbdCode::MissingStandard:
      return "SBDH_MISSING_STANDARD";
    case SbdCode::MissingTypeVersion:
      return "SBDH_MISSING_TYPE_VERSION";
    case SbdCode::MissingInstanceIdentifier:
      return "SBDH_MISSING_INSTANCE_IDENTIFIER";
    case SbdCode::BadInstanceIdentifier:
      return "SBDH_BAD_INSTANCE_IDENTIFIER";
    case SbdCode::MissingType:
      return "SBDH_MISSING_TYPE";
    case SbdCode::CreationDateAndTime:
      return "SBDH_CREATION_DATE_AND_TIME";
    case SbdCode::MissingBusinessScope:
      return "SBDH_MISSING_BUSINESS_SCOPE";
    case SbdCode::TooManyScopes:
      return "SBDH_TOO_MANY_SCOPES";
    case SbdCode::MissingDocumentIdScope:
      return "SBDH_MISSING_DOCUMENTID_SCOPE";
    case SbdCode::MissingProcessIdScope:
      return "SBDH_MISSING_PROCESSID_SCOPE";
    case SbdCode::DuplicateScope:
      return "SBDH_DUPLICATE_SCOPE";
    case SbdCode::NoPayload:
      return "SBDH_NO_PAYLOAD";
    case SbdCode::MultiplePayloads:
      return "SBDH_MULTIPLE_PAYLOADS";
    case SbdCode::StandardMismatch:
      return "SBDH_STANDARD_MISMATCH";
    case SbdCode::TypeMismatch:
      return "SBDH_TYPE_MISMATCH";
    case SbdCode::DocumentIdMismatch:
      return "SBDH_DOCUMENTID_MISMATCH";
  }
  return "SBDH_UNKNOWN";
}

SbdError parse_sbd(std::string_view bytes, Sbd* out, const SbdLimits& limits) {
  if (const std::string enc = declared_encoding(bytes); !enc.empty() && !equals_ignoring_case(enc, "UTF-8"))
    return fail(SbdCode::Encoding, "the XML declaration names encoding " + quote(enc) + "; Peppol envelopes are UTF-8");
  pugi::xml_document doc;
  if (std::string why = xml::load(bytes, limits.xml, &doc); !why.empty())
    return fail(SbdCode::Xml, "the envelope is " + why);
  const pugi::xml_node root = doc.document_element();
  if (!xml::is(root, kSbdhNs, "StandardBusinessDocument"))
    return fail(SbdCode::NotSbd, "the root element " + quote(root.name()) + " in namespace " +
                                     quote(xml::namespace_of(root)) +
                                     " is not a StandardBusinessDocument in the SBDH namespace");
  const std::vector<pugi::xml_node> children = element_children(root);
  if (children.empty() || !xml::is(children[0], kSbdhNs, "StandardBusinessDocumentHeader"))
    return fail(SbdCode::MissingHeader,
                "the StandardBusinessDocument does not start with a StandardBusinessDocumentHeader");
  const pugi::xml_node header = children[0];

  Sbd sbd;
  sbd.header_version = xml::text(xml::child(header, kSbdhNs, "HeaderVersion"));
  if (sbd.header_version != "1.0")
    return fail(SbdCode::HeaderVersion, sbd.header_version.empty()
                                            ? std::string("the header has no HeaderVersion")
                                            : "HeaderVersion is " + quote(sbd.header_version) + ", not '1.0'");
  if (SbdError e = read_party(header, "Sender", SbdCode::Sender, &sbd.sender)) return e;
  if (SbdError e = read_party(header, "Receiver", SbdCode::Receiver, &sbd.receiver)) return e;
  if (SbdError e = read_document_identification(header, &sbd.document)) return e;
  if (SbdError e = read_scopes(header, limits, &sbd.scopes)) return e;
  if (children.size() < 2) return fail(SbdCode::NoPayload, "the StandardBusinessDocument holds no business document");
  if (children.size() > 2)
    return fail(SbdCode::MultiplePayloads, "the StandardBusinessDocument holds " + std::to_string(children.size() - 1) +
                                               " elements after the header; exactly one business document is allowed");
  if (SbdError e = read_payload(bytes, children[1], &sbd.payload)) return e;
  if (SbdError e = check_agreement(sbd)) return e;
  *out = std::move(sbd);
  return {};
}

std::string_view payload_bytes(std::string_view xml, const Sbd& sbd) {
  const Payload& p = sbd.payload;
  if (p.offset > xml.size() || p.length > xml.size() - p.offset) return {};
  return xml.substr(p.offset, p.length);
}

std::string standalone_payload(std::string_view xml, const Sbd& sbd) {
  const std::string_view bytes = payload_bytes(xml, sbd);
  const std::string& name = sbd.payload.qualified_name;
  if (bytes.size() < name.size() + 2 || bytes[0] != '<' || bytes.substr(1, name.size()) != name) return {};
  std::string out;
  out.reserve(bytes.size() + 256);
  out.append(bytes.substr(0, 1 + name.size()));
  for (const auto& [attr, value] : sbd.payload.inherited_namespaces)
    out.append(" ").append(attr).append("=\"").append(escape_attribute(value)).append("\"");
  out.append(bytes.substr(1 + name.size()));
  return out;
}

}  // namespace edihub::peppol
