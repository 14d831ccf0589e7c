// The envelope model shared by X12 and EDIFACT: interchange, group, message.
// Fields are owned copies (short, so mostly in small-string storage); byte
// spans are offsets into the input the parser was fed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parsers/edi/delimiters.h"
#include "parsers/edi/envelope_error.h"

namespace edihub::edi {

enum class Standard { X12, Edifact };

std::string_view standard_name(Standard s);  // "x12" / "edifact"

struct Party {
  std::string id;         // trimmed (X12 ids are space padded in the ISA)
  std::string qualifier;  // X12 ISA05/07, GS has none; EDIFACT 0007 (may be empty)
};

// What is wrong with the characters of a value whose code is 6 (invalid
// character): X12 has one code for all, ISO 9735's 0085 tells them apart.
enum class BadCharacter : uint8_t {
  kNone,
  kType,       // a letter in a numeric element, a digit in an alphabetic one (0085: 37)
  kSet,        // a control character, outside every syntax level's set (0085: 21)
  kSeparator,  // an unreleased component or repetition separator in a value (0085: 16)
};

// One element error inside a segment, for AK4 / IK4 in 997 / 999.
struct ElementError {
  int position = 0;       // element position in the segment, 1-based from the first after the tag (X12's count)
  int component = 0;      // component position, 0 when not composite
  std::string reference;  // data element reference number, may be empty
  std::string code;       // X12 AK403 / IK403 code
  std::string value;      // the bad value, may be empty
  BadCharacter character = BadCharacter::kNone;  // why, when `code` is 6
  // The element whose presence made this one required or excluded (a
  // relational condition), for the 999's CTX "SITUATIONAL TRIGGER": its
  // position in the same segment (0: no trigger) and reference number.
  int trigger_position = 0;
  std::string trigger_reference;
};

// One segment error inside a message, for AK3 / IK3 in 997 / 999.
struct SegmentError {
  std::string tag;
  // Position in the message, ST/UNH = 1: the segment in error, or for a
  // missing one (code 3) the segment at which the gap was found.
  uint32_t position = 0;
  std::string loop;  // loop identifier, may be empty
  std::string code;  // X12 AK304 / IK304 code ("1" unrecognized segment ID, ...)
  std::vector<ElementError> elements;
};

struct Span {
  uint64_t offset = 0;  // first byte
  uint64_t length = 0;  // through the trailer's terminator
};

struct Message {
  std::string type;            // ST01 "856" / UNH S009 0065 "DESADV"
  std::string control_number;  // ST02 / UNH 0062
  std::string version;         // ST03 (or GS08) / "D:96A:UN[:EAN005]"
  uint32_t segments = 0;       // counted, header and trailer included
  uint64_t first_segment = 0;  // 1-based position of ST/UNH in the input
  Span span;
  std::vector<SegmentError> segment_errors;
  bool validated = false;  // a message definition checked it (ParseOptions::observer)
  // The receiver accepts it with its segment errors (a partner's validation
  // policy): its 997/999 says AK5/IK5 E, accepted with errors noted, not R.
  bool errors_accepted = false;
};

struct Group {
  bool implicit = false;       // EDIFACT messages without UNG
  std::string functional_id;   // GS01 / UNG 0038
  Party sender, receiver;      // GS02 / GS03, UNG S006 / S007
  std::string control_number;  // GS06 / UNG 0048
  std::string version;         // GS08 / UNG S008
  std::string date, time;
  uint32_t message_count = 0;  // counted (kept even when messages are not)
  std::vector<Message> messages;
  Span span;
};

struct Interchange {
  Standard standard = Standard::X12;
  Party sender, receiver;             // ISA05/06, ISA07/08 / UNB S002, S003
  std::string control_number;         // ISA13 / UNB 0020
  std::string version;                // ISA12 "00401" / UNB syntax version "3"
  std::string syntax;                 // EDIFACT syntax identifier "UNOA"; X12: empty
  std::string date, time;             // ISA09/10 / UNB S004
  bool test = false;                  // ISA15 = T / UNB 0035 = 1
  bool ack_requested = false;         // ISA14 = 1 / UNB 0031 = 1
  std::string application_reference;  // EDIFACT 0026
  Delimiters delimiters;
  uint32_t segments = 0;
  uint32_t group_count = 0;  // counted (EDIFACT implicit group not counted)
  uint32_t message_count = 0;
  std::vector<Group> groups;
  std::vector<EnvelopeError> errors;  // all levels; see EnvelopeError::group/message
  Span span;

  bool ok() const { return errors.empty(); }
  // Errors that concern the interchange as a whole (not one group or message).
  bool has_interchange_errors() const;
};

}  // namespace edihub::edi
