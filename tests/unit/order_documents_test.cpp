// Orders and order responses, the types added through the registry alone:
// X12 850/855 and EDIFACT ORDERS/ORDRSP read into registry documents (every
// field by name), with errors that name the segment; and the registry's own
// promises (each type's fields, the message types it books).
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "parsers/edi/parser.h"
#include "src/business/registry.h"
#include "tests/unit/test_util.h"

using namespace edihub;
using business::Document;
using business::ReadDocument;

namespace {

struct Read {
  std::string bytes;
  std::vector<ReadDocument> docs;
};

Read read_bytes(std::string bytes) {
  Read r;
  r.bytes = std::move(bytes);
  auto parsed = edi::parse(r.bytes);
  for (const auto& ic : parsed.interchanges)
    for (const auto& g : ic.groups)
      for (const auto& m : g.messages) r.docs.push_back(business::read_document(ic, m, r.bytes));
  return r;
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

// A value as text: its text, its integer, or "-" for NULL.
std::string shown(const business::Field& f, const business::Value& v) {
  const bool text = f.kind == business::FieldKind::Text || f.kind == business::FieldKind::OptionalText;
  return !v.present ? "-" : text ? v.text : std::to_string(v.integer);
}

// A document's fields by name, as text, for exact comparison.
std::map<std::string, std::string> fields(const Document& d) {
  std::map<std::string, std::string> out;
  for (size_t i = 0; i < d.type->fields.size(); ++i)
    out[std::string(d.type->fields[i].name)] = shown(d.type->fields[i], d.fields.at(i));
  return out;
}

// One line as "name=value" joined by spaces, in field order.
std::string line(const Document& d, size_t i) {
  std::string out;
  for (size_t f = 0; f < d.type->line_fields.size(); ++f)
    out += (f == 0 ? "" : " ") + std::string(d.type->line_fields[f].name) + "=" +
           shown(d.type->line_fields[f], d.lines.at(i).at(f));
  return out;
}

const Document& ok(const ReadDocument& r) {
  INFO("error: " << r.error);
  REQUIRE(r.handled);
  REQUIRE(r.error.empty());
  return r.document;
}

}  // namespace

TEST_CASE("the registry: every type once, and which messages book which") {
  std::vector<std::string> kinds;
  for (const auto* t : business::document_types()) kinds.emplace_back(t->kind);
  CHECK(kinds == std::vector<std::string>{"invoice", "shipment-notice", "order", "order-response"});
  edi::Interchange x12, edifact;
  edifact.standard = edi::Standard::Edifact;
  edi::Message m;
  for (const char* t : {"810", "856", "850", "855"}) {
    m.type = t;
    CHECK(business::books(x12, m));
    CHECK_FALSE(business::books(edifact, m));
  }
  for (const char* t : {"INVOIC", "DESADV", "ORDERS", "ORDRSP"}) {
    m.type = t;
    CHECK(business::books(edifact, m));
    CHECK_FALSE(business::books(x12, m));
  }
  for (const char* t : {"860", "997", "CONTRL", "APERAK", ""}) {
    m.type = t;
    CHECK_FALSE(business::books(x12, m));
    CHECK_FALSE(business::books(edifact, m));
    CHECK_FALSE(business::read_document(x12, m, "").handled);
  }
}

TEST_CASE("X12 850 sample: the order with its parties, dates, total and lines") {
  Read r = read_bytes(test::read_file(test::source_path("samples/edi/x12-850-004010.edi")));
  REQUIRE(r.docs.size() == 1);
  const Document& d = ok(r.docs[0]);
  CHECK(d.type == &business::order_type());
  CHECK(d.number == "PO-5001");
  CHECK(d.purpose == business::Purpose::Original);
  CHECK(d.document_date == "20240320");
  CHECK(fields(d) == std::map<std::string, std::string>{{"order_type", "SA"},
                                                        {"currency", "USD"},
                                                        {"buyer", "BT01"},
                                                        {"seller", "ACME01"},
                                                        {"ship_to", "WH01"},
                                                        {"delivery_date", "20240405"},
                                                        {"total_minor", "77988"}});
  REQUIRE(d.lines.size() == 2);
  CHECK(line(d, 0) == "line_number=1 item_id=012345678905 item_id_type=UP quantity=24 unit=EA unit_price=12.50");
  CHECK(line(d, 1) == "line_number=2 item_id=012345678912 item_id_type=UP quantity=12 unit=EA unit_price=39.99");
}

TEST_CASE("X12 850 purposes and errors name the segment") {
  const std::string sample = test::read_file(test::source_path("samples/edi/x12-850-004010.edi"));
  CHECK(ok(read_bytes(replace(sample, "BEG*00*", "BEG*05*")).docs[0]).purpose == business::Purpose::Replace);
  CHECK(ok(read_bytes(replace(sample, "BEG*00*", "BEG*01*")).docs[0]).purpose == business::Purpose::Cancel);
  CHECK(read_bytes(replace(sample, "BEG*00*", "BEG*06*")).docs[0].error ==
        "segment 4 (BEG): BEG01 (purpose) '06' is not 00 (original), 05 (replace) or 01 (cancellation)");
  CHECK(read_bytes(replace(sample, "*PO-5001*", "**")).docs[0].error ==
        "segment 4 (BEG): BEG03 (purchase order number) is empty");
  CHECK(read_bytes(replace(sample, "**20240320~", "**2024032~")).docs[0].error ==
        "segment 4 (BEG): BEG05 (purchase order date) '2024032' is not a date CCYYMMDD");
  CHECK(read_bytes(replace(sample, "PO1*2*12*", "PO1*2*1 2*")).docs[0].error ==
        "segment 15 (PO1): PO102 (quantity ordered) '1 2' is not a decimal number");
  CHECK(read_bytes(replace(sample, "AMT*TT*779.88", "AMT*TT*77x")).docs[0].error ==
        "segment 18 (AMT): AMT02 (total amount) '77x' is not a decimal amount");
}

TEST_CASE("EDIFACT ORDERS sample: decimal comma, parties, delivery date, lines") {
  Read r = read_bytes(test::read_file(test::source_path("samples/edi/edifact-orders-d96a.edi")));
  REQUIRE(r.docs.size() == 1);
  const Document& d = ok(r.docs[0]);
  CHECK(d.type == &business::order_type());
  CHECK(d.number == "PO-7001");
  CHECK(d.document_date == "20240320");
  CHECK(fields(d) == std::map<std::string, std::string>{{"order_type", "220"},
                                                        {"currency", "EUR"},
                                                        {"buyer", "5400000000009"},
                                                        {"seller", "5412345000013"},
                                                        {"ship_to", "5400000000016"},
                                                        {"delivery_date", "20240405"},
                                                        {"total_minor", "-"}});
  REQUIRE(d.lines.size() == 2);
  CHECK(line(d, 0) == "line_number=1 item_id=5412345000020 item_id_type=EN quantity=24 unit=PCE unit_price=12.50");
  CHECK(line(d, 1) == "line_number=2 item_id=5412345000037 item_id_type=EN quantity=12 unit=PCE unit_price=39.50");
  const std::string sample = test::read_file(test::source_path("samples/edi/edifact-orders-d96a.edi"));
  CHECK(read_bytes(replace(sample, "DTM+137:20240320:102'\n", "")).docs[0].error ==
        "segment 21 (UNT): the ORDERS has no DTM+137 (document date)");
  CHECK(read_bytes(replace(sample, "QTY+21:12:PCE'\n", "QTY+12:12:PCE'\n")).docs[0].error ==
        "segment 22 (UNT): line 2 has no QTY+21 (ordered quantity)");
  CHECK(read_bytes(replace(sample, "BGM+220+PO-7001+9", "BGM+220+PO-7001+7")).docs[0].error ==
        "segment 3 (BGM): BGM message function (1225) '7' is not 9 (original), 5 (replace) or 1 (cancellation)");
}

TEST_CASE("order responses: an 855 and an ORDRSP") {
  const std::string x12 =
      "ISA*00*          *00*          *ZZ*ACMESUPPLY     *ZZ*EDIHUB         *240321*0800*U*00401*000000302*0*P*>~"
      "GS*PR*ACMESUPPLY*EDIHUB*20240321*0800*302*X*004010~ST*855*0001~BAK*00*AC*PO-5001*20240320****SO-88*20240321~"
      "N1*SE*ACME SUPPLY CO*92*ACME01~PO1*1*24*EA*12.50**UP*012345678905~ACK*IA*24*EA~"
      "PO1*2*10*EA*39.99**UP*012345678912~ACK*IQ*10*EA~SE*9*0001~GE*1*302~IEA*1*000000302~";
  const Read ra = read_bytes(x12);
  const Document& a = ok(ra.docs.at(0));
  CHECK(a.type == &business::order_response_type());
  CHECK(a.number == "SO-88");
  CHECK(a.document_date == "20240321");
  CHECK(fields(a) == std::map<std::string, std::string>{
                         {"order_number", "PO-5001"}, {"response_type", "AC"}, {"buyer", ""}, {"seller", "ACME01"}});
  CHECK(line(a, 1) == "line_number=2 item_id=012345678912 item_id_type=UP quantity=10 unit=EA line_status=IQ");
  const std::string edifact =
      "UNB+UNOC:3+5412345000013:14+5400000000009:14+240321:0800+RSP1'UNH+1+ORDRSP:D:96A:UN'"
      "BGM+231+RSP-7001+29'DTM+137:20240321:102'RFF+ON:PO-7001'NAD+SU+5412345000013::9'"
      "LIN+1+5+5412345000020:EN'QTY+21:24:PCE'LIN+2+7+5412345000037:EN'UNS+S'UNT+11+1'UNZ+1+RSP1'";
  const Read rb = read_bytes(edifact);
  const Document& b = ok(rb.docs.at(0));
  CHECK(b.number == "RSP-7001");
  CHECK(fields(b) ==
        std::map<std::string, std::string>{
            {"order_number", "PO-7001"}, {"response_type", "29"}, {"buyer", ""}, {"seller", "5412345000013"}});
  CHECK(line(b, 0) == "line_number=1 item_id=5412345000020 item_id_type=EN quantity=24 unit=PCE line_status=5");
  CHECK(line(b, 1) == "line_number=2 item_id=5412345000037 item_id_type=EN quantity= unit= line_status=7");
  CHECK(read_bytes(replace(replace(edifact, "RFF+ON:PO-7001'", ""), "UNT+11", "UNT+10")).docs.at(0).error ==
        "segment 10 (UNT): the ORDRSP has no RFF+ON (the order it answers)");
}
