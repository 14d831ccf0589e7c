#include <doctest/doctest.h>

#include <string>
#include <vector>

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

namespace {

// Reads `buf` to the end, skip_plain() first wherever it can, and checks that
// every segment it skips ends where next() alone ends it (`ends`). Returns how
// many segments skip_plain() took.
size_t check_bulk_against(const std::string& buf, const Delimiters& d, SegmentScanner::Envelope envelope,
                          const std::vector<uint64_t>& ends) {
  SegmentScanner sc;
  sc.reset(d, ScanOptions{});
  size_t pos = 0, read = 0, bulk = 0;
  Segment s;
  while (true) {
    const SegmentScanner::Skipped k = sc.skip_plain(buf, &pos, 0, envelope);
    if (k.count > 0) {
      read += k.count;
      bulk += k.count;
      REQUIRE(read <= ends.size());
      CHECK(k.last_end == ends[read - 1]);
    }
    if (sc.next(buf, &pos, true, 0, &s) != SegmentScanner::Status::Ok) break;
    ++read;
    REQUIRE(read <= ends.size());
    CHECK(s.end == ends[read - 1]);
  }
  CHECK(read == ends.size());
  return bulk;
}

std::vector<uint64_t> ends_one_by_one(const std::string& buf, const Delimiters& d) {
  SegmentScanner sc;
  sc.reset(d, ScanOptions{});
  std::vector<uint64_t> ends;
  size_t pos = 0;
  Segment s;
  while (sc.next(buf, &pos, true, 0, &s) == SegmentScanner::Status::Ok) ends.push_back(s.end);
  return ends;
}

}  // namespace

// The bulk path (skip_plain) reads the content of messages 64 bytes at a
// time; whatever it cannot tell apart it leaves to next(). Each case sits at
// every offset of a block, so that its characters fall on both sides of a
// block boundary; with the AVX2 forms (where the CPU has them) and SSE2's.
TEST_CASE("scanner: the bulk path ends every segment where next() does, at every block offset") {
  const Delimiters edifact = edihub::edifact::default_delimiters();
  const Delimiters x12;  // * : ~
  struct Case {
    const Delimiters* d;
    SegmentScanner::Envelope envelope;
    std::string body;
  };
  const Case cases[] = {
      {&edifact, SegmentScanner::Envelope::Edifact, "FTX+A?'B'NAD+C'"},             // a released terminator
      {&edifact, SegmentScanner::Envelope::Edifact, "FTX+A?\?'NAD+C'"},             // a released release character
      {&edifact, SegmentScanner::Envelope::Edifact, "FTX+A?\?\?'B'NAD+C'"},         // both
      {&edifact, SegmentScanner::Envelope::Edifact, "FTX+A?+B?:C'NAD+C'"},          // released separators
      {&edifact, SegmentScanner::Envelope::Edifact, "FTX+A'\r\nNAD+C'\nDTM+1'"},    // line breaks after terminators
      {&edifact, SegmentScanner::Envelope::Edifact, "FTX+A\r\nB'NAD+C'"},           // a wrapped line
      {&edifact, SegmentScanner::Envelope::Edifact, "FTX+A'\n\nNAD+C'\n\rDTM+1'"},  // other line breaks
      {&edifact, SegmentScanner::Envelope::Edifact, "FTX+A?\n'NAD+C'"},             // a release before a line break
      {&x12, SegmentScanner::Envelope::X12, "N1*ST*A~\r\nN3*B~\nN4*C~"},
      {&x12, SegmentScanner::Envelope::X12, "N1*ST*A\r\n~N3*B~"},
      {&x12, SegmentScanner::Envelope::X12, "N1*ST*A~\n\rN3*B~\r\rN4*C~"},
  };
  size_t bulk = 0;
  for (const bool sse2 : {false, true}) {
    CAPTURE(sse2);
    scanner_sse2_only(sse2);
    for (const Case& c : cases) {
      for (size_t shift = 0; shift < 80; ++shift) {
        const char term = c.d->terminator.bytes[0], sep = c.d->element;
        // A padding segment moves the case along the block; content around it
        // and an envelope segment (where the bulk path stops) at the end.
        const std::string buf = std::string("PAD") + sep + std::string(shift, 'X') + term + "REF" + sep + "1" + term +
                                c.body + "QTY" + sep + "2" + term +
                                (c.envelope == SegmentScanner::Envelope::X12 ? "SE*9*1~" : "UNT+9+1'");
        CAPTURE(buf);
        bulk += check_bulk_against(buf, *c.d, c.envelope, ends_one_by_one(buf, *c.d));
      }
    }
  }
  scanner_sse2_only(false);
  CHECK(bulk > 0);  // the bulk path was taken, not only next()
}

TEST_CASE("scanner: the bulk path stops at envelope segments, and only at them") {
  struct Case {
    Delimiters d;
    SegmentScanner::Envelope envelope;
    const char* segment;
    bool envelope_tag;
  };
  const Delimiters edifact = edihub::edifact::default_delimiters();
  const Case cases[] = {
      {edifact, SegmentScanner::Envelope::Edifact, "UNH+1+INVOIC:D:96A:UN'", true},
      {edifact, SegmentScanner::Envelope::Edifact, "UNT+2+1'", true},
      {edifact, SegmentScanner::Envelope::Edifact, "UNB+UNOA:3'", true},
      {edifact, SegmentScanner::Envelope::Edifact, "UNA:+.? '", true},
      {edifact, SegmentScanner::Envelope::Edifact, "UNG+INVOIC'", true},
      {edifact, SegmentScanner::Envelope::Edifact, "UNE+1+1'", true},
      {edifact, SegmentScanner::Envelope::Edifact, "UNZ+1+1'", true},
      {edifact, SegmentScanner::Envelope::Edifact, "UNS+S'", false},  // section control: message content
      {edifact, SegmentScanner::Envelope::Edifact, "ST+1'", false},   // an X12 envelope tag, not EDIFACT's
      {Delimiters{}, SegmentScanner::Envelope::X12, "ST*810*0001~", true},
      {Delimiters{}, SegmentScanner::Envelope::X12, "SE*2*0001~", true},
      {Delimiters{}, SegmentScanner::Envelope::X12, "GS*IN~", true},
      {Delimiters{}, SegmentScanner::Envelope::X12, "GE*1*1~", true},
      {Delimiters{}, SegmentScanner::Envelope::X12, "IEA*1*1~", true},
      {Delimiters{}, SegmentScanner::Envelope::X12, "ISA*00~", true},
      {Delimiters{}, SegmentScanner::Envelope::X12, "IT1*1*2~", false},
      {Delimiters{}, SegmentScanner::Envelope::X12, "ISS*1~", false},
      {Delimiters{}, SegmentScanner::Envelope::X12, "STX*1~", false},
      {Delimiters{}, SegmentScanner::Envelope::X12, "UNH*1~", false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.segment);
    const char term = c.d.terminator.bytes[0];
    const std::string buf = std::string("REF") + c.d.element + "1" + term + c.segment + "REF" + c.d.element + "2" +
                            term + "PAD" + c.d.element + std::string(80, 'X') + term;
    SegmentScanner sc;
    sc.reset(c.d, ScanOptions{});
    size_t pos = 0;
    CHECK(sc.skip_plain(buf, &pos, 0, c.envelope).count == (c.envelope_tag ? 1u : 4u));
  }
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
