// The Peppol envelope (SBDH) and the UBL documents it carries: the samples of
// samples/peppol (samples/peppol/README.md lists what each must give), the
// payload's exact bytes and its standalone copy for every namespace style,
// each envelope problem with its code and text, every truncated prefix, and
// each UBL rule failing on its own with its exact finding.
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include "parsers/peppol/sbdh.h"
#include "parsers/ubl/ubl.h"
#include "tests/unit/test_util.h"

using namespace edihub;

namespace {

std::string sample(const std::string& name) {
  std::string bytes = test::read_file(test::source_path("samples/peppol/" + name));
  REQUIRE_FALSE(bytes.empty());
  return bytes;
}

// Replaces the `nth` (1-based) occurrence of `from`; with nth 0, `from` must occur exactly once.
std::string replace(std::string s, const std::string& from, const std::string& to, int nth = 0) {
  size_t at = std::string::npos;
  int seen = 0;
  for (size_t i = s.find(from); i != std::string::npos; i = s.find(from, i + 1)) {
    ++seen;
    if (nth == 0 ? seen == 1 : seen == nth) at = i;
  }
  INFO("replacing: " << from);
  REQUIRE(at != std::string::npos);
  if (nth == 0) REQUIRE(seen == 1);
  return s.replace(at, from.size(), to);
}

// Removes the `nth` element that starts with `open` through the first `close` after it.
std::string cut(std::string s, const std::string& open, const std::string& close, int nth = 1) {
  size_t at = std::string::npos;
  for (int i = 0; i < nth; ++i) at = s.find(open, at == std::string::npos ? 0 : at + 1);
  INFO("cutting: " << open);
  REQUIRE(at != std::string::npos);
  const size_t end = s.find(close, at);
  REQUIRE(end != std::string::npos);
  return s.erase(at, end + close.size() - at);
}

peppol::Sbd envelope(const std::string& bytes) {
  peppol::Sbd sbd;
  const peppol::SbdError e = peppol::parse_sbd(bytes, &sbd);
  INFO(peppol::code_name(e.code) << ": " << e.text);
  REQUIRE_FALSE(e);
  return sbd;
}

std::string payload_of(const std::string& sample_name) {
  const std::string bytes = sample(sample_name);
  return peppol::standalone_payload(bytes, envelope(bytes));
}

ubl::Invoice invoice(const std::string& xml) {
  ubl::Invoice inv;
  const ubl::Error e = ubl::parse_invoice(xml, &inv);
  INFO(ubl::code_name(e.code) << ": " << e.text);
  REQUIRE_FALSE(e);
  return inv;
}

ubl::DespatchAdvice despatch(const std::string& xml) {
  ubl::DespatchAdvice da;
  const ubl::Error e = ubl::parse_despatch_advice(xml, &da);
  INFO(ubl::code_name(e.code) << ": " << e.text);
  REQUIRE_FALSE(e);
  return da;
}

// Findings one a line: "RULE PATH: text", " [warning]" for a warning.
std::string render(const std::vector<ubl::Finding>& findings) {
  std::string out;
  for (const ubl::Finding& f : findings)
    out += f.rule + " " + f.path + ": " + f.text + (f.severity == ubl::Severity::Warning ? " [warning]" : "") + "\n";
  return out;
}

std::string invoice_findings(const std::string& xml) { return render(ubl::validate(invoice(xml))); }
std::string despatch_findings(const std::string& xml) { return render(ubl::validate(despatch(xml))); }

std::string amount(const ubl::Amount& a) { return a.present ? a.value + " " + a.currency : "-"; }
std::string quantity(const ubl::Quantity& q) { return q.present ? q.value + " " + q.unit : "-"; }
std::string id(const ubl::Identifier& i) { return i.value + (i.scheme.empty() ? "" : "@" + i.scheme); }

std::string describe(const ubl::Party& p) {
  std::string out = p.present ? "party" : "no party";
  out += " endpoint=" + id(p.endpoint) + " ids=";
  for (const auto& i : p.identifications) out += id(i) + ",";
  out += " name=" + p.name + " address=" +
         (p.address.present
              ? p.address.street + "|" + p.address.city + "|" + p.address.postal_zone + "|" + p.address.country
              : "-") +
         " tax=";
  for (const auto& t : p.tax_company_ids) out += t + ",";
  return out + " legal=" + (p.legal_entity ? "yes" : "no") + "|" + p.registration_name + "|" + id(p.legal_company_id);
}

std::string describe(const ubl::Item& it) {
  return "item " + it.name + "|" + it.description + "|buyer " + it.buyers_item_id + "|seller " + it.sellers_item_id +
         "|standard " + id(it.standard_item_id) + "|tax " + it.classified_tax_category.id + " " +
         it.classified_tax_category.percent;
}

std::string describe(const ubl::AllowanceCharge& ac) {
  return "ac " + ac.charge_indicator + "|" + ac.reason_code + "|" + ac.reason + "|" + amount(ac.amount) + "|base " +
         amount(ac.base_amount) + "|tax " + ac.tax_category.id + " " + ac.tax_category.percent;
}

// Every field of the model, one a line: what "the same model" means below.
std::string describe(const ubl::Invoice& inv) {
  std::string out = std::string(inv.credit_note ? "credit note" : "invoice") + "\n";
  out += inv.customization_id + "\n" + inv.profile_id + "\n" + inv.id + " " + inv.issue_date + " due " + inv.due_date +
         " type " + inv.type_code + "\n";
  for (const auto& n : inv.notes) out += "note " + n + "\n";
  out += "tax point " + inv.tax_point_date + " currency " + inv.document_currency + " tax currency " +
         inv.tax_currency + " buyer ref " + inv.buyer_reference + " order " + inv.order_reference + "\n";
  for (const auto& b : inv.billing_references) out += "billing " + b.id + " " + b.issue_date + "\n";
  out += "seller " + describe(inv.supplier) + "\nbuyer " + describe(inv.customer) + "\n";
  out += "delivery " + std::string(inv.delivery.present ? "yes " : "no ") + inv.delivery.actual_date + " " +
         id(inv.delivery.location_id) + " " + inv.delivery.address.street + "\n";
  for (const auto& pm : inv.payment_means) out += "payment " + pm.code + " " + pm.account_id + "\n";
  out += "terms " + inv.payment_terms + "\n";
  for (const auto& ac : inv.allowance_charges) out += describe(ac) + "\n";
  for (const auto& t : inv.tax_totals) {
    out += "tax total " + amount(t.tax_amount) + "\n";
    for (const auto& st : t.subtotals)
      out += "  subtotal " + amount(st.taxable_amount) + " " + amount(st.tax_amount) + " " + st.category.id + " " +
             st.category.percent + " " + st.category.exemption_reason + "\n";
  }
  const ubl::MonetaryTotal& m = inv.totals;
  out += "totals " + amount(m.line_extension) + "|" + amount(m.tax_exclusive) + "|" + amount(m.tax_inclusive) + "|" +
         amount(m.allowance_total) + "|" + amount(m.charge_total) + "|" + amount(m.prepaid) + "|" +
         amount(m.payable_rounding) + "|" + amount(m.payable) + "\n";
  for (const auto& l : inv.lines) {
    out += "line " + l.id + " " + quantity(l.quantity) + " " + amount(l.line_extension) + " order line " +
           l.order_line_id + " price " + amount(l.price) + " per " + quantity(l.base_quantity) + "\n  " +
           describe(l.item) + "\n";
    for (const auto& ac : l.allowance_charges) out += "  " + describe(ac) + "\n";
  }
  return out;
}

std::string describe(const ubl::DespatchAdvice& da) {
  std::string out = da.customization_id + "\n" + da.profile_id + "\n" + da.id + " " + da.issue_date + " " +
                    da.issue_time + " order " + da.order_reference + "\n";
  for (const auto& n : da.notes) out += "note " + n + "\n";
  out += "supplier " + describe(da.supplier) + "\ncustomer " + describe(da.customer) + "\n";
  const ubl::Shipment& s = da.shipment;
  out += "shipment " + std::string(s.present ? "yes " : "no ") + s.id + " " + quantity(s.gross_weight) + " carrier " +
         s.carrier_name + " tracking " + s.tracking_id + " delivered " + s.actual_delivery_date + " " +
         s.period_element + " " + s.period_start + ".." + s.period_end + " address " + s.delivery_address.street +
         " despatched " + s.actual_despatch_date + " " + s.actual_despatch_time + "\n";
  for (const auto& l : da.lines)
    out += "line " + l.id + " " + quantity(l.delivered) + " outstanding " + quantity(l.outstanding) + " " +
           l.outstanding_reason + " order " + (l.order_line_reference ? "ref " : "no ref ") + l.order_id + "/" +
           l.order_line_id + "\n  " + describe(l.item) + (l.item.present ? "" : " (no item)") + "\n";
  return out;
}

const std::string kSbdhNs = "http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader";
const std::string kInvoiceNs = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
const std::string kCac = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2";
const std::string kCbc = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";

// A small valid envelope around `payload` (an Invoice unless the header is edited).
std::string minimal_sbd(const std::string& payload = "<Invoice xmlns=\"" + kInvoiceNs + "\"><x/></Invoice>") {
  return "<StandardBusinessDocument xmlns=\"" + kSbdhNs +
         "\">\n"
         "<StandardBusinessDocumentHeader>\n"
         "<HeaderVersion>1.0</HeaderVersion>\n"
         "<Sender><Identifier Authority=\"iso6523-actorid-upis\">0192:923456783</Identifier></Sender>\n"
         "<Receiver><Identifier Authority=\"iso6523-actorid-upis\">0088:7080000123452</Identifier></Receiver>\n"
         "<DocumentIdentification>\n"
         "<Standard>" +
         kInvoiceNs +
         "</Standard>\n"
         "<TypeVersion>2.1</TypeVersion>\n"
         "<InstanceIdentifier>abc-1</InstanceIdentifier>\n"
         "<Type>Invoice</Type>\n"
         "<CreationDateAndTime>2024-11-14T09:12:45Z</CreationDateAndTime>\n"
         "</DocumentIdentification>\n"
         "<BusinessScope>\n"
         "<Scope><Type>DOCUMENTID</Type><InstanceIdentifier>" +
         kInvoiceNs +
         "::Invoice##x::2.1</InstanceIdentifier></Scope>\n"
         "<Scope><Type>PROCESSID</Type><InstanceIdentifier>p</InstanceIdentifier></Scope>\n"
         "</BusinessScope>\n"
         "</StandardBusinessDocumentHeader>\n" +
         payload + "\n</StandardBusinessDocument>\n";
}

// Where the brief of the payload says it ends: where the envelope's closing tag
// begins, trailing white space dropped.
size_t end_before_closing_tag(const std::string& bytes, const std::string& closing) {
  size_t end = bytes.rfind(closing);
  REQUIRE(end != std::string::npos);
  while (end > 0 &&
         (bytes[end - 1] == ' ' || bytes[end - 1] == '\n' || bytes[end - 1] == '\r' || bytes[end - 1] == '\t'))
    --end;
  return end;
}

}  // namespace

// ---- The envelope -----------------------------------------------------------

TEST_CASE("peppol SBDH: the invoice sample's header, scopes and payload bytes") {
  const std::string bytes = sample("invoice.xml");
  const peppol::Sbd sbd = envelope(bytes);
  CHECK(sbd.header_version == "1.0");
  CHECK(sbd.sender.value == "0192:923456783");
  CHECK(sbd.sender.authority == "iso6523-actorid-upis");
  CHECK(sbd.receiver.value == "0088:7080000123452");
  CHECK(sbd.receiver.authority == "iso6523-actorid-upis");
  CHECK(sbd.document.standard == kInvoiceNs);
  CHECK(sbd.document.type_version == "2.1");
  CHECK(sbd.document.instance_identifier == "5f0c9a2e-41b7-4c83-9d5e-2b6f7a1c0e91");
  CHECK(sbd.document.type == "Invoice");
  CHECK(sbd.document.creation_date_and_time == "2024-11-14T09:12:45.123+01:00");
  REQUIRE(sbd.scopes.size() == 3);
  CHECK(sbd.scopes[0].type == "DOCUMENTID");
  CHECK(sbd.scopes[0].identifier == "busdox-docid-qns");
  CHECK(sbd.scopes[1].type == "PROCESSID");
  CHECK(sbd.scopes[1].identifier == "cenbii-procid-ubl");
  CHECK(sbd.scopes[2].type == "COUNTRY_C1");
  CHECK(sbd.scopes[2].identifier.empty());
  CHECK(sbd.document_type_id() ==
        "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:"
        "peppol.eu:2017:poacc:billing:3.0::2.1");
  CHECK(sbd.process_id() == "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0");
  CHECK(sbd.country_c1() == "NO");
  CHECK(sbd.scope("MLS_TO") == nullptr);

  CHECK(sbd.payload.namespace_uri == kInvoiceNs);
  CHECK(sbd.payload.local_name == "Invoice");
  CHECK(sbd.payload.qualified_name == "Invoice");
  CHECK(sbd.payload.offset == bytes.find("<Invoice "));
  const size_t end = bytes.find("</Invoice>") + std::string("</Invoice>").size();
  CHECK(sbd.payload.offset + sbd.payload.length == end);
  CHECK(end == end_before_closing_tag(bytes, "</StandardBusinessDocument>"));
  CHECK(peppol::payload_bytes(bytes, sbd) == bytes.substr(sbd.payload.offset, end - sbd.payload.offset));
  // The payload declares every namespace it uses: its copy is its bytes.
  CHECK(sbd.payload.inherited_namespaces.empty());
  CHECK(peppol::standalone_payload(bytes, sbd) == peppol::payload_bytes(bytes, sbd));
}

TEST_CASE("peppol SBDH: a prefixed envelope whose payload inherits cac and cbc from it") {
  const std::string bytes = sample("credit-note.xml");
  const peppol::Sbd sbd = envelope(bytes);
  CHECK(sbd.document.creation_date_and_time == "2024-11-20T13:40:02Z");
  CHECK(sbd.payload.qualified_name == "CreditNote");
  CHECK(sbd.payload.namespace_uri == "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2");
  CHECK(sbd.payload.offset == bytes.find("<CreditNote "));
  const size_t end = bytes.find("</CreditNote>") + std::string("</CreditNote>").size();
  CHECK(sbd.payload.offset + sbd.payload.length == end);
  CHECK(end == end_before_closing_tag(bytes, "</sh:StandardBusinessDocument>"));
  // xmlns:sh is the envelope's own: not needed, not copied.
  const std::vector<std::pair<std::string, std::string>> inherited = {{"xmlns:cac", kCac}, {"xmlns:cbc", kCbc}};
  CHECK(sbd.payload.inherited_namespaces == inherited);
  const std::string payload(peppol::payload_bytes(bytes, sbd));
  const std::string expected = "<CreditNote xmlns:cac=\"" + kCac + "\" xmlns:cbc=\"" + kCbc + "\"" +
                               payload.substr(std::string("<CreditNote").size());
  CHECK(peppol::standalone_payload(bytes, sbd) == expected);
}

TEST_CASE("peppol SBDH: the default namespace inherited from a prefixed envelope") {
  const std::string bytes = sample("despatch-advice.xml");
  const peppol::Sbd sbd = envelope(bytes);
  CHECK(sbd.payload.qualified_name == "DespatchAdvice");
  CHECK(sbd.payload.namespace_uri == "urn:oasis:names:specification:ubl:schema:xsd:DespatchAdvice-2");
  CHECK(sbd.payload.offset == bytes.find("<DespatchAdvice "));
  CHECK(sbd.payload.offset + sbd.payload.length == end_before_closing_tag(bytes, "</sbd:StandardBusinessDocument>"));
  const std::vector<std::pair<std::string, std::string>> inherited = {
      {"xmlns", "urn:oasis:names:specification:ubl:schema:xsd:DespatchAdvice-2"}};
  CHECK(sbd.payload.inherited_namespaces == inherited);
  const std::string standalone = peppol::standalone_payload(bytes, sbd);
  CHECK(standalone.rfind("<DespatchAdvice xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:DespatchAdvice-2\" "
                         "xmlns:cac=",
                         0) == 0);
  CHECK(despatch(standalone).id == "DA-2024-5531");
}

TEST_CASE("peppol SBDH: the payload's exact bytes whatever it holds or is followed by") {
  struct Case {
    const char* name;
    std::string payload;  // as placed in the envelope
    std::string after;    // what follows it before the envelope's end tag
  };
  const std::string ns = "xmlns=\"" + kInvoiceNs + "\"";
  const Case cases[] = {
      {"empty-element tag", "<Invoice " + ns + "/>", "\n"},
      {"'>' and '/>' inside attribute values",
       "<Invoice " + ns + " note=\"a > b /> c\"><x a='>'/><y b=\"/>\"/></Invoice>", ""},
      {"its end tag inside CDATA, a comment and a PI",
       "<Invoice " + ns + "><x><![CDATA[</Invoice>]]></x><!-- </Invoice> --><?pi </Invoice>?></Invoice>", "\n  "},
      {"elements of its own name nested in it", "<Invoice " + ns + "><Invoice/><Invoice>t</Invoice></Invoice>", ""},
      {"a comment after it (not part of it)", "<Invoice " + ns + "><x/></Invoice>", "<!-- trailer -->\n"},
      {"a processing instruction after it", "<Invoice " + ns + "><x/></Invoice>", "\n<?trailer x?>"},
      {"a prefixed root", "<inv:Invoice xmlns:inv=\"" + kInvoiceNs + "\"><inv:x/></inv:Invoice>", "\t\n"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    std::string bytes = minimal_sbd(c.payload);
    bytes = replace(bytes, c.payload + "\n", c.payload + c.after);
    const peppol::Sbd sbd = envelope(bytes);
    CHECK(peppol::payload_bytes(bytes, sbd) == c.payload);
    CHECK(sbd.payload.offset == bytes.find(c.payload));
  }
}

TEST_CASE("peppol SBDH: CR LF line ends and a byte order mark keep the offsets exact") {
  std::string bytes = sample("invoice.xml");
  std::string crlf = "\xEF\xBB\xBF";
  for (char c : bytes) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const peppol::Sbd sbd = envelope(crlf);
  CHECK(sbd.payload.offset == crlf.find("<Invoice "));
  CHECK(sbd.payload.offset + sbd.payload.length == crlf.find("</Invoice>") + 10);
  const std::string standalone = peppol::standalone_payload(crlf, sbd);
  CHECK(standalone.find("\r\n") != std::string::npos);  // the bytes as sent, line ends included
  CHECK(invoice(standalone).id == "NKR-2024-1187");
}

TEST_CASE("peppol SBDH: inherited declarations are the used ones, escaped, never repeated") {
  const std::string sbd_ns = "<sh:StandardBusinessDocument xmlns:sh=\"" + kSbdhNs + "\"";
  std::string bytes = minimal_sbd();
  // A prefixed envelope declaring more than the payload needs.
  for (const char* tag :
       {"StandardBusinessDocumentHeader", "HeaderVersion", "Sender", "Receiver", "Identifier", "DocumentIdentification",
        "Standard", "TypeVersion", "InstanceIdentifier", "Type", "CreationDateAndTime", "BusinessScope", "Scope"}) {
    for (std::string::size_type at = 0; (at = bytes.find(std::string("<") + tag + ">", at)) != std::string::npos;)
      bytes.replace(at, std::string(tag).size() + 2, std::string("<sh:") + tag + ">");
    for (std::string::size_type at = 0; (at = bytes.find(std::string("</") + tag + ">", at)) != std::string::npos;)
      bytes.replace(at, std::string(tag).size() + 3, std::string("</sh:") + tag + ">");
    for (std::string::size_type at = 0; (at = bytes.find(std::string("<") + tag + " ", at)) != std::string::npos;)
      bytes.replace(at, std::string(tag).size() + 2, std::string("<sh:") + tag + " ");
  }
  bytes = replace(bytes, "<StandardBusinessDocument xmlns=\"" + kSbdhNs + "\">",
                  sbd_ns + " xmlns:inv=\"" + kInvoiceNs +
                      "\" xmlns:unused=\"urn:unused\" xmlns:q=\"urn:a&amp;b&quot;c\"" + " xmlns:cbc=\"urn:outer\">");
  bytes = replace(bytes, "</StandardBusinessDocument>", "</sh:StandardBusinessDocument>");
  const std::string payload =
      "<inv:Invoice xmlns:cbc=\"" + kCbc + "\"><cbc:ID q:note=\"1\">7</cbc:ID><inv:x/></inv:Invoice>";
  bytes = replace(bytes, "<Invoice xmlns=\"" + kInvoiceNs + "\"><x/></Invoice>", payload);
  const peppol::Sbd sbd = envelope(bytes);
  const std::vector<std::pair<std::string, std::string>> inherited = {{"xmlns:inv", kInvoiceNs},
                                                                      {"xmlns:q", "urn:a&b\"c"}};
  CHECK(sbd.payload.inherited_namespaces == inherited);
  CHECK(peppol::standalone_payload(bytes, sbd) == "<inv:Invoice xmlns:inv=\"" + kInvoiceNs +
                                                      "\" xmlns:q=\"urn:a&amp;b&quot;c\" xmlns:cbc=\"" + kCbc +
                                                      "\"><cbc:ID q:note=\"1\">7</cbc:ID><inv:x/></inv:Invoice>");
  CHECK(invoice(peppol::standalone_payload(bytes, sbd)).id == "7");
}

TEST_CASE("peppol SBDH: the same invoice in three envelope styles gives the same model") {
  const std::string original = sample("invoice.xml");
  const std::string expected = describe(invoice(payload_of("invoice.xml")));
  // cac and cbc declared on a prefixed envelope, the payload declaring only its own namespace.
  std::string prefixed = original;
  prefixed = replace(prefixed, " xmlns:cac=\"" + kCac + "\" xmlns:cbc=\"" + kCbc + "\">", ">");
  prefixed = replace(
      prefixed, "<StandardBusinessDocument xmlns=\"" + kSbdhNs + "\">",
      "<s:StandardBusinessDocument xmlns:s=\"" + kSbdhNs + "\" xmlns:cac=\"" + kCac + "\" xmlns:cbc=\"" + kCbc + "\">");
  for (const char* tag : {"StandardBusinessDocumentHeader", "HeaderVersion", "Sender", "Receiver", "Identifier",
                          "DocumentIdentification", "Standard", "TypeVersion", "InstanceIdentifier", "Type",
                          "CreationDateAndTime", "BusinessScope", "Scope", "StandardBusinessDocument"}) {
    const std::string t(tag);
    for (std::string::size_type at = 0; (at = prefixed.find("<" + t + ">", at)) != std::string::npos;)
      prefixed.replace(at, t.size() + 2, "<s:" + t + ">");
    for (std::string::size_type at = 0; (at = prefixed.find("</" + t + ">", at)) != std::string::npos;)
      prefixed.replace(at, t.size() + 3, "</s:" + t + ">");
    for (std::string::size_type at = 0; (at = prefixed.find("<" + t + " ", at)) != std::string::npos;)
      prefixed.replace(at, t.size() + 2, "<s:" + t + " ");
  }
  const peppol::Sbd sbd = envelope(prefixed);
  CHECK(sbd.payload.inherited_namespaces.size() == 2);
  CHECK(describe(invoice(peppol::standalone_payload(prefixed, sbd))) == expected);
  // The standalone copy re-enveloped: its copy is itself, and the same model again.
  const std::string standalone = peppol::standalone_payload(prefixed, sbd);
  const std::string again = minimal_sbd(standalone);
  const peppol::Sbd sbd2 = envelope(again);
  CHECK(sbd2.payload.inherited_namespaces.empty());
  CHECK(peppol::standalone_payload(again, sbd2) == standalone);
  CHECK(describe(invoice(peppol::standalone_payload(again, sbd2))) == expected);
}

TEST_CASE("peppol SBDH: each envelope problem with its code and text") {
  struct Case {
    std::string from, to;
    const char* code;
    std::string text;
  };
  const std::string payload = "<Invoice xmlns=\"" + kInvoiceNs + "\"><x/></Invoice>";
  const std::string doc_id = "<InstanceIdentifier>" + kInvoiceNs + "::Invoice##x::2.1</InstanceIdentifier>";
  const Case cases[] = {
      {"</StandardBusinessDocument>", "", "SBDH_XML",
       "the envelope is not well-formed XML: Start-end tags mismatch at byte 1036"},
      {"<StandardBusinessDocument ", "<!DOCTYPE x [<!ENTITY e \"boom\">]><StandardBusinessDocument ", "SBDH_XML",
       "the envelope is a document with a DTD or entity declarations (not accepted)"},
      {"<StandardBusinessDocument ", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><StandardBusinessDocument ",
       "SBDH_ENCODING", "the XML declaration names encoding 'ISO-8859-1'; Peppol envelopes are UTF-8"},
      {"xmlns=\"http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader\"",
       "xmlns=\"http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader2\"", "SBDH_NOT_SBD",
       "the root element 'StandardBusinessDocument' in namespace "
       "'http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader2' is not a StandardBusinessDocument in "
       "the SBDH namespace"},
      {"<HeaderVersion>1.0</HeaderVersion>", "<HeaderVersion>2.0</HeaderVersion>", "SBDH_HEADER_VERSION",
       "HeaderVersion is '2.0', not '1.0'"},
      {"<HeaderVersion>1.0</HeaderVersion>", "", "SBDH_HEADER_VERSION", "the header has no HeaderVersion"},
      {"<Sender>", "<Sender><Identifier Authority=\"a\">x</Identifier></Sender><Sender>", "SBDH_SENDER",
       "the header has 2 Sender elements; Peppol requires exactly one"},
      {"<Sender><Identifier Authority=\"iso6523-actorid-upis\">", "<Sender><Identifier>", "SBDH_SENDER",
       "Sender/Identifier has no Authority attribute"},
      {"0192:923456783", "", "SBDH_SENDER", "Sender/Identifier is empty"},
      {"<Receiver><Identifier Authority=\"iso6523-actorid-upis\">0088:7080000123452</Identifier></Receiver>", "",
       "SBDH_RECEIVER", "the header has 0 Receiver elements; Peppol requires exactly one"},
      {"<Receiver><Identifier Authority=\"iso6523-actorid-upis\">0088:7080000123452</Identifier>",
       "<Receiver><Identifier Authority=\"a\">0088:7080000123452</Identifier><Identifier "
       "Authority=\"a\">y</Identifier>",
       "SBDH_RECEIVER", "Receiver has 2 Identifier elements, not one"},
      {"<Standard>" + std::string(kInvoiceNs) + "</Standard>", "", "SBDH_MISSING_STANDARD",
       "DocumentIdentification has no Standard"},
      {"<TypeVersion>2.1</TypeVersion>", "", "SBDH_MISSING_TYPE_VERSION", "DocumentIdentification has no TypeVersion"},
      {"<InstanceIdentifier>abc-1</InstanceIdentifier>", "<InstanceIdentifier> </InstanceIdentifier>",
       "SBDH_MISSING_INSTANCE_IDENTIFIER", "DocumentIdentification has no InstanceIdentifier"},
      {"<InstanceIdentifier>abc-1</InstanceIdentifier>",
       "<InstanceIdentifier>" + std::string(201, 'a') + "</InstanceIdentifier>", "SBDH_BAD_INSTANCE_IDENTIFIER",
       "InstanceIdentifier is 201 characters long; at most 200 "
       "are allowed"},
      {"<InstanceIdentifier>abc-1</InstanceIdentifier>", "<InstanceIdentifier>abc 1</InstanceIdentifier>",
       "SBDH_BAD_INSTANCE_IDENTIFIER",
       "InstanceIdentifier 'abc 1' holds a character other than printable ASCII (no spaces, controls or non-ASCII)"},
      {"<InstanceIdentifier>abc-1</InstanceIdentifier>", "<InstanceIdentifier>abc-\xC3\xA9</InstanceIdentifier>",
       "SBDH_BAD_INSTANCE_IDENTIFIER",
       "InstanceIdentifier 'abc-\xC3\xA9' holds a character other than printable ASCII (no spaces, controls or "
       "non-ASCII)"},
      {"<Type>Invoice</Type>\n", "", "SBDH_MISSING_TYPE", "DocumentIdentification has no Type"},
      {"<CreationDateAndTime>2024-11-14T09:12:45Z</CreationDateAndTime>", "", "SBDH_CREATION_DATE_AND_TIME",
       "DocumentIdentification has no CreationDateAndTime"},
      {"2024-11-14T09:12:45Z", "2023-02-29T09:12:45Z", "SBDH_CREATION_DATE_AND_TIME",
       "CreationDateAndTime '2023-02-29T09:12:45Z' is not a date and time YYYY-MM-DDThh:mm:ss[.s][zone]"},
      {"2024-11-14T09:12:45Z", "2024-11-14 09:12:45", "SBDH_CREATION_DATE_AND_TIME",
       "CreationDateAndTime '2024-11-14 09:12:45' is not a date and time YYYY-MM-DDThh:mm:ss[.s][zone]"},
      {"<Scope><Type>DOCUMENTID</Type>" + doc_id + "</Scope>", "", "SBDH_MISSING_DOCUMENTID_SCOPE",
       "BusinessScope has no DOCUMENTID scope"},
      {"<Scope><Type>PROCESSID</Type><InstanceIdentifier>p</InstanceIdentifier></Scope>",
       "<Scope><Type>PROCESSID</Type></Scope>", "SBDH_MISSING_PROCESSID_SCOPE",
       "the PROCESSID scope has no InstanceIdentifier"},
      {"<Scope><Type>PROCESSID</Type>",
       "<Scope><Type>DOCUMENTID</Type>" + doc_id + "</Scope><Scope><Type>PROCESSID</Type>", "SBDH_DUPLICATE_SCOPE",
       "BusinessScope has 2 DOCUMENTID scopes"},
      {payload, "", "SBDH_NO_PAYLOAD", "the StandardBusinessDocument holds no business document"},
      {payload, payload + payload, "SBDH_MULTIPLE_PAYLOADS",
       "the StandardBusinessDocument holds 2 elements after the header; exactly one business document is allowed"},
      {payload, "<CreditNote xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2\"/>",
       "SBDH_STANDARD_MISMATCH",
       "Standard 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2' is not the business document's namespace "
       "'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2'"},
      {payload, "<Invoice xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:Invoice-3\"/>", "SBDH_STANDARD_MISMATCH",
       "Standard 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2' is not the business document's namespace "
       "'urn:oasis:names:specification:ubl:schema:xsd:Invoice-3'"},
      // Unprefixed, it is in the envelope's default namespace.
      {payload, "<Invoice/>", "SBDH_STANDARD_MISMATCH",
       "Standard 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2' is not the business document's namespace "
       "'http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader'"},
      {"<Type>Invoice</Type>", "<Type>invoice</Type>", "SBDH_TYPE_MISMATCH",
       "Type 'invoice' is not the business document's name 'Invoice'"},
      {"::Invoice##x::2.1", "::CreditNote##x::2.1", "SBDH_DOCUMENTID_MISMATCH",
       "the DOCUMENTID scope 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::CreditNote##x::2.1' does not "
       "start "
       "with 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##'"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.from);
    CAPTURE(c.to);
    const std::string bytes = replace(minimal_sbd(), c.from, c.to);
    peppol::Sbd sbd;
    sbd.header_version = "untouched";
    const peppol::SbdError e = peppol::parse_sbd(bytes, &sbd);
    CHECK(peppol::code_name(e.code) == c.code);
    CHECK(e.text == c.text);
    CHECK(sbd.header_version == "untouched");  // nothing filled on an error
  }
}

TEST_CASE("peppol SBDH: the header's first child, scopes beyond the limit and the byte bound") {
  peppol::Sbd sbd;
  // Something before the header.
  std::string bytes =
      replace(minimal_sbd(), "<StandardBusinessDocumentHeader>", "<Extra/><StandardBusinessDocumentHeader>");
  peppol::SbdError e = peppol::parse_sbd(bytes, &sbd);
  CHECK(e.code == peppol::SbdCode::MissingHeader);
  CHECK(e.text == "the StandardBusinessDocument does not start with a StandardBusinessDocumentHeader");
  bytes = cut(minimal_sbd(), "<BusinessScope>", "</BusinessScope>");
  e = peppol::parse_sbd(bytes, &sbd);
  CHECK(e.code == peppol::SbdCode::MissingBusinessScope);
  CHECK(e.text == "the header has no BusinessScope");
  bytes = cut(minimal_sbd(), "<DocumentIdentification>", "</DocumentIdentification>");
  e = peppol::parse_sbd(bytes, &sbd);
  CHECK(e.code == peppol::SbdCode::MissingDocumentIdentification);
  CHECK(e.text == "the header has no DocumentIdentification");

  peppol::SbdLimits limits;
  limits.max_scopes = 1;
  e = peppol::parse_sbd(minimal_sbd(), &sbd, limits);
  CHECK(e.code == peppol::SbdCode::TooManyScopes);
  CHECK(e.text == "BusinessScope has more than 1 Scope");
  limits = {};
  limits.xml.max_bytes = 100;
  e = peppol::parse_sbd(minimal_sbd(), &sbd, limits);
  CHECK(e.code == peppol::SbdCode::Xml);
  CHECK(e.text == "the envelope is larger than 100 bytes");
  limits = {};
  limits.xml.max_depth = 2;
  e = peppol::parse_sbd(minimal_sbd(), &sbd, limits);
  CHECK(e.text == "the envelope is nested deeper than 2 elements");
  // The defaults are the documented ones.
  const as4::xml::Bounds b = peppol::SbdLimits{}.xml;
  CHECK(b.max_bytes == size_t{100} << 20);
  CHECK(b.max_text_bytes == size_t{100} << 20);
  CHECK(b.max_depth == 64);
  CHECK(b.max_elements == 2000000);
}

TEST_CASE("peppol SBDH: every truncated prefix of the invoice sample is refused") {
  const std::string bytes = sample("invoice.xml");
  const size_t complete = bytes.rfind('>') + 1;  // the trailing newline is not needed
  for (size_t n = 0; n < complete; ++n) {
    peppol::Sbd sbd;
    const peppol::SbdError e = peppol::parse_sbd(std::string_view(bytes).substr(0, n), &sbd);
    if (!e) FAIL("a prefix of " << n << " bytes was accepted");
  }
  peppol::Sbd sbd;
  CHECK_FALSE(peppol::parse_sbd(std::string_view(bytes).substr(0, complete), &sbd));
}

TEST_CASE("peppol SBDH: payload_bytes and standalone_payload never read outside the input") {
  peppol::Sbd sbd;
  sbd.payload.qualified_name = "Invoice";
  sbd.payload.offset = 5;
  sbd.payload.length = 100;
  CHECK(peppol::payload_bytes("<x/>", sbd).empty());
  CHECK(peppol::standalone_payload("<x/>", sbd).empty());
  sbd.payload.offset = 0;
  sbd.payload.length = 4;
  CHECK(peppol::payload_bytes("<x/>", sbd) == "<x/>");
  CHECK(peppol::standalone_payload("<x/>", sbd).empty());  // not the element the model names
}

// ---- UBL: the samples -------------------------------------------------------

TEST_CASE("UBL invoice sample: every field as written, and no finding") {
  const ubl::Invoice inv = invoice(payload_of("invoice.xml"));
  CHECK(describe(inv) ==
        "invoice\n"
        "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0\n"
        "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0\n"
        "NKR-2024-1187 2024-11-14 due 2024-12-14 type 380\n"
        "note Levering i henhold til bestilling PO-77120.\n"
        "tax point  currency NOK tax currency  buyer ref PROJ-FJORD-12 order PO-77120\n"
        "seller party endpoint=923456783@0192 ids= name=Nordlys Kontorrekvisita address=Storgata 12|Oslo|0155|NO "
        "tax=NO923456783MVA,Foretaksregisteret, legal=yes|Nordlys Kontorrekvisita AS|923456783@0192\n"
        "buyer party endpoint=7080000123452@0088 ids=7080000123452@0088, name=Fjordkjøkken Bergen "
        "address=Bryggen 7|Bergen|5003|NO tax=NO918273646MVA, legal=yes|Fjordkjøkken Bergen AS|918273646@0192\n"
        "delivery yes 2024-11-13 7080000543212@0088 Kjøkkenveien 3\n"
        "payment 30 15032080119\n"
        "terms 30 dager netto\n"
        "ac false|95|Rabatt for samlet bestilling|100.00 NOK|base -|tax S 25\n"
        "ac true|FC|Frakt|150.00 NOK|base -|tax S 25\n"
        "tax total 471.56 NOK\n"
        "  subtotal 1298.00 NOK 324.50 NOK S 25 \n"
        "  subtotal 980.40 NOK 147.06 NOK S 15 \n"
        "totals 2228.40 NOK|2278.40 NOK|2749.96 NOK|100.00 NOK|150.00 NOK|-|0.04 NOK|2750.00 NOK\n"
        "line 1 10 H87 549.00 NOK order line 1 price 54.90 NOK per -\n"
        "  item Kopipapir A4 80 g, 500 ark||buyer |seller PAP-A4-80|standard 7038010000010@0160|tax S 25\n"
        "line 2 4 KGM 680.40 NOK order line 2 price 189.00 NOK per -\n"
        "  item Kaffe hele bønner 1 kg|Kaffe, hele bønner, mellombrent|buyer |seller KAF-HB-1000|standard "
        "7038010000027@0160|tax S 15\n"
        "  ac false|95|Kampanjerabatt 10 %|75.60 NOK|base 756.00 NOK|tax  \n"
        "line 3 2 H87 699.00 NOK order line 3 price 349.50 NOK per -\n"
        "  item Blekkpatron sort 220||buyer |seller INK-BK-220|standard |tax S 25\n"
        "line 4 24 H87 300.00 NOK order line 4 price 75.00 NOK per 6 H87\n"
        "  item Mineralvann 0,5 l||buyer FK-DRIKKE-05|seller |standard |tax S 15\n");
  CHECK(inv.structure.empty());
  CHECK(render(ubl::validate(inv)) == "");
  CHECK_FALSE(ubl::rejects(ubl::validate(inv)));
}

TEST_CASE("UBL credit note sample: read through the inherited namespaces, no finding") {
  const ubl::Invoice cn = invoice(payload_of("credit-note.xml"));
  CHECK(describe(cn) ==
        "credit note\n"
        "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0\n"
        "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0\n"
        "NKR-CN-2024-0042 2024-11-20 due  type 381\n"
        "note Kreditering av returnert blekkpatron.\n"
        "tax point  currency NOK tax currency  buyer ref PROJ-FJORD-12 order \n"
        "billing NKR-2024-1187 2024-11-14\n"
        "seller party endpoint=923456783@0192 ids= name=Nordlys Kontorrekvisita address=Storgata 12|Oslo|0155|NO "
        "tax=NO923456783MVA, legal=yes|Nordlys Kontorrekvisita AS|923456783@0192\n"
        "buyer party endpoint=7080000123452@0088 ids=7080000123452@0088, name=Fjordkjøkken Bergen "
        "address=Bryggen 7|Bergen|5003|NO tax= legal=yes|Fjordkjøkken Bergen AS|918273646@0192\n"
        "delivery no   \n"
        "terms Motregnes mot neste faktura\n"
        "tax total 87.38 NOK\n"
        "  subtotal 349.50 NOK 87.38 NOK S 25 \n"
        "totals 349.50 NOK|349.50 NOK|436.88 NOK|-|-|-|-|436.88 NOK\n"
        "line 1 1 H87 349.50 NOK order line  price 349.50 NOK per -\n"
        "  item Blekkpatron sort 220||buyer |seller INK-BK-220|standard |tax S 25\n");
  // 349.50 x 25 % = 87.375: rounded half up to 87.38 (BR-CO-17 as the rules round).
  CHECK(render(ubl::validate(cn)) == "");
}

TEST_CASE("UBL despatch advice sample: every field, no finding") {
  const ubl::DespatchAdvice da = despatch(payload_of("despatch-advice.xml"));
  CHECK(describe(da) ==
        "urn:fdc:peppol.eu:poacc:trns:despatch_advice:3\n"
        "urn:fdc:peppol.eu:poacc:bis:despatch_advice:3\n"
        "DA-2024-5531 2024-11-12 15:30:00 order PO-77120\n"
        "note Kaffe: 2 kg restordre, leveres uke 48.\n"
        "supplier party endpoint=923456783@0192 ids= name=Nordlys Kontorrekvisita "
        "address=Lagerveien 40|Lillestrøm|2000|NO tax= legal=yes|Nordlys Kontorrekvisita AS|\n"
        "customer party endpoint=7080000123452@0088 ids=7080000543212@0088, name=Fjordkjøkken Bergen, varemottak "
        "address=Kjøkkenveien 3|Bergen|5011|NO tax= legal=yes|Fjordkjøkken Bergen AS|\n"
        "shipment yes SHP-88213 18.5 KGM carrier Bring Cargo AS tracking 70730259304981234 delivered  "
        "EstimatedDeliveryPeriod 2024-11-13..2024-11-13 address  despatched 2024-11-12 14:05:00\n"
        "line 1 10 H87 outstanding -  order ref PO-77120/1\n"
        "  item Kopipapir A4 80 g, 500 ark||buyer |seller PAP-A4-80|standard 7038010000010@0160|tax  \n"
        "line 2 4 KGM outstanding 2 KGM Restordre, leveres uke 48 order ref PO-77120/2\n"
        "  item Kaffe hele bønner 1 kg||buyer |seller KAF-HB-1000|standard 7038010000027@0160|tax  \n"
        "line 3 2 H87 outstanding -  order ref PO-77120/3\n"
        "  item Blekkpatron sort 220||buyer |seller INK-BK-220|standard |tax  \n");
  CHECK(render(ubl::validate(da)) == "");
}

TEST_CASE("UBL broken samples: each gives the finding samples/peppol/README.md names") {
  CHECK(invoice_findings(payload_of("broken-totals.xml")) ==
        "BR-CO-15 /Invoice/cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount: total with VAT '2759.96' is not total "
        "without VAT + VAT total = 2749.96\n");
  CHECK(invoice_findings(payload_of("broken-missing-id.xml")) ==
        "BR-02 /Invoice/cbc:ID: the invoice has no number (cbc:ID)\n");
  // The currency typo: the document's code, then each of the 24 amounts' currencyID.
  const std::vector<ubl::Finding> currency = ubl::validate(invoice(payload_of("broken-currency.xml")));
  REQUIRE(currency.size() == 25);
  CHECK(render({currency[0]}) ==
        "BR-CL-04 /Invoice/cbc:DocumentCurrencyCode: currency 'NKR' is not an ISO 4217 code\n");
  for (size_t i = 1; i < currency.size(); ++i) {
    CAPTURE(currency[i].path);
    CHECK(currency[i].rule == "BR-CL-03");
    CHECK(currency[i].text == "currencyID 'NKR' is not an ISO 4217 code");
  }
  CHECK(currency[1].path == "/Invoice/cac:AllowanceCharge[1]/cbc:Amount");
  CHECK(currency[24].path == "/Invoice/cac:InvoiceLine[4]/cac:Price/cbc:PriceAmount");
  // The envelope's header names an Invoice; the payload is a credit note.
  const std::string mismatch = sample("broken-sbdh-mismatch.xml");
  peppol::Sbd sbd;
  const peppol::SbdError e = peppol::parse_sbd(mismatch, &sbd);
  CHECK(peppol::code_name(e.code) == "SBDH_STANDARD_MISMATCH");
  CHECK(e.text ==
        "Standard 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2' is not the business document's namespace "
        "'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2'");
}

// ---- UBL: each rule on its own ----------------------------------------------

namespace {

using Edit = std::function<std::string(std::string)>;

struct RuleCase {
  const char* name;
  Edit edit;
  std::string expected;  // render()'s lines, "" for none
};

Edit rep(const std::string& from, const std::string& to, int nth = 0) {
  return [=](std::string s) { return replace(std::move(s), from, to, nth); };
}
Edit del(const std::string& element, int nth = 0) { return rep(element, "", nth); }
Edit cut_element(const std::string& open, const std::string& close, int nth = 1) {
  return [=](std::string s) { return cut(std::move(s), open, close, nth); };
}
Edit both(const Edit& a, const Edit& b) {
  return [=](std::string s) { return b(a(std::move(s))); };
}
// Removes everything from the first `first` to the end of the last `last`.
Edit cut_span(const std::string& first, const std::string& last) {
  return [=](std::string s) {
    const size_t from = s.find(first), to = s.rfind(last);
    REQUIRE(from != std::string::npos);
    REQUIRE(to != std::string::npos);
    return s.erase(from, to + last.size() - from);
  };
}

const std::string P = "/Invoice";
const std::string LMT = "/Invoice/cac:LegalMonetaryTotal";
const std::string SELLER = "/Invoice/cac:AccountingSupplierParty/cac:Party";
const std::string BUYER = "/Invoice/cac:AccountingCustomerParty/cac:Party";
const std::string TT = "/Invoice/cac:TaxTotal[1]";
std::string L(int n) { return "/Invoice/cac:InvoiceLine[" + std::to_string(n) + "]"; }
std::string AC(int n) { return "/Invoice/cac:AllowanceCharge[" + std::to_string(n) + "]"; }
std::string ST(int n) { return TT + "/cac:TaxSubtotal[" + std::to_string(n) + "]"; }
const std::string kR120 = " is not quantity x price / base quantity + charges - allowances (within 0.02)\n";
const std::string kNotDecimal = " is not a decimal number (at most 18 significant digits)\n";

void run(const std::string& base, const std::vector<RuleCase>& cases, bool despatch_advice) {
  for (const RuleCase& c : cases) {
    CAPTURE(c.name);
    const std::string xml = c.edit(base);
    CHECK((despatch_advice ? despatch_findings(xml) : invoice_findings(xml)) == c.expected);
  }
}

}  // namespace

TEST_CASE("UBL invoice rules: document level, each on its own") {
  const std::string customization =
      "<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</"
      "cbc:CustomizationID>";
  const std::string profile = "<cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>";
  const std::string currency = "<cbc:DocumentCurrencyCode>NOK</cbc:DocumentCurrencyCode>";
  const std::string tax_total_eur =
      "<cac:TaxTotal><cbc:TaxAmount currencyID=\"EUR\">40.12</cbc:TaxAmount></cac:TaxTotal><cac:LegalMonetaryTotal>";
  const std::string billing = "</cac:OrderReference><cac:BillingReference><cac:InvoiceDocumentReference>";
  const std::vector<RuleCase> cases = {
      {"BR-01", del(customization),
       "BR-01 /Invoice/cbc:CustomizationID: the invoice has no specification identifier (cbc:CustomizationID)\n"},
      {"R004", rep(customization, "<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>"),
       "PEPPOL-EN16931-R004 /Invoice/cbc:CustomizationID: specification identifier 'urn:cen.eu:en16931:2017' is not "
       "Peppol BIS Billing 3.0's\n"},
      {"R004 accepts an extension of the identifier",
       rep("billing:3.0</cbc:CustomizationID>", "billing:3.0#conformant#urn:example:x</cbc:CustomizationID>"), ""},
      {"R001", del(profile),
       "PEPPOL-EN16931-R001 /Invoice/cbc:ProfileID: the invoice has no business process (cbc:ProfileID)\n"},
      {"R007", rep("billing:01:1.0</cbc:ProfileID>", "billing:1:1.0</cbc:ProfileID>"),
       "PEPPOL-EN16931-R007 /Invoice/cbc:ProfileID: business process 'urn:fdc:peppol.eu:2017:poacc:billing:1:1.0' is "
       "not urn:fdc:peppol.eu:2017:poacc:billing:NN:1.0\n"},
      {"BR-02", del("<cbc:ID>NKR-2024-1187</cbc:ID>"), "BR-02 /Invoice/cbc:ID: the invoice has no number (cbc:ID)\n"},
      {"BR-03", del("<cbc:IssueDate>2024-11-14</cbc:IssueDate>"),
       "BR-03 /Invoice/cbc:IssueDate: the invoice has no issue date (cbc:IssueDate)\n"},
      {"F001 issue date", rep("2024-11-14</cbc:IssueDate>", "2024-02-30</cbc:IssueDate>"),
       "PEPPOL-EN16931-F001 /Invoice/cbc:IssueDate: issue date '2024-02-30' is not a date YYYY-MM-DD\n"},
      {"F001 due date", rep("2024-12-14", "14.12.2024"),
       "PEPPOL-EN16931-F001 /Invoice/cbc:DueDate: due date '14.12.2024' is not a date YYYY-MM-DD\n"},
      {"F001 VAT point date", rep(currency, "<cbc:TaxPointDate>2024-1-1</cbc:TaxPointDate>" + currency),
       "PEPPOL-EN16931-F001 /Invoice/cbc:TaxPointDate: VAT point date '2024-1-1' is not a date YYYY-MM-DD\n"},
      {"F001 delivery date", rep("2024-11-13</cbc:ActualDeliveryDate>", "2024-11-13Z</cbc:ActualDeliveryDate>"),
       "PEPPOL-EN16931-F001 /Invoice/cac:Delivery/cbc:ActualDeliveryDate: delivery date '2024-11-13Z' is not a date "
       "YYYY-MM-DD\n"},
      {"BR-04", del("<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>"),
       "BR-04 /Invoice/cbc:InvoiceTypeCode: the invoice has no type code\n"},
      {"BR-CL-01", rep(">380<", ">999<"),
       "BR-CL-01 /Invoice/cbc:InvoiceTypeCode: type code '999' is not a UNCL1001 invoice code\n"},
      {"P0100 in process 01", rep(">380<", ">130<"),
       "PEPPOL-EN16931-P0100 /Invoice/cbc:InvoiceTypeCode: invoice type code '130' is not allowed in process 01\n"},
      {"P0100 only in process 01",
       both(rep(">380<", ">130<"), rep("billing:01:1.0</cbc:ProfileID>", "billing:02:1.0</cbc:ProfileID>")), ""},
      // 326 (partial) and 384 (corrected) are in Peppol's list, for German parties only (P0112).
      {"P0112: 326 between Norwegian parties", rep(">380<", ">326<"),
       "PEPPOL-EN16931-P0112 /Invoice/cbc:InvoiceTypeCode: invoice type code '326' is allowed only when the seller "
       "and the buyer are in DE\n"},
      {"384 between German parties (the seller's and the buyer's addresses)",
       both(rep(">380<", ">384<"), both(rep(">NO</cbc:IdentificationCode>", ">DE</cbc:IdentificationCode>", 1),
                                        rep(">NO</cbc:IdentificationCode>", ">DE</cbc:IdentificationCode>", 1))),
       ""},
      // An element written empty is PEPPOL-EN16931-R008, not "missing".
      {"R008, not R001: an empty ProfileID", rep(profile, "<cbc:ProfileID/>"),
       "PEPPOL-EN16931-R008 /Invoice/cbc:ProfileID: the element is empty; a Peppol document has no empty elements\n"},
      {"R008 on an element edihub does not read",
       rep(currency, currency + "<cbc:AccountingCost> </cbc:AccountingCost>"),
       "PEPPOL-EN16931-R008 /Invoice/cbc:AccountingCost: the element is empty; a Peppol document has no empty "
       "elements\n"},
      {"BR-05", del(currency),
       "BR-05 /Invoice/cbc:DocumentCurrencyCode: the invoice has no currency (cbc:DocumentCurrencyCode)\n"},
      {"R005 and R054: the VAT currency is the document's",
       rep(currency, currency + "<cbc:TaxCurrencyCode>NOK</cbc:TaxCurrencyCode>"),
       "PEPPOL-EN16931-R005 /Invoice/cbc:TaxCurrencyCode: the VAT accounting currency is the document currency; leave "
       "it out\n"
       "PEPPOL-EN16931-R054 /Invoice/cac:TaxTotal: the invoice has 0 cac:TaxTotal without a VAT breakdown, not 1 (the "
       "total in the VAT accounting currency)\n"},
      {"a VAT accounting currency with its total",
       both(rep(currency, currency + "<cbc:TaxCurrencyCode>EUR</cbc:TaxCurrencyCode>"),
            rep("<cac:LegalMonetaryTotal>", tax_total_eur)),
       ""},
      {"BR-53 and R054: a VAT accounting currency without its total",
       rep(currency, currency + "<cbc:TaxCurrencyCode>EUR</cbc:TaxCurrencyCode>"),
       "PEPPOL-EN16931-R054 /Invoice/cac:TaxTotal: the invoice has 0 cac:TaxTotal without a VAT breakdown, not 1 (the "
       "total in the VAT accounting currency)\n"
       "BR-53 /Invoice/cac:TaxTotal/cbc:TaxAmount: no VAT total in the VAT accounting currency 'EUR'\n"},
      {"BR-CL-05",
       both(rep(currency, currency + "<cbc:TaxCurrencyCode>XYZ</cbc:TaxCurrencyCode>"),
            rep("<cac:LegalMonetaryTotal>", replace(tax_total_eur, "EUR", "XYZ"))),
       "BR-CL-05 /Invoice/cbc:TaxCurrencyCode: VAT accounting currency 'XYZ' is not an ISO 4217 code\n"
       "BR-CL-03 /Invoice/cac:TaxTotal[2]/cbc:TaxAmount: currencyID 'XYZ' is not an ISO 4217 code\n"},
      {"R003",
       both(del("<cbc:BuyerReference>PROJ-FJORD-12</cbc:BuyerReference>"),
            cut_element("<cac:OrderReference>", "</cac:OrderReference>")),
       "PEPPOL-EN16931-R003 /Invoice/cbc:BuyerReference: the invoice has neither a buyer reference nor an order "
       "reference\n"},
      {"BR-55",
       rep("</cac:OrderReference>", billing + "<cbc:IssueDate>2024-10-01</cbc:IssueDate>" +
                                        "</cac:InvoiceDocumentReference></cac:BillingReference>"),
       "BR-55 /Invoice/cac:BillingReference[1]/cac:InvoiceDocumentReference/cbc:ID: a preceding invoice reference has "
       "no "
       "invoice number\n"},
      {"F001 preceding invoice date",
       rep("</cac:OrderReference>", billing + "<cbc:ID>A-1</cbc:ID>" + "<cbc:IssueDate>2024-10-32</cbc:IssueDate>" +
                                        "</cac:InvoiceDocumentReference></cac:BillingReference>"),
       "PEPPOL-EN16931-F001 /Invoice/cac:BillingReference[1]/cac:InvoiceDocumentReference/cbc:IssueDate: preceding "
       "invoice date '2024-10-32' is not a date YYYY-MM-DD\n"},
      {"EDIHUB-UBL-REPEATED", rep("<cbc:ID>NKR-2024-1187</cbc:ID>", "<cbc:ID>NKR-2024-1187</cbc:ID><cbc:ID>X</cbc:ID>"),
       "EDIHUB-UBL-REPEATED /Invoice/cbc:ID: cbc:ID appears 2 times; UBL 2.1 allows it once here\n"},
  };
  run(payload_of("invoice.xml"), cases, false);

  // BR-CL-04: a currency code that is none, the document's and every amount's (each a BR-CL-03).
  std::string lower =
      replace(payload_of("invoice.xml"), currency, "<cbc:DocumentCurrencyCode>nok</cbc:DocumentCurrencyCode>");
  for (size_t at; (at = lower.find("currencyID=\"NOK\"")) != std::string::npos;)
    lower.replace(at, 16, "currencyID=\"nok\"");
  const std::vector<ubl::Finding> findings = ubl::validate(invoice(lower));
  REQUIRE(findings.size() == 25);
  CHECK(render({findings[0]}) ==
        "BR-CL-04 /Invoice/cbc:DocumentCurrencyCode: currency 'nok' is not an ISO 4217 code\n");
  for (size_t i = 1; i < findings.size(); ++i) CHECK(findings[i].rule == "BR-CL-03");
}

TEST_CASE("UBL invoice rules: parties and payment, each on its own") {
  const std::string seller_endpoint = "<cbc:EndpointID schemeID=\"0192\">923456783</cbc:EndpointID>";
  const std::string buyer_endpoint = "<cbc:EndpointID schemeID=\"0088\">7080000123452</cbc:EndpointID>";
  const std::vector<RuleCase> cases = {
      {"BR-06", del("<cbc:RegistrationName>Nordlys Kontorrekvisita AS</cbc:RegistrationName>"),
       "BR-06 " + SELLER +
           "/cac:PartyLegalEntity/cbc:RegistrationName: the seller's name (cac:PartyLegalEntity/cbc:RegistrationName) "
           "is "
           "missing\n"},
      {"BR-08", cut_element("<cac:PostalAddress>", "</cac:PostalAddress>"),
       "BR-08 " + SELLER + "/cac:PostalAddress: the seller has no postal address\n"},
      {"BR-09", cut_element("<cac:Country>", "</cac:Country>"),
       "BR-09 " + SELLER +
           "/cac:PostalAddress/cac:Country/cbc:IdentificationCode: the seller's postal address has no country code\n"},
      {"R020", del(seller_endpoint),
       "PEPPOL-EN16931-R020 " + SELLER + "/cbc:EndpointID: the seller has no electronic address (cbc:EndpointID)\n"},
      {"BR-CO-26",
       both(both(cut_element("<cac:PartyTaxScheme>", "</cac:PartyTaxScheme>"),
                 cut_element("<cac:PartyTaxScheme>", "</cac:PartyTaxScheme>")),
            del("<cbc:CompanyID schemeID=\"0192\">923456783</cbc:CompanyID>")),
       "BR-CO-26 " + SELLER +
           "/cac:PartyIdentification/cbc:ID: the seller has no identifier, legal registration identifier or VAT "
           "identifier\n"},
      {"BR-07", del("<cbc:RegistrationName>Fjordkjøkken Bergen AS</cbc:RegistrationName>"),
       "BR-07 " + BUYER +
           "/cac:PartyLegalEntity/cbc:RegistrationName: the buyer's name (cac:PartyLegalEntity/cbc:RegistrationName) "
           "is "
           "missing\n"},
      {"BR-10", cut_element("<cac:PostalAddress>", "</cac:PostalAddress>", 2),
       "BR-10 " + BUYER + "/cac:PostalAddress: the buyer has no postal address\n"},
      {"BR-11", cut_element("<cac:Country>", "</cac:Country>", 2),
       "BR-11 " + BUYER +
           "/cac:PostalAddress/cac:Country/cbc:IdentificationCode: the buyer's postal address has no country code\n"},
      {"R010", del(buyer_endpoint),
       "PEPPOL-EN16931-R010 " + BUYER + "/cbc:EndpointID: the buyer has no electronic address (cbc:EndpointID)\n"},
      {"no buyer at all", cut_element("<cac:AccountingCustomerParty>", "</cac:AccountingCustomerParty>"),
       "BR-07 " + BUYER +
           "/cac:PartyLegalEntity/cbc:RegistrationName: the buyer's name (cac:PartyLegalEntity/cbc:RegistrationName) "
           "is "
           "missing\n"
           "BR-10 " +
           BUYER + "/cac:PostalAddress: the buyer has no postal address\n"},
      {"COMMON-R040", rep(buyer_endpoint, "<cbc:EndpointID schemeID=\"0088\">7080000123453</cbc:EndpointID>"),
       "PEPPOL-COMMON-R040 " + BUYER + "/cbc:EndpointID: GLN '7080000123453' has no valid GS1 check digit\n"},
      {"COMMON-R040 on a party identifier",
       rep("<cbc:ID schemeID=\"0088\">7080000123452</cbc:ID>", "<cbc:ID schemeID=\"0088\">708000012345A</cbc:ID>"),
       "PEPPOL-COMMON-R040 " + BUYER +
           "/cac:PartyIdentification[1]/cbc:ID: GLN '708000012345A' has no valid GS1 check digit\n"},
      {"COMMON-R041",
       rep("<cbc:CompanyID schemeID=\"0192\">923456783</cbc:CompanyID>",
           "<cbc:CompanyID schemeID=\"0192\">923456784</cbc:CompanyID>"),
       "PEPPOL-COMMON-R041 " + SELLER +
           "/cac:PartyLegalEntity/cbc:CompanyID: Norwegian organisation number '923456784' is not nine digits modulus "
           "11\n"},
      {"BR-49", del("<cbc:PaymentMeansCode>30</cbc:PaymentMeansCode>"),
       "BR-49 /Invoice/cac:PaymentMeans[1]/cbc:PaymentMeansCode: payment instructions without a payment means code\n"},
      {"BR-61", cut_element("<cac:PayeeFinancialAccount>", "</cac:PayeeFinancialAccount>"),
       "BR-61 /Invoice/cac:PaymentMeans[1]/cac:PayeeFinancialAccount/cbc:ID: credit transfer (code 30) without the "
       "payee's account\n"},
      {"BR-61 is for credit transfers only",
       both(cut_element("<cac:PayeeFinancialAccount>", "</cac:PayeeFinancialAccount>"),
            rep(">30</cbc:PaymentMeansCode>", ">10</cbc:PaymentMeansCode>")),
       ""},
  };
  run(payload_of("invoice.xml"), cases, false);
}

TEST_CASE("UBL invoice rules: lines, each on its own") {
  const std::string line1_amount = "<cbc:LineExtensionAmount currencyID=\"NOK\">549.00</cbc:LineExtensionAmount>";
  const std::string line3_amount = "<cbc:LineExtensionAmount currencyID=\"NOK\">699.00</cbc:LineExtensionAmount>";
  const std::string quantity1 = "<cbc:InvoicedQuantity unitCode=\"H87\">10</cbc:InvoicedQuantity>";
  const std::string price1 = "<cbc:PriceAmount currencyID=\"NOK\">54.90</cbc:PriceAmount>";
  const std::string base4 = "<cbc:BaseQuantity unitCode=\"H87\">6</cbc:BaseQuantity>";
  const std::string line_allowance = "<cbc:Amount currencyID=\"NOK\">75.60</cbc:Amount>";
  const Edit line_charge =
      rep("<cbc:ChargeIndicator>false</cbc:ChargeIndicator>", "<cbc:ChargeIndicator>true</cbc:ChargeIndicator>", 2);
  const Edit no_line_reasons = both(del("<cbc:AllowanceChargeReasonCode>95</cbc:AllowanceChargeReasonCode>", 2),
                                    del("<cbc:AllowanceChargeReason>Kampanjerabatt 10 %</cbc:AllowanceChargeReason>"));
  const std::vector<RuleCase> cases = {
      {"BR-16 (and BR-CO-10)", cut_span("<cac:InvoiceLine>", "</cac:InvoiceLine>"),
       "BR-16 /Invoice/cac:InvoiceLine: the invoice has no lines\n"
       "BR-CO-10 " +
           LMT + "/cbc:LineExtensionAmount: sum of line net amounts '2228.40' is not the sum of the lines = 0.00\n"},
      {"BR-21", del("<cbc:ID>1</cbc:ID>"), "BR-21 " + L(1) + "/cbc:ID: the line has no identifier\n"},
      {"BR-22", del(quantity1), "BR-22 " + L(1) + "/cbc:InvoicedQuantity: the line has no quantity\n"},
      {"BR-23", rep(quantity1, "<cbc:InvoicedQuantity>10</cbc:InvoicedQuantity>"),
       "BR-23 " + L(1) + "/cbc:InvoicedQuantity: the line's quantity has no unit code\n"},
      {"BR-CL-23", rep(quantity1, "<cbc:InvoicedQuantity unitCode=\"h87\">10</cbc:InvoicedQuantity>"),
       "BR-CL-23 " + L(1) + "/cbc:InvoicedQuantity: unit code 'h87' is not a UN/ECE Recommendation 20/21 code\n"},
      {"a well-formed unit code edihub does not list: a warning",
       rep(quantity1, "<cbc:InvoicedQuantity unitCode=\"D61\">10</cbc:InvoicedQuantity>"),
       "EDIHUB-UBL-UNIT-UNLISTED " + L(1) +
           "/cbc:InvoicedQuantity: unit code 'D61' is not among the common Recommendation 20/21 codes edihub lists "
           "[warning]\n"},
      {"a quantity that is no number",
       rep(quantity1, "<cbc:InvoicedQuantity unitCode=\"H87\">ten</cbc:InvoicedQuantity>"),
       "EDIHUB-UBL-DECIMAL " + L(1) + "/cbc:InvoicedQuantity: quantity 'ten'" + kNotDecimal},
      {"BR-24", del(line1_amount), "BR-24 " + L(1) + "/cbc:LineExtensionAmount: the line has no net amount\n"},
      {"BR-DEC-23 counts the digits written", rep(line1_amount, replace(line1_amount, "549.00", "549.000")),
       "BR-DEC-23 " + L(1) + "/cbc:LineExtensionAmount: line net amount '549.000' has more than two decimals\n"},
      {"an amount that is no number", rep(line1_amount, replace(line1_amount, "549.00", "549,00")),
       "EDIHUB-UBL-DECIMAL " + L(1) + "/cbc:LineExtensionAmount: line net amount '549,00'" + kNotDecimal},
      {"an amount beyond 64-bit cents", rep(line1_amount, replace(line1_amount, "549.00", "999999999999999999")),
       "EDIHUB-UBL-RANGE " + L(1) +
           "/cbc:LineExtensionAmount: line net amount '999999999999999999' is too large to compute with\n"},
      {"line amounts whose sum overflows",
       both(rep(line1_amount, replace(line1_amount, "549.00", "90000000000000000.00")),
            rep(line3_amount, replace(line3_amount, "699.00", "90000000000000000.00"))),
       "PEPPOL-EN16931-R120 " + L(1) + "/cbc:LineExtensionAmount: line net amount '90000000000000000.00'" + kR120 +
           "PEPPOL-EN16931-R120 " + L(3) + "/cbc:LineExtensionAmount: line net amount '90000000000000000.00'" + kR120 +
           "EDIHUB-UBL-RANGE " + LMT +
           "/cbc:LineExtensionAmount: sum of line net amounts cannot be checked: the sum of the lines is too large to "
           "compute\n"},
      {"BR-25", del("<cbc:Name>Kopipapir A4 80 g, 500 ark</cbc:Name>"),
       "BR-25 " + L(1) + "/cac:Item/cbc:Name: the line's item has no name\n"},
      {"BR-CO-04", del("<cbc:ID>S</cbc:ID>", 5),
       "BR-CO-04 " + L(1) + "/cac:Item/cac:ClassifiedTaxCategory/cbc:ID: the line's item has no VAT category\n"},
      {"BR-CL-18", rep("<cbc:ID>S</cbc:ID>", "<cbc:ID>X</cbc:ID>", 5),
       "BR-CL-18 " + L(1) + "/cac:Item/cac:ClassifiedTaxCategory/cbc:ID: VAT category 'X' is not a UNCL5305 code\n"},
      {"a VAT rate that is no number", rep("<cbc:Percent>25</cbc:Percent>", "<cbc:Percent>25%</cbc:Percent>", 4),
       "EDIHUB-UBL-DECIMAL " + L(1) + "/cac:Item/cac:ClassifiedTaxCategory/cbc:Percent: VAT rate '25%'" + kNotDecimal},
      {"BR-26", cut_element("<cac:Price>", "</cac:Price>"),
       "BR-26 " + L(1) + "/cac:Price/cbc:PriceAmount: the line has no item net price (cac:Price/cbc:PriceAmount)\n"},
      {"BR-27 (and R120)", rep(price1, replace(price1, "54.90", "-54.90")),
       "BR-27 " + L(1) + "/cac:Price/cbc:PriceAmount: item net price '-54.90' is negative\n" + "PEPPOL-EN16931-R120 " +
           L(1) + "/cbc:LineExtensionAmount: line net amount '549.00'" + kR120},
      {"R121", rep(base4, replace(base4, ">6<", ">0<")),
       "PEPPOL-EN16931-R121 " + L(4) + "/cac:Price/cbc:BaseQuantity: base quantity '0' is not above zero\n"},
      {"R130", rep(base4, replace(base4, "H87", "C62")),
       "PEPPOL-EN16931-R130 " + L(4) +
           "/cac:Price/cbc:BaseQuantity: base quantity unit 'C62' is not the quantity's "
           "'H87'\n"},
      {"R120", rep(quantity1, replace(quantity1, ">10<", ">11<")),
       "PEPPOL-EN16931-R120 " + L(1) + "/cbc:LineExtensionAmount: line net amount '549.00'" + kR120},
      {"R120 allows 0.02", rep(price1, replace(price1, "54.90", "54.902")), ""},
      {"R120 not 0.03", rep(price1, replace(price1, "54.90", "54.903")),
       "PEPPOL-EN16931-R120 " + L(1) + "/cbc:LineExtensionAmount: line net amount '549.00'" + kR120},
      {"R120 with the base quantity", rep(base4, replace(base4, ">6<", ">5<")),
       "PEPPOL-EN16931-R120 " + L(4) + "/cbc:LineExtensionAmount: line net amount '300.00'" + kR120},
      {"R043 on a line",
       rep("<cbc:ChargeIndicator>false</cbc:ChargeIndicator>", "<cbc:ChargeIndicator>False</cbc:ChargeIndicator>", 2),
       "PEPPOL-EN16931-R043 " + L(2) +
           "/cac:AllowanceCharge[1]/cbc:ChargeIndicator: charge indicator 'False' is neither 'true' nor 'false'\n"},
      {"BR-41", del(line_allowance),
       "BR-41 " + L(2) + "/cac:AllowanceCharge[1]/cbc:Amount: the allowance has no amount\n"},
      {"BR-42", no_line_reasons,
       "BR-42 " + L(2) +
           "/cac:AllowanceCharge[1]/cbc:AllowanceChargeReason: the allowance has neither a reason nor a reason code\n"},
      {"BR-DEC-24", rep(line_allowance, replace(line_allowance, "75.60", "75.600")),
       "BR-DEC-24 " + L(2) +
           "/cac:AllowanceCharge[1]/cbc:Amount: allowance amount '75.600' has more than two decimals\n"},
      {"a line charge counts in R120", line_charge,
       "PEPPOL-EN16931-R120 " + L(2) + "/cbc:LineExtensionAmount: line net amount '680.40'" + kR120},
      {"BR-43", both(line_charge, del(line_allowance)),
       "BR-43 " + L(2) + "/cac:AllowanceCharge[1]/cbc:Amount: the charge has no amount\n"},
      {"BR-44", both(line_charge, no_line_reasons),
       "BR-44 " + L(2) +
           "/cac:AllowanceCharge[1]/cbc:AllowanceChargeReason: the charge has neither a reason nor a reason code\n" +
           "PEPPOL-EN16931-R120 " + L(2) + "/cbc:LineExtensionAmount: line net amount '680.40'" + kR120},
      {"BR-DEC-27", both(line_charge, rep(line_allowance, replace(line_allowance, "75.60", "75.601"))),
       "BR-DEC-27 " + L(2) + "/cac:AllowanceCharge[1]/cbc:Amount: charge amount '75.601' has more than two decimals\n"},
  };
  run(payload_of("invoice.xml"), cases, false);
}

TEST_CASE("UBL invoice rules: document allowances and charges, VAT, totals and currencies, each on its own") {
  const std::string allowance = "<cbc:Amount currencyID=\"NOK\">100.00</cbc:Amount>";
  const std::string charge = "<cbc:Amount currencyID=\"NOK\">150.00</cbc:Amount>";
  const std::string vat_total = "<cbc:TaxAmount currencyID=\"NOK\">471.56</cbc:TaxAmount>";
  const std::string taxable1 = "<cbc:TaxableAmount currencyID=\"NOK\">1298.00</cbc:TaxableAmount>";
  const std::string vat1 = "<cbc:TaxAmount currencyID=\"NOK\">324.50</cbc:TaxAmount>";
  const std::string price1 = "<cbc:PriceAmount currencyID=\"NOK\">54.90</cbc:PriceAmount>";
  auto total = [](const char* name, const char* value) {
    return std::string("<cbc:") + name + " currencyID=\"NOK\">" + value + "</cbc:" + name + ">";
  };
  const Edit copy_tax_total = [](std::string s) {
    const size_t from = s.find("<cac:TaxTotal>"), to = s.find("</cac:TaxTotal>") + 15;
    return s.insert(to, s.substr(from, to - from));
  };
  const std::string incl = "total with VAT '2749.96' is not total without VAT + VAT total = ";
  const std::vector<RuleCase> cases = {
      {"R043 on the document",
       rep("<cbc:ChargeIndicator>false</cbc:ChargeIndicator>", "<cbc:ChargeIndicator>yes</cbc:ChargeIndicator>", 1),
       "PEPPOL-EN16931-R043 " + AC(1) + "/cbc:ChargeIndicator: charge indicator 'yes' is neither 'true' nor 'false'\n"},
      {"BR-31", del(allowance), "BR-31 " + AC(1) + "/cbc:Amount: the allowance has no amount\n"},
      {"BR-32", del("<cbc:ID>S</cbc:ID>", 1),
       "BR-32 " + AC(1) + "/cac:TaxCategory/cbc:ID: the allowance has no VAT category\n"},
      {"BR-CL-17 on an allowance", rep("<cbc:ID>S</cbc:ID>", "<cbc:ID>Q</cbc:ID>", 1),
       "BR-CL-17 " + AC(1) + "/cac:TaxCategory/cbc:ID: VAT category 'Q' is not a UNCL5305 code\n"},
      {"BR-33",
       both(del("<cbc:AllowanceChargeReasonCode>95</cbc:AllowanceChargeReasonCode>", 1),
            del("<cbc:AllowanceChargeReason>Rabatt for samlet bestilling</cbc:AllowanceChargeReason>")),
       "BR-33 " + AC(1) + "/cbc:AllowanceChargeReason: the allowance has neither a reason nor a reason code\n"},
      {"a reason code alone is enough",
       del("<cbc:AllowanceChargeReason>Rabatt for samlet bestilling</cbc:AllowanceChargeReason>"), ""},
      {"BR-DEC-01", rep(allowance, replace(allowance, "100.00", "100.001")),
       "BR-DEC-01 " + AC(1) + "/cbc:Amount: allowance amount '100.001' has more than two decimals\n"},
      {"BR-36", del(charge), "BR-36 " + AC(2) + "/cbc:Amount: the charge has no amount\n"},
      {"BR-37", del("<cbc:ID>S</cbc:ID>", 2),
       "BR-37 " + AC(2) + "/cac:TaxCategory/cbc:ID: the charge has no VAT category\n"},
      {"BR-38",
       both(del("<cbc:AllowanceChargeReasonCode>FC</cbc:AllowanceChargeReasonCode>"),
            del("<cbc:AllowanceChargeReason>Frakt</cbc:AllowanceChargeReason>")),
       "BR-38 " + AC(2) + "/cbc:AllowanceChargeReason: the charge has neither a reason nor a reason code\n"},
      {"BR-DEC-05", rep(charge, replace(charge, "150.00", "150.000")),
       "BR-DEC-05 " + AC(2) + "/cbc:Amount: charge amount '150.000' has more than two decimals\n"},
      {"BR-CO-11 (and BR-CO-13)", rep(total("AllowanceTotalAmount", "100.00"), total("AllowanceTotalAmount", "90.00")),
       "BR-CO-11 " + LMT +
           "/cbc:AllowanceTotalAmount: sum of allowances '90.00' is not the sum of the document "
           "allowances = 100.00\n"
           "BR-CO-13 " +
           LMT +
           "/cbc:TaxExclusiveAmount: total without VAT '2278.40' is not line net amounts - allowances + charges = "
           "2288.40\n"},
      {"BR-CO-12 (and BR-CO-13)", rep(total("ChargeTotalAmount", "150.00"), total("ChargeTotalAmount", "140.00")),
       "BR-CO-12 " + LMT +
           "/cbc:ChargeTotalAmount: sum of charges '140.00' is not the sum of the document charges = "
           "150.00\n"
           "BR-CO-13 " +
           LMT +
           "/cbc:TaxExclusiveAmount: total without VAT '2278.40' is not line net amounts - allowances + charges = "
           "2268.40\n"},
      {"BR-CO-13 (and BR-CO-15)", rep(total("TaxExclusiveAmount", "2278.40"), total("TaxExclusiveAmount", "2278.41")),
       "BR-CO-13 " + LMT +
           "/cbc:TaxExclusiveAmount: total without VAT '2278.41' is not line net amounts - allowances "
           "+ charges = 2278.40\n"
           "BR-CO-15 " +
           LMT + "/cbc:TaxInclusiveAmount: " + incl + "2749.97\n"},
      {"BR-CO-10 (and BR-CO-13)", rep(total("LineExtensionAmount", "2228.40"), total("LineExtensionAmount", "2228.41")),
       "BR-CO-10 " + LMT +
           "/cbc:LineExtensionAmount: sum of line net amounts '2228.41' is not the sum of the lines = "
           "2228.40\n"
           "BR-CO-13 " +
           LMT +
           "/cbc:TaxExclusiveAmount: total without VAT '2278.40' is not line net amounts - allowances + charges = "
           "2278.41\n"},
      {"BR-CO-14 (and BR-CO-15)", rep(vat_total, replace(vat_total, "471.56", "471.57")),
       "BR-CO-14 " + TT + "/cbc:TaxAmount: VAT total '471.57' is not the sum of the VAT breakdown, 471.56\n" +
           "BR-CO-15 " + LMT + "/cbc:TaxInclusiveAmount: " + incl + "2749.97\n"},
      {"BR-CO-16: rounding", rep(total("PayableRoundingAmount", "0.04"), total("PayableRoundingAmount", "0.05")),
       "BR-CO-16 " + LMT +
           "/cbc:PayableAmount: amount due '2750.00' is not total with VAT - paid amount + rounding = "
           "2750.01\n"},
      {"BR-CO-16: no rounding", del(total("PayableRoundingAmount", "0.04")),
       "BR-CO-16 " + LMT +
           "/cbc:PayableAmount: amount due '2750.00' is not total with VAT - paid amount + rounding = "
           "2749.96\n"},
      {"BR-CO-16: a paid amount",
       rep("<cbc:PayableRoundingAmount", total("PrepaidAmount", "1000.00") + "<cbc:PayableRoundingAmount"),
       "BR-CO-16 " + LMT +
           "/cbc:PayableAmount: amount due '2750.00' is not total with VAT - paid amount + rounding = "
           "1750.00\n"},
      {"a paid amount that adds up",
       both(rep("<cbc:PayableRoundingAmount", total("PrepaidAmount", "1000.00") + "<cbc:PayableRoundingAmount"),
            rep(total("PayableAmount", "2750.00"), total("PayableAmount", "1750.00"))),
       ""},
      // BR-CO-17 takes a tax amount less than one currency unit off (the
      // cent an ERP's line-by-line rounding leaves); BR-CO-14 still adds up.
      {"BR-CO-17: a cent off is within the rule (BR-CO-14 is not)", rep(vat1, replace(vat1, "324.50", "324.51")),
       "BR-CO-14 " + TT + "/cbc:TaxAmount: VAT total '471.56' is not the sum of the VAT breakdown, 471.57\n"},
      {"BR-CO-17: one currency unit off (and BR-CO-14)", rep(vat1, replace(vat1, "324.50", "325.50")),
       "BR-CO-17 " + ST(1) +
           "/cbc:TaxAmount: VAT amount '325.50' is not taxable amount '1298.00' x 25% = 324.50 (within one currency "
           "unit)\n" +
           "BR-CO-14 " + TT + "/cbc:TaxAmount: VAT total '471.56' is not the sum of the VAT breakdown, 472.56\n"},
      {"BR-CO-17 at a zero rate", rep("<cbc:Percent>15</cbc:Percent>", "<cbc:Percent>0</cbc:Percent>", 1),
       "BR-CO-17 " + ST(2) + "/cbc:TaxAmount: VAT amount '147.06' is not zero at a zero rate\n"},
      {"BR-45", del(taxable1), "BR-45 " + ST(1) + "/cbc:TaxableAmount: the VAT breakdown has no taxable amount\n"},
      {"BR-46", del(vat1), "BR-46 " + ST(1) + "/cbc:TaxAmount: the VAT breakdown has no VAT amount\n"},
      {"BR-47", del("<cbc:ID>S</cbc:ID>", 3),
       "BR-47 " + ST(1) + "/cac:TaxCategory/cbc:ID: the VAT breakdown has no VAT category\n"},
      {"VAT category B (split payment, Italy) is UNCL5305", rep("<cbc:ID>S</cbc:ID>", "<cbc:ID>B</cbc:ID>", 3), ""},
      {"BR-CL-17 on the breakdown", rep("<cbc:ID>S</cbc:ID>", "<cbc:ID>VAT</cbc:ID>", 3),
       "BR-CL-17 " + ST(1) + "/cac:TaxCategory/cbc:ID: VAT category 'VAT' is not a UNCL5305 code\n"},
      {"BR-48 (and BR-CO-17: no rate, no VAT)", del("<cbc:Percent>25</cbc:Percent>", 3),
       "BR-48 " + ST(1) + "/cac:TaxCategory/cbc:Percent: the VAT breakdown has no VAT rate\n" + "BR-CO-17 " + ST(1) +
           "/cbc:TaxAmount: VAT amount '324.50' is not zero at a zero rate\n"},
      {"BR-DEC-19", rep(taxable1, replace(taxable1, "1298.00", "1298.001")),
       "BR-DEC-19 " + ST(1) + "/cbc:TaxableAmount: taxable amount '1298.001' has more than two decimals\n"},
      {"BR-DEC-20", rep(vat1, replace(vat1, "324.50", "324.500")),
       "BR-DEC-20 " + ST(1) + "/cbc:TaxAmount: VAT amount '324.500' has more than two decimals\n"},
      {"BR-DEC-13", rep(vat_total, replace(vat_total, "471.56", "471.560")),
       "BR-DEC-13 " + TT + "/cbc:TaxAmount: VAT total '471.560' has more than two decimals\n"},
      {"R053", copy_tax_total,
       "PEPPOL-EN16931-R053 /Invoice/cac:TaxTotal: the invoice has 2 cac:TaxTotal with a VAT breakdown, not exactly "
       "one\n"},
      {"R053, BR-CO-18 and R054: no breakdown", cut_span("<cac:TaxSubtotal>", "</cac:TaxSubtotal>"),
       "PEPPOL-EN16931-R053 /Invoice/cac:TaxTotal: the invoice has 0 cac:TaxTotal with a VAT breakdown, not exactly "
       "one\n"
       "BR-CO-18 /Invoice/cac:TaxTotal/cac:TaxSubtotal: the invoice has no VAT breakdown (cac:TaxSubtotal)\n"
       "PEPPOL-EN16931-R054 /Invoice/cac:TaxTotal: the invoice has 1 cac:TaxTotal without a VAT breakdown, not 0 "
       "(there "
       "is no VAT accounting currency)\n"},
      {"a TaxTotal without its amount (and BR-CO-15)", del(vat_total),
       "EDIHUB-UBL-TAX-AMOUNT " + TT + "/cbc:TaxAmount: cac:TaxTotal has no cbc:TaxAmount\n" + "BR-CO-15 " + LMT +
           "/cbc:TaxInclusiveAmount: there is no VAT total in the document currency to add to the total without VAT\n"},
      {"BR-12", del(total("LineExtensionAmount", "2228.40")),
       "BR-12 " + LMT + "/cbc:LineExtensionAmount: the sum of line net amounts (cbc:LineExtensionAmount) is missing\n"},
      {"BR-13", del(total("TaxExclusiveAmount", "2278.40")),
       "BR-13 " + LMT + "/cbc:TaxExclusiveAmount: the total without VAT (cbc:TaxExclusiveAmount) is missing\n"},
      {"BR-14", del(total("TaxInclusiveAmount", "2749.96")),
       "BR-14 " + LMT + "/cbc:TaxInclusiveAmount: the total with VAT (cbc:TaxInclusiveAmount) is missing\n"},
      {"BR-15", del(total("PayableAmount", "2750.00")),
       "BR-15 " + LMT + "/cbc:PayableAmount: the amount due (cbc:PayableAmount) is missing\n"},
      {"BR-DEC-14", rep(total("TaxInclusiveAmount", "2749.96"), total("TaxInclusiveAmount", "2749.960")),
       "BR-DEC-14 " + LMT + "/cbc:TaxInclusiveAmount: total with VAT '2749.960' has more than two decimals\n"},
      {"BR-DEC-18", rep(total("PayableAmount", "2750.00"), total("PayableAmount", "2750.001")),
       "BR-DEC-18 " + LMT + "/cbc:PayableAmount: amount due '2750.001' has more than two decimals\n"},
      {"BR-CO-25",
       both(del("<cbc:DueDate>2024-12-14</cbc:DueDate>"), cut_element("<cac:PaymentTerms>", "</cac:PaymentTerms>")),
       "BR-CO-25 /Invoice/cbc:DueDate: an amount is due but there is neither a due date nor payment terms\n"},
      {"R051", rep(price1, replace(price1, "NOK", "EUR")),
       "PEPPOL-EN16931-R051 " + L(1) +
           "/cac:Price/cbc:PriceAmount: currencyID 'EUR' is not the document currency "
           "'NOK'\n"},
      {"R051 without currencyID", rep(price1, "<cbc:PriceAmount>54.90</cbc:PriceAmount>"),
       "PEPPOL-EN16931-R051 " + L(1) +
           "/cac:Price/cbc:PriceAmount: the amount has no currencyID; the document currency "
           "is 'NOK'\n"},
      {"BR-CL-03 (and R051)", rep(price1, replace(price1, "NOK", "ABC")),
       "BR-CL-03 " + L(1) + "/cac:Price/cbc:PriceAmount: currencyID 'ABC' is not an ISO 4217 code\n" +
           "PEPPOL-EN16931-R051 " + L(1) +
           "/cac:Price/cbc:PriceAmount: currencyID 'ABC' is not the document currency "
           "'NOK'\n"},
      {"R051 does not name the breakdown's VAT amounts", rep(vat1, replace(vat1, "NOK", "EUR")), ""},
  };
  run(payload_of("invoice.xml"), cases, false);
}

TEST_CASE("UBL credit note rules: type codes, credited quantity, due date from the payment means") {
  const std::string type = "<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>";
  const std::string means =
      "<cac:PaymentMeans><cbc:PaymentMeansCode>30</cbc:PaymentMeansCode><cbc:PaymentDueDate>2024-12-20</"
      "cbc:PaymentDueDate><cac:PayeeFinancialAccount><cbc:ID>1503</cbc:ID></cac:PayeeFinancialAccount></"
      "cac:PaymentMeans>";
  const std::vector<RuleCase> cases = {
      {"BR-CL-01", rep(type, "<cbc:CreditNoteTypeCode>380</cbc:CreditNoteTypeCode>"),
       "BR-CL-01 /CreditNote/cbc:CreditNoteTypeCode: type code '380' is not a UNCL1001 credit note code\n"},
      {"P0101", rep(type, "<cbc:CreditNoteTypeCode>261</cbc:CreditNoteTypeCode>"),
       "PEPPOL-EN16931-P0101 /CreditNote/cbc:CreditNoteTypeCode: credit note type code '261' is not allowed in process "
       "01\n"},
      {"BR-04", del(type), "BR-04 /CreditNote/cbc:CreditNoteTypeCode: the credit note has no type code\n"},
      {"BR-22", del("<cbc:CreditedQuantity unitCode=\"H87\">1</cbc:CreditedQuantity>"),
       "BR-22 /CreditNote/cac:CreditNoteLine[1]/cbc:CreditedQuantity: the line has no quantity\n"},
      {"BR-16", cut_element("<cac:CreditNoteLine>", "</cac:CreditNoteLine>"),
       "BR-16 /CreditNote/cac:CreditNoteLine: the credit note has no lines\n"
       "BR-CO-10 /CreditNote/cac:LegalMonetaryTotal/cbc:LineExtensionAmount: sum of line net amounts '349.50' is not "
       "the "
       "sum of the lines = 0.00\n"},
      // BR-CO-25's context is the Invoice's amount due: a credit note claims nothing.
      {"BR-CO-25 is no credit note rule", cut_element("<cac:PaymentTerms>", "</cac:PaymentTerms>"), ""},
      {"the payment means' due date",
       rep("<cac:PaymentTerms>\n      <cbc:Note>Motregnes mot neste faktura</cbc:Note>\n    "
           "</cac:PaymentTerms>",
           means),
       ""},
  };
  run(payload_of("credit-note.xml"), cases, false);
  const std::string with_means =
      cut(replace(payload_of("credit-note.xml"), "<cac:PaymentTerms>", means + "<cac:PaymentTerms>"),
          "<cac:PaymentTerms>", "</cac:PaymentTerms>");
  CHECK(invoice(with_means).due_date == "2024-12-20");
}

TEST_CASE("UBL despatch advice rules: each on its own") {
  const std::string D = "/DespatchAdvice";
  const std::string SUP = D + "/cac:DespatchSupplierParty";
  const std::string CUS = D + "/cac:DeliveryCustomerParty";
  const std::string SH = D + "/cac:Shipment";
  auto DL = [](int n) { return "/DespatchAdvice/cac:DespatchLine[" + std::to_string(n) + "]"; };
  const std::string supplier_endpoint = "<cbc:EndpointID schemeID=\"0192\">923456783</cbc:EndpointID>";
  const std::string customer_endpoint = "<cbc:EndpointID schemeID=\"0088\">7080000123452</cbc:EndpointID>";
  const std::string delivered1 = "<cbc:DeliveredQuantity unitCode=\"H87\">10</cbc:DeliveredQuantity>";
  const std::string outstanding2 = "<cbc:OutstandingQuantity unitCode=\"KGM\">2</cbc:OutstandingQuantity>";
  const std::vector<RuleCase> cases = {
      {"B00101", del("<cbc:CustomizationID>urn:fdc:peppol.eu:poacc:trns:despatch_advice:3</cbc:CustomizationID>"),
       "PEPPOL-T16-B00101 " + D + "/cbc:CustomizationID: the despatch advice has no cbc:CustomizationID\n"},
      {"B00201", rep("trns:despatch_advice:3<", "trns:order:3<"),
       "PEPPOL-T16-B00201 " + D +
           "/cbc:CustomizationID: specification identifier 'urn:fdc:peppol.eu:poacc:trns:order:3' is not Peppol BIS "
           "Despatch Advice 3's\n"},
      {"B00102", del("<cbc:ProfileID>urn:fdc:peppol.eu:poacc:bis:despatch_advice:3</cbc:ProfileID>"),
       "PEPPOL-T16-B00102 " + D + "/cbc:ProfileID: the despatch advice has no cbc:ProfileID\n"},
      {"B00301", rep("bis:despatch_advice:3<", "bis:ordering:3<"),
       "PEPPOL-T16-B00301 " + D +
           "/cbc:ProfileID: business process 'urn:fdc:peppol.eu:poacc:bis:ordering:3' is not "
           "'urn:fdc:peppol.eu:poacc:bis:despatch_advice:3'\n"},
      {"B00103", del("<cbc:ID>DA-2024-5531</cbc:ID>"),
       "PEPPOL-T16-B00103 " + D + "/cbc:ID: the despatch advice has no number (cbc:ID)\n"},
      {"B00104", del("<cbc:IssueDate>2024-11-12</cbc:IssueDate>"),
       "PEPPOL-T16-B00104 " + D + "/cbc:IssueDate: the despatch advice has no issue date (cbc:IssueDate)\n"},
      {"COMMON-R030", rep("2024-11-12</cbc:IssueDate>", "2024-13-01</cbc:IssueDate>"),
       "PEPPOL-COMMON-R030 " + D + "/cbc:IssueDate: issue date '2024-13-01' is not a date YYYY-MM-DD\n"},
      {"an issue time that is none", rep("15:30:00</cbc:IssueTime>", "25:00:00</cbc:IssueTime>"),
       "EDIHUB-UBL-TIME " + D + "/cbc:IssueTime: issue time '25:00:00' is not a time hh:mm:ss[.s][zone]\n"},
      {"an issue time with a fraction and a zone",
       rep("15:30:00</cbc:IssueTime>", "15:30:00.250+01:00</cbc:IssueTime>"), ""},
      {"B00105", cut_element("<cac:DespatchSupplierParty>", "</cac:DespatchSupplierParty>"),
       "PEPPOL-T16-B00105 " + SUP + ": the despatch advice has no despatch party\n"},
      {"B01101", del(supplier_endpoint),
       "PEPPOL-T16-B01101 " + SUP +
           "/cac:Party/cbc:EndpointID: the despatch party has no electronic address "
           "(cbc:EndpointID)\n"},
      {"B01201", rep(supplier_endpoint, "<cbc:EndpointID>923456783</cbc:EndpointID>"),
       "PEPPOL-T16-B01201 " + SUP +
           "/cac:Party/cbc:EndpointID: the despatch party's electronic address has no "
           "schemeID\n"},
      {"B01102", cut_element("<cac:PartyLegalEntity>", "</cac:PartyLegalEntity>"),
       "PEPPOL-T16-B01102 " + SUP +
           "/cac:Party/cac:PartyLegalEntity: the despatch party has no cac:PartyLegalEntity\n"},
      {"B02701", del("<cbc:RegistrationName>Nordlys Kontorrekvisita AS</cbc:RegistrationName>"),
       "PEPPOL-T16-B02701 " + SUP +
           "/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName: the despatch party's legal entity has no "
           "cbc:RegistrationName\n"},
      {"R008 (a warning)", cut_element("<cac:PartyName>", "</cac:PartyName>"),
       "PEPPOL-T16-R008 " + SUP +
           "/cac:Party/cac:PartyName/cbc:Name: the despatch party has no name "
           "(cac:PartyName/cbc:Name) [warning]\n"},
      {"B00106", cut_element("<cac:DeliveryCustomerParty>", "</cac:DeliveryCustomerParty>"),
       "PEPPOL-T16-B00106 " + CUS + ": the despatch advice has no delivery party\n"},
      {"B03401", del(customer_endpoint),
       "PEPPOL-T16-B03401 " + CUS +
           "/cac:Party/cbc:EndpointID: the delivery party has no electronic address "
           "(cbc:EndpointID)\n"},
      {"B03501", rep(customer_endpoint, "<cbc:EndpointID>7080000123452</cbc:EndpointID>"),
       "PEPPOL-T16-B03501 " + CUS +
           "/cac:Party/cbc:EndpointID: the delivery party's electronic address has no "
           "schemeID\n"},
      {"B03402", cut_element("<cac:PartyLegalEntity>", "</cac:PartyLegalEntity>", 2),
       "PEPPOL-T16-B03402 " + CUS +
           "/cac:Party/cac:PartyLegalEntity: the delivery party has no cac:PartyLegalEntity\n"},
      {"B05001", del("<cbc:RegistrationName>Fjordkjøkken Bergen AS</cbc:RegistrationName>"),
       "PEPPOL-T16-B05001 " + CUS +
           "/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName: the delivery party's legal entity has no "
           "cbc:RegistrationName\n"},
      {"R001 (a warning)",
       both(cut_element("<cac:PartyIdentification>", "</cac:PartyIdentification>"),
            cut_element("<cac:PartyName>", "</cac:PartyName>", 2)),
       "PEPPOL-T16-R001 " + CUS +
           "/cac:Party/cac:PartyName/cbc:Name: the delivery party has neither a name nor an "
           "identifier [warning]\n"},
      {"COMMON-R040",
       rep("<cbc:ID schemeID=\"0088\">7080000543212</cbc:ID>", "<cbc:ID schemeID=\"0088\">7080000543213</cbc:ID>"),
       "PEPPOL-COMMON-R040 " + CUS +
           "/cac:Party/cac:PartyIdentification[1]/cbc:ID: GLN '7080000543213' has no valid GS1 "
           "check digit\n"},
      {"COMMON-R041", rep(supplier_endpoint, "<cbc:EndpointID schemeID=\"0192\">923456780</cbc:EndpointID>"),
       "PEPPOL-COMMON-R041 " + SUP +
           "/cac:Party/cbc:EndpointID: Norwegian organisation number '923456780' is not nine "
           "digits modulus 11\n"},
      {"B10701", del("<cbc:ID>SHP-88213</cbc:ID>"),
       "PEPPOL-T16-B10701 " + SH + "/cbc:ID: the shipment has no cbc:ID\n"},
      {"B11001", rep(" unitCode=\"KGM\">18.5", ">18.5"),
       "PEPPOL-T16-B11001 " + SH + "/cbc:GrossWeightMeasure: the gross weight has no unitCode\n"},
      {"a gross weight that is no number", rep(">18.5<", ">18,5<"),
       "EDIHUB-UBL-DECIMAL " + SH + "/cbc:GrossWeightMeasure: gross weight '18,5'" + kNotDecimal},
      {"COMMON-R030 in the delivery period", rep("<cbc:StartDate>2024-11-13", "<cbc:StartDate>2024-11-31"),
       "PEPPOL-COMMON-R030 " + SH +
           "/cac:Delivery/cac:EstimatedDeliveryPeriod/cbc:StartDate: delivery period start '2024-11-31' is not a date "
           "YYYY-MM-DD\n"},
      {"a despatch date that is none",
       rep(">2024-11-12</cbc:ActualDespatchDate>", ">12.11.2024</cbc:ActualDespatchDate>"),
       "EDIHUB-UBL-DATE " + SH +
           "/cac:Delivery/cac:Despatch/cbc:ActualDespatchDate: despatch date '12.11.2024' is not a date YYYY-MM-DD\n"},
      {"a despatch time that is none", rep(">14:05:00<", ">14:5<"),
       "EDIHUB-UBL-TIME " + SH +
           "/cac:Delivery/cac:Despatch/cbc:ActualDespatchTime: despatch time '14:5' is not a time "
           "hh:mm:ss[.s][zone]\n"},
      {"B00107", cut_span("<cac:DespatchLine>", "</cac:DespatchLine>"),
       "PEPPOL-T16-B00107 " + D + "/cac:DespatchLine: the despatch advice has no lines (cac:DespatchLine)\n"},
      {"B14601", del("<cbc:ID>1</cbc:ID>"), "PEPPOL-T16-B14601 " + DL(1) + "/cbc:ID: the line has no cbc:ID\n"},
      {"B14602", cut_element("<cac:OrderLineReference>", "</cac:OrderLineReference>"),
       "PEPPOL-T16-B14602 " + DL(1) + "/cac:OrderLineReference: the line has no cac:OrderLineReference\n"},
      {"B15401", del("<cbc:LineID>1</cbc:LineID>"),
       "PEPPOL-T16-B15401 " + DL(1) +
           "/cac:OrderLineReference/cbc:LineID: the line's order line reference has no cbc:LineID\n"},
      {"no delivered quantity: edihub books it", del(delivered1),
       "EDIHUB-UBL-DELIVERED-QUANTITY " + DL(1) +
           "/cbc:DeliveredQuantity: the line has no delivered quantity (Peppol recommends one; edihub books it)\n"},
      {"B14901", rep(delivered1, "<cbc:DeliveredQuantity>10</cbc:DeliveredQuantity>"),
       "PEPPOL-T16-B14901 " + DL(1) + "/cbc:DeliveredQuantity: the delivered quantity has no unitCode\n"},
      {"B14902", rep(delivered1, "<cbc:DeliveredQuantity unitCode=\"kg\">10</cbc:DeliveredQuantity>"),
       "PEPPOL-T16-B14902 " + DL(1) +
           "/cbc:DeliveredQuantity: unit code 'kg' is not a UN/ECE Recommendation 20/21 code\n"},
      {"R006", rep(delivered1, "<cbc:DeliveredQuantity unitCode=\"H87\">-10</cbc:DeliveredQuantity>"),
       "PEPPOL-T16-R006 " + DL(1) + "/cbc:DeliveredQuantity: delivered quantity '-10' is negative\n"},
      {"B15101", rep(outstanding2, "<cbc:OutstandingQuantity>2</cbc:OutstandingQuantity>"),
       "PEPPOL-T16-B15101 " + DL(2) + "/cbc:OutstandingQuantity: the outstanding quantity has no unitCode\n"},
      {"B15102", rep(outstanding2, "<cbc:OutstandingQuantity unitCode=\"K G\">2</cbc:OutstandingQuantity>"),
       "PEPPOL-T16-B15102 " + DL(2) +
           "/cbc:OutstandingQuantity: unit code 'K G' is not a UN/ECE Recommendation 20/21 "
           "code\n"},
      {"R007 (a warning)", del("<cbc:OutstandingReason>Restordre, leveres uke 48</cbc:OutstandingReason>"),
       "PEPPOL-T16-R007 " + DL(2) + "/cbc:OutstandingReason: an outstanding quantity without a reason [warning]\n"},
      {"B14603", cut_element("<cac:Item>", "</cac:Item>"),
       "PEPPOL-T16-B14603 " + DL(1) + "/cac:Item: the line has no cac:Item\n"},
      {"R003", cut_element("<cac:SellersItemIdentification>", "</cac:SellersItemIdentification>", 3),
       "PEPPOL-T16-R003 " + DL(3) +
           "/cac:Item/cac:SellersItemIdentification/cbc:ID: the item has neither a standard nor a seller's "
           "identifier\n"},
      {"B16601", rep("<cbc:ID schemeID=\"0160\">7038010000010</cbc:ID>", "<cbc:ID>7038010000010</cbc:ID>"),
       "PEPPOL-T16-B16601 " + DL(1) +
           "/cac:Item/cac:StandardItemIdentification/cbc:ID: the item's standard identifier has no schemeID\n"},
      {"R004", del("<cbc:Name>Kopipapir A4 80 g, 500 ark</cbc:Name>"),
       "PEPPOL-T16-R004 " + DL(1) + "/cac:Item/cbc:Name: the item has no name\n"},
  };
  run(payload_of("despatch-advice.xml"), cases, true);
  // Warnings alone do not reject.
  const std::string warned = del("<cbc:OutstandingReason>Restordre, leveres uke 48</cbc:OutstandingReason>")(
      payload_of("despatch-advice.xml"));
  CHECK_FALSE(ubl::rejects(ubl::validate(despatch(warned))));
  CHECK(ubl::rejects(ubl::validate(despatch(del("<cbc:ID>DA-2024-5531</cbc:ID>")(payload_of("despatch-advice.xml"))))));
}

// ---- UBL: what cannot be read ------------------------------------------------

TEST_CASE("UBL: wrong namespaces, the wrong document, DTDs and bounds are errors") {
  const std::string inv = payload_of("invoice.xml");
  ubl::Invoice out;
  ubl::DespatchAdvice da;
  ubl::Error e = ubl::parse_invoice(replace(inv, "xsd:Invoice-2\"", "xsd:Invoice-3\""), &out);
  CHECK(ubl::code_name(e.code) == "UBL_NOT_UBL");
  CHECK(e.text ==
        "the root element 'Invoice' in namespace 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-3' is not a UBL "
        "2.1 Invoice, CreditNote or DespatchAdvice");
  e = ubl::parse_invoice(payload_of("despatch-advice.xml"), &out);
  CHECK(ubl::code_name(e.code) == "UBL_WRONG_DOCUMENT");
  CHECK(e.text == "the document is DespatchAdvice; expected Invoice or CreditNote");
  e = ubl::parse_despatch_advice(inv, &da);
  CHECK(ubl::code_name(e.code) == "UBL_WRONG_DOCUMENT");
  CHECK(e.text == "the document is Invoice; expected DespatchAdvice");
  e = ubl::parse_invoice("<!DOCTYPE Invoice [<!ENTITY a \"b\">]>" + inv, &out);
  CHECK(ubl::code_name(e.code) == "UBL_XML");
  CHECK(e.text == "the UBL document is a document with a DTD or entity declarations (not accepted)");
  ubl::Limits limits;
  limits.max_lines = 3;
  e = ubl::parse_invoice(inv, &out, limits);
  CHECK(ubl::code_name(e.code) == "UBL_TOO_MANY");
  CHECK(e.text == "/Invoice holds more than 3 cac:InvoiceLine");
  limits = {};
  limits.max_repeats = 1;
  e = ubl::parse_invoice(inv, &out, limits);
  CHECK(e.text == "/Invoice/cac:AccountingSupplierParty/cac:Party holds more than 1 cac:PartyTaxScheme");
  limits = {};
  limits.max_lines = 2;
  e = ubl::parse_despatch_advice(payload_of("despatch-advice.xml"), &da, limits);
  CHECK(e.text == "/DespatchAdvice holds more than 2 cac:DespatchLine");
  // Basic components in a namespace that is not UBL's are not read: every mandatory value is missing.
  const std::string wrong_cbc = replace(inv, "CommonBasicComponents-2\"", "CommonBasicComponents-3\"");
  const std::vector<ubl::Finding> findings = ubl::validate(invoice(wrong_cbc));
  std::string rules;
  for (const ubl::Finding& f : findings) rules += f.rule + " ";
  const std::string line = "BR-21 BR-22 BR-24 BR-25 BR-CO-04 BR-26 ";
  CHECK(rules ==
        "BR-01 PEPPOL-EN16931-R001 BR-02 BR-03 BR-04 BR-05 PEPPOL-EN16931-R003 "
        // The parties' aggregates are read, their values not.
        "BR-06 BR-09 PEPPOL-EN16931-R020 BR-CO-26 BR-07 BR-11 PEPPOL-EN16931-R010 BR-49 " +
            line + line + "PEPPOL-EN16931-R043 " + line + line +
            "PEPPOL-EN16931-R043 PEPPOL-EN16931-R043 EDIHUB-UBL-TAX-AMOUNT BR-45 BR-46 BR-47 BR-48 BR-45 BR-46 BR-47 "
            "BR-48 BR-12 BR-13 BR-14 BR-15 ");
  CHECK(ubl::rejects(findings));
}

TEST_CASE("UBL: every truncated prefix of the invoice payload is refused, never crashes") {
  const std::string inv = payload_of("invoice.xml");
  for (size_t n = 0; n < inv.size(); ++n) {
    ubl::Invoice out;
    if (!ubl::parse_invoice(std::string_view(inv).substr(0, n), &out)) FAIL("a prefix of " << n << " bytes was read");
  }
}

TEST_CASE("UBL: exact decimals, cents, dates, times and code lists") {
  struct D {
    const char* text;
    bool ok;
    int64_t units;
    int scale;
  };
  const D decimals[] = {
      {"0", true, 0, 0},
      {"-0.50", true, -5, 1},
      {"+3", true, 3, 0},
      {".5", true, 5, 1},
      {"7.", true, 7, 0},
      {"000123.4500", true, 12345, 2},
      {"123456789012345678", true, 123456789012345678, 0},
      {"0.000000000000000001", true, 1, 18},
      {"1234567890123456789", false, 0, 0},
      {"0.0000000000000000001", false, 0, 0},
      {"", false, 0, 0},
      {"-", false, 0, 0},
      {".", false, 0, 0},
      {"1e3", false, 0, 0},
      {"1.2.3", false, 0, 0},
      {" 1", false, 0, 0},
      {"1,5", false, 0, 0},
      {"--1", false, 0, 0},
  };
  for (const D& d : decimals) {
    CAPTURE(d.text);
    const std::optional<ubl::Decimal> v = ubl::parse_decimal(d.text);
    REQUIRE(v.has_value() == d.ok);
    if (!v) continue;
    CHECK(v->units == d.units);
    CHECK(v->scale == d.scale);
  }
  CHECK(ubl::cents("12.5") == 1250);
  CHECK(ubl::cents("12.340") == 1234);
  CHECK(ubl::cents("-0.01") == -1);
  CHECK(ubl::cents("12.345") == std::nullopt);
  CHECK(ubl::cents("9223372036854775.07") == 922337203685477507);
  CHECK(ubl::cents("92233720368547758") == 9223372036854775800);
  CHECK(ubl::cents("92233720368547759") == std::nullopt);     // a decimal, but beyond 64-bit cents
  CHECK(ubl::cents("92233720368547758.07") == std::nullopt);  // 19 significant digits
  CHECK(ubl::cents("x") == std::nullopt);

  for (const char* good : {"2024-02-29", "2000-02-29", "2024-12-31", "0001-01-01"}) CHECK(ubl::is_date(good));
  for (const char* bad : {"2023-02-29", "1900-02-29", "2024-04-31", "2024-4-01", "2024-04-01Z", "2024-00-10",
                          "2024-01-00", "20240101", ""})
    CHECK_FALSE(ubl::is_date(bad));
  for (const char* good : {"00:00:00", "23:59:59", "12:00:00.5", "12:00:00Z", "12:00:00+01:00", "12:00:00.125-05:30"})
    CHECK(ubl::is_time(good));
  for (const char* bad : {"24:00:00", "12:60:00", "12:00:60", "12:00:00.", "12:00:00+1:00", "12:00", "12-00-00", ""})
    CHECK_FALSE(ubl::is_time(bad));

  CHECK(ubl::is_currency_code("NOK"));
  CHECK(ubl::is_currency_code("XCG"));
  CHECK(ubl::is_currency_code("HRK"));  // withdrawn, still in the Peppol list
  CHECK_FALSE(ubl::is_currency_code("nok"));
  CHECK_FALSE(ubl::is_currency_code("NKR"));
  CHECK_FALSE(ubl::is_currency_code("NOK EUR"));
  CHECK_FALSE(ubl::is_currency_code(""));
  CHECK(ubl::is_unit_code_format("H87"));
  CHECK(ubl::is_unit_code_format("EA"));
  CHECK_FALSE(ubl::is_unit_code_format("h87"));
  CHECK_FALSE(ubl::is_unit_code_format("A"));
  CHECK_FALSE(ubl::is_unit_code_format("ABCD"));
  CHECK(ubl::is_common_unit_code("C62"));
  CHECK(ubl::is_common_unit_code("XPX"));
  CHECK_FALSE(ubl::is_common_unit_code("D61"));
  CHECK_FALSE(ubl::is_common_unit_code("C6"));
  for (const char* c : {"S", "Z", "E", "AE", "K", "G", "O", "L", "M"}) CHECK(ubl::is_vat_category(c));
  for (const char* c : {"", "A", "VAT", "s", "IC"}) CHECK_FALSE(ubl::is_vat_category(c));
  for (const char* c : {"380", "381", "383", "384", "386", "389", "71", "877"}) {
    CAPTURE(c);
    CHECK(ubl::is_invoice_type_code(c) != (std::string(c) == "381"));
  }
  CHECK(ubl::is_credit_note_type_code("381"));
  CHECK(ubl::is_credit_note_type_code("396"));
  CHECK_FALSE(ubl::is_credit_note_type_code("380"));
  CHECK(ubl::is_peppol_invoice_type_code("380"));
  CHECK_FALSE(ubl::is_peppol_invoice_type_code("130"));
  CHECK(ubl::is_peppol_credit_note_type_code("396"));
  CHECK_FALSE(ubl::is_peppol_credit_note_type_code("261"));
  CHECK(ubl::document_type("urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2", "CreditNote") ==
        ubl::DocumentType::CreditNote);
  CHECK(ubl::document_type("urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2", "Invoice") ==
        ubl::DocumentType::Unknown);
}
