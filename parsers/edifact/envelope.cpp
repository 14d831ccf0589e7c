#include "parsers/edifact/envelope.h"

#include <string>

namespace edihub::edifact {

using edi::ErrorCode;
using edi::Segment;

namespace {

std::string quote(std::string_view s) { return "'" + std::string(s) + "'"; }

std::string message_name(const edi::Message& m) { return "message " + m.control_number + " (" + m.type + ")"; }

bool syntax_supported(std::string_view id, std::string_view version) {
  return id.size() == 4 && id.substr(0, 3) == "UNO" && id[3] >= 'A' && id[3] <= 'Y' && version.size() == 1 &&
         version[0] >= '1' && version[0] <= '4';
}

}  // namespace

void EnvelopeBuilder::set_value(std::string* out, const edi::Elements& e, size_t element, size_t comp) const {
  bool released = false;
  const std::string_view v = edi::component(e[element], d_, comp, &released);
  if (released) {
    *out = edi::unescape(v, d_);
  } else {
    out->assign(v);
  }
}

std::string EnvelopeBuilder::value(const edi::Elements& e, size_t element, size_t comp) const {
  std::string out;
  set_value(&out, e, element, comp);
  return out;
}

void EnvelopeBuilder::set_party(edi::Party* out, const edi::Elements& e, size_t element) const {
  set_value(&out->id, e, element, 0);
  set_value(&out->qualifier, e, element, 1);
}

void EnvelopeBuilder::start(const edi::Delimiters& d, const Una* una, const Segment& unb, uint64_t number,
                            uint64_t offset) {
  d_ = d;
  const edi::Elements e = edi::split(unb.text, d_);
  a_.begin(edi::Standard::Edifact, offset);
  explicit_groups_ = bare_messages_ = false;
  last_end_ = unb.end;

  edi::Interchange& ic = a_.ic();
  ic.segments = 1;
  set_value(&ic.syntax, e, 1, 0);
  set_value(&ic.version, e, 1, 1);
  set_party(&ic.sender, e, 2);
  set_party(&ic.receiver, e, 3);
  set_value(&ic.date, e, 4, 0);
  set_value(&ic.time, e, 4, 1);
  set_value(&ic.control_number, e, 5);
  set_value(&ic.application_reference, e, 7);
  ic.ack_requested = value(e, 9) == "1";
  ic.test = value(e, 11) == "1";

  if (ic.version == "4") {
    // Version 4 has a repetition separator: UNA5, or `*` by default.
    char rep = una != nullptr ? una->repetition_or_reserved : '*';
    if (rep != ' ') d_.repetition = rep;
  }
  ic.delimiters = d_;

  if (!syntax_supported(ic.syntax, ic.version)) {
    a_.error(ErrorCode::UnbSyntax, Scope::Interchange, unb, number,
             "UNB syntax identifier " + quote(ic.syntax + ":" + ic.version) +
                 " is not supported: expected UNOA..UNOY with version 1-4",
             1);
  }
  if (ic.sender.id.empty())
    a_.error(ErrorCode::UnbElement, Scope::Interchange, unb, number, "UNB has no sender (S002 0004)", 2);
  if (ic.receiver.id.empty())
    a_.error(ErrorCode::UnbElement, Scope::Interchange, unb, number, "UNB has no recipient (S003 0010)", 3);
  if (ic.control_number.empty())
    a_.error(ErrorCode::UnbElement, Scope::Interchange, unb, number, "UNB has no interchange control reference (0020)",
             5);
  if (!unb.terminated) a_.error(ErrorCode::Truncated, Scope::Interchange, unb, number, "input ends inside UNB");
}

EnvelopeBuilder::Step EnvelopeBuilder::on_segment(const Segment& s, uint64_t number) {
  const std::string_view tag = s.tag;
  if (tag == "UNB" || tag == "UNA") {
    close_message_missing_unt(s, number);
    close_group_at(s, number);
    a_.error(
        ErrorCode::UnzMissing, Scope::Interchange, s, number,
        "missing UNZ: interchange " + a_.ic().control_number + " ends where a new " + std::string(tag) + " begins");
    a_.finish(last_end_);
    return Step::Restart;
  }
  a_.count(s, number);
  if (!s.terminated) {
    a_.error(ErrorCode::Truncated, Scope::Interchange, s, number,
             "input ends inside segment " + std::string(tag) + " (no segment terminator)");
  }
  if (tag == "UNH") {
    on_unh(s, number);
  } else if (tag == "UNT") {
    on_unt(s, number);
  } else if (tag == "UNG") {
    on_ung(s, number);
  } else if (tag == "UNE") {
    on_une(s, number);
  } else if (tag == "UNZ") {
    on_unz(s, number);
    return Step::Complete;
  } else {
    on_body(s, number);
  }
  last_end_ = s.end;
  return Step::Continue;
}

void EnvelopeBuilder::close_message_missing_unt(const Segment& at, uint64_t number) {
  if (!a_.in_message()) return;
  a_.error(ErrorCode::UntMissing, Scope::Message, at, number,
           "missing UNT: " + message_name(a_.message()) + " ends where " + std::string(at.tag) + " begins");
  a_.close_message(last_end_);
}

// Closes the open group because `at` (UNG, UNZ, UNB) begins: an explicit group
// should have been closed by UNE.
void EnvelopeBuilder::close_group_at(const Segment& at, uint64_t number) {
  if (!a_.in_group()) return;
  if (!a_.group().implicit) {
    a_.error(ErrorCode::UneMissing, Scope::Group, at, number,
             "missing UNE: group " + a_.group().control_number + " ends where " + std::string(at.tag) + " begins");
  }
  a_.close_group(last_end_);
}

void EnvelopeBuilder::on_ung(const Segment& s, uint64_t number) {
  const edi::Elements e = edi::split(s.text, d_);
  close_message_missing_unt(s, number);
  close_group_at(s, number);
  if (bare_messages_) {
    a_.error(ErrorCode::MixedGroups, Scope::Interchange, s, number,
             "UNG after messages without a group: an interchange has either groups or bare messages");
  }
  explicit_groups_ = true;
  edi::Group& g = a_.next_group();
  set_value(&g.functional_id, e, 1);
  set_party(&g.sender, e, 2);
  set_party(&g.receiver, e, 3);
  set_value(&g.date, e, 4, 0);
  set_value(&g.time, e, 4, 1);
  set_value(&g.control_number, e, 5);
  g.version = value(e, 7, 0) + ":" + value(e, 7, 1);
  a_.open_group(s);
}

void EnvelopeBuilder::on_unh(const Segment& s, uint64_t number) {
  const edi::Elements e = edi::split(s.text, d_);
  close_message_missing_unt(s, number);
  if (!a_.in_group()) {
    if (explicit_groups_) {
      a_.error(ErrorCode::MixedGroups, Scope::Interchange, s, number,
               "UNH outside a group in an interchange that uses UNG groups");
    }
    bare_messages_ = true;
    a_.next_group().implicit = true;
    a_.open_group(s);
  }
  edi::Message& m = a_.next_message();
  set_value(&m.control_number, e, 1);
  // S009: type, then version, release and agency, and the association code
  // when there is one, kept as "D:96A:UN[:EAN008]".
  const edi::Elements id = edi::split_components(e[2], d_);
  edi::append_unescaped(&m.type, id[0], d_);
  const size_t parts = id[4].empty() ? 3 : 4;
  for (size_t k = 1; k <= parts; ++k) {
    if (k > 1) m.version += ':';
    edi::append_unescaped(&m.version, id[k], d_);
  }
  a_.open_message(s, number);
}

void EnvelopeBuilder::on_unt(const Segment& s, uint64_t number) {
  const edi::Elements e = edi::split(s.text, d_);
  if (!a_.in_message()) {
    a_.error(ErrorCode::UnexpectedSegment, Scope::Interchange, s, number, "UNT without a preceding UNH");
    return;
  }
  const edi::Message& m = a_.message();
  std::string count = value(e, 1), reference = value(e, 2);
  auto declared = edi::parse_number(count);
  if (!declared || *declared != m.segments) {
    a_.error(ErrorCode::UntCount, Scope::Message, s, number,
             "UNT 0074 is " + quote(count) + " but " + message_name(m) + " has " + std::to_string(m.segments) +
                 " segments (UNH through UNT)");
  }
  if (reference != m.control_number) {
    a_.error(ErrorCode::UntReference, Scope::Message, s, number,
             "UNT 0062 is " + quote(reference) + " but UNH 0062 is " + quote(m.control_number));
  }
  a_.close_message(s.end);
}

void EnvelopeBuilder::on_une(const Segment& s, uint64_t number) {
  const edi::Elements e = edi::split(s.text, d_);
  close_message_missing_unt(s, number);
  if (!a_.in_group() || a_.group().implicit) {
    a_.error(ErrorCode::UnexpectedSegment, Scope::Interchange, s, number, "UNE without a preceding UNG");
    return;
  }
  const edi::Group& g = a_.group();
  std::string count = value(e, 1), reference = value(e, 2);
  auto declared = edi::parse_number(count);
  if (!declared || *declared != g.message_count) {
    a_.error(ErrorCode::UneCount, Scope::Group, s, number,
             "UNE 0060 is " + quote(count) + " but group " + g.control_number + " has " +
                 std::to_string(g.message_count) + " messages");
  }
  if (reference != g.control_number) {
    a_.error(ErrorCode::UneControl, Scope::Group, s, number,
             "UNE 0048 is " + quote(reference) + " but UNG 0048 is " + quote(g.control_number));
  }
  a_.close_group(s.end);
}

void EnvelopeBuilder::on_unz(const Segment& s, uint64_t number) {
  const edi::Elements e = edi::split(s.text, d_);
  close_message_missing_unt(s, number);
  close_group_at(s, number);
  const edi::Interchange& ic = a_.ic();
  std::string count = value(e, 1), reference = value(e, 2);
  uint64_t actual = explicit_groups_ ? ic.group_count : ic.message_count;
  auto declared = edi::parse_number(count);
  if (!declared || *declared != actual) {
    a_.error(ErrorCode::UnzCount, Scope::Interchange, s, number,
             "UNZ 0036 is " + quote(count) + " but interchange " + ic.control_number + " has " +
                 std::to_string(actual) + (explicit_groups_ ? " groups" : " messages"));
  }
  if (reference != ic.control_number) {
    a_.error(ErrorCode::UnzControl, Scope::Interchange, s, number,
             "UNZ 0020 is " + quote(reference) + " but UNB 0020 is " + quote(ic.control_number));
  }
  a_.finish(s.end);
}

void EnvelopeBuilder::on_body(const Segment& s, uint64_t number) {
  if (a_.in_message()) {
    if (!edi::valid_tag(s.tag)) {
      a_.error(ErrorCode::InvalidSegmentTag, Scope::Message, s, number,
               "segment tag " + quote(s.tag) + " is not 3 upper-case letters or digits");
    }
    return;
  }
  a_.error(
      ErrorCode::UnexpectedSegment, a_.in_group() ? Scope::Group : Scope::Interchange, s, number,
      "segment " + quote(s.tag) +
          (a_.in_group() ? " between messages: expected UNH or UNE" : " outside a message: expected UNG, UNH or UNZ"));
}

void EnvelopeBuilder::truncate(const Segment& last, uint64_t number, uint64_t end) {
  std::string open;
  if (a_.in_message()) open = message_name(a_.message()) + " of ";
  a_.error(ErrorCode::Truncated, Scope::Interchange, last, number,
           "input ends inside " + open + "interchange " + a_.ic().control_number + ": no UNZ");
  if (a_.in_message()) {
    a_.error(ErrorCode::UntMissing, Scope::Message, last, number,
             "missing UNT: " + message_name(a_.message()) + " is cut off");
    a_.close_message(end);
  }
  if (a_.in_group()) {
    if (!a_.group().implicit) {
      a_.error(ErrorCode::UneMissing, Scope::Group, last, number,
               "missing UNE: group " + a_.group().control_number + " is cut off");
    }
    a_.close_group(end);
  }
  a_.finish(end);
}

}  // namespace edihub::edifact
