// EDIFACT messages checked against a definition: the release character is
// data, n/an/a types, codes and lengths, groups; and the CONTRL that says each
// finding as UCS/UCD with ISO 9735's 0085 codes, byte for byte.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "parsers/edi/parser.h"
#include "parsers/edifact/contrl.h"
#include "src/documents/canonical.h"
#include "src/documents/definition.h"
#include "src/documents/validator.h"

using namespace edihub;

namespace {

const edifact::ContrlEnvelope kEnv{"C0001", "1", "240103", "0915", "\n", std::nullopt, std::nullopt};

// A test directory: INVOIC cut down to what these tests need (1004 is
// narrowed to 5 characters so that a released separator's length counts,
// 3035 given a minimum of 2 to have an element too short).
const char* const kDefinition = R"(standard edifact D96A
element 0062 an 1 14
element 0065 an 1 6
element 0052 an 1 3
element 0054 an 1 3
element 0051 an 1 2
element 0057 an 1 6
element 0074 n 1 6
element 0081 a 1 1
codes 0081 D S
element 1001 an 1 3
element 1004 an 1 5
element 1225 an 1 3
element 2005 an 1 3
element 2380 an 1 35
element 2379 an 1 3
element 3035 an 2 3
element 3039 an 1 35
element 3055 an 1 3
element 1131 an 1 3
element 1082 an 1 6
element 6063 an 1 3
element 6060 n 1 15
element 6411 an 1 3
composite S009
  0065 M
  0052 M
  0054 M
  0051 M
  0057 O
composite C002
  1001 O
composite C507
  2005 M
  2380 O
  2379 O
composite C082
  3039 M
  1131 O
  3055 O
composite C186
  6063 M
  6060 M
  6411 O
segment UNH
  0062 M
  S009 M
  open
segment UNT
  0074 M
  0062 M
segment BGM
  C002 O
  1004 O
  1225 O
segment DTM
  C507 M
segment NAD
  3035 M
  C082 O
  open
segment LIN
  1082 O
  open
segment QTY
  C186 M
segment UNS
  0081 M
message INVOIC
  UNH M 1
  BGM M 1
  DTM M 35
  loop NAD O 99 "SG2"
    NAD M 1
  end
  loop LIN O 200000 "SG25"
    LIN M 1
    QTY O 99
  end
  UNS M 1
  UNT M 1
)";

const documents::Definitions& definitions() {
  static const documents::Definitions* d = [] {
    auto loaded = documents::Definitions::load({{"test.def", kDefinition}});
    REQUIRE_MESSAGE(loaded.is_ok(), loaded.status().message());
    return new documents::Definitions(std::move(loaded).value());
  }();
  return *d;
}

const std::vector<std::string> kInvoice = {
    "BGM+380+INV?+1+9",  // 1004 is "INV+1": five characters, the separator released
    "DTM+137:20240315:102", "NAD+SU+5412345000013::9", "LIN+1", "QTY+47:24", "UNS+S",
};

std::string interchange(const std::vector<std::string>& content) {
  std::string out = "UNB+UNOA:3+5412345000013:14+5400000000009:14+240315:0800+INV0001'UNH+1+INVOIC:D:96A:UN'";
  for (const auto& s : content) out += s + "'";
  return out + "UNT+" + std::to_string(content.size() + 2) + "+1'UNZ+1+INV0001'";
}

std::vector<std::string> with(std::vector<std::string> content, size_t at, const std::string& segment) {
  content.at(at) = segment;
  return content;
}

// The CONTRL's UCM, UCS and UCD segments for `content`, one per line.
std::string contrl_findings(const std::vector<std::string>& content, bool accepted = false) {
  documents::Validator validator(definitions());
  edi::ParseOptions options;
  options.observer = &validator;
  edi::ParseResult r = edi::parse(interchange(content), options);
  REQUIRE(r.interchanges.size() == 1);
  REQUIRE(r.interchanges[0].ok());
  edi::Message& m = r.interchanges[0].groups.at(0).messages.at(0);
  REQUIRE(m.validated);
  m.errors_accepted = accepted;
  const std::string contrl = edifact::build_contrl(r.interchanges[0], kEnv);
  std::string out;
  size_t start = 0;
  while (start < contrl.size()) {
    const size_t end = contrl.find('\n', start);
    const std::string line = contrl.substr(start, end - start);
    if (line.rfind("UCM", 0) == 0 || line.rfind("UCS", 0) == 0 || line.rfind("UCD", 0) == 0) out += line + "\n";
    start = end + 1;
  }
  return out;
}

}  // namespace

TEST_CASE("an EDIFACT message that passes its definition: UCM 7, and the release character is data") {
  CHECK(contrl_findings(kInvoice) == "UCM+1+INVOIC:D:96A:UN+7'\n");
  // Without the release character the separator splits 1004: an element too many (16).
  CHECK(contrl_findings(with(kInvoice, 0, "BGM+380+INV+1+9")) == "UCM+1+INVOIC:D:96A:UN+4'\nUCS+2'\nUCD+16+5'\n");
}

TEST_CASE("EDIFACT findings: each 0085 code in its UCS or UCD") {
  // 13: BGM missing, noticed at the DTM that follows UNH; ISO 9735 points at
  // the last segment processed before the gap, UNH (1).
  CHECK(contrl_findings({kInvoice.begin() + 1, kInvoice.end()}) == "UCM+1+INVOIC:D:96A:UN+4'\nUCS+1+13'\n");
  // 15: a segment the directory does not know.
  auto unknown = kInvoice;
  unknown.insert(unknown.begin() + 2, "ZZZ+1");
  CHECK(contrl_findings(unknown) == "UCM+1+INVOIC:D:96A:UN+4'\nUCS+4+15'\n");
  // 35: DTM more than 35 times.
  auto dates = kInvoice;
  for (int i = 0; i < 35; ++i) dates.insert(dates.begin() + 1, "DTM+137:20240315:102");
  CHECK(contrl_findings(dates) == "UCM+1+INVOIC:D:96A:UN+4'\nUCS+38+35'\n");
  // 39 too long, 40 too short (UNS's 0081 is a1 ... a code: 12), 37 (invalid type of
  // characters) a digit in an alphabetic element and a letter in a numeric one.
  // UCD's 0098 counts the tag as 1: BGM's 1004 is element 3.
  CHECK(contrl_findings(with(kInvoice, 0, "BGM+380+INV-12+9")) == "UCM+1+INVOIC:D:96A:UN+4'\nUCS+2'\nUCD+39+3'\n");
  CHECK(contrl_findings(with(kInvoice, 5, "UNS+X")) == "UCM+1+INVOIC:D:96A:UN+4'\nUCS+7'\nUCD+12+2'\n");
  CHECK(contrl_findings(with(kInvoice, 5, "UNS+1")) == "UCM+1+INVOIC:D:96A:UN+4'\nUCS+7'\nUCD+37+2'\n");
  CHECK(contrl_findings(with(kInvoice, 4, "QTY+47:24x")) == "UCM+1+INVOIC:D:96A:UN+4'\nUCS+6'\nUCD+37+2:2'\n");
  // n accepts ',' as the decimal mark and a minus sign; 13 for a missing component.
  CHECK(contrl_findings(with(kInvoice, 4, "QTY+47:-24,5")) == "UCM+1+INVOIC:D:96A:UN+7'\n");
  CHECK(contrl_findings(with(kInvoice, 4, "QTY+47")) == "UCM+1+INVOIC:D:96A:UN+4'\nUCS+6'\nUCD+13+2:2'\n");
  // 16: a component too many.
  CHECK(contrl_findings(with(kInvoice, 4, "QTY+47:24:PCE:X")) == "UCM+1+INVOIC:D:96A:UN+4'\nUCS+6'\nUCD+16+2:4'\n");
  // 40: too short; 36: the NAD group more than 99 times.
  CHECK(contrl_findings(with(kInvoice, 2, "NAD+S")) == "UCM+1+INVOIC:D:96A:UN+4'\nUCS+4'\nUCD+40+2'\n");
  auto parties = kInvoice;
  for (int i = 0; i < 99; ++i) parties.insert(parties.begin() + 2, "NAD+BY+" + std::to_string(i));
  CHECK(contrl_findings(parties) == "UCM+1+INVOIC:D:96A:UN+4'\nUCS+103+36'\n");
  // 21: a control character, outside every syntax level's set; 16: a component
  // separator in a simple element (DTM's 2005 is its composite's first component).
  CHECK(contrl_findings(with(kInvoice, 0, "BGM+380+IN\x01V+9")) == "UCM+1+INVOIC:D:96A:UN+4'\nUCS+2'\nUCD+21+3'\n");
  CHECK(contrl_findings(with(kInvoice, 0, "BGM+380+INV:1+9")) == "UCM+1+INVOIC:D:96A:UN+4'\nUCS+2'\nUCD+16+3'\n");
  // The mandatory UNS missing: found at UNT (7), reported at QTY (6), the last
  // segment before the gap.
  CHECK(contrl_findings({kInvoice.begin(), kInvoice.end() - 1}) == "UCM+1+INVOIC:D:96A:UN+4'\nUCS+6+13'\n");
  // Accepted by the partner's policy: UCM 7, the findings still listed.
  CHECK(contrl_findings(with(kInvoice, 5, "UNS+X"), true) == "UCM+1+INVOIC:D:96A:UN+7'\nUCS+7'\nUCD+12+2'\n");
}

TEST_CASE("an EDIFACT guide: 14 for a code the guide does not use, 15 for a segment or an element it does not") {
  auto g = documents::Guide::load(definitions(), {"retail-invoic.def",
                                                  "guide edifact D96A INVOIC\n"
                                                  "element UNS01 codes S\n"
                                                  "element BGM03 -\n"
                                                  "loop NAD -\n"});
  REQUIRE_MESSAGE(g.is_ok(), g.status().message());
  const documents::Catalog catalog{&definitions(), {g.value()}};
  documents::Validator validator(catalog);
  edi::ParseOptions options;
  options.observer = &validator;
  edi::ParseResult r = edi::parse(interchange(with(kInvoice, 5, "UNS+D")), options);
  REQUIRE(r.interchanges.size() == 1);
  CHECK(edifact::build_contrl(r.interchanges[0], kEnv) ==
        "UNB+UNOA:3+5400000000009:14+5412345000013:14+240103:0915+C0001'\n"
        "UNH+1+CONTRL:D:3:UN'\n"
        "UCI+INV0001+5412345000013:14+5400000000009:14+7'\n"
        "UCM+1+INVOIC:D:96A:UN+4'\n"
        "UCS+2'\n"
        "UCD+15+4'\n"
        "UCS+4+15'\n"
        "UCS+7'\n"
        "UCD+14+2'\n"
        "UNT+9+1'\n"
        "UNZ+1+C0001'\n");
}

TEST_CASE("the canonical document: every segment in its loop, names, components, released characters as data") {
  const std::string bytes = interchange({"BGM+380+INV?+1+9", "DTM+137:20240315:102", "NAD+SU+5412345000013::9",
                                         "NAD+BY+5400000000009::9", "LIN+1", "QTY+47:24", "UNS+S"});
  edi::ParseResult r = edi::parse(bytes);
  REQUIRE(r.interchanges.size() == 1);
  const edi::Interchange& ic = r.interchanges[0];
  const documents::Catalog catalog{&definitions(), {}};
  const std::string json = documents::canonical_json(catalog, ic, ic.groups[0], ic.groups[0].messages[0], bytes);
  CHECK(
      json ==
      R"({"schema":"edihub-document/1","standard":"edifact","version":"D:96A:UN","type":"INVOIC",)"
      R"("envelope":{"interchange":"INV0001","sender":{"id":"5412345000013","qualifier":"14"},)"
      R"("receiver":{"id":"5400000000009","qualifier":"14"},"date":"240315","time":"0800","test":false,"message":"1"},)"
      R"("checked":true,"valid":true,"segments":[)"
      R"({"tag":"UNH","position":1,"elements":[{"position":1,"ref":"0062","value":"1"},)"
      R"({"position":2,"ref":"S009","components":[{"position":1,"ref":"0065","value":"INVOIC"},)"
      R"({"position":2,"ref":"0052","value":"D"},{"position":3,"ref":"0054","value":"96A"},)"
      R"({"position":4,"ref":"0051","value":"UN"}]}]},)"
      R"({"tag":"BGM","position":2,"elements":[{"position":1,"ref":"C002","components":[{"position":1,"ref":"1001","value":"380"}]},)"
      R"({"position":2,"ref":"1004","value":"INV+1"},{"position":3,"ref":"1225","value":"9"}]},)"
      R"({"tag":"DTM","position":3,"elements":[{"position":1,"ref":"C507","components":[{"position":1,"ref":"2005","value":"137"},)"
      R"({"position":2,"ref":"2380","value":"20240315"},{"position":3,"ref":"2379","value":"102"}]}]},)"
      R"({"loop":"NAD","name":"SG2","repetition":1,"segments":[{"tag":"NAD","position":4,"elements":[)"
      R"({"position":1,"ref":"3035","value":"SU"},{"position":2,"ref":"C082","components":[)"
      R"({"position":1,"ref":"3039","value":"5412345000013"},{"position":3,"ref":"3055","value":"9"}]}]}]},)"
      R"({"loop":"NAD","name":"SG2","repetition":2,"segments":[{"tag":"NAD","position":5,"elements":[)"
      R"({"position":1,"ref":"3035","value":"BY"},{"position":2,"ref":"C082","components":[)"
      R"({"position":1,"ref":"3039","value":"5400000000009"},{"position":3,"ref":"3055","value":"9"}]}]}]},)"
      R"({"loop":"LIN","name":"SG25","repetition":1,"segments":[{"tag":"LIN","position":6,"elements":[)"
      R"({"position":1,"ref":"1082","value":"1"}]},{"tag":"QTY","position":7,"elements":[{"position":1,"ref":"C186",)"
      R"("components":[{"position":1,"ref":"6063","value":"47"},{"position":2,"ref":"6060","value":"24"}]}]}]},)"
      R"({"tag":"UNS","position":8,"elements":[{"position":1,"ref":"0081","value":"S"}]},)"
      R"({"tag":"UNT","position":9,"elements":[{"position":1,"ref":"0074","value":"9"},{"position":2,"ref":"0062","value":"1"}]}]})");
}
