// Builder for the EDIFACT CONTRL syntax and service report of a received
// interchange.
#pragma once

#include <optional>
#include <string>

#include "parsers/edi/interchange.h"

namespace edihub::edifact {

// The CONTRL's own interchange, sent back to the original sender.
struct ContrlEnvelope {
  std::string control_reference;        // UNB/UNZ 0020 of the CONTRL interchange
  std::string message_reference = "1";  // UNH/UNT 0062
  std::string date;                     // YYMMDD (CCYYMMDD for syntax version 4)
  std::string time;                     // HHMM
  std::string segment_suffix;           // written after each terminator, e.g. "\n" (never after a CR or LF terminator)
  // The CONTRL's own UNB sender / recipient; empty: the original's recipient / sender.
  std::optional<edi::Party> sender, recipient;
};

// UCI 0083: 7 (acknowledged; lower levels too unless a UCF/UCM rejects them)
// or 4 (rejected) with 0085 from the first interchange-level error. Per message
// a UCM (7, or 4 with 0085), inside a UCF per group when the original used UNG.
// A message's segment errors (a definition's findings) follow its UCM as UCS
// (segment position, UNH = 1; 0085 when the segment itself is wrong) and UCD
// (0085, element position:component): UCM 4 unless the partner's policy
// accepted them (Message::errors_accepted), then UCM 7 with the errors listed.
// The X12 finding codes map to 0085 as: segment 3 -> 13, 4 -> 36, 5 -> 35,
// others 15; element 1/2 -> 13, 3 -> 16, 4 -> 40, 5 -> 39, 6 -> 21, 7/8/9 -> 12,
// 10 -> 15, and from a guide I6 -> 14, I10 -> 15.
// With duplicate = true: UCI 4 with 0085 = 26 (duplicate detected) and no UCM.
// REQUIRES: original parsed with keep_messages.
std::string build_contrl(const edi::Interchange& original, const ContrlEnvelope& env, bool duplicate = false);

}  // namespace edihub::edifact
