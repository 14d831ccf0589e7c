// libFuzzer target, differential: the incremental edi::Parser fed in chunks
// must produce exactly what edi::parse produces on the whole buffer; and so
// must the whole buffer read with a message observer that looks at nothing,
// which turns the scanner's bulk path (SegmentScanner::skip_plain) off: every
// segment then goes through SegmentScanner::next().
//
// Input layout: byte 0 = chunk schedule, byte 1 = parse options, the rest is
// the EDI data (tools/fuzz seeds the corpus with sample files behind a few
// such 2-byte headers). An input that starts with "ISA", "UNA" or "UNB" (a
// sample file as it is, e.g. the seeds ctest passes) has no header: it is all
// data, parsed with the default options, and the schedule byte is derived
// from its size.
//   byte 0: bits 0-5 -> n = 1..64; bits 6-7 -> schedule:
//           0 constant n, 1 alternating 1 and n, 2 pseudo-random 1..4n,
//           3 constant 64n
//   byte 1: bit 0 keep_messages = false; bit 1 ignore_line_breaks = false;
//           bit 2 max_segment_bytes = 16 + (byte 1 >> 3) * 8 (else default)
//
// The caller works like src/cli/edi_file.cpp: it keeps the bytes feed() did
// not consume, appends the next chunk and feeds again; at the end it feeds the
// rest with eof = true. Each feed gets a fresh, exactly sized heap copy, so
// ASan catches a parser that reads past the buffer or keeps a view into an
// earlier one.
//
// Compared (a difference prints one line to stderr and traps): file-level
// errors (code, offset, segment, text); interchanges: count, standard, control
// numbers, parties, version, counters, delimiters, spans, groups and messages
// (control numbers, types, counts, spans) and errors (code, offset, segment,
// group, message, element, text).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/edi/parser.h"

namespace {

using namespace edihub;

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "edi_stream_fuzz: the whole, streamed and one-by-one parses differ: %s\n", what);
  __builtin_trap();
}

void same(bool ok, const char* what) {
  if (!ok) fail(what);
}

class Schedule {
 public:
  explicit Schedule(uint8_t spec) : n_(static_cast<size_t>(spec & 0x3f) + 1), kind_(spec >> 6), state_(spec) {}

  size_t next() {
    ++i_;
    switch (kind_) {
      case 0:
        return n_;
      case 1:
        return i_ % 2 == 0 ? 1 : n_;
      case 2:
        state_ = state_ * 1103515245u + 12345u;
        return 1 + (state_ >> 16) % (4 * n_);
      default:
        return 64 * n_;
    }
  }

 private:
  size_t n_;
  unsigned kind_;
  uint32_t state_;
  size_t i_ = 0;
};

void compare_errors(const edi::EnvelopeError& a, const edi::EnvelopeError& b) {
  same(a.code == b.code, "error code");
  same(a.offset == b.offset, "error offset");
  same(a.segment == b.segment, "error segment number");
  same(a.group == b.group, "error group index");
  same(a.message == b.message, "error message index");
  same(a.element == b.element, "error element");
  same(a.text == b.text, "error text");
}

void compare_spans(const edi::Span& a, const edi::Span& b, const char* what) {
  same(a.offset == b.offset && a.length == b.length, what);
}

void compare(const edi::Interchange& a, const edi::Interchange& b) {
  same(a.standard == b.standard, "standard");
  same(a.control_number == b.control_number, "interchange control number");
  same(a.sender.id == b.sender.id && a.sender.qualifier == b.sender.qualifier, "sender");
  same(a.receiver.id == b.receiver.id && a.receiver.qualifier == b.receiver.qualifier, "receiver");
  same(a.version == b.version && a.syntax == b.syntax, "version / syntax");
  same(a.date == b.date && a.time == b.time, "date / time");
  same(a.test == b.test && a.ack_requested == b.ack_requested, "test / ack requested");
  same(a.application_reference == b.application_reference, "application reference");
  const edi::Delimiters &da = a.delimiters, &db = b.delimiters;
  same(da.element == db.element && da.component == db.component && da.repetition == db.repetition &&
           da.release == db.release && da.decimal == db.decimal && da.terminator.view() == db.terminator.view(),
       "delimiters");
  same(a.segments == b.segments, "interchange segment count");
  same(a.group_count == b.group_count, "group count");
  same(a.message_count == b.message_count, "interchange message count");
  compare_spans(a.span, b.span, "interchange span");
  same(a.groups.size() == b.groups.size(), "number of groups");
  for (size_t g = 0; g < a.groups.size(); ++g) {
    const edi::Group &ga = a.groups[g], &gb = b.groups[g];
    same(ga.implicit == gb.implicit, "group implicit");
    same(ga.functional_id == gb.functional_id, "group functional id");
    same(ga.control_number == gb.control_number, "group control number");
    same(ga.version == gb.version, "group version");
    same(ga.message_count == gb.message_count, "group message count");
    compare_spans(ga.span, gb.span, "group span");
    same(ga.messages.size() == gb.messages.size(), "number of kept messages");
    for (size_t m = 0; m < ga.messages.size(); ++m) {
      const edi::Message &ma = ga.messages[m], &mb = gb.messages[m];
      same(ma.type == mb.type, "message type");
      same(ma.control_number == mb.control_number, "message control number");
      same(ma.version == mb.version, "message version");
      same(ma.segments == mb.segments, "message segment count");
      same(ma.first_segment == mb.first_segment, "message first segment");
      compare_spans(ma.span, mb.span, "message span");
      same(ma.segment_errors.size() == mb.segment_errors.size(), "message segment errors");
      for (size_t k = 0; k < ma.segment_errors.size(); ++k)
        same(ma.segment_errors[k].tag == mb.segment_errors[k].tag &&
                 ma.segment_errors[k].position == mb.segment_errors[k].position &&
                 ma.segment_errors[k].code == mb.segment_errors[k].code,
             "message segment error");
    }
  }
  same(a.errors.size() == b.errors.size(), "number of interchange errors");
  for (size_t i = 0; i < a.errors.size(); ++i) compare_errors(a.errors[i], b.errors[i]);
}

// Sees every message segment and finds nothing: with it, the parser reads
// each segment one by one.
class Idle : public edi::MessageObserver {
 public:
  void begin(const edi::Interchange&, const edi::Group&, const edi::Message&) override {}
  void segment(const edi::Segment&, uint32_t) override {}
  Findings end() override { return {}; }
};

void compare(const edi::ParseResult& a, const edi::ParseResult& b) {
  same(a.errors.size() == b.errors.size(), "number of file-level errors");
  for (size_t i = 0; i < a.errors.size(); ++i) compare_errors(a.errors[i], b.errors[i]);
  same(a.interchanges.size() == b.interchanges.size(), "number of interchanges");
  for (size_t i = 0; i < a.interchanges.size(); ++i) compare(a.interchanges[i], b.interchanges[i]);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const std::string_view raw(reinterpret_cast<const char*>(data), size);
  const bool headerless = raw.substr(0, 3) == "ISA" || raw.substr(0, 3) == "UNA" || raw.substr(0, 3) == "UNB";
  Schedule schedule(headerless ? static_cast<uint8_t>((size * 2654435761u) >> 13) : data[0]);
  const uint8_t flags = headerless ? 0 : data[1];
  edi::ParseOptions options;
  options.keep_messages = (flags & 1) == 0;
  options.scan.ignore_line_breaks = (flags & 2) == 0;
  if (flags & 4) options.scan.max_segment_bytes = 16 + static_cast<size_t>(flags >> 3) * 8;
  const std::string_view input = headerless ? raw : raw.substr(2);

  const edi::ParseResult whole = edi::parse(input, options);

  edi::ParseResult streamed;
  edi::Parser parser(
      options, [&](edi::Interchange&& ic) { streamed.interchanges.push_back(std::move(ic)); },
      [&](edi::EnvelopeError&& e) { streamed.errors.push_back(std::move(e)); });
  std::string pending;  // unconsumed bytes, like edi_file.cpp's buffer front
  size_t read = 0;
  auto feed = [&](bool eof) {
    // A fresh exactly-sized heap buffer per call: overreads and stale views trap in ASan.
    std::unique_ptr<char[]> copy(new char[std::max<size_t>(pending.size(), 1)]);
    std::copy(pending.begin(), pending.end(), copy.get());
    const size_t used = parser.feed(std::string_view(copy.get(), pending.size()), eof);
    same(used <= pending.size(), "feed() consumed more than it was given");
    if (eof) same(used == pending.size(), "feed(eof) did not consume everything");
    pending.erase(0, used);
    same(parser.consumed() + pending.size() == read, "consumed() out of step with the bytes fed");
  };
  while (read < input.size()) {
    const size_t n = std::min(schedule.next(), input.size() - read);
    pending.append(input.substr(read, n));
    read += n;
    feed(false);
  }
  feed(true);

  compare(whole, streamed);

  Idle idle;
  edi::ParseOptions one_by_one = options;
  one_by_one.observer = &idle;
  compare(whole, edi::parse(input, one_by_one));
  return 0;
}
