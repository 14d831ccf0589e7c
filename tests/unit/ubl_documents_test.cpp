// Peppol's UBL documents as the business documents edihub books: the samples
// of samples/peppol field by field, the same documents written as EDIFACT
// booking exactly alike, and every value that cannot be represented refused
// with its place.
#include <doctest/doctest.h>

#include <string>
#include <variant>
#include <vector>

#include "parsers/edi/parser.h"
#include "parsers/peppol/sbdh.h"
#include "parsers/ubl/ubl.h"
#include "src/business/documents.h"
#include "src/business/registry.h"
#include "src/business/ubl_documents.h"
#include "tests/unit/test_util.h"

using namespace edihub;
using business::Purpose;

namespace {

std::string payload_of(const std::string& name) {
  const std::string bytes = test::read_file(test::source_path("samples/peppol/" + name));
  peppol::Sbd sbd;
  const peppol::SbdError e = peppol::parse_sbd(bytes, &sbd);
  INFO(e.text);
  REQUIRE_FALSE(e);
  return peppol::standalone_payload(bytes, sbd);
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  INFO("replacing: " << from);
  REQUIRE(at != std::string::npos);
  REQUIRE(s.find(from, at + 1) == std::string::npos);
  return s.replace(at, from.size(), to);
}

ubl::Invoice ubl_invoice(const std::string& xml) {
  ubl::Invoice inv;
  const ubl::Error e = ubl::parse_invoice(xml, &inv);
  INFO(e.text);
  REQUIRE_FALSE(e);
  return inv;
}

ubl::DespatchAdvice ubl_despatch(const std::string& xml) {
  ubl::DespatchAdvice da;
  const ubl::Error e = ubl::parse_despatch_advice(xml, &da);
  INFO(e.text);
  REQUIRE_FALSE(e);
  return da;
}

business::Invoice booked_invoice(const std::string& xml) {
  business::Invoice out;
  const std::string error = business::to_invoice(ubl_invoice(xml), &out);
  INFO(error);
  REQUIRE(error.empty());
  return out;
}

business::ShipmentNotice booked_notice(const std::string& xml) {
  business::ShipmentNotice out;
  const std::string error = business::to_shipment_notice(ubl_despatch(xml), &out);
  INFO(error);
  REQUIRE(error.empty());
  return out;
}

std::string invoice_error(const std::string& xml) {
  business::Invoice out;
  return business::to_invoice(ubl_invoice(xml), &out);
}

std::string notice_error(const std::string& xml) {
  business::ShipmentNotice out;
  return business::to_shipment_notice(ubl_despatch(xml), &out);
}

// A registry document as text: every value by its field's kind, NULLs told apart.
std::string render(const business::Document& d) {
  REQUIRE(d.type != nullptr);
  auto value = [](const business::Field& f, const business::Value& v) {
    const bool text = f.kind == business::FieldKind::Text || f.kind == business::FieldKind::OptionalText;
    if (!v.present) return std::string("NULL");
    return text ? "'" + v.text + "'" : std::to_string(v.integer);
  };
  std::string out = std::string(d.type->kind) + " " + d.number + " " + std::string(business::purpose_name(d.purpose)) +
                    " " + d.document_date + ":";
  REQUIRE(d.fields.size() == d.type->fields.size());
  for (size_t i = 0; i < d.fields.size(); ++i) out += " " + value(d.type->fields[i], d.fields[i]);
  for (const auto& line : d.lines) {
    REQUIRE(line.size() == d.type->line_fields.size());
    out += "\n ";
    for (size_t i = 0; i < line.size(); ++i) out += " " + value(d.type->line_fields[i], line[i]);
  }
  return out;
}

// The one document an EDI interchange holds, read by the EDI readers.
business::Document edi_document(const std::string& bytes) {
  const edi::ParseResult parsed = edi::parse(bytes);
  REQUIRE(parsed.interchanges.size() == 1);
  const edi::Interchange& ic = parsed.interchanges[0];
  REQUIRE(ic.groups.size() == 1);
  REQUIRE(ic.groups[0].messages.size() == 1);
  const business::ReadDocument r = business::read_document(ic, ic.groups[0].messages[0], bytes);
  INFO(r.error);
  REQUIRE(r.handled);
  REQUIRE(r.error.empty());
  return r.document;
}

}  // namespace

TEST_CASE("UBL invoice sample booked field by field") {
  const business::Invoice inv = booked_invoice(payload_of("invoice.xml"));
  CHECK(inv.invoice_number == "NKR-2024-1187");
  CHECK_FALSE(inv.credit_note);
  CHECK(inv.purpose == Purpose::Original);
  CHECK(inv.document_date == "20241114");
  CHECK(inv.order_number == "PO-77120");
  CHECK(inv.currency == "NOK");
  CHECK(inv.total_minor == 274996);
  CHECK(inv.tax_minor == 47156);
  CHECK(inv.line_total_minor == 222840);
  REQUIRE(inv.lines.size() == 4);
  struct Line {
    int number;
    const char* item;
    const char* type;
    const char* quantity;
    const char* unit;
    const char* price;
    int64_t amount;
  };
  const Line expected[] = {
      {1, "7038010000010", "EN", "10", "H87", "54.90", 54900},  // the GTIN before the seller's id
      {2, "7038010000027", "EN", "4", "KGM", "189.00", 68040},  // net of its line allowance
      {3, "INK-BK-220", "SA", "2", "H87", "349.50", 69900},
      {4, "FK-DRIKKE-05", "BP", "24", "H87", "75.00", 30000},  // the price is per 6, as written
  };
  for (size_t i = 0; i < 4; ++i) {
    CAPTURE(i);
    const business::InvoiceLine& l = inv.lines[i];
    CHECK(l.line_number == expected[i].number);
    CHECK(l.item_id == expected[i].item);
    CHECK(l.item_id_type == expected[i].type);
    CHECK(l.quantity == expected[i].quantity);
    CHECK(l.unit == expected[i].unit);
    CHECK(l.unit_price == expected[i].price);
    CHECK(l.amount_minor == expected[i].amount);
  }
  const business::ReadDocument r = business::read_document(ubl_invoice(payload_of("invoice.xml")));
  CHECK(r.handled);
  CHECK(r.error.empty());
  CHECK(r.document.type == &business::invoice_type());
  CHECK(render(r.document) ==
        "invoice NKR-2024-1187 original 20241114: 0 'PO-77120' 'NOK' 274996 47156 222840\n"
        "  1 '7038010000010' 'EN' '10' 'H87' '54.90' 54900\n"
        "  2 '7038010000027' 'EN' '4' 'KGM' '189.00' 68040\n"
        "  3 'INK-BK-220' 'SA' '2' 'H87' '349.50' 69900\n"
        "  4 'FK-DRIKKE-05' 'BP' '24' 'H87' '75.00' 30000");
}

TEST_CASE("UBL credit note sample: a credit note, never a replace, booked as its EDIFACT INVOIC twin") {
  const business::Invoice cn = booked_invoice(payload_of("credit-note.xml"));
  CHECK(cn.credit_note);
  CHECK(cn.purpose == Purpose::Original);
  CHECK(cn.invoice_number == "NKR-CN-2024-0042");
  CHECK(cn.document_date == "20241120");
  CHECK(cn.order_number.empty());
  CHECK(cn.total_minor == 43688);
  CHECK(cn.tax_minor == 8738);
  CHECK(cn.line_total_minor == 34950);
  const std::string edifact =
      "UNA:+.? '"
      "UNB+UNOC:3+923456783:ZZZ+7080000123452:14+241120:1340+CN42'"
      "UNH+1+INVOIC:D:96A:UN'"
      "BGM+381+NKR-CN-2024-0042+9'"
      "DTM+137:20241120:102'"
      "RFF+IV:NKR-2024-1187'"
      "NAD+SU+923456783::ZZZ'"
      "CUX+2:NOK:4'"
      "LIN+1'"
      "PIA+5+INK-BK-220:SA'"
      "QTY+47:1:H87'"
      "MOA+203:349.50'"
      "PRI+AAA:349.50'"
      "UNS+S'"
      "MOA+86:436.88'"
      "MOA+79:349.50'"
      "MOA+124:87.38'"
      "UNT+16+1'"
      "UNZ+1+CN42'";
  const business::ReadDocument ubl = business::read_document(ubl_invoice(payload_of("credit-note.xml")));
  REQUIRE(ubl.error.empty());
  CHECK(render(ubl.document) ==
        "invoice NKR-CN-2024-0042 original 20241120: 1 '' 'NOK' 43688 8738 34950\n"
        "  1 'INK-BK-220' 'SA' '1' 'H87' '349.50' 34950");
  CHECK(render(ubl.document) == render(edi_document(edifact)));
}

TEST_CASE("UBL despatch advice sample booked as its EDIFACT DESADV twin") {
  const business::ShipmentNotice sn = booked_notice(payload_of("despatch-advice.xml"));
  CHECK(sn.document_number == "DA-2024-5531");
  CHECK(sn.purpose == Purpose::Original);
  CHECK(sn.document_date == "20241112153000");
  CHECK(sn.ship_date == "20241112140500");
  CHECK(sn.order_number == "PO-77120");
  CHECK(sn.ship_from == "923456783");    // no party identifier: the endpoint
  CHECK(sn.ship_to == "7080000543212");  // the party identifier (the goods receipt GLN)
  CHECK(sn.carrier == "Bring Cargo AS");
  CHECK(sn.gross_weight == "18.5");
  REQUIRE(sn.lines.size() == 3);
  CHECK(sn.lines[0].supplier_item == "PAP-A4-80");
  CHECK(sn.lines[2].item_id_type == "SA");
  CHECK(sn.lines[2].supplier_item.empty());
  const std::string edifact =
      "UNA:+.? '"
      "UNB+UNOC:3+923456783:ZZZ+7080000123452:14+241112:1531+DA5531'"
      "UNH+1+DESADV:D:96A:UN'"
      "BGM+351+DA-2024-5531+9'"
      "DTM+137:20241112153000:204'"
      "DTM+11:20241112140500:204'"
      "RFF+ON:PO-77120'"
      "NAD+SU+923456783::ZZZ'"
      "NAD+DP+7080000543212::9'"
      "TDT+20++30++:::Bring Cargo AS'"
      "MEA+PD+G+KGM:18.5'"
      "CPS+1'"
      "LIN+1++7038010000010:EN'"
      "PIA+1+PAP-A4-80:SA'"
      "QTY+12:10:H87'"
      "RFF+ON:PO-77120'"
      "LIN+2++7038010000027:EN'"
      "PIA+1+KAF-HB-1000:SA'"
      "QTY+12:4:KGM'"
      "RFF+ON:PO-77120'"
      "LIN+3'"
      "PIA+5+INK-BK-220:SA'"
      "QTY+12:2:H87'"
      "RFF+ON:PO-77120'"
      "UNT+23+1'"
      "UNZ+1+DA5531'";
  const business::ReadDocument ubl = business::read_document(ubl_despatch(payload_of("despatch-advice.xml")));
  REQUIRE(ubl.error.empty());
  CHECK(ubl.document.type == &business::shipment_notice_type());
  CHECK(render(ubl.document) ==
        "shipment-notice DA-2024-5531 original 20241112153000: '20241112140500' 'PO-77120' '923456783' "
        "'7080000543212' 'Bring Cargo AS' '18.5'\n"
        "  1 '7038010000010' 'EN' 'PAP-A4-80' '10' 'H87' 'PO-77120'\n"
        "  2 '7038010000027' 'EN' 'KAF-HB-1000' '4' 'KGM' 'PO-77120'\n"
        "  3 'INK-BK-220' 'SA' '' '2' 'H87' 'PO-77120'");
  CHECK(render(ubl.document) == render(edi_document(edifact)));
}

TEST_CASE("UBL invoice mapping: line numbers, item ids, signs, type 381 and absent totals") {
  const std::string inv = payload_of("invoice.xml");
  // A line ID that is not all digits: the position; leading zeros dropped; zero is no number.
  business::Invoice b = booked_invoice(replace(inv, "<cbc:ID>1</cbc:ID>", "<cbc:ID>A-1</cbc:ID>"));
  CHECK(b.lines[0].line_number == 1);
  b = booked_invoice(replace(inv, "<cbc:ID>3</cbc:ID>", "<cbc:ID>0007</cbc:ID>"));
  CHECK(b.lines[2].line_number == 7);
  b = booked_invoice(replace(inv, "<cbc:ID>3</cbc:ID>", "<cbc:ID>0</cbc:ID>"));
  CHECK(b.lines[2].line_number == 3);
  // xs:decimal allows '+': dropped, as to_minor wants it.
  b = booked_invoice(replace(replace(inv, ">549.00</cbc:LineExtensionAmount>", ">+549.00</cbc:LineExtensionAmount>"),
                             ">10</cbc:InvoicedQuantity>", ">+10</cbc:InvoicedQuantity>"));
  CHECK(b.lines[0].amount_minor == 54900);
  CHECK(b.lines[0].quantity == "10");
  // More than two decimals is the rules' to refuse (BR-DEC-23); the mapping rounds half away from zero.
  b = booked_invoice(replace(inv, ">549.00</cbc:LineExtensionAmount>", ">-549.005</cbc:LineExtensionAmount>"));
  CHECK(b.lines[0].amount_minor == -54901);
  // A standard id in another scheme than GTIN: no type.
  b = booked_invoice(replace(inv, "schemeID=\"0160\">7038010000010", "schemeID=\"0088\">7038010000010"));
  CHECK(b.lines[0].item_id == "7038010000010");
  CHECK(b.lines[0].item_id_type.empty());
  // No id at all: an empty item id, as the EDI readers leave it.
  b = booked_invoice(replace(inv, "<cbc:ID>FK-DRIKKE-05</cbc:ID>", ""));
  CHECK(b.lines[3].item_id.empty());
  CHECK(b.lines[3].item_id_type.empty());
  // Type 381 on an Invoice root is a credit note too.
  b = booked_invoice(replace(inv, ">380</cbc:InvoiceTypeCode>", ">381</cbc:InvoiceTypeCode>"));
  CHECK(b.credit_note);
  CHECK(b.purpose == Purpose::Original);
  // No VAT total in the document currency, no sum of lines: NULL, not zero.
  b = booked_invoice(
      replace(replace(inv, "<cbc:TaxAmount currencyID=\"NOK\">471.56", "<cbc:TaxAmount currencyID=\"EUR\">471.56"),
              "<cbc:LineExtensionAmount currencyID=\"NOK\">2228.40</cbc:LineExtensionAmount>", ""));
  CHECK(b.tax_minor == std::nullopt);
  CHECK(b.line_total_minor == std::nullopt);
  // No price: no unit price (the column is optional).
  b = booked_invoice(replace(inv, "<cbc:PriceAmount currencyID=\"NOK\">54.90</cbc:PriceAmount>", ""));
  CHECK(b.lines[0].unit_price.empty());
}

TEST_CASE("UBL invoice mapping: each value that cannot be represented, with its place") {
  const std::string inv = payload_of("invoice.xml");
  struct Case {
    std::string from, to, error;
  };
  const std::string lmt = "/Invoice/cac:LegalMonetaryTotal";
  const Case cases[] = {
      {"<cbc:ID>NKR-2024-1187</cbc:ID>", "", "/Invoice/cbc:ID: missing"},
      {"<cbc:IssueDate>2024-11-14</cbc:IssueDate>", "", "/Invoice/cbc:IssueDate: missing"},
      {">2024-11-14</cbc:IssueDate>", ">2024-13-01</cbc:IssueDate>",
       "/Invoice/cbc:IssueDate: '2024-13-01' is not a date YYYY-MM-DD"},
      {"<cbc:TaxInclusiveAmount currencyID=\"NOK\">2749.96</cbc:TaxInclusiveAmount>", "",
       lmt + "/cbc:TaxInclusiveAmount: missing"},
      {">2749.96<", ">2749,96<", lmt + "/cbc:TaxInclusiveAmount: '2749,96' is not an amount"},
      {">471.56<", ">x<", "/Invoice/cac:TaxTotal[1]/cbc:TaxAmount: 'x' is not an amount"},
      {">2228.40<", ">2228.40.0<", lmt + "/cbc:LineExtensionAmount: '2228.40.0' is not an amount"},
      {"<cbc:LineExtensionAmount currencyID=\"NOK\">680.40</cbc:LineExtensionAmount>", "",
       "/Invoice/cac:InvoiceLine[2]/cbc:LineExtensionAmount: missing"},
      {">2</cbc:InvoicedQuantity>", ">2 pcs</cbc:InvoicedQuantity>",
       "/Invoice/cac:InvoiceLine[3]/cbc:InvoicedQuantity: '2 pcs' is not a decimal number"},
      {"<cbc:InvoicedQuantity unitCode=\"H87\">24</cbc:InvoicedQuantity>", "",
       "/Invoice/cac:InvoiceLine[4]/cbc:InvoicedQuantity: missing"},
      {">349.50</cbc:PriceAmount>", ">abc</cbc:PriceAmount>",
       "/Invoice/cac:InvoiceLine[3]/cac:Price/cbc:PriceAmount: 'abc' is not a decimal number"},
      {">549.00</cbc:LineExtensionAmount>", ">999999999999999999</cbc:LineExtensionAmount>",
       "/Invoice/cac:InvoiceLine[1]/cbc:LineExtensionAmount: '999999999999999999' is not an amount"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.from);
    const std::string xml = replace(inv, c.from, c.to);
    CHECK(invoice_error(xml) == c.error);
    const business::ReadDocument r = business::read_document(ubl_invoice(xml));
    CHECK(r.handled);
    CHECK(r.error == c.error);
    CHECK(r.document.type == nullptr);
  }
  business::Invoice out;
  CHECK(
      business::to_invoice(ubl_invoice(replace(payload_of("credit-note.xml"),
                                               "<cbc:CreditedQuantity unitCode=\"H87\">1</cbc:CreditedQuantity>", "")),
                           &out) == "/CreditNote/cac:CreditNoteLine[1]/cbc:CreditedQuantity: missing");
}

TEST_CASE("UBL despatch advice mapping: times, parties, and each value that cannot be represented") {
  const std::string da = payload_of("despatch-advice.xml");
  CHECK(booked_notice(replace(da, ">15:30:00<", ">15:30:00.5+01:00<")).document_date == "20241112153000");
  CHECK(booked_notice(replace(da, "<cbc:IssueTime>15:30:00</cbc:IssueTime>", "")).document_date == "20241112");
  CHECK(booked_notice(replace(da, "<cbc:ActualDespatchTime>14:05:00</cbc:ActualDespatchTime>", "")).ship_date ==
        "20241112");
  CHECK(
      booked_notice(replace(da, "<cbc:ActualDespatchDate>2024-11-12</cbc:ActualDespatchDate>", "")).ship_date.empty());
  CHECK(booked_notice(replace(da, "<cbc:ID schemeID=\"0088\">7080000543212</cbc:ID>", "")).ship_to == "7080000123452");
  const business::ShipmentNotice no_order =
      booked_notice(replace(da,
                            "<cbc:LineID>3</cbc:LineID>\n        <cac:OrderReference>\n          "
                            "<cbc:ID>PO-77120</cbc:ID>\n        </cac:OrderReference>",
                            "<cbc:LineID>3</cbc:LineID>"));
  CHECK(no_order.lines[2].order_number.empty());
  CHECK(booked_notice(replace(da, "<cbc:GrossWeightMeasure unitCode=\"KGM\">18.5</cbc:GrossWeightMeasure>", ""))
            .gross_weight.empty());
  struct Case {
    std::string from, to, error;
  };
  const Case cases[] = {
      {"<cbc:ID>DA-2024-5531</cbc:ID>", "", "/DespatchAdvice/cbc:ID: missing"},
      {">2024-11-12</cbc:IssueDate>", ">12.11.2024</cbc:IssueDate>",
       "/DespatchAdvice/cbc:IssueDate: '12.11.2024' is not a date YYYY-MM-DD"},
      {">15:30:00<", ">25:00:00<", "/DespatchAdvice/cbc:IssueTime: '25:00:00' is not a time hh:mm:ss"},
      {">2024-11-12</cbc:ActualDespatchDate>", ">2024-11-31</cbc:ActualDespatchDate>",
       "/DespatchAdvice/cac:Shipment/cac:Delivery/cac:Despatch/cbc:ActualDespatchDate: '2024-11-31' is not a date "
       "YYYY-MM-DD"},
      {">14:05:00<", ">14h05<",
       "/DespatchAdvice/cac:Shipment/cac:Delivery/cac:Despatch/cbc:ActualDespatchTime: '14h05' is not a time hh:mm:ss"},
      {">18.5<", ">18,5<", "/DespatchAdvice/cac:Shipment/cbc:GrossWeightMeasure: '18,5' is not a decimal number"},
      {"<cbc:DeliveredQuantity unitCode=\"KGM\">4</cbc:DeliveredQuantity>", "",
       "/DespatchAdvice/cac:DespatchLine[2]/cbc:DeliveredQuantity: missing"},
      {">4</cbc:DeliveredQuantity>", ">four</cbc:DeliveredQuantity>",
       "/DespatchAdvice/cac:DespatchLine[2]/cbc:DeliveredQuantity: 'four' is not a decimal number"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.from);
    const std::string xml = replace(da, c.from, c.to);
    CHECK(notice_error(xml) == c.error);
    const business::ReadDocument r = business::read_document(ubl_despatch(xml));
    CHECK(r.handled);
    CHECK(r.error == c.error);
  }
}
