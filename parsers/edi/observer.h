// A reader of message content beside the envelope parser: it sees every
// segment of every message in order (header and trailer included), with the
// interchange's delimiters, and what it finds at the message's end becomes
// the Message's segment errors (the 997/999 AK3/AK4 or IK3/IK4 segments,
// CONTRL UCS/UCD). The parser owns no observer; with one set, the bulk fast
// path that only counts content segments is off.
#pragma once

#include <vector>

#include "parsers/edi/interchange.h"
#include "parsers/edi/segment.h"

namespace edihub::edi {

class MessageObserver {
 public:
  virtual ~MessageObserver() = default;
  // A message opens: its header is the next segment(). `ic` and `group` are
  // the enclosing envelope as read so far (ids, version, delimiters).
  virtual void begin(const Interchange& ic, const Group& group, const Message& message) = 0;
  // One segment of the open message: `number` is its position in the message (header = 1).
  virtual void segment(const Segment& s, uint32_t number) = 0;
  // The message closed (at its trailer, or early when the envelope ended it).
  struct Findings {
    bool checked = false;              // a definition checked the message
    std::vector<SegmentError> errors;  // in segment order
  };
  virtual Findings end() = 0;
};

}  // namespace edihub::edi
