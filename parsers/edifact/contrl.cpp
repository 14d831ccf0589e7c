#include "parsers/edifact/contrl.h"

#include <initializer_list>

#include "parsers/edifact/una.h"
#include "parsers/edifact/writer.h"

namespace edihub::edifact {

using edi::ErrorCode;

namespace {

// 0085 syntax error codes (ISO 9735).
const char* syntax_error(ErrorCode c) {
  switch (c) {
    case ErrorCode::UnbSyntax:
      return "2";
    case ErrorCode::InvalidSegmentTag:
      return "12";
    case ErrorCode::UnbElement:
    case ErrorCode::Truncated:
    case ErrorCode::UnzMissing:
    case ErrorCode::UneMissing:
    case ErrorCode::UntMissing:
      return "13";
    case ErrorCode::UnzControl:
    case ErrorCode::UneControl:
    case ErrorCode::UntReference:
      return "28";
    case ErrorCode::UnzCount:
    case ErrorCode::UneCount:
    case ErrorCode::UntCount:
      return "29";
    case ErrorCode::MixedGroups:
      return "30";
    case ErrorCode::UnexpectedSegment:
      return "33";
    case ErrorCode::SenderNotAuthorized:
      return "23";  // unknown interchange sender
    case ErrorCode::RecipientNotOurs:
      return "7";  // the recipient is not the actual recipient
    default:
      return "18";  // unspecified error
  }
}

// 0085 for a validator's segment finding (the X12 AK304 codes, I4 from a guide).
const char* segment_syntax_error(const std::string& code) {
  if (code == "3") return "13";  // missing
  if (code == "4") return "36";  // too many segment group repetitions
  if (code == "5") return "35";  // too many segment repetitions
  return "15";                   // not supported in this position
}

// 0085 for an element finding (the X12 AK403 codes, I6/I10 from a guide).
const char* element_syntax_error(const edi::ElementError& e) {
  const std::string& code = e.code;
  if (code == "1" || code == "2") return "13";   // missing
  if (code == "3" || code == "13") return "16";  // too many constituents
  if (code == "4") return "40";                  // data element too short
  if (code == "5") return "39";                  // data element too long
  if (code == "6") {
    if (e.character == edi::BadCharacter::kType) return "37";       // invalid type of characters
    if (e.character == edi::BadCharacter::kSeparator) return "16";  // a separator: constituents too many
    return "21";                                                    // invalid character(s)
  }
  if (code == "I6") return "14";                   // value not supported in this position
  if (code == "10" || code == "I10") return "15";  // not supported in this position
  return "12";                                     // invalid value (a code, a date, a time)
}

// ISO 9735 counts a segment's positions from its tag (0098: the tag is 1),
// the validator from the first element after it, as X12 does.
std::string element_position(const edi::ElementError& e, char component_separator) {
  std::string at = std::to_string(e.position + 1);
  if (e.component > 0) at += component_separator + std::to_string(e.component);
  return at;
}

// 0096 counts from UNH = 1. A missing segment is reported at the last segment
// processed before the gap (the CONTRL's note to 0096); the validator names
// the segment at which it found the gap, the one after.
uint32_t segment_position(const edi::SegmentError& e) {
  return e.code == "3" && e.position > 1 ? e.position - 1 : e.position;
}

// A message's UCM, then a UCS (and its UCDs) per segment error.
void write_ucm(Writer& w, const edi::Message& msg, const std::string& id, const edi::EnvelopeError* me) {
  const bool rejected = me != nullptr || (!msg.segment_errors.empty() && !msg.errors_accepted);
  w.segment({"UCM", w.esc(msg.control_number), id, rejected ? "4" : "7", me ? syntax_error(me->code) : ""});
  for (const edi::SegmentError& se : msg.segment_errors) {
    w.segment({"UCS", std::to_string(segment_position(se)), se.elements.empty() ? segment_syntax_error(se.code) : ""});
    for (const edi::ElementError& ee : se.elements)
      w.segment({"UCD", element_syntax_error(ee), element_position(ee, w.comp())});
  }
}

const edi::EnvelopeError* first_error(const edi::Interchange& o, int group, int message) {
  for (const auto& e : o.errors)
    if (e.group == group && e.message == message) return &e;
  return nullptr;
}

}  // namespace

std::string build_contrl(const edi::Interchange& o, const ContrlEnvelope& env, bool duplicate) {
  Writer w(o.delimiters, env.segment_suffix);
  w.interchange_header(o, env.sender, env.recipient, env.date, env.time, env.control_reference);
  const std::string version = syntax_version_of(o);
  const char c = w.comp();
  w.reset_count();
  const std::string type = version == "4" ? std::string("CONTRL:4:1:UN") : "CONTRL:D:3:UN";
  std::string contrl = type;
  for (char& ch : contrl)
    if (ch == ':') ch = c;
  w.segment({"UNH", w.esc(env.message_reference), contrl});

  // UCI: the interchange level.
  const edi::EnvelopeError* ic_error = nullptr;
  for (const auto& e : o.errors)
    if (e.group < 0) {
      ic_error = &e;
      break;
    }
  std::string action = "7", code;
  if (duplicate) {
    action = "4";
    code = "26";
  } else if (ic_error != nullptr) {
    action = "4";
    code = syntax_error(ic_error->code);
  }
  w.segment({"UCI", w.esc(o.control_number), w.party(o.sender), w.party(o.receiver), action, code});

  if (action == "7") {
    for (size_t g = 0; g < o.groups.size(); ++g) {
      const edi::Group& group = o.groups[g];
      if (!group.implicit) {
        const edi::EnvelopeError* ge = first_error(o, static_cast<int>(g), -1);
        w.segment({"UCF", w.esc(group.control_number), w.party(group.sender), w.party(group.receiver), ge ? "4" : "7",
                   ge ? syntax_error(ge->code) : ""});
      }
      for (size_t m = 0; m < group.messages.size(); ++m) {
        const edi::Message& msg = group.messages[m];
        const edi::EnvelopeError* me = first_error(o, static_cast<int>(g), static_cast<int>(m));
        // S009: type, then the version components the model joins with ':'.
        std::string id = w.esc(msg.type);
        std::string_view rest = msg.version;
        while (!rest.empty()) {
          size_t colon = rest.find(':');
          id += c + w.esc(rest.substr(0, colon));
          rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
        }
        write_ucm(w, msg, id, me);
      }
    }
  }
  w.segment({"UNT", std::to_string(w.count() + 1), w.esc(env.message_reference)});
  w.segment({"UNZ", "1", w.esc(env.control_reference)});
  return w.take();
}

}  // namespace edihub::edifact
