#include <doctest/doctest.h>

#include "parsers/edi/segment.h"
#include "parsers/edifact/una.h"
#include "parsers/x12/isa.h"
#include "tests/unit/test_util.h"

using namespace edihub::edi;

TEST_CASE("element and component access skip released separators") {
  Delimiters d = edihub::edifact::default_delimiters();
  std::string_view seg = "NAD+SU+SMITH?+SONS::9+A?:B:C";
  CHECK(element(seg, d, 0) == "NAD");
  CHECK(element(seg, d, 2) == "SMITH?+SONS::9");
  CHECK(unescape(component(element(seg, d, 2), d, 0), d) == "SMITH+SONS");
  CHECK(component(element(seg, d, 2), d, 2) == "9");
  CHECK(unescape(component(element(seg, d, 3), d, 0), d) == "A:B");
  CHECK(element(seg, d, 9).empty());
  CHECK(element_count(seg, d) == 3);
}

TEST_CASE("a doubled release character does not release the separator after it") {
  Delimiters d = edihub::edifact::default_delimiters();
  std::string_view seg = "FTX+AAA+++50??+OFF";
  CHECK(element(seg, d, 4) == "50??");
  CHECK(unescape(element(seg, d, 4), d) == "50?");
  CHECK(element(seg, d, 5) == "OFF");
}

TEST_CASE("segment tags") {
  CHECK(valid_tag("ST"));
  CHECK(valid_tag("N1"));
  CHECK(valid_tag("UNH"));
  CHECK_FALSE(valid_tag("1N"));
  CHECK_FALSE(valid_tag("st"));
  CHECK_FALSE(valid_tag("ABCD"));
  CHECK_FALSE(valid_tag("A"));
}

TEST_CASE("scanner: CR/LF after terminators, wrapped lines, incomplete input") {
  Delimiters d;  // * : ~
  SegmentScanner sc;
  sc.reset(d, ScanOptions{});
  std::string buf = "AB*1~\r\nC\nD*2~\nEF*3";
  size_t pos = 0;
  Segment s;
  REQUIRE(sc.next(buf, &pos, false, 100, &s) == SegmentScanner::Status::Ok);
  CHECK(s.text == "AB*1");
  CHECK(s.offset == 100);
  CHECK(s.end == 105);
  REQUIRE(sc.next(buf, &pos, false, 100, &s) == SegmentScanner::Status::Ok);
  CHECK(s.text == "CD*2");  // line break inside the segment dropped
  CHECK(s.tag == "CD");
  size_t before = pos;
  CHECK(sc.next(buf, &pos, false, 100, &s) == SegmentScanner::Status::NeedMore);
  CHECK(pos == before);
  REQUIRE(sc.next(buf, &pos, true, 100, &s) == SegmentScanner::Status::Ok);
  CHECK(s.text == "EF*3");
  CHECK_FALSE(s.terminated);
  CHECK(sc.next(buf, &pos, true, 100, &s) == SegmentScanner::Status::End);
}

TEST_CASE("scanner: line breaks kept when wrapping tolerance is off") {
  Delimiters d;
  SegmentScanner sc;
  sc.reset(d, ScanOptions{false, 1024});
  std::string buf = "AB\n*1~";
  size_t pos = 0;
  Segment s;
  REQUIRE(sc.next(buf, &pos, true, 0, &s) == SegmentScanner::Status::Ok);
  CHECK(s.text == "AB\n*1");
}

TEST_CASE("scanner: a released terminator does not end the segment") {
  Delimiters d = edihub::edifact::default_delimiters();
  SegmentScanner sc;
  sc.reset(d, ScanOptions{});
  std::string buf = "FTX+NO?'S'UNT+2+1'";
  size_t pos = 0;
  Segment s;
  REQUIRE(sc.next(buf, &pos, true, 0, &s) == SegmentScanner::Status::Ok);
  CHECK(s.text == "FTX+NO?'S");
  REQUIRE(sc.next(buf, &pos, true, 0, &s) == SegmentScanner::Status::Ok);
  CHECK(s.tag == "UNT");
}

TEST_CASE("scanner: a segment longer than the bound is refused") {
  Delimiters d;
  SegmentScanner sc;
  sc.reset(d, ScanOptions{true, 8});
  std::string buf = "ABCDEFGHIJKLMNOP~";
  size_t pos = 0;
  Segment s;
  CHECK(sc.next(buf, &pos, false, 0, &s) == SegmentScanner::Status::TooLong);
}

namespace {
std::string good_replace(std::string s, const std::string& from, const std::string& to) {
  auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}
}  // namespace

TEST_CASE("an ISA reads the same from a long buffer (fixed-width fast path) as at the end of the input") {
  const std::string good = edihub::test::isa();
  auto replaced = [&](const std::string& from, const std::string& to) { return good_replace(good, from, to); };
  const std::string cases[] = {
      good,
      edihub::test::isa('|'),
      edihub::test::isa('*', "^", "00501"),
      replaced("SENDER         ", "SENDER        "),    // 105 characters
      replaced("SENDER         ", "SENDER          "),  // 107
      replaced("SENDER         ", "SEND*R         "),   // a separator inside an element
      replaced("RECEIVER       ", "RECEIV\r\nER       "),
      replaced("*>~", "**~"),  // ISA16 is the element separator
      replaced("*>~", "*>\n"),
  };
  for (const std::string& header : cases) {
    CAPTURE(header);
    edihub::x12::IsaHeader at_end, in_long;
    std::string why_end, why_long;
    const auto status_end = edihub::x12::read_isa(header, 0, true, &at_end, &why_end);
    const std::string long_input = header + std::string(200, 'X');
    const auto status_long = edihub::x12::read_isa(long_input, 0, true, &in_long, &why_long);
    REQUIRE(status_end == status_long);  // padding has no separator: an invalid header stays invalid
    if (status_end != edihub::x12::IsaStatus::Ok) continue;
    for (size_t i = 0; i <= 16; ++i) CHECK(in_long.element(i) == at_end.element(i));
    CHECK(in_long.length == at_end.length);
    CHECK(in_long.raw_length == at_end.raw_length);
    CHECK(in_long.problems == at_end.problems);
    CHECK(in_long.delimiters.element == at_end.delimiters.element);
    CHECK(in_long.delimiters.component == at_end.delimiters.component);
    CHECK(in_long.delimiters.repetition == at_end.delimiters.repetition);
    CHECK(in_long.delimiters.terminator.bytes[0] == at_end.delimiters.terminator.bytes[0]);
  }
  // The well-formed header is what the fast path reads: the values it gives.
  edihub::x12::IsaHeader h;
  std::string why;
  REQUIRE(edihub::x12::read_isa(good + std::string(200, 'X'), 0, true, &h, &why) == edihub::x12::IsaStatus::Ok);
  CHECK(h.length == 106);
  CHECK(h.element(6) == "SENDER         ");
  CHECK(h.element(16) == ">");
  CHECK(h.delimiters.terminator.bytes[0] == '~');
}
