// What can be wrong with an interchange envelope, and where.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace edihub::edi {

// Stable identifiers of envelope rules. Their names (code_name) are part of the
// `edihub inspect --json` contract.
enum class ErrorCode {
  // Both standards
  UnknownStart,       // bytes that begin no interchange (no ISA, UNA or UNB)
  Truncated,          // input ended inside an interchange
  SegmentTooLong,     // no terminator within ParseOptions::max_segment_bytes
  InvalidSegmentTag,  // a tag that is not 2-3 upper-case letters/digits
  UnexpectedSegment,  // a segment where the envelope allows none
  InvalidDelimiters,  // service characters that clash or are letters/digits
  // X12
  IsaLength,   // ISA is not 106 characters
  IsaElement,  // an ISA element with a value outside its code list
  IeaMissing,
  IeaCount,    // IEA01 != number of groups
  IeaControl,  // IEA02 != ISA13
  GsElement,   // GS without a functional id or control number
  GeMissing,
  GeCount,    // GE01 != number of sets
  GeControl,  // GE02 != GS06
  SeMissing,
  SeCount,    // SE01 != segments ST..SE
  SeControl,  // SE02 != ST02
  // EDIFACT
  UnaInvalid,
  UnbSyntax,   // UNB S001 not UNOA..UNOY version 1-4
  UnbElement,  // UNB without sender, recipient or control reference
  UnzMissing,
  UnzCount,    // UNZ 0036 != messages (or groups)
  UnzControl,  // UNZ 0020 != UNB 0020
  UneMissing,
  UneCount,    // UNE 0060 != messages in group
  UneControl,  // UNE 0048 != UNG 0048
  UntMissing,
  UntCount,      // UNT 0074 != segments UNH..UNT
  UntReference,  // UNT 0062 != UNH 0062
  MixedGroups,   // UNG groups and bare messages in one interchange
  // Set by the receiving application, not the parser: a message whose content
  // it cannot use. Acknowledgments reject the message (AK5 5 / UCM 4 + 18).
  ApplicationRejected,
  // Set by the receiving gateway, not the parser: the sender id (ISA05/06, UNB
  // 0004) is not the transport partner's own nor one it may send for (TA1 006,
  // UCI 4 + 23), or the recipient (ISA07/08, UNB 0010) is not one of ours
  // (TA1 009, UCI 4 + 7). Interchange-level.
  SenderNotAuthorized,
  RecipientNotOurs,
};

// "SE01_COUNT" style names, stable for JSON output and logs.
std::string_view code_name(ErrorCode code);

struct EnvelopeError {
  ErrorCode code;
  uint64_t offset = 0;   // byte offset of the offending segment in the input
  uint64_t segment = 0;  // 1-based position of that segment in the input (0: none)
  int group = -1;        // index of the group it concerns in Interchange::groups, or -1
  int message = -1;      // index of the message within that group, or -1
  int element = 0;       // for IsaElement / UnbElement: which element (ISA13 -> 13)
  std::string text;      // what was found and what was expected
};

}  // namespace edihub::edi
