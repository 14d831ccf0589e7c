// Documents read from X12 856/810 and EDIFACT DESADV/INVOIC: the hand-made
// samples (samples/edi/README.md lists their values), the independent staedi
// corpus, synthetic messages for edge cases, and to_minor.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "parsers/edi/parser.h"
#include "src/business/documents.h"
#include "tests/unit/test_util.h"

using namespace edihub;
using business::Extracted;
using business::Invoice;
using business::Purpose;
using business::ShipmentNotice;
using business::to_minor;

namespace {

// Input kept alive with what was extracted from it.
struct Read {
  std::string bytes;
  std::vector<std::string> types;
  std::vector<Extracted> docs;  // one per message, in file order
};

Read read_bytes(std::string bytes) {
  Read r;
  r.bytes = std::move(bytes);
  REQUIRE_FALSE(r.bytes.empty());
  auto parsed = edi::parse(r.bytes);
  for (const auto& ic : parsed.interchanges)
    for (const auto& g : ic.groups)
      for (const auto& m : g.messages) {
        r.types.push_back(m.type);
        r.docs.push_back(business::extract(ic, m, r.bytes));
      }
  return r;
}

Read read_path(const std::string& rel) { return read_bytes(test::read_file(test::source_path(rel))); }

std::string replace(std::string s, const std::string& from, const std::string& to) {
  auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

const ShipmentNotice& notice(const Extracted& e) {
  INFO("error: " << e.error);
  REQUIRE(e.error.empty());
  REQUIRE(std::holds_alternative<ShipmentNotice>(e.document));
  return std::get<ShipmentNotice>(e.document);
}

const Invoice& invoice(const Extracted& e) {
  INFO("error: " << e.error);
  REQUIRE(e.error.empty());
  REQUIRE(std::holds_alternative<Invoice>(e.document));
  return std::get<Invoice>(e.document);
}

// The error of the only message, which must have one and no document.
std::string error_of(const Read& r) {
  REQUIRE(r.docs.size() == 1);
  CHECK(std::holds_alternative<std::monostate>(r.docs[0].document));
  CHECK_FALSE(r.docs[0].error.empty());
  return r.docs[0].error;
}

using test::contains;

// One X12 set (type 810 or 856) with `body` segments between ST and SE.
std::string x12_set(const std::string& type, const std::vector<std::string>& body) {
  std::string s = test::isa() + "\nGS*" + std::string(type == "810" ? "IN" : "SH") +
                  "*SENDER*RECEIVER*20240102*1230*7*X*004010~\nST*" + type + "*0001~\n";
  for (const auto& seg : body) s += seg + "~\n";
  s += "SE*" + std::to_string(body.size() + 2) + "*0001~\nGE*1*7~\nIEA*1*000000001~\n";
  return s;
}

// One EDIFACT message with `body` segments between UNH and UNT; `una` sets
// the service characters (":+.? '" by default).
std::string edifact_message(const std::string& type, const std::vector<std::string>& body,
                            const std::string& una = ":+.? '") {
  const char term = una[5];
  auto seg = [&](const std::string& s) { return s + term + "\n"; };
  std::string s = "UNA" + una + "\n" + seg("UNB+UNOA:3+SENDER:14+RECEIVER:14+240102:1230+REF1") +
                  seg("UNH+1+" + type + ":D:96A:UN");
  for (const auto& b : body) s += seg(b);
  s += seg("UNT+" + std::to_string(body.size() + 2) + "+1") + seg("UNZ+1+REF1");
  return s;
}

const std::vector<std::string> kInvoicBody = {
    "BGM+380+INV-1+9", "DTM+137:20240315:102", "CUX+2:EUR:4", "LIN+1++5412345000020:EN",
    "QTY+47:3:PCE",    "MOA+203:30.00",        "PRI+AAA:10",  "UNS+S",
    "MOA+86:36.30",    "MOA+79:30.00",         "MOA+124:6.30"};

}  // namespace

TEST_CASE("handled message types") {
  auto r = read_path("tests/corpus/staedi/x12_invoice810_po850_dual.edi");
  REQUIRE(r.docs.size() == 3);
  CHECK(r.types[2] == "850");
  CHECK(std::holds_alternative<std::monostate>(r.docs[2].document));
  CHECK(r.docs[2].error.empty());
  CHECK(std::holds_alternative<Invoice>(r.docs[0].document));

  edi::Interchange x12;
  x12.standard = edi::Standard::X12;
  edi::Interchange edifact;
  edifact.standard = edi::Standard::Edifact;
  edi::Message m;
  for (const char* t : {"856", "810"}) {
    m.type = t;
    CHECK(business::handled(x12, m));
    CHECK_FALSE(business::handled(edifact, m));
  }
  for (const char* t : {"DESADV", "INVOIC"}) {
    m.type = t;
    CHECK(business::handled(edifact, m));
    CHECK_FALSE(business::handled(x12, m));
  }
  for (const char* t : {"850", "997", "ORDERS", "CONTRL", ""}) {
    m.type = t;
    CHECK_FALSE(business::handled(x12, m));
    CHECK_FALSE(business::handled(edifact, m));
  }
  CHECK(business::purpose_name(Purpose::Original) == "original");
  CHECK(business::purpose_name(Purpose::Replace) == "replace");
  CHECK(business::purpose_name(Purpose::Cancel) == "cancel");
}

TEST_CASE("X12 856 sample 004010") {
  auto r = read_path("samples/edi/x12-856-004010.edi");
  REQUIRE(r.docs.size() == 1);
  const auto& d = notice(r.docs[0]);
  CHECK(d.document_number == "SHP20240312001");
  CHECK(d.purpose == Purpose::Original);
  CHECK(d.document_date == "202403121430");
  CHECK(d.ship_date == "202403121430");
  CHECK(d.order_number == "PO45001234");
  CHECK(d.ship_from == "ACME01");
  CHECK(d.ship_to == "WH01");
  CHECK(d.carrier == "UPSN");
  CHECK(d.gross_weight == "30.0");
  REQUIRE(d.lines.size() == 3);
  const char* items[] = {"WID-100", "GAD-200", "BOL-300"};
  const char* upcs[] = {"012345678905", "012345678912", "012345678929"};
  const char* qty[] = {"24", "12", "48"};
  for (int i = 0; i < 3; ++i) {
    CAPTURE(i);
    CHECK(d.lines[i].line_number == i + 1);
    CHECK(d.lines[i].item_id == items[i]);
    CHECK(d.lines[i].item_id_type == "VP");
    CHECK(d.lines[i].supplier_item == upcs[i]);
    CHECK(d.lines[i].quantity == qty[i]);
    CHECK(d.lines[i].unit == "EA");
    CHECK(d.lines[i].order_number == "PO45001234");
  }
}

TEST_CASE("X12 856 sample 005010: two sets in one group") {
  auto r = read_path("samples/edi/x12-856-005010.edi");
  REQUIRE(r.docs.size() == 2);
  const auto& a = notice(r.docs[0]);
  CHECK(a.document_number == "SHP20240313001");
  CHECK(a.document_date == "202403130915");
  CHECK(a.order_number == "PO45001240");
  CHECK(a.gross_weight == "13.5");
  REQUIRE(a.lines.size() == 1);
  CHECK(a.lines[0].item_id == "WID-100");
  CHECK(a.lines[0].quantity == "36");
  CHECK(a.lines[0].order_number == "PO45001240");

  const auto& b = notice(r.docs[1]);
  CHECK(b.document_number == "SHP20240313002");
  CHECK(b.order_number == "PO45001241");
  CHECK(b.gross_weight == "28.5");
  REQUIRE(b.lines.size() == 3);
  CHECK(b.lines[0].item_id == "GAD-200");
  CHECK(b.lines[0].quantity == "6");
  CHECK(b.lines[1].item_id == "BOL-300");
  CHECK(b.lines[1].quantity == "60");
  CHECK(b.lines[2].item_id == "WID-100");
  CHECK(b.lines[2].quantity == "12");
  CHECK(b.lines[2].line_number == 3);
  for (const auto& l : b.lines) CHECK(l.order_number == "PO45001241");
}

TEST_CASE("X12 856: item lines take the order number of their enclosing O level") {
  auto r = read_bytes(
      x12_set("856", {"BSN*05*SHP1*20240102*123045*0001", "HL*1**S", "N1*SF*ACME SUPPLY CO", "N1*ST*STORE*92*ST01",
                      "HL*2*1*O", "PRF*PO-A", "HL*3*2*P", "HL*4*3*I", "LIN**UP*111*VP*A-1", "SN1**2*CA", "HL*5*1*O",
                      "PRF*PO-B", "HL*6*5*I", "LIN*7*UP*222", "SN1**3.5*LB", "HL*7*3*I", "LIN*8*UP*333", "SN1**1*EA"}));
  REQUIRE(r.docs.size() == 1);
  const auto& d = notice(r.docs[0]);
  CHECK(d.purpose == Purpose::Replace);
  CHECK(d.document_date == "20240102123045");
  CHECK(d.ship_date.empty());
  CHECK(d.order_number == "PO-A");         // the first order of the shipment
  CHECK(d.ship_from == "ACME SUPPLY CO");  // no N104: the name
  CHECK(d.ship_to == "ST01");
  CHECK(d.carrier.empty());
  CHECK(d.gross_weight.empty());
  REQUIRE(d.lines.size() == 3);
  CHECK(d.lines[0].line_number == 1);  // no LIN01: the position
  CHECK(d.lines[0].item_id == "111");
  CHECK(d.lines[0].item_id_type == "UP");
  CHECK(d.lines[0].supplier_item == "A-1");
  CHECK(d.lines[0].unit == "CA");
  CHECK(d.lines[0].order_number == "PO-A");
  CHECK(d.lines[1].line_number == 7);
  CHECK(d.lines[1].quantity == "3.5");
  CHECK(d.lines[1].supplier_item.empty());
  CHECK(d.lines[1].order_number == "PO-B");
  CHECK(d.lines[2].order_number == "PO-A");  // HL 7 hangs under pack 3, order 2

  // An item HL without (a known) parent belongs to the latest order level.
  auto orphan = read_bytes(
      x12_set("856", {"BSN*00*SHP2*20240102*12304599", "HL*1**S", "HL*2*1*O", "PRF*PO-A", "HL*3*1*O", "PRF*PO-B",
                      "HL*4**I", "LIN*1*UP*111", "SN1**1*EA", "HL*5*99*I", "LIN*2*UP*222", "SN1**2*EA"}));
  const auto& o = notice(orphan.docs[0]);
  REQUIRE(o.lines.size() == 2);
  CHECK(o.document_date == "20240102123045");  // decimal seconds dropped
  CHECK(o.lines[0].order_number == "PO-B");
  CHECK(o.lines[1].order_number == "PO-B");
}

TEST_CASE("X12 856 purpose codes") {
  auto with = [](const std::string& bsn01) {
    return read_bytes(x12_set("856", {"BSN*" + bsn01 + "*SHP1*20240102*1230", "HL*1**S"}));
  };
  CHECK(notice(with("00").docs[0]).purpose == Purpose::Original);
  CHECK(notice(with("05").docs[0]).purpose == Purpose::Replace);
  CHECK(notice(with("01").docs[0]).purpose == Purpose::Cancel);
  std::string e = error_of(with("07"));
  CHECK(contains(e, "segment 4 (BSN)"));
  CHECK(contains(e, "BSN01"));
  CHECK(contains(e, "'07'"));
  CHECK(contains(error_of(with("")), "BSN01 (purpose) is empty"));
}

TEST_CASE("X12 856 errors name the segment and what was expected") {
  const std::string sample = test::read_file(test::source_path("samples/edi/x12-856-004010.edi"));
  SUBCASE("BSN02 empty") {
    std::string e = error_of(read_bytes(replace(sample, "BSN*00*SHP20240312001*", "BSN*00**")));
    CHECK(e == "segment 4 (BSN): BSN02 (shipment identification) is empty");
  }
  SUBCASE("bad BSN03 date") {
    std::string e = error_of(read_bytes(replace(sample, "*20240312*1430*0001", "*240312*1430*0001")));
    CHECK(contains(e, "segment 4 (BSN): BSN03"));
    CHECK(contains(e, "'240312'"));
    CHECK(contains(e, "CCYYMMDD"));
  }
  SUBCASE("non-numeric SN102") {
    std::string e = error_of(read_bytes(replace(sample, "SN1**12*EA", "SN1**1Z*EA")));
    CHECK(e == "segment 26 (SN1): SN102 (number of units shipped) '1Z' is not a decimal number");
  }
  SUBCASE("LIN without SN1") {
    std::string e = error_of(read_bytes(replace(sample, "SN1**12*EA~\r\n", "")));
    CHECK(e == "segment 25 (LIN): item line 2 has no SN1 (quantity shipped)");
  }
  SUBCASE("no BSN") {
    std::string e = error_of(read_bytes(replace(sample, "BSN*00*SHP20240312001*20240312*1430*0001~\r\n", "")));
    CHECK(contains(e, "(SE)"));
    CHECK(contains(e, "no BSN"));
  }
}

TEST_CASE("X12 810 sample 004010") {
  auto r = read_path("samples/edi/x12-810-004010.edi");
  REQUIRE(r.docs.size() == 1);
  const auto& d = invoice(r.docs[0]);
  CHECK(d.invoice_number == "INV-88301");
  CHECK(d.document_date == "20240315");
  CHECK(d.order_number == "PO45001234");
  CHECK_FALSE(d.credit_note);
  CHECK(d.purpose == Purpose::Original);
  CHECK(d.currency.empty());
  CHECK(d.total_minor == 88308);
  CHECK(d.line_total_minor == 88308);
  CHECK_FALSE(d.tax_minor.has_value());
  REQUIRE(d.lines.size() == 3);
  CHECK(d.lines[0].line_number == 1);
  CHECK(d.lines[0].item_id_type == "UP");
  CHECK(d.lines[0].item_id == "012345678905");
  CHECK(d.lines[0].quantity == "24");
  CHECK(d.lines[0].unit == "EA");
  CHECK(d.lines[0].unit_price == "12.50");
  CHECK(d.lines[0].amount_minor == 30000);
  CHECK(d.lines[1].unit_price == "39.99");
  CHECK(d.lines[1].amount_minor == 47988);
  CHECK(d.lines[2].line_number == 3);
  CHECK(d.lines[2].quantity == "48");
  CHECK(d.lines[2].amount_minor == 10320);
}

TEST_CASE("X12 810 sample 005010 on one line, and the 810 of two-interchanges") {
  auto r = read_path("samples/edi/x12-810-005010.edi");
  REQUIRE(r.docs.size() == 1);
  const auto& d = invoice(r.docs[0]);
  CHECK(d.invoice_number == "INV-88302");
  CHECK(d.document_date == "20240316");
  CHECK(d.order_number == "PO45001240");
  CHECK(d.total_minor == 68994);
  CHECK(d.line_total_minor == 68994);
  REQUIRE(d.lines.size() == 2);
  CHECK(d.lines[0].amount_minor == 45000);
  CHECK(d.lines[1].amount_minor == 23994);

  auto two = read_path("samples/edi/two-interchanges.edi");
  REQUIRE(two.docs.size() == 2);
  const auto& inv = invoice(two.docs[0]);
  CHECK(inv.invoice_number == "INV-88310");
  CHECK(inv.order_number == "PO45001250");
  CHECK(inv.total_minor == 12500);
  REQUIRE(inv.lines.size() == 1);
  CHECK(inv.lines[0].amount_minor == 12500);
  const auto& asn = notice(two.docs[1]);
  CHECK(asn.document_number == "SHP20240318001");
  CHECK(asn.document_date == "202403181000");
  CHECK(asn.gross_weight == "6.5");
  REQUIRE(asn.lines.size() == 1);
  CHECK(asn.lines[0].item_id == "GAD-200");
  CHECK(asn.lines[0].quantity == "8");
  CHECK(asn.lines[0].order_number == "PO45001251");
}

TEST_CASE("X12 810 corpus: staedi simple810") {
  auto r = read_path("tests/corpus/staedi/x12_simple810.edi");
  REQUIRE(r.docs.size() == 2);
  const auto& a = invoice(r.docs[0]);
  CHECK(a.invoice_number == "00001");
  CHECK(a.document_date == "19971211");
  CHECK(a.order_number == "A99999-01");
  CHECK(a.total_minor == 255438);
  CHECK(a.line_total_minor == 255438);  // 207 cases x 12.34
  REQUIRE(a.lines.size() == 7);
  CHECK(a.lines[6].line_number == 7);  // IT101 empty: the position
  CHECK(a.lines[6].item_id_type == "UA");
  CHECK(a.lines[6].item_id == "002840088888");
  CHECK(a.lines[6].unit == "CA");
  CHECK(a.lines[5].amount_minor == 104890);  // 85 x 12.34

  const auto& b = invoice(r.docs[1]);
  CHECK(b.document_date == "19971215");
  CHECK(b.order_number == "A99999-04");
  REQUIRE(b.lines.size() == 2);
  // The corpus copied TDS 255438 from the first set; the lines add up to 1851.00.
  CHECK(b.total_minor == 255438);
  CHECK(b.line_total_minor == 185100);
}

TEST_CASE("X12 810: credit memo, purpose, currency, taxes, exact amounts") {
  auto r =
      read_bytes(x12_set("810", {"BIG*20240102*CM-1**PO-9***CR*05", "CUR*SE*EUR", "IT1*1*1*EA*1.005**VP*X",
                                 "TXI*ST*0.07", "IT1*2*3*EA*0.335", "IT1*3*-1*EA*0.005", "IT1*4*1000000*EA*12345678.99",
                                 "TDS*1234567900000", "TXI*ST*1.50", "TXI*LS*2.25", "TXI*CP**5"}));
  REQUIRE(r.docs.size() == 1);
  const auto& d = invoice(r.docs[0]);
  CHECK(d.credit_note);
  CHECK(d.purpose == Purpose::Replace);
  CHECK(d.currency == "EUR");
  CHECK(d.order_number == "PO-9");
  REQUIRE(d.lines.size() == 4);
  CHECK(d.lines[0].item_id == "X");
  CHECK(d.lines[0].amount_minor == 101);  // 1.005 rounds up (a double would say 1.00)
  CHECK(d.lines[1].amount_minor == 101);  // 1.005
  CHECK(d.lines[2].amount_minor == -1);   // -0.01: half away from zero
  CHECK(d.lines[3].amount_minor == 1234567899000000);
  CHECK(d.total_minor == 1234567900000);
  CHECK(d.tax_minor == 375);  // the summary TXI, not the line TXI
  CHECK(d.line_total_minor == 1234567899000201);

  auto cancel = read_bytes(x12_set("810", {"BIG*20240102*INV-2******01", "TDS*0"}));
  CHECK(invoice(cancel.docs[0]).purpose == Purpose::Cancel);
  CHECK_FALSE(invoice(cancel.docs[0]).credit_note);
  CHECK_FALSE(invoice(cancel.docs[0]).line_total_minor.has_value());
  auto line_tax = read_bytes(x12_set("810", {"BIG*20240102*INV-3", "IT1*1*1*EA*1", "TXI*ST*0.07", "TDS*107"}));
  CHECK(invoice(line_tax.docs[0]).tax_minor == 7);
  auto dotted = read_bytes(x12_set("810", {"BIG*20240102*INV-4", "TDS*883.08"}));
  CHECK(invoice(dotted.docs[0]).total_minor == 88308);
}

TEST_CASE("X12 810: decimal forms as read, and the significant digits an amount may have") {
  // Quantities and prices are kept as decimal text with '.' and a whole part;
  // the amount counts significant digits only (leading zeros are not).
  auto r = read_bytes(x12_set(
      "810", {"BIG*20240102*INV-D", "IT1*1*5.*EA*.5", "IT1*2*-.25*EA*004.50", "IT1*3*0.000000000000000000000012*EA*1",
              "IT1*4*0.000000000000000012345678901234567*EA*100000000000000000", "IT1*5* 7 *EA*2", "TDS*0"}));
  REQUIRE(r.docs.size() == 1);
  const auto& d = invoice(r.docs[0]);
  REQUIRE(d.lines.size() == 5);
  CHECK(d.lines[0].quantity == "5");
  CHECK(d.lines[0].unit_price == "0.5");
  CHECK(d.lines[0].amount_minor == 250);
  CHECK(d.lines[1].quantity == "-0.25");
  CHECK(d.lines[1].unit_price == "004.50");
  CHECK(d.lines[1].amount_minor == -113);  // -1.125: half away from zero
  CHECK(d.lines[2].quantity == "0.000000000000000000000012");
  CHECK(d.lines[2].amount_minor == 0);
  CHECK(d.lines[3].amount_minor == 123);  // 17 significant digits x 10^17: 1.2345...
  CHECK(d.lines[4].quantity == "7");
  CHECK(d.lines[4].amount_minor == 1400);

  // 19 significant digits are beyond the range, wherever the zeros are.
  std::string e =
      error_of(read_bytes(x12_set("810", {"BIG*20240102*INV-E", "IT1*1*0.0001234567890123456789*EA*1", "TDS*0"})));
  CHECK(contains(e, "segment 5 (IT1): IT102 x IT104 (0.0001234567890123456789 x 1) is beyond the supported range"));
}

TEST_CASE("X12 810 errors") {
  const std::string sample = test::read_file(test::source_path("samples/edi/x12-810-004010.edi"));
  SUBCASE("TDS missing") {
    std::string e = error_of(read_bytes(replace(replace(sample, "TDS*88308~\n", ""), "SE*23*", "SE*22*")));
    CHECK(e == "segment 24 (SE): the 810 has no TDS segment (total invoice amount); expected TDS after the IT1 lines");
  }
  SUBCASE("TDS not a number") {
    std::string e = error_of(read_bytes(replace(sample, "TDS*88308", "TDS*883O8")));
    CHECK(contains(e, "segment 23 (TDS): TDS01"));
    CHECK(contains(e, "'883O8'"));
  }
  SUBCASE("non-numeric quantity") {
    std::string e = error_of(read_bytes(replace(sample, "IT1*2*12*", "IT1*2*1 2*")));
    CHECK(e == "segment 19 (IT1): IT102 (quantity invoiced) '1 2' is not a decimal number");
  }
  SUBCASE("price missing") {
    std::string e = error_of(read_bytes(replace(sample, "*EA*2.15*", "*EA**")));
    CHECK(e == "segment 21 (IT1): IT104 (unit price) is empty");
  }
  SUBCASE("BIG02 empty") {
    std::string e = error_of(read_bytes(replace(sample, "*INV-88301*", "**")));
    CHECK(e == "segment 4 (BIG): BIG02 (invoice number) is empty");
  }
  SUBCASE("bad purpose") {
    std::string e = error_of(read_bytes(replace(sample, "*PO45001234~", "*PO45001234****06~")));
    CHECK(contains(e, "segment 4 (BIG): BIG08 (purpose) '06'"));
  }
  SUBCASE("amount out of range") {
    std::string e = error_of(read_bytes(replace(sample, "IT1*1*24*EA*12.50", "IT1*1*999999999999*EA*99999999.99")));
    CHECK(contains(e, "segment 17 (IT1)"));
    CHECK(contains(e, "range"));
  }
}

TEST_CASE("EDIFACT DESADV sample with UNA and release characters") {
  auto r = read_path("samples/edi/edifact-desadv-d96a-una.edi");
  REQUIRE(r.docs.size() == 1);
  const auto& d = notice(r.docs[0]);
  CHECK(d.document_number == "DES587441");
  CHECK(d.purpose == Purpose::Original);
  CHECK(d.document_date == "20240312");
  CHECK(d.ship_date == "20240312");
  CHECK(d.order_number == "PO45001234");
  CHECK(d.ship_from == "5412345000013");
  CHECK(d.ship_to == "5400000000010");
  CHECK(d.carrier.empty());  // TDT+20++30+31 names no carrier
  CHECK(d.gross_weight.empty());
  REQUIRE(d.lines.size() == 3);
  const char* gtins[] = {"5412345000020", "5412345000037", "5412345000044"};
  const char* items[] = {"WID-100", "GAD-200", "BOL-300"};
  const char* qty[] = {"24", "12", "48"};
  for (int i = 0; i < 3; ++i) {
    CAPTURE(i);
    CHECK(d.lines[i].line_number == i + 1);
    CHECK(d.lines[i].item_id == gtins[i]);
    CHECK(d.lines[i].item_id_type == "EN");
    CHECK(d.lines[i].supplier_item == items[i]);
    CHECK(d.lines[i].quantity == qty[i]);
    CHECK(d.lines[i].unit.empty());
    CHECK(d.lines[i].order_number == "PO45001234");  // the header's
  }
}

TEST_CASE("EDIFACT DESADV sample with a UNG group of two messages") {
  auto r = read_path("samples/edi/edifact-desadv-d96a-groups.edi");
  REQUIRE(r.docs.size() == 2);
  const auto& a = notice(r.docs[0]);
  CHECK(a.document_number == "DES587450");
  CHECK(a.document_date == "20240313");
  CHECK(a.order_number == "PO45001240");
  REQUIRE(a.lines.size() == 1);
  CHECK(a.lines[0].quantity == "36");
  const auto& b = notice(r.docs[1]);
  CHECK(b.document_number == "DES587451");
  CHECK(b.order_number == "PO45001241");
  REQUIRE(b.lines.size() == 3);
  CHECK(b.lines[0].quantity == "6");
  CHECK(b.lines[1].quantity == "60");
  CHECK(b.lines[2].item_id == "5412345000020");
  CHECK(b.lines[2].supplier_item == "WID-100");
  CHECK(b.lines[2].quantity == "12");
}

TEST_CASE("EDIFACT DESADV: line-scope RFF+ON, release characters, decimal comma, carrier, weight") {
  auto r = read_bytes(edifact_message("DESADV",
                                      {"BGM+351+DES?+1+5",
                                       "DTM+137:202403121430:203",
                                       "DTM+11:20240313:102",
                                       "RFF+ON:PO-H",
                                       "NAD+SE+++SMITH?+SONS",
                                       "NAD+CZ+CONSIGNOR1::9",
                                       "NAD+CZ+CONSIGNOR2::9",
                                       "NAD+ST+STORE?'S 1::9",
                                       "NAD+DP+DOCK7::9",
                                       "NAD+DP+DOCK8::9",
                                       "TDT+20++30+31+ACME?:FREIGHT::87:Acme Freight",
                                       "MEA+PD+G+KGM:1234,5",
                                       "MEA+PD+AAB+KGM:99",
                                       "CPS+1",
                                       "LIN+1++111:EN",
                                       "RFF+ON:PO-L1",
                                       "QTY+12:,5:KGM",
                                       "LIN+2",
                                       "PIA+5+222:SA",
                                       "PIA+1+S-2:SA+B-2:IN",
                                       "QTY+21:9",
                                       "QTY+12:7",
                                       "LIN+3++333:EN",
                                       "PIA+1+S-3:BP",
                                       "QTY+12:1"},
                                      ":+,? '"));
  REQUIRE(r.docs.size() == 1);
  const auto& d = notice(r.docs[0]);
  CHECK(d.document_number == "DES+1");
  CHECK(d.purpose == Purpose::Replace);
  CHECK(d.document_date == "202403121430");
  CHECK(d.ship_date == "20240313");
  CHECK(d.order_number == "PO-H");
  CHECK(d.ship_from == "CONSIGNOR1");  // CZ before SE
  CHECK(d.ship_to == "DOCK7");         // DP before ST
  CHECK(d.carrier == "ACME:FREIGHT");
  CHECK(d.gross_weight == "1234.5");
  REQUIRE(d.lines.size() == 3);
  CHECK(d.lines[0].order_number == "PO-L1");
  CHECK(d.lines[0].quantity == "0.5");
  CHECK(d.lines[0].unit == "KGM");
  CHECK(d.lines[1].item_id == "222");  // PIA+5 stands in for the missing LIN C212
  CHECK(d.lines[1].item_id_type == "SA");
  CHECK(d.lines[1].supplier_item == "S-2");
  CHECK(d.lines[1].quantity == "7");  // QTY+12, not QTY+21
  CHECK(d.lines[1].order_number == "PO-H");
  CHECK(d.lines[2].supplier_item == "S-3");  // PIA+1 without SA: its first id

  auto named =
      read_bytes(edifact_message("DESADV", {"BGM+351+D1", "DTM+137:20240312:102", "NAD+SU+++SMITH?+SONS?:CO"}));
  const auto& n = notice(named.docs[0]);
  CHECK(n.ship_from == "SMITH+SONS:CO");  // no party id: the released name
  CHECK(n.purpose == Purpose::Original);  // no 1225
}

TEST_CASE("EDIFACT DESADV errors") {
  const std::string sample = test::read_file(test::source_path("samples/edi/edifact-desadv-d96a-una.edi"));
  SUBCASE("BGM without 1004") {
    std::string e = error_of(read_bytes(replace(sample, "BGM+351+DES587441+9", "BGM+351++9")));
    CHECK(e == "segment 3 (BGM): BGM has no document number (1004, element 2)");
  }
  SUBCASE("non-numeric quantity") {
    std::string e = error_of(read_bytes(replace(sample, "QTY+12:12'", "QTY+12:1O'")));
    CHECK(contains(e, "segment 24 (QTY): QTY+12 despatch quantity (C186 6060) '1O' is not a decimal number"));
  }
  SUBCASE("unknown message function") {
    std::string e = error_of(read_bytes(replace(sample, "BGM+351+DES587441+9", "BGM+351+DES587441+31")));
    CHECK(contains(e, "segment 3 (BGM): BGM message function (1225) '31'"));
  }
  SUBCASE("cancellation") {
    auto r = read_bytes(replace(sample, "BGM+351+DES587441+9", "BGM+351+DES587441+1"));
    CHECK(notice(r.docs[0]).purpose == Purpose::Cancel);
  }
  SUBCASE("date not in format 102") {
    std::string e = error_of(read_bytes(replace(sample, "DTM+137:20240312:102", "DTM+137:240312:102")));
    CHECK(e == "segment 4 (DTM): DTM+137 date '240312' is not CCYYMMDD (format 102)");
    e = error_of(read_bytes(replace(sample, "DTM+137:20240312:102", "DTM+137:240312:101")));
    CHECK(contains(e, "segment 4 (DTM): DTM+137 date format '101' is not supported"));
  }
  SUBCASE("no document date") {
    std::string e = error_of(read_bytes(replace(sample, "DTM+137:20240312:102'\n", "")));
    CHECK(e == "segment 32 (UNT): the DESADV has no DTM+137 (document date)");
  }
  SUBCASE("line without QTY+12") {
    std::string e = error_of(read_bytes(replace(sample, "QTY+12:48'", "QTY+21:48'")));
    CHECK(e == "segment 29 (LIN): line 3 has no QTY+12 (despatch quantity)");
  }
}

TEST_CASE("EDIFACT INVOIC sample: invoice and credit note") {
  auto r = read_path("samples/edi/edifact-invoic-d96a.edi");
  REQUIRE(r.docs.size() == 2);
  const auto& a = invoice(r.docs[0]);
  CHECK(a.invoice_number == "INV-77120");
  CHECK_FALSE(a.credit_note);
  CHECK(a.purpose == Purpose::Original);
  CHECK(a.document_date == "20240315");
  CHECK(a.order_number == "PO45001234");
  CHECK(a.currency == "EUR");
  CHECK(a.total_minor == 93654);
  CHECK(a.line_total_minor == 77400);
  CHECK(a.tax_minor == 16254);
  REQUIRE(a.lines.size() == 2);
  CHECK(a.lines[0].line_number == 1);
  CHECK(a.lines[0].item_id == "5412345000020");
  CHECK(a.lines[0].item_id_type == "EN");
  CHECK(a.lines[0].quantity == "24");
  CHECK(a.lines[0].unit == "PCE");
  CHECK(a.lines[0].unit_price == "12.50");
  CHECK(a.lines[0].amount_minor == 30000);
  CHECK(a.lines[1].unit_price == "39.50");
  CHECK(a.lines[1].amount_minor == 47400);

  const auto& b = invoice(r.docs[1]);
  CHECK(b.invoice_number == "CN-77121");
  CHECK(b.credit_note);
  CHECK(b.document_date == "20240318");
  CHECK(b.order_number.empty());  // RFF+IV only
  CHECK(b.total_minor == 9559);
  CHECK(b.line_total_minor == 7900);
  CHECK(b.tax_minor == 1659);
  REQUIRE(b.lines.size() == 1);
  CHECK(b.lines[0].quantity == "2");
  CHECK(b.lines[0].amount_minor == 7900);
}

TEST_CASE("EDIFACT INVOIC sample in syntax 4 with released characters") {
  auto r = read_path("samples/edi/edifact-syntax4.edi");
  REQUIRE(r.docs.size() == 1);
  const auto& d = invoice(r.docs[0]);
  CHECK(d.invoice_number == "INV-77130");
  CHECK(d.order_number == "PO45001260");
  CHECK(d.total_minor == 41140);
  CHECK(d.line_total_minor == 34000);
  CHECK(d.tax_minor == 7140);
  REQUIRE(d.lines.size() == 2);
  CHECK(d.lines[0].amount_minor == 12500);
  CHECK(d.lines[1].quantity == "100");
  CHECK(d.lines[1].amount_minor == 21500);
}

TEST_CASE("EDIFACT INVOIC corpus: staedi D97B, with and without UNA") {
  for (const char* file :
       {"tests/corpus/staedi/EDIFACT_invoic_d97b.edi", "tests/corpus/staedi/EDIFACT_invoic_d97b_una.edi"}) {
    CAPTURE(file);
    auto r = read_path(file);
    REQUIRE(r.docs.size() == 1);
    const auto& d = invoice(r.docs[0]);
    CHECK(d.invoice_number == "342459");
    CHECK(d.document_date == "20060515");  // DTM+3: no DTM+137
    CHECK(d.order_number == "521052");
    CHECK(d.currency == "USD");
    CHECK(d.total_minor == 213758);  // MOA+39
    CHECK_FALSE(d.line_total_minor.has_value());
    CHECK_FALSE(d.tax_minor.has_value());
    REQUIRE(d.lines.size() == 2);
    CHECK(d.lines[0].item_id == "157870");
    CHECK(d.lines[0].item_id_type == "IN");
    CHECK(d.lines[0].quantity == "1020");
    CHECK(d.lines[0].unit == "EA");
    CHECK(d.lines[0].unit_price == "1.179");  // PRI+INV
    CHECK(d.lines[0].amount_minor == 120258);
    CHECK(d.lines[1].amount_minor == 41000);
  }
  auto bad = read_path("tests/corpus/staedi/EDIFACT_invoic_d97b_bad.edi");
  std::string e = error_of(bad);
  CHECK(e ==
        "segment 11 (QTY): QTY+47 invoiced quantity (C186 6060) '1020A' is not a decimal number (decimal mark '.')");
}

TEST_CASE("EDIFACT INVOIC corpus: staedi D93A with decimal comma") {
  auto r = read_path("tests/corpus/staedi/EDIFACT_invoic_d93a_una.edi");
  REQUIRE(r.docs.size() == 1);
  const auto& d = invoice(r.docs[0]);
  CHECK(d.invoice_number == "9908001");
  CHECK(d.document_date == "19990802");
  CHECK(d.order_number == "O0010001");
  CHECK(d.currency.empty());
  CHECK(d.total_minor == 90178);  // MOA+128
  CHECK(d.line_total_minor == 77740);
  CHECK(d.tax_minor == 12438);
  REQUIRE(d.lines.size() == 3);
  CHECK(d.lines[0].item_id == "4711.001");
  CHECK(d.lines[0].item_id_type.empty());
  CHECK(d.lines[0].amount_minor == 75000);  // MOA+66
  CHECK(d.lines[1].quantity == "1");
  CHECK(d.lines[1].unit_price == "19.9");
  CHECK(d.lines[1].amount_minor == 1990);
  CHECK(d.lines[2].quantity == "3");
  CHECK(d.lines[2].unit_price == "2.5");
  CHECK(d.lines[2].amount_minor == 750);
}

TEST_CASE("EDIFACT INVOIC: totals, purpose, computed line amounts") {
  auto base = read_bytes(edifact_message("INVOIC", kInvoicBody));
  const auto& d = invoice(base.docs[0]);
  CHECK(d.invoice_number == "INV-1");
  CHECK(d.currency == "EUR");
  CHECK(d.total_minor == 3630);
  CHECK(d.line_total_minor == 3000);
  CHECK(d.tax_minor == 630);

  auto body = kInvoicBody;
  body[0] = "BGM+381+CN?+1+5";
  body[2] = "CUX+3:USD+2:EUR";  // the reference currency wins
  body[5] = "PRI+AAB:11";       // no MOA+203; PRI+AAA wins over AAB
  body.insert(body.begin() + 5, "PRI+AAA:3,335");
  body[9] = "MOA+77:36,30";
  body[10] = "MOA+79:30";
  body[11] = "MOA+124:6";
  body.push_back("TAX+7+VAT+++:::6");
  body.push_back("MOA+124:0,30");
  auto r = read_bytes(edifact_message("INVOIC", body, ":+,? '"));
  const auto& c = invoice(r.docs[0]);
  CHECK(c.invoice_number == "CN+1");
  CHECK(c.credit_note);
  CHECK(c.purpose == Purpose::Replace);
  CHECK(c.currency == "EUR");
  REQUIRE(c.lines.size() == 1);
  CHECK(c.lines[0].unit_price == "3.335");
  CHECK(c.lines[0].amount_minor == 1001);  // 3 x 3.335 = 10.005
  CHECK(c.total_minor == 3630);            // MOA+77 without 86
  CHECK(c.tax_minor == 630);               // 6.00 + 0.30
  CHECK(c.line_total_minor == 3000);

  // Tax: MOA+124 (summed) before 176 before MOA+150 (summed).
  auto tax = [](const std::vector<std::string>& moas) {
    auto b = kInvoicBody;
    b.erase(b.begin() + 10);  // MOA+124
    b.insert(b.end(), moas.begin(), moas.end());
    auto r = read_bytes(edifact_message("INVOIC", b));
    return invoice(r.docs[0]).tax_minor;
  };
  CHECK(tax({"MOA+150:1.10", "MOA+150:2.20"}) == 330);
  CHECK(tax({"MOA+150:1.10", "MOA+176:5.00"}) == 500);
  CHECK(tax({"MOA+150:1.10", "MOA+176:5.00", "MOA+124:4.00"}) == 400);
  CHECK_FALSE(tax({"MOA+125:1.10"}).has_value());
}

TEST_CASE("EDIFACT INVOIC errors") {
  auto with = [](size_t index, const std::string& segment) {
    auto body = kInvoicBody;
    body[index] = segment;
    return error_of(read_bytes(edifact_message("INVOIC", body)));
  };
  CHECK(with(0, "BGM+380") == "segment 3 (BGM): BGM has no document number (1004, element 2)");
  CHECK(with(8, "MOA+125:36.30") ==
        "segment 14 (UNT): the INVOIC has no total amount: expected MOA+86 (or 77, 9, 39, 128) after UNS+S");
  CHECK(with(8, "MOA+86:36.3.0") ==
        "segment 11 (MOA): MOA+86 amount '36.3.0' is not a decimal amount (decimal mark '.')");
  CHECK(with(4, "QTY+46:3") == "segment 6 (LIN): line 1 has no QTY+47 (invoiced quantity)");
  CHECK(with(6, "PRI+AAA:$10") ==
        "segment 9 (PRI): PRI+AAA price (C509 5118) '$10' is not a decimal number (decimal mark '.')");
  CHECK(with(1, "DTM+35:20240315:102") ==
        "segment 14 (UNT): the INVOIC has no DTM+137 (document date) nor DTM+3 (invoice date)");
  auto body = kInvoicBody;
  body.erase(body.begin() + 5, body.begin() + 7);  // no MOA+203, no PRI
  std::string e = error_of(read_bytes(edifact_message("INVOIC", body)));
  CHECK(e == "segment 6 (LIN): line 1 has no line amount (MOA+203) and no price (PRI+AAA) to compute it");
}

TEST_CASE("a span outside the input gives an error, not a crash") {
  edi::Interchange ic;
  ic.standard = edi::Standard::X12;
  edi::Message m;
  m.type = "810";
  m.span = {1000, 10};
  auto e = business::extract(ic, m, "short");
  CHECK(std::holds_alternative<std::monostate>(e.document));
  CHECK(contains(e.error, "outside the input"));
}

TEST_CASE("to_minor") {
  CHECK(to_minor("1202.58") == 120258);
  CHECK(to_minor("1202,58", 2, ',') == 120258);
  CHECK(to_minor("1,5", 2, ',') == 150);
  CHECK(to_minor("-3") == -300);
  CHECK(to_minor(".5") == 50);
  CHECK(to_minor("5.") == 500);
  CHECK(to_minor("0.005") == 1);  // half away from zero
  CHECK(to_minor("-0.005") == -1);
  CHECK(to_minor("0.00499999") == 0);
  CHECK(to_minor("2.675") == 268);  // 2.675 is 2.67499... as a double
  CHECK(to_minor("0") == 0);
  CHECK(to_minor("-0") == 0);
  CHECK(to_minor("000000000000000000000012.34") == 1234);
  CHECK(to_minor("12.345", 3) == 12345);
  CHECK(to_minor("12.5", 0) == 13);
  CHECK(to_minor("92233720368547758.07") == INT64_MAX);
  CHECK(to_minor("-92233720368547758.07") == -INT64_MAX);
  CHECK_FALSE(to_minor("92233720368547758.08").has_value());   // overflow
  CHECK_FALSE(to_minor("92233720368547758.075").has_value());  // overflow by rounding
  CHECK_FALSE(to_minor("99999999999999999999").has_value());
  CHECK_FALSE(to_minor("1e5").has_value());
  CHECK_FALSE(to_minor("1,5").has_value());  // ',' is not the mark here
  CHECK_FALSE(to_minor("1.5", 2, ',').has_value());
  CHECK_FALSE(to_minor("").has_value());
  CHECK_FALSE(to_minor("-").has_value());
  CHECK_FALSE(to_minor(".").has_value());
  CHECK_FALSE(to_minor("+3").has_value());
  CHECK_FALSE(to_minor(" 3").has_value());
  CHECK_FALSE(to_minor("1.2.3").has_value());
  CHECK_FALSE(to_minor("--3").has_value());
  CHECK_FALSE(to_minor("1", -1).has_value());
}

TEST_CASE("every 5th prefix of the samples gives a document or an error, never both") {
  const char* files[] = {"samples/edi/x12-856-004010.edi",
                         "samples/edi/x12-856-005010.edi",
                         "samples/edi/x12-810-004010.edi",
                         "samples/edi/x12-810-005010.edi",
                         "samples/edi/edifact-desadv-d96a-una.edi",
                         "samples/edi/edifact-desadv-d96a-groups.edi",
                         "samples/edi/edifact-invoic-d96a.edi",
                         "samples/edi/edifact-syntax4.edi",
                         "samples/edi/broken-x12-truncated.edi",
                         "samples/edi/broken-edifact-truncated.edi",
                         "tests/corpus/staedi/EDIFACT_invoic_d93a_una.edi",
                         "tests/corpus/staedi/EDIFACT_invoic_d97b_bad.edi"};
  size_t documents = 0, errors = 0;
  for (const std::string file : files) {
    CAPTURE(file);
    const std::string bytes = test::read_file(test::source_path(file));
    REQUIRE_FALSE(bytes.empty());
    // Every 5th prefix, and the whole file: quadratic, so not every one.
    for (size_t n = 1; n <= bytes.size(); n = n + 5 > bytes.size() && n != bytes.size() ? bytes.size() : n + 5) {
      const std::string prefix = bytes.substr(0, n);
      auto parsed = edi::parse(prefix);
      for (const auto& ic : parsed.interchanges)
        for (const auto& g : ic.groups)
          for (const auto& m : g.messages) {
            if (!business::handled(ic, m)) continue;
            auto e = business::extract(ic, m, prefix);
            const bool has_doc = !std::holds_alternative<std::monostate>(e.document);
            if (has_doc != e.error.empty()) {
              CAPTURE(n);
              CAPTURE(e.error);
              FAIL_CHECK("a document and an error, or neither");
            }
            (has_doc ? documents : errors)++;
          }
    }
  }
  CHECK(documents > 0);
  CHECK(errors > 0);
}
