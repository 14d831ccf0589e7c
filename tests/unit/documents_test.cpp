// Message definitions as data and the streaming validator: the shipped files
// load, the definition format's errors name the file and line, files written
// by other projects validate without false errors, and each 997 AK304/AK403
// code the validator emits comes with a message that has exactly that error
// and the exact acknowledgment segments.
#include <doctest/doctest.h>

#include <filesystem>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "parsers/edi/parser.h"
#include "parsers/x12/acks.h"
#include "src/documents/definition.h"
#include "src/documents/validator.h"
#include "tests/unit/test_util.h"

using namespace edihub;

namespace {

const x12::AckEnvelope kEnv{"17", "1701", "20240103", "0915", "\n", std::nullopt, std::nullopt};

// The sample 810's content (samples/edi/x12-810-004010.edi), ST and SE left out.
const std::vector<std::string> kInvoice = {
    "BIG*20240315*INV-88301*20240305*PO45001234",
    "REF*IA*VEND7788",
    "N1*RE*ACME SUPPLY CO*92*ACME01",
    "N3*PO BOX 4410",
    "N4*DAYTON*OH*45401*US",
    "N1*BT*EDIHUB DEMO RETAIL INC*92*BT01",
    "ITD*01*3*2**10**30*****2% 10 NET 30",
    "DTM*011*20240312",
    "IT1*1*24*EA*12.50**UP*012345678905*VP*WID-100",
    "PID*F****WIDGET 100MM",
    "IT1*2*12*EA*39.99**UP*012345678912*VP*GAD-200",
    "PID*F****GADGET 200 STAINLESS",
    "TDS*88308",
    "CTT*2",
};

// One interchange with one 810 of `content`; SE01 counts it right.
std::string interchange(const std::vector<std::string>& content, const std::string& type = "810") {
  std::string out =
      "ISA*00*          *00*          *ZZ*ACMESUPPLY     *ZZ*EDIHUB         *240315*0800*U*00401*000000201*0*P*>~"
      "GS*IN*ACMESUPPLY*EDIHUB*20240315*0800*201*X*004010~ST*" +
      type + "*0001~";
  for (const auto& s : content) out += s + "~";
  out += "SE*" + std::to_string(content.size() + 2) + "*0001~GE*1*201~IEA*1*000000201~";
  return out;
}

edi::ParseResult validate(const std::string& bytes, const documents::Catalog& catalog) {
  documents::Validator validator(catalog);
  edi::ParseOptions options;
  options.observer = &validator;
  return edi::parse(bytes, options);
}

edi::ParseResult validate(const std::string& bytes,
                          const documents::Definitions& defs = documents::standard_definitions()) {
  return validate(bytes, documents::Catalog{&defs, {}});
}

// The lines of `ack` that start with one of `prefixes`.
std::string lines_of(const std::string& ack, std::initializer_list<const char*> prefixes) {
  std::string out;
  size_t start = 0;
  while (start < ack.size()) {
    size_t end = ack.find('\n', start);
    if (end == std::string::npos) end = ack.size();
    const std::string line = ack.substr(start, end - start);
    for (const char* p : prefixes)
      if (line.rfind(p, 0) == 0) out += line + "\n";
    start = end + 1;
  }
  return out;
}

// The AK3, AK4 and AK5 segments of the 997 for `content` (with `v999`, the
// IK3, IK4, CTX and IK5 of the 999), one per line.
std::string ack_findings(const std::vector<std::string>& content, const documents::Catalog& catalog, bool v999,
                         const std::string& type = "810") {
  edi::ParseResult r = validate(interchange(content, type), catalog);
  REQUIRE(r.interchanges.size() == 1);
  REQUIRE(r.interchanges[0].ok());  // the envelope is fine: only the validator speaks
  REQUIRE(r.interchanges[0].groups.at(0).messages.at(0).validated);
  const std::string ack997 = x12::build_997(r.interchanges[0], kEnv), ack999 = x12::build_999(r.interchanges[0], kEnv);
  // The acknowledgments edihub writes pass their own definitions (997 004010, 999 005010).
  for (const std::string& own : {ack997, ack999}) {
    edi::ParseResult again = validate(own);
    REQUIRE(again.interchanges.size() == 1);
    const edi::Message& m = again.interchanges[0].groups.at(0).messages.at(0);
    CHECK(m.validated);
    CHECK_MESSAGE(m.segment_errors.empty(), own);
  }
  return v999 ? lines_of(ack999, {"IK3", "IK4", "CTX", "IK5"}) : lines_of(ack997, {"AK3", "AK4", "AK5"});
}

std::string findings(const std::vector<std::string>& content,
                     const documents::Definitions& defs = documents::standard_definitions(),
                     const std::string& type = "810") {
  return ack_findings(content, documents::Catalog{&defs, {}}, false, type);
}

std::vector<std::string> with(std::vector<std::string> content, size_t at, const std::string& segment) {
  content.at(at) = segment;
  return content;
}

std::vector<std::string> inserted(std::vector<std::string> content, size_t at, const std::string& segment) {
  content.insert(content.begin() + static_cast<std::ptrdiff_t>(at), segment);
  return content;
}

Result<documents::Definitions> load(const std::string& text, const std::string& name = "test.def") {
  return documents::Definitions::load({{name, text}});
}

}  // namespace

TEST_CASE("the shipped definitions load, and say what they define") {
  REQUIRE(!documents::shipped_definition_files().empty());
  auto loaded = documents::Definitions::load(documents::shipped_definition_files());
  REQUIRE_MESSAGE(loaded.is_ok(), loaded.status().message());
  std::vector<std::string> x12;
  for (const std::string& n : loaded->names())
    if (n.rfind("x12 ", 0) == 0) x12.push_back(n);
  CHECK(x12 == std::vector<std::string>{"x12 004010 810", "x12 004010 850", "x12 004010 855", "x12 004010 856",
                                        "x12 004010 860", "x12 004010 997", "x12 005010 810", "x12 005010 850",
                                        "x12 005010 855", "x12 005010 856", "x12 005010 860", "x12 005010 997",
                                        "x12 005010 999"});
  CHECK(documents::standard_definitions().message("x12", "004010VICS", "810") != nullptr);
  CHECK(documents::standard_definitions().message("x12", "005010X222", "810") != nullptr);
  CHECK(documents::standard_definitions().message("x12", "004010", "214") == nullptr);
  std::vector<std::string> edifact;
  for (const std::string& n : loaded->names())
    if (n.rfind("edifact ", 0) == 0) edifact.push_back(n);
  CHECK(edifact == std::vector<std::string>{"edifact D01B APERAK", "edifact D01B DESADV", "edifact D01B INVOIC",
                                            "edifact D01B ORDERS", "edifact D01B ORDRSP", "edifact D3 CONTRL",
                                            "edifact D96A APERAK", "edifact D96A DESADV", "edifact D96A INVOIC",
                                            "edifact D96A ORDERS", "edifact D96A ORDRSP", "edifact D97B INVOIC"});
  CHECK(documents::standard_definitions().message("edifact", "D:96A:UN:EAN008", "INVOIC") != nullptr);
}

TEST_CASE("definition files: each mistake names the file, the line and what was expected") {
  CHECK(load("element 1 AN 1 2\n").status().message() ==
        "test.def:1: the file must start with `standard NAME VERSION`");
  CHECK(load("standard x12 004010\nelement 1 XX 1 2\n").status().message() ==
        "test.def:2: element 1: type 'XX' is not AN, ID, DT, TM, R or N0-N9");
  CHECK(load("standard x12 004010\nelement 1 AN 3 2\n").status().message() ==
        "test.def:2: element 1: lengths must be 1 <= MIN <= MAX");
  CHECK(load("standard x12 004010\nsegment ZZ\n  9 M\n").status().message() ==
        "test.def:3: segment ZZ: element 9 is not defined");
  CHECK(load("standard x12 004010\nelement 9 AN 1 2\nsegment ZZ\n  9 M\n  rule P0102\n").status().message() ==
        "test.def:5: rule P0102 names position 2 of segment ZZ, which has 1");
  CHECK(load("standard x12 004010\nsegment ZZ open\nmessage 1\n  ZZ M 1\n  loop ZZ O 2\n    ZZ O 1\n")
            .status()
            .message() == "test.def:5: loop ZZ has no `end`");
  CHECK(load("standard x12 004010\nsegment ZZ open\nsegment YY open\nmessage 1\n  loop ZZ O 2\n    YY O 1\n  end\n")
            .status()
            .message() == "test.def:5: loop ZZ must start with segment ZZ");
  CHECK(load("standard x12 004010\nmessage 1\n  QQ M >0\n").status().message() ==
        "test.def:3: maximum '>0' is not a number >= 1 or >1");
  CHECK(load("standard tradacoms 9\n").status().message() ==
        "test.def:1: standard 'tradacoms' is not one edihub reads (x12, edifact)");
  CHECK(load("standard edifact D96A\nelement 1004 AN 1 35\n").status().message() ==
        "test.def:2: element 1004: type 'AN' is not a, an or n");
  // A file may use what another file of its version defines, in any order.
  auto split = documents::Definitions::load(
      {{"m.def", "standard x12 004010\nmessage 1\n  ZZ M 1\n"}, {"s.def", "standard x12 004010\nsegment ZZ open\n"}});
  CHECK(split.is_ok());
}

// What the validator finds in one message: "TAG/position/code" per segment error,
// "(position code)" per element error.
std::string summary(const edi::Message& m) {
  std::string out;
  for (const auto& se : m.segment_errors) {
    out += (out.empty() ? "" : " ") + se.tag + "/" + std::to_string(se.position) + "/" + se.code;
    for (const auto& ee : se.elements) out += "(" + std::to_string(ee.position) + " " + ee.code + ")";
  }
  return out;
}

TEST_CASE("files written by other projects and the samples validate without false errors") {
  // staedi's delimiter test puts repetitions (^) and components (:) into
  // AK302, AK304 and AK404, which are simple elements that do not repeat.
  const std::map<std::string, std::string> expected = {
      {"x12_extraDelimiter997.edi 0001", "AK3/4/8(2 6)(4 6) AK4/5/8(4 6)"},
      // staedi's bad invoice: a party qualifier BYZZ, a quantity 1020A, a price $1.179 and UNS twice.
      {"EDIFACT_invoic_d97b_bad.edi 00000000000117", "NAD/5/8(1 5) QTY/10/8(1 6) PRI/13/8(1 6) UNS/21/5"},
  };
  std::map<std::string, int> checked;
  for (const std::string dir : {"tests/corpus/staedi/", "samples/edi/"}) {
    for (const auto& entry : std::filesystem::directory_iterator(test::source_path(dir))) {
      const std::string file = entry.path().filename().string();
      if (file.rfind("broken", 0) == 0 || entry.path().extension() != ".edi") continue;
      edi::ParseResult r = validate(test::read_file(entry.path().string()));
      for (const auto& ic : r.interchanges)
        for (const auto& g : ic.groups)
          for (const auto& m : g.messages) {
            if (!m.validated) continue;
            ++checked[m.type + " " + m.version.substr(0, 6)];
            const std::string key = file + " " + m.control_number;
            auto want = expected.find(key);
            CHECK_MESSAGE(summary(m) == (want == expected.end() ? "" : want->second), key);
          }
    }
  }
  // 810: x12_simple810 (2), x12_invoice810_po850_dual (2; its 850 is 003010), x12-810-004010,
  // two-interchanges. 997: staedi's three files with 005010X230 997s. 999: x12_simple999.
  CHECK(checked == std::map<std::string, int>{{"810 004010", 6},
                                              {"810 005010", 1},
                                              {"850 004010", 1},
                                              {"856 004010", 2},
                                              {"856 005010", 2},
                                              {"997 005010", 5},
                                              {"999 005010", 1},
                                              {"DESADV D:96A:", 3},
                                              {"INVOIC D:96A:", 3},
                                              {"INVOIC D:97B:", 5},
                                              {"ORDERS D:96A:", 1}});
}

TEST_CASE("a valid message: an accepted 997, and messages without a definition are not checked") {
  CHECK(findings(kInvoice) == "AK5*A~\n");
  edi::ParseResult r = validate(interchange({"B10*PRO1*SHIP1"}, "214"));
  REQUIRE(r.interchanges.size() == 1);
  CHECK(!r.interchanges[0].groups[0].messages[0].validated);
  CHECK(r.interchanges[0].groups[0].messages[0].segment_errors.empty());
}

TEST_CASE("segment errors: each AK304 code with the exact AK3") {
  // 1: a tag no dictionary knows.
  CHECK(findings(inserted(kInvoice, 1, "ZZZ*1")) == "AK3*ZZZ*3**1~\nAK5*R*5~\n");
  // 2: LQ belongs inside an LM loop, which was never started.
  CHECK(findings(inserted(kInvoice, 1, "LQ*1")) == "AK3*LQ*3**2~\nAK5*R*5~\n");
  // 3: BIG missing, noticed at the REF that follows ST.
  CHECK(findings(std::vector<std::string>(kInvoice.begin() + 1, kInvoice.end())) == "AK3*BIG*2**3~\nAK5*R*5~\n");
  // 4: the N9 loop may occur once.
  CHECK(findings(inserted(inserted(inserted(inserted(kInvoice, 8, "N9*PO*1"), 9, "MSG*A"), 10, "N9*PO*2"), 11,
                          "MSG*B")) == "AK3*N9*12*N9*4~\nAK5*R*5~\n");
  // 5: CUR at most once.
  CHECK(findings(inserted(inserted(kInvoice, 1, "CUR*SE*USD"), 2, "CUR*SE*EUR")) == "AK3*CUR*4**5~\nAK5*R*5~\n");
  // 7: CUR's place is before the N1 loop.
  CHECK(findings(inserted(kInvoice, 6, "CUR*SE*USD")) == "AK3*CUR*8*N1*7~\nAK5*R*5~\n");
  // 8 and 6 with a definition of our own: a dictionary segment the message does not use.
  auto defs = load(
      "standard x12 004010\nelement 1 AN 1 5\nelement 2 AN 1 5\nsegment AA\n  1 O\n  2 O\n  rule E0102\n"
      "segment BB open\nsegment ST open\nsegment SE open\nmessage 810\n  ST M 1\n  AA O 1\n  SE M 1\n");
  REQUIRE(defs.is_ok());
  CHECK(findings({"BB*1"}, defs.value()) == "AK3*BB*2**6~\nAK5*R*5~\n");
  // Element code 10: AA01 and AA02 exclude each other.
  CHECK(findings({"AA*X*Y"}, defs.value()) == "AK3*AA*2**8~\nAK4*2*2*10*Y~\nAK5*R*5~\n");
  // The 999's CTX names the first of the two present as the trigger.
  CHECK(ack_findings({"AA*X*Y"}, documents::Catalog{&defs.value(), {}}, true) ==
        "IK3*AA*2**8~\nIK4*2*2*10*Y~\nCTX*SITUATIONAL TRIGGER*AA*2**1*1~\nIK5*R*5~\n");
}

TEST_CASE("element errors: each AK403 code with the exact AK4 and the bad value") {
  // 1 mandatory missing
  CHECK(findings(with(kInvoice, 0, "BIG**INV-1")) == "AK3*BIG*2**8~\nAK4*1*373*1~\nAK5*R*5~\n");
  // 2 conditional: N103 without N104 (P0304)
  CHECK(findings(with(kInvoice, 2, "N1*RE*ACME*92")) == "AK3*N1*4*N1*8~\nAK4*4*67*2~\nAK5*R*5~\n");
  // The 999 says which element made N104 required: CTX SITUATIONAL TRIGGER at N103 (66), a 997 cannot.
  const documents::Catalog standard{&documents::standard_definitions(), {}};
  CHECK(ack_findings(with(kInvoice, 2, "N1*RE*ACME*92"), standard, true) ==
        "IK3*N1*4*N1*8~\nIK4*4*67*2~\nCTX*SITUATIONAL TRIGGER*N1*4*N1*3*66~\nIK5*R*5~\n");
  // 3 too many data elements
  CHECK(findings(with(kInvoice, 3, "N3*A*B*C")) == "AK3*N3*5*N1*8~\nAK4*3**3~\nAK5*R*5~\n");
  // 4 too short, 5 too long
  CHECK(findings(with(kInvoice, 1, "REF*I*VEND7788")) == "AK3*REF*3**8~\nAK4*1*128*4*I~\nAK5*R*5~\n");
  CHECK(findings(with(kInvoice, 0, "BIG*20240315*INV-12345678901234567890")) ==
        "AK3*BIG*2**8~\nAK4*2*76*5*INV-12345678901234567890~\nAK5*R*5~\n");
  // 6 invalid character in a numeric element
  CHECK(findings(with(kInvoice, 12, "TDS*883A8")) == "AK3*TDS*14**8~\nAK4*1*610*6*883A8~\nAK5*R*5~\n");
  // 7 invalid code value
  CHECK(findings(with(kInvoice, 9, "PID*Q****WIDGET")) == "AK3*PID*11*PID*8~\nAK4*1*349*7*Q~\nAK5*R*5~\n");
  // 8 invalid date (no 30 February), 9 invalid time (no minute 61)
  CHECK(findings(with(kInvoice, 7, "DTM*011*20240230")) == "AK3*DTM*9**8~\nAK4*2*373*8*20240230~\nAK5*R*5~\n");
  CHECK(findings(with(kInvoice, 7, "DTM*011*20240312*2361")) == "AK3*DTM*9**8~\nAK4*3*337*9*2361~\nAK5*R*5~\n");
  // A composite's component: REF04 C040 needs its second component.
  CHECK(findings(with(kInvoice, 1, "REF*IA*VEND7788**ZZ")) == "AK3*REF*3**8~\nAK4*4>2*127*1~\nAK5*R*5~\n");
  // A component too many in REF04 (C040 has six): 13 "too many components" in a
  // 999 (005010X231), 3 in a 997, whose 004010 code list has no 13.
  CHECK(findings(with(kInvoice, 1, "REF*IA*VEND7788**ZZ>1>ZZ>2>ZZ>3>X")) == "AK3*REF*3**8~\nAK4*4>7**3~\nAK5*R*5~\n");
  CHECK(ack_findings(with(kInvoice, 1, "REF*IA*VEND7788**ZZ>1>ZZ>2>ZZ>3>X"), standard, true) ==
        "IK3*REF*3**8~\nIK4*4>7**13~\nIK5*R*5~\n");
  // Several errors in one segment, in element order.
  CHECK(findings(with(kInvoice, 0, "BIG*20241301*INV-1*2024")) ==
        "AK3*BIG*2**8~\nAK4*1*373*8*20241301~\nAK4*3*373*4*2024~\nAK5*R*5~\n");
}

TEST_CASE("005010's BIG has BIG11 (1005, Hierarchical Structure Code, ID 4/4); 004010's stops at BIG10") {
  const std::vector<std::string> content = with(kInvoice, 0, "BIG*20240315*INV-1*20240305*PO1*******0001");
  // The same 810 in a 005010 interchange (ISA12 00501, GS08 005010).
  auto in_005010 = [](std::string bytes) {
    bytes.replace(bytes.find("*00401*"), 7, "*00501*");
    bytes.replace(bytes.find("*004010~"), 8, "*005010~");
    return bytes;
  };
  auto ack_of = [&](const std::vector<std::string>& c) {
    edi::ParseResult r = validate(in_005010(interchange(c)));
    REQUIRE(r.interchanges.size() == 1);
    REQUIRE(r.interchanges[0].ok());
    const edi::Message& m = r.interchanges[0].groups.at(0).messages.at(0);
    REQUIRE(m.version == "005010");
    REQUIRE(m.validated);
    return lines_of(x12::build_997(r.interchanges[0], kEnv), {"AK3", "AK4", "AK5"});
  };
  CHECK(ack_of(content) == "AK5*A~\n");
  CHECK(ack_of(with(kInvoice, 0, "BIG*20240315*INV-1*20240305*PO1*******001")) ==
        "AK3*BIG*2**8~\nAK4*11*1005*4*001~\nAK5*R*5~\n");
  CHECK(findings(content) == "AK3*BIG*2**8~\nAK4*11**3~\nAK5*R*5~\n");  // 004010: too many data elements
}

TEST_CASE("the validator's memory is bounded by the definition, its findings by the limits") {
  std::vector<std::string> noisy = kInvoice;
  for (int i = 0; i < 500; ++i) noisy.insert(noisy.begin() + 1, "ZZZ*" + std::to_string(i));
  documents::Validator validator(documents::standard_definitions(), {10, 5});
  edi::ParseOptions options;
  options.observer = &validator;
  edi::ParseResult r = edi::parse(interchange(noisy), options);
  REQUIRE(r.interchanges.size() == 1);
  CHECK(r.interchanges[0].groups[0].messages[0].segment_errors.size() == 10);
  CHECK(validator.dropped() == 490);
}

// --- Partner implementation guides ------------------------------------------

namespace {

Result<std::shared_ptr<const documents::Guide>> guide(const std::string& text) {
  return documents::Guide::load(documents::standard_definitions(), {"acme-810.def", text});
}

// The standard's definitions with one guide over them.
documents::Catalog guided(const std::string& text) {
  auto g = guide(text);
  REQUIRE_MESSAGE(g.is_ok(), g.status().message());
  return documents::Catalog{&documents::standard_definitions(), {g.value()}};
}

const char* const kAcmeGuide =
    "guide x12 004010 810 \"Acme Supply 810\"\n"
    "segment CUR M          # Acme always says the currency\n"
    "segment N1/N2 -        # and never sends additional names\n"
    "loop N1 max 3\n"
    "element BIG02 length 1 10\n"
    "element PID01 codes F  # free-form descriptions only\n"
    "element IT108 -        # one product id per line\n";

}  // namespace

TEST_CASE("a guide turns a valid standard message into the errors its partner cares about, in 999 and 997 terms") {
  const documents::Catalog acme = guided(kAcmeGuide);
  // The sample invoice is valid against the standard; CUR is mandatory for Acme.
  CHECK(findings(kInvoice) == "AK5*A~\n");
  CHECK(ack_findings(kInvoice, acme, true) ==
        "IK3*CUR*3**3~\nIK3*IT1*10*IT1*8~\nIK4*8*235*I10~\nIK3*IT1*12*IT1*8~\nIK4*8*235*I10~\nIK5*R*5~\n");
  std::vector<std::string> acme_invoice = inserted(kInvoice, 1, "CUR*SE*USD");
  acme_invoice = with(acme_invoice, 9, "IT1*1*24*EA*12.50**UP*012345678905");
  acme_invoice = with(acme_invoice, 11, "IT1*2*12*EA*39.99**UP*012345678912");
  CHECK(ack_findings(acme_invoice, acme, true) == "IK5*A~\n");
  // I4: a segment the guide does not use; 997 (004010) says unexpected (2).
  CHECK(ack_findings(inserted(acme_invoice, 4, "N2*ACCOUNTS PAYABLE"), acme, true) == "IK3*N2*6*N1*I4~\nIK5*R*5~\n");
  CHECK(ack_findings(inserted(acme_invoice, 4, "N2*ACCOUNTS PAYABLE"), acme, false) == "AK3*N2*6*N1*2~\nAK5*R*5~\n");
  // I6: S is a code of the standard's list that Acme does not use; Q no list has (7).
  CHECK(ack_findings(with(acme_invoice, 10, "PID*S****WIDGET"), acme, true) ==
        "IK3*PID*12*PID*8~\nIK4*1*349*I6*S~\nIK5*R*5~\n");
  CHECK(ack_findings(with(acme_invoice, 10, "PID*S****WIDGET"), acme, false) ==
        "AK3*PID*12*PID*8~\nAK4*1*349*7*S~\nAK5*R*5~\n");
  CHECK(ack_findings(with(acme_invoice, 10, "PID*Q****WIDGET"), acme, true) ==
        "IK3*PID*12*PID*8~\nIK4*1*349*7*Q~\nIK5*R*5~\n");
  // A lowered length (5), a lowered loop maximum (4).
  CHECK(ack_findings(with(acme_invoice, 0, "BIG*20240315*INV-8830100"), acme, true) ==
        "IK3*BIG*2**8~\nIK4*2*76*5*INV-8830100~\nIK5*R*5~\n");
  std::vector<std::string> four_parties = acme_invoice;
  for (int i = 0; i < 2; ++i)
    four_parties = inserted(four_parties, 7, "N1*ST*STORE " + std::to_string(i) + "*92*S" + std::to_string(i));
  CHECK(ack_findings(four_parties, acme, true) == "IK3*N1*10*N1*4~\nIK5*R*5~\n");
}

TEST_CASE("a guide relaxes nothing: what the standard finds it still finds, and widening is refused at load") {
  const documents::Catalog acme = guided(kAcmeGuide);
  std::vector<std::string> acme_invoice = inserted(kInvoice, 1, "CUR*SE*USD");
  acme_invoice = with(acme_invoice, 9, "IT1*1*24*EA*12.50**UP*012345678905");
  acme_invoice = with(acme_invoice, 11, "IT1*2*12*EA*39.99**UP*012345678912");
  // The standard's own errors, in positions the guide never mentions.
  CHECK(ack_findings(with(acme_invoice, 8, "DTM*011*20240230"), acme, true) ==
        "IK3*DTM*10**8~\nIK4*2*373*8*20240230~\nIK5*R*5~\n");
  CHECK(ack_findings(inserted(acme_invoice, 2, "ZZZ*1"), acme, true) == "IK3*ZZZ*4**1~\nIK5*R*5~\n");
  // Another version's 810 is checked against the standard, not the 004010 guide.
  CHECK(acme.message("x12", "005010", "810") == documents::standard_definitions().message("x12", "005010", "810"));

  auto refused = [](const std::string& line) {
    auto g = guide("guide x12 004010 810\n" + line + "\n");
    return g.is_ok() ? std::string("loaded") : g.status().message();
  };
  CHECK(refused("segment BIG O") ==
        "acme-810.def:2: segment BIG is mandatory in the standard: a guide cannot make it optional");
  CHECK(refused("segment REF max 13") ==
        "acme-810.def:2: segment REF may occur 12 times in the standard: a guide cannot raise that to 13");
  CHECK(refused("loop N1 -") == "loaded");
  CHECK(refused("element BIG01 -") ==
        "acme-810.def:2: BIG01 is mandatory in the standard: a guide cannot make it not used");
  CHECK(refused("element BIG02 length 1 23") ==
        "acme-810.def:2: BIG02 (76) is 1 to 22 long in the standard: a guide can only narrow that");
  CHECK(refused("element PID01 codes F Q") == "acme-810.def:2: PID01 (349): 'Q' is not a code of the standard's list");
  CHECK(refused("segment N1/N1 M") == "acme-810.def:2: N1 starts loop N1: write `loop N1`");
  CHECK(refused("segment ZZZ M") == "acme-810.def:2: segment ZZZ is not a position of message 810");
  CHECK(refused("element ZZZ01 M") == "acme-810.def:2: segment ZZZ is not in message 810");
  CHECK(refused("element REF09 M") == "acme-810.def:2: segment REF has 4 element positions defined, not 9");
  CHECK(refused("segment CUR X") == "acme-810.def:2: expected `segment PATH [M|O|-] [max N]`");
  CHECK(refused("frobnicate CUR") == "acme-810.def:2: unknown statement 'frobnicate' (segment, loop, element)");
  auto other = documents::Guide::load(documents::standard_definitions(), {"g.def", "guide x12 004010 820\n"});
  CHECK(other.status().message() == "g.def:1: edihub has no definition of x12 004010 820 to narrow");
}
