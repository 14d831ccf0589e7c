#include <doctest/doctest.h>

#include "parsers/edi/parser.h"
#include "tests/unit/test_util.h"

using namespace edihub;
using edihub::test::codes;

namespace {

const std::string kGood =
    "UNA:+.? '\n"
    "UNB+UNOA:3+SENDER:14+RECEIVER:14+240102:1230+REF001'\n"
    "UNH+1+DESADV:D:96A:UN:EAN005'\n"
    "BGM+351+DOC?+1+9'\n"
    "DTM+137:20240102:102'\n"
    "UNT+4+1'\n"
    "UNZ+1+REF001'\n";

std::string replace(std::string s, const std::string& from, const std::string& to) {
  auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

edi::Interchange only(const edi::ParseResult& r) {
  REQUIRE(r.errors.empty());
  REQUIRE(r.interchanges.size() == 1);
  return r.interchanges[0];
}

}  // namespace

TEST_CASE("EDIFACT envelope model with UNA") {
  auto ic = only(edi::parse(kGood));
  CHECK(ic.ok());
  CHECK(ic.standard == edi::Standard::Edifact);
  CHECK(ic.syntax == "UNOA");
  CHECK(ic.version == "3");
  CHECK(ic.sender.id == "SENDER");
  CHECK(ic.sender.qualifier == "14");
  CHECK(ic.receiver.id == "RECEIVER");
  CHECK(ic.date == "240102");
  CHECK(ic.time == "1230");
  CHECK(ic.control_number == "REF001");
  CHECK(ic.span.offset == 0);  // the UNA belongs to the interchange
  REQUIRE(ic.groups.size() == 1);
  CHECK(ic.groups[0].implicit);
  REQUIRE(ic.groups[0].messages.size() == 1);
  const auto& m = ic.groups[0].messages[0];
  CHECK(m.type == "DESADV");
  CHECK(m.version == "D:96A:UN:EAN005");
  CHECK(m.control_number == "1");
  CHECK(m.segments == 4);
}

TEST_CASE("EDIFACT without UNA uses the default service characters") {
  auto ic = only(edi::parse(kGood.substr(kGood.find("UNB"))));
  CHECK(ic.ok());
  CHECK(ic.delimiters.component == ':');
  CHECK(ic.delimiters.element == '+');
  CHECK(ic.delimiters.release == '?');
  CHECK(ic.delimiters.terminator.view() == "'");
  CHECK(ic.delimiters.repetition == 0);
}

TEST_CASE("EDIFACT UNA sets every service character") {
  std::string in =
      "UNA=*,! ~UNB*UNOB=3*S!*1=14*R=14*240102=1230*R!~1~UNH*1*INVOIC=D=96A=UN~MOA*203=12,50~UNT*3*1~UNZ*1*R!~1~";
  auto ic = only(edi::parse(in));
  CHECK(ic.ok());
  CHECK(ic.delimiters.component == '=');
  CHECK(ic.delimiters.element == '*');
  CHECK(ic.delimiters.decimal == ',');
  CHECK(ic.delimiters.release == '!');
  CHECK(ic.sender.id == "S*1");  // released element separator
  CHECK(ic.control_number == "R~1");
}

TEST_CASE("EDIFACT syntax version 4 repetition separator") {
  SUBCASE("from UNA position 5") {
    auto ic = only(edi::parse(replace(replace(kGood, "UNA:+.? '", "UNA:+.?*'"), "UNOA:3", "UNOC:4")));
    CHECK(ic.ok());
    CHECK(ic.delimiters.repetition == '*');
  }
  SUBCASE("default '*' without UNA") {
    std::string in = replace(kGood.substr(kGood.find("UNB")), "UNOA:3", "UNOC:4");
    CHECK(only(edi::parse(in)).delimiters.repetition == '*');
  }
  SUBCASE("not in version 3") { CHECK(only(edi::parse(kGood)).delimiters.repetition == 0); }
}

TEST_CASE("EDIFACT groups (UNG/UNE)") {
  std::string in =
      "UNB+UNOC:3+S:14+R:14+240102:1230+REF9'"
      "UNG+DESADV+S:14+R:14+240102:1230+G1+UN+D:96A'"
      "UNH+1+DESADV:D:96A:UN'BGM+351+A+9'UNT+3+1'"
      "UNH+2+DESADV:D:96A:UN'BGM+351+B+9'UNT+3+2'"
      "UNE+2+G1'UNZ+1+REF9'";
  auto ic = only(edi::parse(in));
  CHECK(ic.ok());
  REQUIRE(ic.groups.size() == 1);
  CHECK_FALSE(ic.groups[0].implicit);
  CHECK(ic.groups[0].functional_id == "DESADV");
  CHECK(ic.groups[0].control_number == "G1");
  CHECK(ic.groups[0].messages.size() == 2);
  CHECK(codes(edi::parse(replace(in, "UNE+2+G1", "UNE+3+G1"))) == "UNE0060_COUNT");
  CHECK(codes(edi::parse(replace(in, "UNE+2+G1", "UNE+2+G2"))) == "UNE0048_CONTROL");
  CHECK(codes(edi::parse(replace(in, "UNZ+1+", "UNZ+2+"))) == "UNZ0036_COUNT");
  CHECK(codes(edi::parse(replace(in, "UNE+2+G1'", ""))) == "UNE_MISSING");
  CHECK(codes(edi::parse(replace(in, "UNE+2+G1'", "UNE+2+G1'UNH+3+DESADV:D:96A:UN'UNT+2+3'"))) == "MIXED_GROUPS");
}

TEST_CASE("EDIFACT validation rules") {
  struct Case {
    const char* name;
    std::string input;
    std::string codes;
  };
  Case cases[] = {
      {"UNZ 0020 differs from UNB 0020", replace(kGood, "UNZ+1+REF001", "UNZ+1+REF002"), "UNZ0020_CONTROL"},
      {"UNZ count is not the message count", replace(kGood, "UNZ+1+", "UNZ+2+"), "UNZ0036_COUNT"},
      {"UNT count is not the segment count", replace(kGood, "UNT+4+1", "UNT+5+1"), "UNT0074_COUNT"},
      {"UNT reference differs from UNH", replace(kGood, "UNT+4+1", "UNT+4+2"), "UNT0062_REFERENCE"},
      {"missing UNT before UNZ", replace(kGood, "UNT+4+1'\n", ""), "UNT_MISSING"},
      {"missing UNT before the next UNH", replace(kGood, "UNT+4+1'\n", "UNH+2+DESADV:D:96A:UN'\nUNT+2+2'\n"),
       "UNT_MISSING,UNZ0036_COUNT"},
      {"truncated", kGood.substr(0, kGood.find("DTM")), "TRUNCATED,UNT_MISSING"},
      {"unsupported syntax", replace(kGood, "UNOA:3", "IATA:1"), "UNB_SYNTAX"},
      {"UNB without control reference", replace(replace(kGood, "+REF001'\nUNH", "+'\nUNH"), "UNZ+1+REF001", "UNZ+1+"),
       "UNB_ELEMENT"},
      {"segment outside a message", replace(kGood, "UNZ", "DTM+1'\nUNZ"), "UNEXPECTED_SEGMENT"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    CHECK(codes(edi::parse(c.input)) == c.codes);
  }
}

TEST_CASE("EDIFACT errors say what was found and expected") {
  auto r = edi::parse(replace(kGood, "UNT+4+1", "UNT+5+1"));
  REQUIRE(r.interchanges.size() == 1);
  REQUIRE(r.interchanges[0].errors.size() == 1);
  const auto& e = r.interchanges[0].errors[0];
  CHECK(e.segment == 5);  // UNB UNH BGM DTM UNT (UNA is not a segment)
  CHECK(e.text == "UNT 0074 is '5' but message 1 (DESADV) has 4 segments (UNH through UNT)");
}

TEST_CASE("EDIFACT tolerances: CR/LF, wrapped lines, a released terminator, two interchanges") {
  SUBCASE("CRLF") {
    std::string in;
    for (char c : kGood) in += c == '\n' ? std::string("\r\n") : std::string(1, c);
    CHECK(only(edi::parse(in)).ok());
  }
  SUBCASE("wrapped at 15 columns, UNA included") {
    std::string flat;
    for (char c : kGood)
      if (c != '\n') flat += c;
    std::string wrapped;
    for (size_t i = 0; i < flat.size(); i += 15) wrapped += flat.substr(i, 15) + "\n";
    auto ic = only(edi::parse(wrapped));
    CHECK(ic.ok());
    CHECK(ic.groups[0].messages[0].segments == 4);
  }
  SUBCASE("released terminator inside data") { CHECK(only(edi::parse(replace(kGood, "DOC?+1", "DOC?'1"))).ok()); }
  SUBCASE("two interchanges, one without UNA") {
    auto r = edi::parse(kGood + replace(kGood.substr(kGood.find("UNB")), "REF001", "REF002").replace(0, 0, ""));
    // second interchange: UNZ reference must follow the UNB's
    std::string second = kGood.substr(kGood.find("UNB"));
    second = replace(replace(second, "+REF001'", "+REF002'"), "UNZ+1+REF001", "UNZ+1+REF002");
    r = edi::parse(kGood + second);
    REQUIRE(r.interchanges.size() == 2);
    CHECK(r.ok());
    CHECK(r.interchanges[1].control_number == "REF002");
  }
}
