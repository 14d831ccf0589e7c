// Builder for the EDIFACT APERAK (application error and acknowledgement,
// D.96A) that tells a partner which of its messages were not booked and why:
// the errors a CONTRL cannot carry, because the syntax was right.
#pragma once

#include <optional>
#include <string>

#include "parsers/edi/interchange.h"

namespace edihub::edifact {

// The APERAK's own interchange, sent back to the original sender.
struct AperakEnvelope {
  std::string control_reference;  // UNB/UNZ 0020; also the stem of each BGM 1004
  std::string date;               // UNB: YYMMDD (CCYYMMDD for syntax version 4)
  std::string time;               // UNB: HHMM
  std::string created;            // DTM 137 in format 203: CCYYMMDDHHMM
  std::string segment_suffix;     // written after each terminator (never after a CR or LF terminator)
  // The APERAK's own UNB sender / recipient; empty: the original's recipient / sender.
  std::optional<edi::Party> sender, recipient;
};

// The application error codes (ERC C901 9321, code list agency 3055 ZZZ,
// mutually defined): what the partner's application can act on.
inline constexpr const char* kAperakNotBooked = "EH01";  // this message cannot be booked (FTX: why, where)
inline constexpr const char* kAperakWithOther = "EH02";  // not booked: another message of its interchange was not

// One APERAK per message of `original` that was not booked because of an
// application error (edi::ErrorCode::ApplicationRejected in its errors),
// and, since an interchange is booked all or nothing, one per other message
// of it: UNH (APERAK:D:96A:UN), BGM 305 with 1004 "<control_reference>-<n>"
// and 1225 27 (not accepted), DTM 137, RFF ACW with the message's UNH 0062,
// ERC EH01 with FTX AAO the error's text (up to 5 x 70 characters) or ERC
// EH02 with FTX naming the message that stopped it. Empty when no message
// has an application error. Delimiters and syntax are the original's.
std::string build_aperak(const edi::Interchange& original, const AperakEnvelope& env);

// True when `ic` has an application error an APERAK would report.
bool has_application_errors(const edi::Interchange& ic);

}  // namespace edihub::edifact
