// Bookkeeping shared by the X12 and EDIFACT envelope builders: the interchange
// being built, its open group and message, counters and errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "parsers/edi/interchange.h"
#include "parsers/edi/observer.h"
#include "parsers/edi/segment.h"

namespace edihub::edi {

// Parses an unsigned decimal count or control number ("0001" -> 1); nullopt
// for anything else, including values too large to be a count.
std::optional<uint64_t> parse_number(std::string_view s);
// True when both are decimal numbers of equal value, or identical strings.
bool same_number(std::string_view a, std::string_view b);

class Assembler {
 public:
  // `observer` (may be null, not owned) sees every message's segments.
  Assembler(bool keep_messages, MessageObserver* observer) : keep_messages_(keep_messages), observer_(observer) {}

  enum class Scope { Interchange, Group, Message };

  void begin(Standard standard, uint64_t offset);
  Interchange& ic() { return ic_; }
  // The interchange built; begin() starts the next.
  Interchange take();

  bool in_group() const { return group_open_; }
  bool in_message() const { return message_open_; }
  Group& group() { return group_; }
  Message& message() { return message_; }

  // Counts a segment of the interchange (and of the open message).
  void count(const Segment& s, uint64_t number);
  // Counts n segments of the open message's content that need no other look.
  void count_plain(uint64_t n) {
    ic_.segments += static_cast<uint32_t>(n);
    message_.segments += static_cast<uint32_t>(n);
  }
  // The group or message to open next, empty while none is open: the
  // builder fills it in place, then opens it.
  Group& next_group() { return group_; }
  Message& next_message() { return message_; }
  void open_group(const Segment& header);
  void close_group(uint64_t end_offset);
  void open_message(const Segment& header, uint64_t number);
  void close_message(uint64_t end_offset);
  void finish(uint64_t end_offset) { ic_.span.length = end_offset - ic_.span.offset; }

  // Records an error about `scope` (the open group / message when narrower).
  void error(ErrorCode code, Scope scope, const Segment& at, uint64_t number, std::string text, int element = 0);

 private:
  bool keep_messages_;
  MessageObserver* observer_;
  Interchange ic_;
  Group group_;
  Message message_;
  bool group_open_ = false;
  bool message_open_ = false;
};

}  // namespace edihub::edi
