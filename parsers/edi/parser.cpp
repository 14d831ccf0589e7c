#include "parsers/edi/parser.h"

#include <string>
#include <utility>

#include "parsers/edifact/envelope.h"
#include "parsers/edifact/una.h"
#include "parsers/x12/envelope.h"
#include "parsers/x12/isa.h"

namespace edihub::edi {

namespace {

// Bytes tolerated between interchanges: whitespace, NUL padding, DOS EOF.
bool is_filler(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\0' || c == '\x1a'; }

std::string printable(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 16)) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      out.push_back(c);
    } else {
      static const char* hex = "0123456789ABCDEF";
      out += "\\x";
      out.push_back(hex[u >> 4]);
      out.push_back(hex[u & 15]);
    }
  }
  return out;
}

}  // namespace

struct Parser::State {
  enum class Mode { Idle, X12, Edifact, Failed };

  ParseOptions options;
  InterchangeHandler on_interchange;
  ErrorHandler on_error;
  Mode mode = Mode::Idle;
  uint64_t base = 0;         // absolute offset of the buffer fed next
  uint64_t segments = 0;     // segments numbered so far in the stream
  uint64_t last_offset = 0;  // offset of the last segment read
  SegmentScanner scanner;
  x12::EnvelopeBuilder x12;
  edifact::EnvelopeBuilder edifact;

  explicit State(const ParseOptions& o)
      : options(o), x12(o.keep_messages, o.observer), edifact(o.keep_messages, o.observer) {}

  void fail(ErrorCode code, uint64_t offset, std::string text) {
    EnvelopeError e;
    e.code = code;
    e.offset = offset;
    e.segment = 0;
    e.text = std::move(text);
    on_error(std::move(e));
    mode = Mode::Failed;
  }

  // Returns false when more input is needed to decide.
  bool start_interchange(std::string_view buf, size_t* pos, bool eof);
  // Returns false when more input is needed.
  bool read_segments(std::string_view buf, size_t* pos, bool eof);
};

bool Parser::State::start_interchange(std::string_view buf, size_t* pos, bool eof) {
  size_t p = *pos;
  if (base + p == 0 && buf.substr(0, 3) == "\xEF\xBB\xBF") p += 3;  // UTF-8 BOM
  while (p < buf.size() && is_filler(buf[p])) ++p;
  *pos = p;
  if (p >= buf.size()) return eof;
  if (buf.size() - p < 3 && !eof) return false;

  std::string_view head = buf.substr(p, 3);
  std::string why;
  if (head == "ISA") {
    x12::IsaHeader isa;
    switch (x12::read_isa(buf, p, eof, &isa, &why)) {
      case x12::IsaStatus::NeedMore:
        return false;
      case x12::IsaStatus::Invalid:
        fail(ErrorCode::IsaLength, base + p, why);
        *pos = buf.size();
        return true;
      case x12::IsaStatus::Ok:
        break;
    }
    x12.start(isa, base + p, ++segments);
    last_offset = base + p;
    scanner.reset(isa.delimiters, options.scan);
    *pos = p + isa.raw_length;
    mode = Mode::X12;
    return true;
  }
  if (head == "UNA" || head == "UNB") {
    edifact::Una una;
    Delimiters d = edifact::default_delimiters();
    size_t q = p;
    if (head == "UNA") {
      switch (edifact::read_una(buf, p, eof, &una, &why)) {
        case edifact::UnaStatus::NeedMore:
          return false;
        case edifact::UnaStatus::Invalid:
          fail(ErrorCode::UnaInvalid, base + p, why);
          *pos = buf.size();
          return true;
        case edifact::UnaStatus::Ok:
          break;
      }
      d = una.delimiters;
      q = p + una.raw_length;
    }
    scanner.reset(d, options.scan);
    Segment unb;
    switch (scanner.next(buf, &q, eof, base, &unb)) {
      case SegmentScanner::Status::NeedMore:
        return false;
      case SegmentScanner::Status::Ok:
        if (unb.tag == "UNB") break;
        [[fallthrough]];
      default:
        fail(ErrorCode::UnknownStart, base + p, "UNA is not followed by UNB");
        *pos = buf.size();
        return true;
    }
    edifact.start(d, head == "UNA" ? &una : nullptr, unb, ++segments, base + p);
    last_offset = unb.offset;
    *pos = q;
    mode = Mode::Edifact;
    return true;
  }
  // The message quotes up to 16 bytes: wait for them, so that any chunking of
  // the input reports the same text.
  if (buf.size() - p < 16 && !eof) return false;
  fail(ErrorCode::UnknownStart, base + p,
       "expected an interchange (ISA, UNA or UNB) at byte " + std::to_string(base + p) + ", found '" +
           printable(buf.substr(p)) + "'");
  *pos = buf.size();
  return true;
}

bool Parser::State::read_segments(std::string_view buf, size_t* pos, bool eof) {
  while (true) {
    // Message content in bulk first: most segments of a file are just counted
    // (unless an observer reads them).
    const bool x = mode == Mode::X12;
    if (options.observer == nullptr && (x ? x12.in_message() : edifact.in_message())) {
      auto skipped =
          scanner.skip_plain(buf, pos, base, x ? SegmentScanner::Envelope::X12 : SegmentScanner::Envelope::Edifact);
      if (skipped.count > 0) {
        if (x) {
          x12.on_plain(skipped.count, skipped.last_end);
        } else {
          edifact.on_plain(skipped.count, skipped.last_end);
        }
        segments += skipped.count;
        last_offset = skipped.last_offset;
      }
    }
    Segment seg;
    size_t p = *pos;
    auto status = scanner.next(buf, &p, eof, base, &seg);
    if (status == SegmentScanner::Status::NeedMore) return false;
    if (status == SegmentScanner::Status::End || status == SegmentScanner::Status::TooLong) {
      Segment last;
      last.offset = last_offset;
      // Too long: the interchange ends where the unreadable segment begins
      // (p, set by the scanner), not at the end of however much was buffered.
      const uint64_t end = base + (status == SegmentScanner::Status::TooLong ? p : buf.size());
      if (mode == Mode::X12) {
        x12.truncate(last, segments, end);
        on_interchange(x12.take());
      } else {
        edifact.truncate(last, segments, end);
        on_interchange(edifact.take());
      }
      if (status == SegmentScanner::Status::TooLong) {
        fail(ErrorCode::SegmentTooLong, base + p,
             "no segment terminator within " + std::to_string(options.scan.max_segment_bytes) + " bytes at byte " +
                 std::to_string(base + p));
      } else {
        mode = Mode::Idle;
      }
      *pos = buf.size();
      return true;
    }
    uint64_t number = ++segments;
    bool restart = false, complete = false;
    if (mode == Mode::X12) {
      auto step = x12.on_segment(seg, number);
      restart = step == x12::EnvelopeBuilder::Step::Restart;
      complete = step == x12::EnvelopeBuilder::Step::Complete;
      if (restart || complete) on_interchange(x12.take());
    } else {
      auto step = edifact.on_segment(seg, number);
      restart = step == edifact::EnvelopeBuilder::Step::Restart;
      complete = step == edifact::EnvelopeBuilder::Step::Complete;
      if (restart || complete) on_interchange(edifact.take());
    }
    if (restart) {
      --segments;  // read again as the next interchange's first segment
      *pos = static_cast<size_t>(seg.offset - base);
      mode = Mode::Idle;
      return true;
    }
    last_offset = seg.offset;
    *pos = p;
    if (complete) {
      mode = Mode::Idle;
      return true;
    }
  }
}

Parser::Parser(const ParseOptions& options, InterchangeHandler on_interchange, ErrorHandler on_error)
    : s_(std::make_unique<State>(options)) {
  s_->on_interchange = std::move(on_interchange);
  s_->on_error = std::move(on_error);
}

Parser::~Parser() = default;

uint64_t Parser::consumed() const { return s_->base; }

size_t Parser::feed(std::string_view buf, bool eof) {
  State& s = *s_;
  size_t pos = 0;
  while (pos < buf.size() || (eof && s.mode != State::Mode::Idle && s.mode != State::Mode::Failed)) {
    bool progressed;
    switch (s.mode) {
      case State::Mode::Failed:
        pos = buf.size();
        progressed = true;
        break;
      case State::Mode::Idle: {
        size_t before = pos;
        progressed = s.start_interchange(buf, &pos, eof);
        if (progressed && pos == before && s.mode == State::Mode::Idle) progressed = false;
        break;
      }
      default:
        progressed = s.read_segments(buf, &pos, eof);
        break;
    }
    if (!progressed) break;
  }
  if (eof) pos = buf.size();
  s.base += pos;
  return pos;
}

bool ParseResult::ok() const {
  if (!errors.empty()) return false;
  for (const auto& ic : interchanges)
    if (!ic.ok()) return false;
  return true;
}

ParseResult parse(std::string_view input, const ParseOptions& options) {
  ParseResult result;
  Parser parser(
      options, [&](Interchange&& ic) { result.interchanges.push_back(std::move(ic)); },
      [&](EnvelopeError&& e) { result.errors.push_back(std::move(e)); });
  parser.feed(input, true);
  return result;
}

}  // namespace edihub::edi
