#include "parsers/edi/envelope_error.h"

#include "parsers/edi/interchange.h"

namespace edihub::edi {

std::string_view code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::UnknownStart:
      return "UNKNOWN_START";
    case ErrorCode::Truncated:
      return "TRUNCATED";
    case ErrorCode::SegmentTooLong:
      return "SEGMENT_TOO_LONG";
    case ErrorCode::InvalidSegmentTag:
      return "INVALID_SEGMENT_TAG";
    case ErrorCode::UnexpectedSegment:
      return "UNEXPECTED_SEGMENT";
    case ErrorCode::InvalidDelimiters:
      return "INVALID_DELIMITERS";
    case ErrorCode::IsaLength:
      return "ISA_LENGTH";
    case ErrorCode::IsaElement:
      return "ISA_ELEMENT";
    case ErrorCode::IeaMissing:
      return "IEA_MISSING";
    case ErrorCode::IeaCount:
      return "IEA01_COUNT";
    case ErrorCode::IeaControl:
      return "IEA02_CONTROL";
    case ErrorCode::GsElement:
      return "GS_ELEMENT";
    case ErrorCode::GeMissing:
      return "GE_MISSING";
    case ErrorCode::GeCount:
      return "GE01_COUNT";
    case ErrorCode::GeControl:
      return "GE02_CONTROL";
    case ErrorCode::SeMissing:
      return "SE_MISSING";
    case ErrorCode::SeCount:
      return "SE01_COUNT";
    case ErrorCode::SeControl:
      return "SE02_CONTROL";
    case ErrorCode::UnaInvalid:
      return "UNA_INVALID";
    case ErrorCode::UnbSyntax:
      return "UNB_SYNTAX";
    case ErrorCode::UnbElement:
      return "UNB_ELEMENT";
    case ErrorCode::UnzMissing:
      return "UNZ_MISSING";
    case ErrorCode::UnzCount:
      return "UNZ0036_COUNT";
    case ErrorCode::UnzControl:
      return "UNZ0020_CONTROL";
    case ErrorCode::UneMissing:
      return "UNE_MISSING";
    case ErrorCode::UneCount:
      return "UNE0060_COUNT";
    case ErrorCode::UneControl:
      return "UNE0048_CONTROL";
    case ErrorCode::UntMissing:
      return "UNT_MISSING";
    case ErrorCode::UntCount:
      return "UNT0074_COUNT";
    case ErrorCode::UntReference:
      return "UNT0062_REFERENCE";
    case ErrorCode::MixedGroups:
      return "MIXED_GROUPS";
    case ErrorCode::ApplicationRejected:
      return "APPLICATION_REJECTED";
    case ErrorCode::SenderNotAuthorized:
      return "SENDER_NOT_AUTHORIZED";
    case ErrorCode::RecipientNotOurs:
      return "RECIPIENT_NOT_OURS";
  }
  return "UNKNOWN";
}

std::string_view standard_name(Standard s) { return s == Standard::X12 ? "x12" : "edifact"; }

bool Interchange::has_interchange_errors() const {
  for (const auto& e : errors)
    if (e.group < 0) return true;
  return false;
}

}  // namespace edihub::edi
