#include <doctest/doctest.h>

#include "parsers/edi/segment.h"
#include "parsers/edifact/una.h"

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
