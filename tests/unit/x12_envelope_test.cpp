#include <doctest/doctest.h>

#include "parsers/edi/parser.h"
#include "tests/unit/test_util.h"

using namespace edihub;
using edihub::test::codes;
using edihub::test::isa;
using edihub::test::x12;

namespace {
edi::Interchange only(const edi::ParseResult& r) {
  REQUIRE(r.errors.empty());
  REQUIRE(r.interchanges.size() == 1);
  return r.interchanges[0];
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}
}  // namespace

TEST_CASE("X12 envelope model of a well-formed interchange") {
  std::string in = x12();
  auto r = edi::parse(in);
  const auto& ic = only(r);
  CHECK(ic.ok());
  CHECK(ic.standard == edi::Standard::X12);
  CHECK(ic.sender.qualifier == "ZZ");
  CHECK(ic.sender.id == "SENDER");
  CHECK(ic.receiver.id == "RECEIVER");
  CHECK(ic.control_number == "000000001");
  CHECK(ic.version == "00401");
  CHECK(ic.date == "240102");
  CHECK(ic.time == "1230");
  CHECK_FALSE(ic.test);
  REQUIRE(ic.groups.size() == 1);
  CHECK(ic.groups[0].functional_id == "SH");
  CHECK(ic.groups[0].control_number == "7");
  CHECK(ic.groups[0].version == "004010");
  REQUIRE(ic.groups[0].messages.size() == 1);
  const auto& m = ic.groups[0].messages[0];
  CHECK(m.type == "856");
  CHECK(m.control_number == "0001");
  CHECK(m.segments == 4);
  CHECK(m.first_segment == 3);
  CHECK(in.substr(m.span.offset, m.span.length) == "ST*856*0001~\nREF*ZZ*0~\nREF*ZZ*1~\nSE*4*0001~");
  CHECK(ic.span.offset == 0);
  CHECK(in.substr(ic.span.offset, ic.span.length) == in.substr(0, in.size() - 1));
}

TEST_CASE("X12 delimiters come from the ISA positions") {
  SUBCASE("element separator is ISA position 3") {
    std::string in = x12(isa('|'));
    for (auto& c : in)
      if (c == '*') c = '|';
    const auto& ic = only(edi::parse(in));
    CHECK(ic.ok());
    CHECK(ic.delimiters.element == '|');
    CHECK(ic.groups[0].messages[0].type == "856");
  }
  SUBCASE("component separator is position 104, terminator 105") {
    std::string in = x12(isa('*', "U", "00401", "000000001", ':', "~"));
    const auto& ic = only(edi::parse(in));
    CHECK(ic.delimiters.component == ':');
    CHECK(ic.delimiters.terminator.view() == "~");
  }
  SUBCASE("repetition separator (position 82) from version 00402 when valid") {
    CHECK(only(edi::parse(x12(isa('*', "^", "00501")))).delimiters.repetition == '^');
    CHECK(only(edi::parse(x12(isa('*', "^", "00402")))).delimiters.repetition == '^');
    CHECK(only(edi::parse(x12(isa('*', "^", "00401")))).delimiters.repetition == 0);
    CHECK(only(edi::parse(x12(isa('*', "U", "00501")))).delimiters.repetition == 0);
    // Equal to the component separator: not a valid repetition separator.
    CHECK(only(edi::parse(x12(isa('*', ">", "00501")))).delimiters.repetition == 0);
  }
  SUBCASE("a newline as segment terminator") {
    std::string in = x12(isa('*', "U", "00401", "000000001", '>', "\n"), 2, "000000001", "");
    for (size_t i = 106; i < in.size(); ++i)
      if (in[i] == '~') in[i] = '\n';
    const auto& ic = only(edi::parse(in));
    CHECK(ic.ok());
    CHECK(ic.delimiters.terminator.view() == "\n");
    CHECK(ic.groups[0].messages[0].segments == 4);
  }
  SUBCASE("CRLF as segment terminator pair") {
    std::string in = x12(isa('*', "U", "00401", "000000001", '>', "\r\n"), 2, "000000001", "");
    std::string out;
    for (size_t i = 0; i < in.size(); ++i)
      out += (i >= 106 && in[i] == '~') ? std::string("\r\n") : std::string(1, in[i]);
    const auto& ic = only(edi::parse(out));
    CHECK(ic.ok());
    CHECK(ic.groups[0].messages[0].segments == 4);
  }
  SUBCASE("a multi-byte UTF-8 terminator") {
    std::string in = x12(isa('*', "U", "00401", "000000001", '>', "\xE2\x80\xA6"), 1, "000000001", "\n");
    std::string out;
    for (size_t i = 0; i < in.size(); ++i)
      out += (i >= 106 && in[i] == '~') ? std::string("\xE2\x80\xA6") : std::string(1, in[i]);
    const auto& ic = only(edi::parse(out));
    CHECK(ic.ok());
    CHECK(ic.delimiters.terminator.size == 3);
    // Wrapped at a fixed width, a line break can fall inside the terminator.
    size_t gs_end = out.find("\xE2\x80\xA6", out.find("GS*"));
    std::string wrapped = out.substr(0, gs_end + 2) + "\n" + out.substr(gs_end + 2);
    const auto& w = only(edi::parse(wrapped));
    CHECK(w.ok());
    CHECK(w.groups[0].version == "004010");
  }
}

TEST_CASE("X12 tolerances: CR/LF, BOM, 80-column wrapping, several interchanges") {
  SUBCASE("CR/LF after terminators") { CHECK(only(edi::parse(x12(isa(), 2, "000000001", "\r\n"))).ok()); }
  SUBCASE("no line breaks at all") { CHECK(only(edi::parse(x12(isa(), 2, "000000001", ""))).ok()); }
  SUBCASE("UTF-8 byte order mark") {
    const auto& ic = only(edi::parse("\xEF\xBB\xBF" + x12()));
    CHECK(ic.ok());
    CHECK(ic.span.offset == 3);
  }
  SUBCASE("wrapped at 80 columns, even inside the ISA") {
    std::string flat = x12(isa(), 3, "000000001", "");
    std::string wrapped;
    for (size_t i = 0; i < flat.size(); i += 80) wrapped += flat.substr(i, 80) + "\n";
    const auto& ic = only(edi::parse(wrapped));
    CHECK(ic.ok());
    CHECK(ic.groups[0].messages[0].segments == 5);
  }
  SUBCASE("several interchanges in one input") {
    std::string in = x12(isa('*', "U", "00401", "000000001"), 1, "000000001") +
                     x12(isa('|', "U", "00401", "000000002"), 1, "000000002");
    // The second interchange uses '|': rewrite its separators.
    size_t second = in.find("ISA", 10);
    for (size_t i = second; i < in.size(); ++i)
      if (in[i] == '*') in[i] = '|';
    auto r = edi::parse(in);
    REQUIRE(r.interchanges.size() == 2);
    CHECK(r.ok());
    CHECK(r.interchanges[1].control_number == "000000002");
    CHECK(r.interchanges[1].delimiters.element == '|');
    CHECK(r.interchanges[1].span.offset == second);
  }
}

TEST_CASE("X12 validation rules") {
  struct Case {
    const char* name;
    std::string input;
    std::string codes;
  };
  const std::string good = x12();
  Case cases[] = {
      {"IEA02 differs from ISA13", replace(good, "IEA*1*000000001", "IEA*1*000000002"), "IEA02_CONTROL"},
      {"IEA01 is not the group count", replace(good, "IEA*1*", "IEA*2*"), "IEA01_COUNT"},
      {"GE01 is not the set count", replace(good, "GE*1*7", "GE*3*7"), "GE01_COUNT"},
      {"GE02 differs from GS06", replace(good, "GE*1*7", "GE*1*8"), "GE02_CONTROL"},
      {"SE01 is not the segment count", replace(good, "SE*4*", "SE*5*"), "SE01_COUNT"},
      {"SE02 differs from ST02", replace(good, "SE*4*0001", "SE*4*0002"), "SE02_CONTROL"},
      {"ISA of 105 characters", replace(good, "SENDER         ", "SENDER        "), "ISA_LENGTH"},
      {"ISA13 not numeric",
       replace(replace(good, "*000000001*0*P", "*00000000X*0*P"), "IEA*1*000000001", "IEA*1*00000000X"), "ISA_ELEMENT"},
      {"truncated inside a set", good.substr(0, good.find("REF*ZZ*1")), "TRUNCATED,SE_MISSING,GE_MISSING"},
      {"missing SE before the next ST", replace(good, "SE*4*0001~\n", "ST*856*0002~\nSE*2*0002~\n"),
       "SE_MISSING,GE01_COUNT"},
      {"missing GE before IEA", replace(good, "GE*1*7~\n", ""), "GE_MISSING"},
      {"segment outside a set", replace(good, "GE*1*7~", "REF*ZZ*X~\nGE*1*7~"), "UNEXPECTED_SEGMENT"},
      {"invalid segment tag inside a set", replace(good, "REF*ZZ*0", "r3F*ZZ*0"), "INVALID_SEGMENT_TAG"},
      {"last segment without terminator", good.substr(0, good.size() - 2), "TRUNCATED"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    auto r = edi::parse(c.input);
    CHECK(codes(r) == c.codes);
  }
}

TEST_CASE("X12 error positions name the segment and what was expected") {
  std::string in = replace(x12(), "SE*4*", "SE*5*");
  auto r = edi::parse(in);
  REQUIRE(r.interchanges.size() == 1);
  REQUIRE(r.interchanges[0].errors.size() == 1);
  const auto& e = r.interchanges[0].errors[0];
  CHECK(e.segment == 6);  // ISA GS ST REF REF SE
  CHECK(e.offset == in.find("SE*5"));
  CHECK(e.group == 0);
  CHECK(e.message == 0);
  CHECK(e.text == "SE01 is '5' but transaction set 0001 (856) has 4 segments (ST through SE)");
}

TEST_CASE("X12: a new ISA before IEA ends the interchange with IEA_MISSING") {
  std::string first = x12();
  std::string in = first.substr(0, first.find("IEA")) + x12(isa('*', "U", "00401", "000000002"), 1, "000000002");
  auto r = edi::parse(in);
  REQUIRE(r.interchanges.size() == 2);
  CHECK(codes(edi::ParseResult{{r.interchanges[0]}, {}}) == "IEA_MISSING");
  CHECK(r.interchanges[1].ok());
  CHECK(r.interchanges[1].control_number == "000000002");
}

TEST_CASE("garbage where an interchange should start is a file-level error") {
  auto r = edi::parse(x12() + "HELLO WORLD");
  REQUIRE(r.interchanges.size() == 1);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].code == edi::ErrorCode::UnknownStart);
  CHECK(r.errors[0].text.find("found 'HELLO WORLD'") != std::string::npos);
  CHECK(edi::parse("").interchanges.empty());
  CHECK(edi::parse("\r\n\x1a").ok());
}

TEST_CASE("streaming: any chunking gives the same result as the whole buffer") {
  std::string in = x12(isa(), 5, "000000001", "\r\n") + x12(isa('*', "U", "00401", "000000002"), 3, "000000002");
  auto whole = edi::parse(in);
  REQUIRE(whole.interchanges.size() == 2);
  for (size_t chunk : {1, 2, 3, 7, 64, 105, 106, 107}) {
    CAPTURE(chunk);
    std::vector<edi::Interchange> got;
    edi::Parser p(
        edi::ParseOptions{}, [&](edi::Interchange&& ic) { got.push_back(std::move(ic)); },
        [](edi::EnvelopeError&&) { FAIL("file error"); });
    std::string pending;
    for (size_t i = 0; i < in.size(); i += chunk) {
      pending += in.substr(i, chunk);
      pending.erase(0, p.feed(pending, false));
    }
    p.feed(pending, true);
    REQUIRE(got.size() == 2);
    for (size_t k = 0; k < 2; ++k) {
      CHECK(got[k].ok());
      CHECK(got[k].span.offset == whole.interchanges[k].span.offset);
      CHECK(got[k].span.length == whole.interchanges[k].span.length);
      CHECK(got[k].segments == whole.interchanges[k].segments);
    }
  }
}

TEST_CASE("keep_messages = false counts messages without keeping them") {
  edi::ParseOptions o;
  o.keep_messages = false;
  auto r = edi::parse(x12(), o);
  REQUIRE(r.interchanges.size() == 1);
  CHECK(r.interchanges[0].message_count == 1);
  CHECK(r.interchanges[0].groups[0].message_count == 1);
  CHECK(r.interchanges[0].groups[0].messages.empty());
}
