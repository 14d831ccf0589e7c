// The Message Level Status (MLS 1.0) and the envelope it travels in: the exact
// XML for AP, RE and AB, reasons grouped by location, each refused input with
// its reason, free text XML cannot carry, the seat id to SPID mapping, the
// envelope read back by parse_sbd, and every built MLS held against the rules
// of OpenPeppol's MLS Schematron (1.0.1) and the UBL 2.1 element order,
// restated here in our own code; a broken document per rule shows that the
// checker itself finds what it should.
#include <doctest/doctest.h>

#include <pugixml.hpp>

#include <functional>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "parsers/as4/xml.h"
#include "parsers/peppol/mls.h"
#include "parsers/peppol/sbdh.h"

using namespace edihub;
using peppol::Mls;
using peppol::MlsReason;

namespace {

constexpr const char* kReceived = "5f0c9a2e-41b7-4c83-9d5e-2b6f7a1c0e91";

Mls mls(const char* code) {
  Mls m;
  m.id = "7b1e0c52-9a4f-4d3b-8e2a-5c6d7e8f9a01";
  m.issue_date = "2026-11-14";
  m.issue_time = "10:00:00Z";
  m.response_code = code;
  m.sender_seat = "POP000999";
  m.receiver_seat = "PDK000123";
  m.referenced_instance = kReceived;
  return m;
}

Mls rejected() {
  Mls m = mls("RE");
  m.description = "Rejected: the invoice breaks 1 rule";
  m.reasons = {{"BV", "BR-CO-15: the total with VAT is not the total without VAT plus the VAT total",
                "/Invoice/cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount"},
               {"BW", "a note longer than the receiver keeps", ""}};
  return m;
}

std::string built(const Mls& m) {
  std::string why = "stale";
  const std::string xml = peppol::build_mls(m, &why);
  INFO(why);
  REQUIRE_FALSE(xml.empty());
  CHECK(why.empty());
  return xml;
}

const std::string kHead =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<ApplicationResponse xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2\" "
    "xmlns:cac=\"urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2\" "
    "xmlns:cbc=\"urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2\">\n"
    "  <cbc:CustomizationID>urn:peppol:edec:mls:1.0</cbc:CustomizationID>\n"
    "  <cbc:ProfileID>urn:peppol:edec:mls</cbc:ProfileID>\n"
    "  <cbc:ID>7b1e0c52-9a4f-4d3b-8e2a-5c6d7e8f9a01</cbc:ID>\n"
    "  <cbc:IssueDate>2026-11-14</cbc:IssueDate>\n"
    "  <cbc:IssueTime>10:00:00Z</cbc:IssueTime>\n"
    "  <cac:SenderParty>\n"
    "    <cbc:EndpointID schemeID=\"0242\">000999</cbc:EndpointID>\n"
    "  </cac:SenderParty>\n"
    "  <cac:ReceiverParty>\n"
    "    <cbc:EndpointID schemeID=\"0242\">000123</cbc:EndpointID>\n"
    "  </cac:ReceiverParty>\n"
    "  <cac:DocumentResponse>\n"
    "    <cac:Response>\n";

const std::string kReference =
    "    <cac:DocumentReference>\n"
    "      <cbc:ID>5f0c9a2e-41b7-4c83-9d5e-2b6f7a1c0e91</cbc:ID>\n"
    "    </cac:DocumentReference>\n";

const std::string kTail =
    "  </cac:DocumentResponse>\n"
    "</ApplicationResponse>\n";

std::string line(const std::string& where, const std::vector<std::pair<std::string, std::string>>& issues) {
  std::string s =
      "    <cac:LineResponse>\n"
      "      <cac:LineReference>\n"
      "        <cbc:LineID>" +
      where +
      "</cbc:LineID>\n"
      "      </cac:LineReference>\n";
  for (const auto& [code, text] : issues)
    s += "      <cac:Response>\n"
         "        <cbc:Description>" +
         text +
         "</cbc:Description>\n"
         "        <cac:Status>\n"
         "          <cbc:StatusReasonCode>" +
         code +
         "</cbc:StatusReasonCode>\n"
         "        </cac:Status>\n"
         "      </cac:Response>\n";
  return s + "    </cac:LineResponse>\n";
}

// --- The Schematron's rules and UBL's order, restated ------------------------

constexpr std::string_view kCac = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2";
constexpr std::string_view kCbc = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";

using as4::xml::child;
using as4::xml::is;
using as4::xml::text;

std::vector<pugi::xml_node> all(const pugi::xml_node& n, std::string_view ns, std::string_view local) {
  std::vector<pugi::xml_node> out;
  for (pugi::xml_node c : n.children())
    if (is(c, ns, local)) out.push_back(c);
  return out;
}

// Children in UBL 2.1's sequence for the elements an MLS holds (from the
// UBL-ApplicationResponse-2.1 and common aggregate schemas), the components a
// child may be ("cbc:ID"); anything else, or anything out of order, is a finding.
const std::map<std::string, std::vector<std::string>>& ubl_order() {
  static const std::map<std::string, std::vector<std::string>> order = {
      {"ApplicationResponse",
       {"ext:UBLExtensions", "cbc:UBLVersionID", "cbc:CustomizationID", "cbc:ProfileID", "cbc:ProfileExecutionID",
        "cbc:ID", "cbc:UUID", "cbc:IssueDate", "cbc:IssueTime", "cbc:ResponseDate", "cbc:ResponseTime", "cbc:Note",
        "cbc:VersionID", "cac:Signature", "cac:SenderParty", "cac:ReceiverParty", "cac:DocumentResponse"}},
      {"SenderParty",
       {"cbc:MarkCareIndicator", "cbc:MarkAttentionIndicator", "cbc:WebsiteURI", "cbc:LogoReferenceID",
        "cbc:EndpointID", "cbc:IndustryClassificationCode", "cac:PartyIdentification"}},
      {"ReceiverParty",
       {"cbc:MarkCareIndicator", "cbc:MarkAttentionIndicator", "cbc:WebsiteURI", "cbc:LogoReferenceID",
        "cbc:EndpointID", "cbc:IndustryClassificationCode", "cac:PartyIdentification"}},
      {"DocumentResponse",
       {"cac:Response", "cac:DocumentReference", "cac:IssuerParty", "cac:RecipientParty", "cac:LineResponse"}},
      {"Response",
       {"cbc:ReferenceID", "cbc:ResponseCode", "cbc:Description", "cbc:EffectiveDate", "cbc:EffectiveTime",
        "cac:Status"}},
      {"DocumentReference",
       {"cbc:ID", "cbc:CopyIndicator", "cbc:UUID", "cbc:IssueDate", "cbc:IssueTime", "cbc:DocumentTypeCode",
        "cbc:DocumentType"}},
      {"LineResponse", {"cac:LineReference", "cac:Response"}},
      {"LineReference", {"cbc:LineID", "cbc:UUID", "cbc:LineStatusCode", "cac:DocumentReference"}},
      {"Status",
       {"cbc:ConditionCode", "cbc:ReferenceDate", "cbc:ReferenceTime", "cbc:Description", "cbc:StatusReasonCode",
        "cbc:StatusReason", "cbc:SequenceID", "cbc:Text"}},
  };
  return order;
}

void check_order(const pugi::xml_node& n, std::vector<std::string>* findings) {
  const auto it = ubl_order().find(std::string(as4::xml::local_name(n)));
  if (it != ubl_order().end()) {
    size_t last = 0;
    for (pugi::xml_node c : n.children()) {
      if (c.type() != pugi::node_element) continue;
      const std::string_view ns = as4::xml::namespace_of(c);
      const std::string name = std::string(ns == kCac   ? "cac:"
                                           : ns == kCbc ? "cbc:"
                                                        : "?:") +
                               std::string(as4::xml::local_name(c));
      size_t at = 0;
      while (at < it->second.size() && it->second[at] != name) ++at;
      if (at == it->second.size())
        findings->push_back("UBL: " + name + " is no child of " + it->first);
      else if (at < last)
        findings->push_back("UBL: " + name + " after " + it->second[last] + " in " + it->first);
      else
        last = at;
    }
  }
  for (pugi::xml_node c : n.children())
    if (c.type() == pugi::node_element) check_order(c, findings);
}

bool in(const std::string& v, std::initializer_list<const char*> list) {
  for (const char* s : list)
    if (v == s) return true;
  return false;
}

// Findings by Schematron rule id (1.0.1), then by UBL order; none for a good MLS.
std::vector<std::string> findings(const std::string& xml) {
  std::vector<std::string> f;
  pugi::xml_document doc;
  REQUIRE(doc.load_buffer(xml.data(), xml.size()));
  const pugi::xml_node root = doc.document_element();
  REQUIRE(is(root, peppol::kApplicationResponseNs, "ApplicationResponse"));
  auto rule = [&](bool ok, const char* id) {
    if (!ok) f.push_back(id);
  };
  rule(text(child(root, kCbc, "CustomizationID")) == "urn:peppol:edec:mls:1.0", "SCH-MLS-01");
  rule(text(child(root, kCbc, "ProfileID")) == "urn:peppol:edec:mls", "SCH-MLS-02");
  rule(!text(child(root, kCbc, "ID")).empty(), "SCH-MLS-03");
  rule(text(child(root, kCbc, "IssueDate")).size() == 10, "SCH-MLS-04");
  rule(bool(child(root, kCbc, "IssueTime")), "SCH-MLS-05");
  rule(std::regex_search(text(child(root, kCbc, "IssueTime")), std::regex("([+-][0-9]{2}:[0-9]{2}|Z)$")), "SCH-MLS-06");
  const std::regex spid("^[0-9]{6}(-[0-9A-Z_]{3,12}(\\.[0-9A-Z\\-._~]{3,24})?)?$", std::regex::icase);
  struct Side {
    const char* party;
    const char* ids[5];
  };
  for (const Side& s :
       {Side{"SenderParty", {"SCH-MLS-07", "SCH-MLS-08", "SCH-MLS-09", "SCH-MLS-10", "SCH-MLS-11"}},
        Side{"ReceiverParty", {"SCH-MLS-12", "SCH-MLS-13", "SCH-MLS-14", "SCH-MLS-15", "SCH-MLS-16"}}}) {
    const pugi::xml_node e = child(child(root, kCac, s.party), kCbc, "EndpointID");
    rule(bool(e), s.ids[0]);
    rule(!text(e).empty(), s.ids[1]);
    rule(std::regex_match(text(e), spid), s.ids[2]);
    rule(bool(e.attribute("schemeID")), s.ids[3]);
    rule(std::string(e.attribute("schemeID").value()) == "0242", s.ids[4]);
  }
  const std::vector<pugi::xml_node> responses = all(root, kCac, "DocumentResponse");
  rule(responses.size() == 1, "SCH-MLS-17");
  for (const pugi::xml_node& dr : responses) {
    const pugi::xml_node overall = child(dr, kCac, "Response");
    const std::string rc = text(child(overall, kCbc, "ResponseCode"));
    bool failure = false;
    for (const pugi::xml_node& lr : all(dr, kCac, "LineResponse"))
      for (const pugi::xml_node& r : all(lr, kCac, "Response"))
        failure = failure || in(text(child(child(r, kCac, "Status"), kCbc, "StatusReasonCode")), {"BV", "FD", "SV"});
    rule(bool(child(overall, kCbc, "ResponseCode")), "SCH-MLS-18");
    rule(in(rc, {"AP", "AB", "RE"}), "SCH-MLS-19");
    rule(rc != "RE" || bool(child(overall, kCbc, "Description")), "SCH-MLS-20");
    rule(rc != "RE" || !text(child(overall, kCbc, "Description")).empty(), "SCH-MLS-21");
    rule(all(dr, kCac, "DocumentReference").size() == 1, "SCH-MLS-22");
    rule(rc != "RE" || !all(dr, kCac, "LineResponse").empty(), "SCH-MLS-23");
    rule(rc != "RE" || failure, "SCH-MLS-24");
    rule(rc == "RE" || !failure, "SCH-MLS-25");
    for (const pugi::xml_node& ref : all(dr, kCac, "DocumentReference"))
      rule(!text(child(ref, kCbc, "ID")).empty(), "SCH-MLS-26");
    for (const pugi::xml_node& lr : all(dr, kCac, "LineResponse")) {
      rule(!text(child(child(lr, kCac, "LineReference"), kCbc, "LineID")).empty(), "SCH-MLS-27");
      for (const pugi::xml_node& r : all(lr, kCac, "Response")) {
        rule(bool(child(r, kCbc, "Description")), "SCH-MLS-28");
        rule(!text(child(r, kCbc, "Description")).empty(), "SCH-MLS-29");
        const pugi::xml_node status = child(r, kCac, "Status");
        rule(bool(status), "SCH-MLS-30");
        if (status) rule(in(text(child(status, kCbc, "StatusReasonCode")), {"BV", "BW", "FD", "SV"}), "SCH-MLS-31");
      }
    }
  }
  check_order(root, &f);
  return f;
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// Replaces the one occurrence of `from`.
std::string replace(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  INFO("replacing: " << from);
  REQUIRE(at != std::string::npos);
  REQUIRE(s.find(from, at + 1) == std::string::npos);
  return s.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("peppol MLS: AP, the exact document") {
  CHECK(built(mls("AP")) == kHead +
                                "      <cbc:ResponseCode>AP</cbc:ResponseCode>\n"
                                "    </cac:Response>\n" +
                                kReference + kTail);
}

TEST_CASE("peppol MLS: RE with two reasons, one where the location is unknown (NA)") {
  CHECK(built(rejected()) ==
        kHead +
            "      <cbc:ResponseCode>RE</cbc:ResponseCode>\n"
            "      <cbc:Description>Rejected: the invoice breaks 1 rule</cbc:Description>\n"
            "    </cac:Response>\n" +
            kReference +
            line("/Invoice/cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount",
                 {{"BV", "BR-CO-15: the total with VAT is not the total without VAT plus the VAT total"}}) +
            line("NA", {{"BW", "a note longer than the receiver keeps"}}) + kTail);
}

TEST_CASE("peppol MLS: AB with its optional description") {
  Mls m = mls("AB");
  m.description = "Handed to the receiver's system; delivery not confirmed";
  CHECK(built(m) ==
        kHead +
            "      <cbc:ResponseCode>AB</cbc:ResponseCode>\n"
            "      <cbc:Description>Handed to the receiver's system; delivery not confirmed</cbc:Description>\n"
            "    </cac:Response>\n" +
            kReference + kTail);
}

TEST_CASE("peppol MLS: reasons sharing a location are one LineResponse, at its first reason's place") {
  Mls m = mls("RE");
  m.description = "Rejected";
  m.reasons = {{"SV", "not well-formed", ""},
               {"BV", "rule A", "/Invoice/cbc:ID"},
               {"BW", "warning B", "  "},  // white space only: unknown, as ""
               {"FD", "rule C", "/Invoice/cbc:ID"}};
  CHECK(built(m) == kHead +
                        "      <cbc:ResponseCode>RE</cbc:ResponseCode>\n"
                        "      <cbc:Description>Rejected</cbc:Description>\n"
                        "    </cac:Response>\n" +
                        kReference + line("NA", {{"SV", "not well-formed"}, {"BW", "warning B"}}) +
                        line("/Invoice/cbc:ID", {{"BV", "rule A"}, {"FD", "rule C"}}) + kTail);
}

TEST_CASE("peppol MLS: an AP or AB may carry BW warnings, which are written") {
  for (const char* code : {"AP", "AB"}) {
    Mls m = mls(code);
    m.reasons = {{"BW", "the buyer reference is long", "BR-XX-01"}};
    const std::string xml = built(m);
    CHECK(xml.find(line("BR-XX-01", {{"BW", "the buyer reference is long"}})) != std::string::npos);
  }
}

TEST_CASE("peppol MLS: each refused input with its reason, and no document") {
  struct Case {
    const char* name;
    std::function<void(Mls*)> change;
    const char* why;
  };
  const std::vector<Case> cases = {
      {"RE without reason", [](Mls* m) { m->reasons.clear(); }, "an RE status needs at least one reason (SCH-MLS-23)"},
      {"RE with BW only",
       [](Mls* m) {
         m->reasons = {{"BW", "a warning", ""}};
       },
       "an RE status needs at least one reason coded BV, FD or SV, not only BW (SCH-MLS-24)"},
      {"RE without description", [](Mls* m) { m->description = " \n"; },
       "an RE status needs a description (SCH-MLS-20, SCH-MLS-21)"},
      {"AP with a failing reason",
       [](Mls* m) {
         m->response_code = "AP";
         m->description.clear();
       },
       "an AP status may carry BW reasons only, not BV, FD or SV (SCH-MLS-25)"},
      {"AB with a failing reason", [](Mls* m) { m->response_code = "AB"; },
       "an AB status may carry BW reasons only, not BV, FD or SV (SCH-MLS-25)"},
      {"unknown response code", [](Mls* m) { m->response_code = "OK"; },
       "response code 'OK' is not AP, AB or RE (SCH-MLS-19)"},
      {"response code in lower case", [](Mls* m) { m->response_code = "re"; },
       "response code 're' is not AP, AB or RE (SCH-MLS-19)"},
      {"unknown reason code", [](Mls* m) { m->reasons[1].code = "XX"; },
       "reason 2: code 'XX' is not BV, BW, FD or SV (SCH-MLS-31)"},
      {"reason without description", [](Mls* m) { m->reasons[0].description.clear(); },
       "reason 1 has no description (SCH-MLS-28, SCH-MLS-29)"},
      {"empty id", [](Mls* m) { m->id.clear(); }, "the MLS ID is empty (SCH-MLS-03)"},
      {"blank id", [](Mls* m) { m->id = "  "; }, "the MLS ID is empty (SCH-MLS-03)"},
      {"id with a control character",
       [](Mls* m) {
         m->id =
             "a\x01"
             "b";
       },
       "the MLS ID holds bytes XML cannot carry"},
      {"empty referenced instance", [](Mls* m) { m->referenced_instance.clear(); },
       "the referenced SBDH InstanceIdentifier is empty (SCH-MLS-26)"},
      {"referenced instance not UTF-8", [](Mls* m) { m->referenced_instance = "\xC3("; },
       "the referenced SBDH InstanceIdentifier holds bytes XML cannot carry"},
      {"issue date with a zone", [](Mls* m) { m->issue_date = "2026-11-14Z"; },
       "issue date '2026-11-14Z' is not a date YYYY-MM-DD without a zone (SCH-MLS-04)"},
      {"issue date not a day", [](Mls* m) { m->issue_date = "2026-02-29"; },
       "issue date '2026-02-29' is not a date YYYY-MM-DD without a zone (SCH-MLS-04)"},
      {"issue time without a zone", [](Mls* m) { m->issue_time = "10:00:00"; },
       "issue time '10:00:00' is not a time hh:mm:ss[.s] with a zone, Z or +hh:mm (SCH-MLS-05, SCH-MLS-06)"},
      {"issue time empty", [](Mls* m) { m->issue_time.clear(); },
       "issue time '' is not a time hh:mm:ss[.s] with a zone, Z or +hh:mm (SCH-MLS-05, SCH-MLS-06)"},
      {"sender not a seat", [](Mls* m) { m->sender_seat = "ACME"; },
       "sender 'ACME' is neither a seat id (P, 2 letters, 6 digits) nor a service provider id (SCH-MLS-09)"},
      {"empty receiver", [](Mls* m) { m->receiver_seat.clear(); },
       "receiver '' is neither a seat id (P, 2 letters, 6 digits) nor a service provider id (SCH-MLS-14)"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Mls m = rejected();
    c.change(&m);
    std::string why;
    CHECK(peppol::build_mls(m, &why).empty());
    CHECK(why == c.why);
    CHECK(peppol::build_mls(m, nullptr).empty());  // no reason wanted: still refused
  }
  // The unchanged input is accepted: each case refuses for its change alone.
  CHECK_FALSE(built(rejected()).empty());
}

TEST_CASE("peppol MLS: accepted dates, times and seats at their edges") {
  for (const char* date : {"2024-02-29", "2026-12-31", "2000-02-29"}) {
    Mls m = mls("AP");
    m.issue_date = date;
    CHECK_FALSE(built(m).empty());
  }
  for (const char* time : {"23:59:59Z", "10:00:00.123Z", "10:00:00+01:00", "10:00:00-05:30"}) {
    Mls m = mls("AP");
    m.issue_time = time;
    CHECK_FALSE(built(m).empty());
  }
  for (const char* time : {"24:00:00Z", "10:00Z", "10:00:00.Z", "10:00:00+1:00", "10:00:00 Z", "10:00:00+15:00"}) {
    INFO(time);
    Mls m = mls("AP");
    m.issue_time = time;
    CHECK(peppol::build_mls(m, nullptr).empty());
  }
}

TEST_CASE("peppol MLS: the SPID of a seat id, or an SPID as given") {
  CHECK(peppol::spid("POP000999") == "000999");
  CHECK(peppol::spid("PDK000123") == "000123");
  CHECK(peppol::spid("000123") == "000123");
  CHECK(peppol::spid("000123-MLS") == "000123-MLS");
  CHECK(peppol::spid("000123-MLS.acme") == "000123-MLS.acme");
  CHECK(peppol::spid("000123-mls_1.ap-two~x") == "000123-mls_1.ap-two~x");
  for (const char* no : {"", "POP00099", "POP0009999", "pop000999", "P1P000999", "00012", "0001234", "000123-",
                         "000123-AB", "000123-ABCDEFGHIJKLM", "000123-MLS.ab", "000123-MLS.", "000123.MLS",
                         "000123-M S", "000123-MLS.abcdefghijklmnopqrstuvwxy", "0242:000123"}) {
    INFO(no);
    CHECK(peppol::spid(no).empty());
  }
  // An MLS_TO SPID as the receiver: the EndpointID and the SBDH carry it whole.
  Mls m = mls("AP");
  m.receiver_seat = "000123-MLS";
  CHECK(built(m).find("<cbc:EndpointID schemeID=\"0242\">000123-MLS</cbc:EndpointID>") != std::string::npos);
  CHECK(peppol::mls_header(m, "i", "2026-11-14T10:00:00Z", "NO").receiver.value == "0242:000123-MLS");
}

TEST_CASE("peppol MLS: free text is escaped, and what XML cannot carry becomes U+FFFD") {
  Mls m = mls("RE");
  m.description = "total < 0 & \"x\" > 'y'";
  m.reasons = {{"SV", "bad byte \x01 and \xC3( and \xED\xA0\x80 kept: \xC3\xB8 \xE2\x82\xAC \xF0\x9F\x93\x84",
                "/a[@b=\"<c>\"]\x7F"}};
  const std::string xml = built(m);
  CHECK(xml.find("<cbc:Description>total &lt; 0 &amp; \"x\" &gt; 'y'</cbc:Description>") != std::string::npos);
  CHECK(xml.find("<cbc:Description>bad byte \xEF\xBF\xBD and \xEF\xBF\xBD( and \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
                 " kept: \xC3\xB8 \xE2\x82\xAC \xF0\x9F\x93\x84</cbc:Description>") != std::string::npos);
  CHECK(xml.find("<cbc:LineID>/a[@b=\"&lt;c&gt;\"]\xEF\xBF\xBD</cbc:LineID>") != std::string::npos);
  pugi::xml_document doc;
  REQUIRE(doc.load_buffer(xml.data(), xml.size()));
  const pugi::xml_node issue =
      child(child(child(doc.document_element(), kCac, "DocumentResponse"), kCac, "LineResponse"), kCac, "Response");
  CHECK(text(child(issue, kCbc, "Description")) ==
        "bad byte \xEF\xBF\xBD and \xEF\xBF\xBD( and \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD kept: \xC3\xB8 \xE2\x82\xAC "
        "\xF0\x9F\x93\x84");
  CHECK(findings(xml).empty());
}

TEST_CASE("peppol MLS: every built MLS keeps the Schematron's rules and UBL's order") {
  const std::vector<std::vector<MlsReason>> reason_sets = {
      {},
      {{"BW", "w", ""}},
      {{"BV", "v", "/x"}},
      {{"FD", "delivery failed", ""}},
      {{"SV", "s", ""}, {"BW", "w", "/x"}, {"BV", "v", "/x"}, {"SV", "t", ""}},
  };
  size_t built_count = 0;
  for (const char* code : {"AP", "AB", "RE"})
    for (const char* description : {"", "overall"})
      for (const auto& reasons : reason_sets) {
        Mls m = mls(code);
        m.description = description;
        m.reasons = reasons;
        const std::string xml = peppol::build_mls(m, nullptr);
        if (xml.empty()) continue;  // refused: the rule cases above show why
        ++built_count;
        INFO(xml);
        CHECK(joined(findings(xml)) == "");
      }
  // AP and AB with no or BW reasons, each with or without a description (8);
  // RE with a description and a failing reason (3).
  CHECK(built_count == 11);
}

TEST_CASE("peppol MLS: the checker finds each broken rule (it is no test if it cannot fail)") {
  const std::string re = built(rejected());
  const std::string ap = built(mls("AP"));
  const std::string sender_block =
      "  <cac:SenderParty>\n"
      "    <cbc:EndpointID schemeID=\"0242\">000999</cbc:EndpointID>\n"
      "  </cac:SenderParty>\n";
  struct Broken {
    std::string xml;
    const char* finding;
  };
  const std::vector<Broken> cases = {
      {replace(ap, "urn:peppol:edec:mls:1.0", "urn:peppol:edec:mls:2.0"), "SCH-MLS-01"},
      {replace(ap, ">urn:peppol:edec:mls<", ">urn:peppol:edec<"), "SCH-MLS-02"},
      {replace(ap, "<cbc:ID>7b1e0c52-9a4f-4d3b-8e2a-5c6d7e8f9a01</cbc:ID>", "<cbc:ID/>"), "SCH-MLS-03"},
      {replace(ap, "2026-11-14<", "2026-11-14Z<"), "SCH-MLS-04"},
      {replace(ap, "  <cbc:IssueTime>10:00:00Z</cbc:IssueTime>\n", ""), "SCH-MLS-05"},
      {replace(ap, "10:00:00Z", "10:00:00"), "SCH-MLS-06"},
      {replace(ap, ">000999<", ">POP000999<"), "SCH-MLS-09"},
      {replace(ap, "0242\">000999", "0088\">000999"), "SCH-MLS-11"},
      {replace(ap, ">000123<", "><"), "SCH-MLS-13"},
      {replace(ap, "<cbc:ResponseCode>AP<", "<cbc:ResponseCode>OK<"), "SCH-MLS-19"},
      {replace(re, "      <cbc:Description>Rejected: the invoice breaks 1 rule</cbc:Description>\n", ""), "SCH-MLS-20"},
      {replace(ap, kReference, kReference + kReference), "SCH-MLS-22"},
      {replace(ap, "<cbc:ResponseCode>AP<", "<cbc:ResponseCode>RE<"), "SCH-MLS-23"},
      {replace(re, ">BV<", ">BW<"), "SCH-MLS-24"},
      {replace(re, "<cbc:ResponseCode>RE<", "<cbc:ResponseCode>AB<"), "SCH-MLS-25"},
      {replace(ap, ">5f0c9a2e-41b7-4c83-9d5e-2b6f7a1c0e91<", "><"), "SCH-MLS-26"},
      {replace(re, ">NA<", "><"), "SCH-MLS-27"},
      {replace(re, ">a note longer than the receiver keeps<", "><"), "SCH-MLS-29"},
      {replace(re, ">BW<", ">WB<"), "SCH-MLS-31"},
      // UBL's order: the parties swapped, the code after the description, a
      // note before the profile, an element UBL does not have.
      {replace(replace(ap, sender_block, ""), "  </cac:ReceiverParty>\n", "  </cac:ReceiverParty>\n" + sender_block),
       "UBL: cac:SenderParty after cac:ReceiverParty in ApplicationResponse"},
      {replace(replace(re, "<cbc:ResponseCode>RE</cbc:ResponseCode>", "<cbc:Description>x</cbc:Description>"),
               "<cbc:Description>Rejected: the invoice breaks 1 rule</cbc:Description>",
               "<cbc:ResponseCode>RE</cbc:ResponseCode>"),
       "UBL: cbc:ResponseCode after cbc:Description in Response"},
      {replace(ap, "<cbc:ProfileID>", "<cbc:Note>n</cbc:Note><cbc:ProfileID>"),
       "UBL: cbc:ProfileID after cbc:Note in ApplicationResponse"},
      {replace(replace(ap, "<cbc:IssueTime>", "<cbc:IssueTimes>"), "</cbc:IssueTime>", "</cbc:IssueTimes>"),
       "UBL: cbc:IssueTimes is no child of ApplicationResponse"},
  };
  for (const Broken& b : cases) {
    INFO(b.finding);
    const std::vector<std::string> f = findings(b.xml);
    bool found = false;
    for (const std::string& s : f) found = found || s == b.finding;
    CHECK_MESSAGE(found, joined(f));
  }
}

TEST_CASE("peppol MLS: the envelope, exactly, and read back by parse_sbd to the same values") {
  const Mls m = rejected();
  const std::string xml = built(m);
  const peppol::SbdHeader h =
      peppol::mls_header(m, "c1d2e3f4-0000-4000-8000-000000000001", "2026-11-14T10:00:01Z", "NO");
  const std::string sbd = peppol::build_sbd(h, xml);
  const std::string body =
      xml.substr(xml.find("<ApplicationResponse"), xml.size() - 1 - xml.find("<ApplicationResponse"));
  CHECK(sbd ==
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<sh:StandardBusinessDocument "
        "xmlns:sh=\"http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader\">\n"
        "  <sh:StandardBusinessDocumentHeader>\n"
        "    <sh:HeaderVersion>1.0</sh:HeaderVersion>\n"
        "    <sh:Sender>\n"
        "      <sh:Identifier Authority=\"iso6523-actorid-upis\">0242:000999</sh:Identifier>\n"
        "    </sh:Sender>\n"
        "    <sh:Receiver>\n"
        "      <sh:Identifier Authority=\"iso6523-actorid-upis\">0242:000123</sh:Identifier>\n"
        "    </sh:Receiver>\n"
        "    <sh:DocumentIdentification>\n"
        "      <sh:Standard>urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2</sh:Standard>\n"
        "      <sh:TypeVersion>2.1</sh:TypeVersion>\n"
        "      <sh:InstanceIdentifier>c1d2e3f4-0000-4000-8000-000000000001</sh:InstanceIdentifier>\n"
        "      <sh:Type>ApplicationResponse</sh:Type>\n"
        "      <sh:CreationDateAndTime>2026-11-14T10:00:01Z</sh:CreationDateAndTime>\n"
        "    </sh:DocumentIdentification>\n"
        "    <sh:BusinessScope>\n"
        "      <sh:Scope>\n"
        "        <sh:Type>DOCUMENTID</sh:Type>\n"
        "        <sh:InstanceIdentifier>urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2::"
        "ApplicationResponse##urn:peppol:edec:mls:1.0::2.1</sh:InstanceIdentifier>\n"
        "        <sh:Identifier>busdox-docid-qns</sh:Identifier>\n"
        "      </sh:Scope>\n"
        "      <sh:Scope>\n"
        "        <sh:Type>PROCESSID</sh:Type>\n"
        "        <sh:InstanceIdentifier>urn:peppol:edec:mls</sh:InstanceIdentifier>\n"
        "        <sh:Identifier>cenbii-procid-ubl</sh:Identifier>\n"
        "      </sh:Scope>\n"
        "      <sh:Scope>\n"
        "        <sh:Type>COUNTRY_C1</sh:Type>\n"
        "        <sh:InstanceIdentifier>NO</sh:InstanceIdentifier>\n"
        "      </sh:Scope>\n"
        "    </sh:BusinessScope>\n"
        "  </sh:StandardBusinessDocumentHeader>\n" +
            body +
            "\n"
            "</sh:StandardBusinessDocument>\n");

  peppol::Sbd s;
  const peppol::SbdError e = peppol::parse_sbd(sbd, &s);
  INFO(peppol::code_name(e.code) << ": " << e.text);
  REQUIRE_FALSE(e);
  CHECK(s.sender.value == h.sender.value);
  CHECK(s.sender.authority == h.sender.authority);
  CHECK(s.receiver.value == h.receiver.value);
  CHECK(s.receiver.authority == "iso6523-actorid-upis");
  CHECK(s.document.standard == h.standard);
  CHECK(s.document.type == h.type);
  CHECK(s.document.type_version == h.type_version);
  CHECK(s.document.instance_identifier == h.instance_identifier);
  CHECK(s.document.creation_date_and_time == h.creation_date_and_time);
  REQUIRE(s.scopes.size() == 3);
  CHECK(s.scopes[0].type == "DOCUMENTID");
  CHECK(s.scopes[0].instance_identifier == peppol::kMlsDocumentType);
  CHECK(s.scopes[0].identifier == "busdox-docid-qns");
  CHECK(s.scopes[1].type == "PROCESSID");
  CHECK(s.scopes[1].instance_identifier == "urn:peppol:edec:mls");
  CHECK(s.scopes[1].identifier == "cenbii-procid-ubl");
  CHECK(s.country_c1() == "NO");
  CHECK(s.payload.namespace_uri == peppol::kApplicationResponseNs);
  CHECK(s.payload.local_name == "ApplicationResponse");
  CHECK(s.payload.inherited_namespaces.empty());
  // The payload is the MLS, byte for byte, less its declaration and final line end.
  CHECK(peppol::payload_bytes(sbd, s) == body);
  CHECK(peppol::standalone_payload(sbd, s) == body);
  CHECK(findings(peppol::standalone_payload(sbd, s)).empty());
  CHECK(peppol::is_mls(s.document_type_id(), s.process_id()));
}

TEST_CASE("peppol MLS: build_sbd without COUNTRY_C1 or schemes, and any payload's prolog dropped") {
  peppol::SbdHeader h;
  h.sender = {"0192:923456783", "iso6523-actorid-upis"};
  h.receiver = {"0088:7080000123452", "iso6523-actorid-upis"};
  h.standard = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
  h.type = "Invoice";
  h.type_version = "2.1";
  h.instance_identifier = "inst-1";
  h.creation_date_and_time = "2026-11-14T10:00:00+01:00";
  h.document_type = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##x::2.1";
  h.process = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0";
  // A root with a prefix and a child in no namespace: with the envelope's
  // namespace in a prefix, the child stays in none.
  const std::string root =
      "<inv:Invoice xmlns:inv=\"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2\">"
      "<Note>plain</Note><inv:ID>1</inv:ID></inv:Invoice>";
  for (const std::string& payload : {root, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + root + "\n",
                                     "\xEF\xBB\xBF<?xml version='1.0'?>\r\n  " + root + "  \r\n", " \n" + root}) {
    INFO(payload);
    const std::string sbd = peppol::build_sbd(h, payload);
    CHECK(sbd.find("COUNTRY_C1") == std::string::npos);
    CHECK(sbd.find("<sh:Identifier>") == std::string::npos);  // no scheme, no Identifier element
    peppol::Sbd s;
    const peppol::SbdError e = peppol::parse_sbd(sbd, &s);
    INFO(peppol::code_name(e.code) << ": " << e.text);
    REQUIRE_FALSE(e);
    CHECK(s.country_c1().empty());
    CHECK(s.document_type_id() == h.document_type);
    CHECK(s.process_id() == h.process);
    CHECK(s.scopes[0].identifier.empty());
    CHECK(peppol::payload_bytes(sbd, s) == root);
    CHECK(peppol::standalone_payload(sbd, s) == root);
    pugi::xml_document doc;
    REQUIRE(doc.load_buffer(sbd.data(), sbd.size()));
    const pugi::xml_node note = doc.document_element().child("inv:Invoice").child("Note");
    REQUIRE(note);
    CHECK(as4::xml::namespace_of(note).empty());
  }
  // A processing instruction that only starts like the declaration stays.
  const std::string pi = "<?xml-stylesheet href=\"a.xsl\"?>" + root;
  CHECK(peppol::build_sbd(h, pi).find("<?xml-stylesheet href=\"a.xsl\"?>" + root) != std::string::npos);
}

TEST_CASE("peppol MLS: the MLS header's fixed values, and no MLS for an MLS") {
  const peppol::SbdHeader h = peppol::mls_header(mls("AB"), "i-1", "2026-11-14T10:00:00Z", "DE");
  CHECK(h.sender.value == "0242:000999");
  CHECK(h.sender.authority == "iso6523-actorid-upis");
  CHECK(h.receiver.value == "0242:000123");
  CHECK(h.standard == "urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2");
  CHECK(h.type == "ApplicationResponse");
  CHECK(h.type_version == "2.1");
  CHECK(h.instance_identifier == "i-1");
  CHECK(h.creation_date_and_time == "2026-11-14T10:00:00Z");
  CHECK(h.document_type_scheme == "busdox-docid-qns");
  CHECK(h.document_type ==
        "urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2::ApplicationResponse##"
        "urn:peppol:edec:mls:1.0::2.1");
  CHECK(h.process_scheme == "cenbii-procid-ubl");
  CHECK(h.process == "urn:peppol:edec:mls");
  CHECK(h.country_c1 == "DE");

  const std::string invoice =
      "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#"
      "urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1";
  const std::string billing = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0";
  CHECK(peppol::is_mls(peppol::kMlsDocumentType, "urn:peppol:edec:mls"));
  CHECK(peppol::is_mls(peppol::kMlsDocumentType, billing));  // either one is enough to stay silent
  CHECK(peppol::is_mls(invoice, "urn:peppol:edec:mls"));
  CHECK_FALSE(peppol::is_mls(invoice, billing));
  // The Peppol MLR (BIS 36a) is another ApplicationResponse: it is answered.
  CHECK_FALSE(
      peppol::is_mls("urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2::ApplicationResponse##"
                     "urn:fdc:peppol.eu:poacc:trns:mlr:3::2.1",
                     "urn:fdc:peppol.eu:poacc:bis:mlr:3"));
}
