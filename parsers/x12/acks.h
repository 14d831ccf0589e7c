// Builders for X12 acknowledgments of a received interchange: TA1
// (interchange), 997 (004010) and 999 (005010X231) functional acks.
#pragma once

#include <optional>
#include <string>

#include "parsers/edi/interchange.h"

namespace edihub::x12 {

// The acknowledgment's own envelope. The ack goes back to the original sender:
// its ISA sender is the original receiver and vice versa, unless `sender` /
// `recipient` say otherwise (an interchange addressed to someone else is
// refused in the gateway's own name, to the partner that actually sent it).
struct AckEnvelope {
  std::string control_number;        // ISA13/IEA02 of the ack; zero-padded to 9 digits
  std::string group_control_number;  // GS06/GE02 of the ack (997/999)
  std::string date;                  // CCYYMMDD
  std::string time;                  // HHMM
  std::string segment_suffix;        // written after each terminator, e.g. "\r\n" (never after a CR or LF terminator)
  std::optional<edi::Party> sender, recipient;  // ISA05/06 and ISA07/08 of the ack
};

struct Ta1 {
  char status = 'A';              // TA104: A accepted, E accepted with errors, R rejected
  std::string note_code = "000";  // TA105
};

// The TA1 an interchange deserves from its envelope errors: the first
// interchange-level error decides the note code (IEA02 -> 001, IEA01 -> 021,
// truncated -> 023, ISA13 -> 018 ...).
Ta1 ta1_for(const edi::Interchange& original);
// TA1 for an interchange whose control number was already processed.
Ta1 ta1_duplicate();

// A complete interchange (ISA, TA1, IEA with IEA01 = 0) in the original's
// delimiters and ISA version.
std::string build_ta1(const edi::Interchange& original, const Ta1& ta1, const AckEnvelope& env);

// A complete interchange holding one 997 (or 999) per functional group of the
// original, with AK2/AK5 (IK5) per transaction set and AK3/AK4 (IK3/IK4) for
// segment errors (a 997 says the 999's implementation codes I4/I10/I6 as
// 2/10/7). REQUIRES: original parsed with keep_messages.
std::string build_997(const edi::Interchange& original, const AckEnvelope& env);
std::string build_999(const edi::Interchange& original, const AckEnvelope& env);

}  // namespace edihub::x12
