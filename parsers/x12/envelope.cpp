#include "parsers/x12/envelope.h"

#include <cctype>
#include <string>

namespace edihub::x12 {

using edi::ErrorCode;
using edi::Segment;

namespace {

std::string quote(std::string_view s) { return "'" + std::string(s) + "'"; }

std::string set_name(const edi::Message& m) { return "transaction set " + m.control_number + " (" + m.type + ")"; }

}  // namespace

void EnvelopeBuilder::start(const IsaHeader& isa, uint64_t offset, uint64_t number) {
  d_ = isa.delimiters;
  a_.begin(edi::Standard::X12, offset);
  edi::Interchange& ic = a_.ic();
  ic.delimiters = d_;
  ic.sender.id = edi::trim(isa.element(6));
  ic.sender.qualifier = edi::trim(isa.element(5));
  ic.receiver.id = edi::trim(isa.element(8));
  ic.receiver.qualifier = edi::trim(isa.element(7));
  ic.date = isa.element(9);
  ic.time = isa.element(10);
  ic.version = isa.element(12);
  ic.control_number = isa.element(13);
  ic.ack_requested = isa.element(14) == "1";
  ic.test = isa.element(15) == "T";
  ic.segments = 1;
  last_end_ = offset + isa.raw_length;

  Segment at;
  at.offset = offset;
  at.tag = "ISA";
  check_isa(isa, at, number);
}

void EnvelopeBuilder::check_isa(const IsaHeader& isa, const Segment& at, uint64_t number) {
  auto bad = [&](int element, const std::string& what) {
    a_.error(ErrorCode::IsaElement, Scope::Interchange, at, number,
             "ISA" + std::string(element < 10 ? "0" : "") + std::to_string(element) + " " +
                 quote(isa.element(element)) + " " + what,
             element);
  };
  if (isa.length != 106) {
    a_.error(ErrorCode::IsaLength, Scope::Interchange, at, number,
             "ISA is " + std::to_string(isa.length) +
                 " characters, expected 106 "
                 "(fixed-width elements padded with spaces)");
  }
  for (const std::string& p : isa.problems)
    a_.error(ErrorCode::InvalidDelimiters, Scope::Interchange, at, number, "ISA: " + p);
  auto e = [&](size_t i) { return isa.element(i); };
  if (e(5).size() != 2) bad(5, "is not a 2-character sender qualifier");
  if (edi::trim(e(6)).empty()) bad(6, "is an empty sender id");
  if (e(7).size() != 2) bad(7, "is not a 2-character receiver qualifier");
  if (edi::trim(e(8)).empty()) bad(8, "is an empty receiver id");
  if (e(9).size() != 6 || !edi::all_digits(e(9))) bad(9, "is not a date YYMMDD");
  if (e(10).size() != 4 || !edi::all_digits(e(10))) bad(10, "is not a time HHMM");
  if (e(12).size() != 5 || !edi::all_digits(e(12))) bad(12, "is not a 5-digit version");
  if (e(13).size() != 9 || !edi::all_digits(e(13))) bad(13, "is not a 9-digit control number");
  if (e(14) != "0" && e(14) != "1") bad(14, "is not 0 or 1 (acknowledgment requested)");
  if (e(15) != "P" && e(15) != "T" && e(15) != "I") bad(15, "is not P, T or I (usage indicator)");
}

EnvelopeBuilder::Step EnvelopeBuilder::on_segment(const Segment& s, uint64_t number) {
  const std::string_view tag = s.tag;
  if (tag == "ISA") {
    // A new interchange before this one's IEA.
    close_message_missing_se(s, number);
    close_group_missing_ge(s, number);
    a_.error(ErrorCode::IeaMissing, Scope::Interchange, s, number,
             "missing IEA: interchange " + a_.ic().control_number + " ends where a new ISA begins");
    a_.finish(last_end_);
    return Step::Restart;
  }
  a_.count(s, number);
  if (!s.terminated) {
    a_.error(ErrorCode::Truncated, Scope::Interchange, s, number,
             "input ends inside segment " + std::string(tag) + " (no segment terminator)");
  }
  if (tag == "ST") {
    on_st(s, number);
  } else if (tag == "SE") {
    on_se(s, number);
  } else if (tag == "GS") {
    on_gs(s, number);
  } else if (tag == "GE") {
    on_ge(s, number);
  } else if (tag == "IEA") {
    on_iea(s, number);
    return Step::Complete;
  } else {
    on_body(s, number);
  }
  last_end_ = s.end;
  return Step::Continue;
}

void EnvelopeBuilder::close_message_missing_se(const Segment& at, uint64_t number) {
  if (!a_.in_message()) return;
  a_.error(ErrorCode::SeMissing, Scope::Message, at, number,
           "missing SE: " + set_name(a_.message()) + " ends where " + std::string(at.tag) + " begins");
  a_.close_message(last_end_);
}

void EnvelopeBuilder::close_group_missing_ge(const Segment& at, uint64_t number) {
  if (!a_.in_group()) return;
  a_.error(
      ErrorCode::GeMissing, Scope::Group, at, number,
      "missing GE: functional group " + a_.group().control_number + " ends where " + std::string(at.tag) + " begins");
  a_.close_group(last_end_);
}

void EnvelopeBuilder::on_gs(const Segment& s, uint64_t number) {
  const edi::Elements e = edi::split(s.text, d_);
  close_message_missing_se(s, number);
  close_group_missing_ge(s, number);
  edi::Group& g = a_.next_group();
  g.functional_id = e[1];
  g.sender.id = e[2];
  g.receiver.id = e[3];
  g.date = e[4];
  g.time = e[5];
  g.control_number = e[6];
  g.version = e[8];
  a_.open_group(s);
  if (a_.group().functional_id.empty() || a_.group().control_number.empty()) {
    a_.error(ErrorCode::GsElement, Scope::Group, s, number,
             "GS needs GS01 (functional identifier) and GS06 (group control number)");
  }
}

void EnvelopeBuilder::on_st(const Segment& s, uint64_t number) {
  const edi::Elements e = edi::split(s.text, d_);
  close_message_missing_se(s, number);
  if (!a_.in_group()) {
    a_.error(ErrorCode::UnexpectedSegment, Scope::Interchange, s, number,
             "ST outside a functional group: expected GS before it");
    a_.next_group().implicit = true;
    a_.open_group(s);
  }
  edi::Message& m = a_.next_message();
  m.type = e[1];
  m.control_number = e[2];
  const std::string_view st03 = e[3];
  m.version = st03.empty() ? std::string_view(a_.group().version) : st03;
  a_.open_message(s, number);
}

void EnvelopeBuilder::on_se(const Segment& s, uint64_t number) {
  const edi::Elements e = edi::split(s.text, d_);
  if (!a_.in_message()) {
    a_.error(ErrorCode::UnexpectedSegment, a_.in_group() ? Scope::Group : Scope::Interchange, s, number,
             "SE without a preceding ST");
    return;
  }
  const edi::Message& m = a_.message();
  std::string_view se01 = e[1], se02 = e[2];
  auto declared = edi::parse_number(se01);
  if (!declared || *declared != m.segments) {
    a_.error(ErrorCode::SeCount, Scope::Message, s, number,
             "SE01 is " + quote(se01) + " but " + set_name(m) + " has " + std::to_string(m.segments) +
                 " segments (ST through SE)");
  }
  if (se02 != m.control_number) {
    a_.error(ErrorCode::SeControl, Scope::Message, s, number,
             "SE02 is " + quote(se02) + " but ST02 is " + quote(m.control_number));
  }
  a_.close_message(s.end);
}

void EnvelopeBuilder::on_ge(const Segment& s, uint64_t number) {
  const edi::Elements e = edi::split(s.text, d_);
  close_message_missing_se(s, number);
  if (!a_.in_group() || a_.group().implicit) {
    a_.error(ErrorCode::UnexpectedSegment, Scope::Interchange, s, number, "GE without a preceding GS");
    if (a_.in_group()) a_.close_group(last_end_);
    return;
  }
  const edi::Group& g = a_.group();
  std::string_view ge01 = e[1], ge02 = e[2];
  auto declared = edi::parse_number(ge01);
  if (!declared || *declared != g.message_count) {
    a_.error(ErrorCode::GeCount, Scope::Group, s, number,
             "GE01 is " + quote(ge01) + " but functional group " + g.control_number + " has " +
                 std::to_string(g.message_count) + " transaction sets");
  }
  if (!edi::same_number(ge02, g.control_number)) {
    a_.error(ErrorCode::GeControl, Scope::Group, s, number,
             "GE02 is " + quote(ge02) + " but GS06 is " + quote(g.control_number));
  }
  a_.close_group(s.end);
}

void EnvelopeBuilder::on_iea(const Segment& s, uint64_t number) {
  const edi::Elements e = edi::split(s.text, d_);
  close_message_missing_se(s, number);
  if (a_.in_group() && a_.group().implicit) {
    a_.close_group(last_end_);
  } else {
    close_group_missing_ge(s, number);
  }
  const edi::Interchange& ic = a_.ic();
  std::string_view iea01 = e[1], iea02 = e[2];
  auto declared = edi::parse_number(iea01);
  if (!declared || *declared != ic.group_count) {
    a_.error(ErrorCode::IeaCount, Scope::Interchange, s, number,
             "IEA01 is " + quote(iea01) + " but interchange " + ic.control_number + " has " +
                 std::to_string(ic.group_count) + " functional groups");
  }
  if (!edi::same_number(iea02, ic.control_number)) {
    a_.error(ErrorCode::IeaControl, Scope::Interchange, s, number,
             "IEA02 is " + quote(iea02) + " but ISA13 is " + quote(ic.control_number));
  }
  a_.finish(s.end);
}

void EnvelopeBuilder::on_body(const Segment& s, uint64_t number) {
  if (a_.in_message()) {
    if (!edi::valid_tag(s.tag)) {
      edi::SegmentError se;
      se.tag = std::string(s.tag);
      se.position = a_.message().segments;
      se.code = "1";  // AK304/IK304: unrecognized segment ID
      a_.message().segment_errors.push_back(std::move(se));
      a_.error(ErrorCode::InvalidSegmentTag, Scope::Message, s, number,
               "segment tag " + quote(s.tag) + " is not 2-3 upper-case letters or digits");
    }
    return;
  }
  // Interchange-level control segments may precede the first GS.
  if (!a_.in_group() && (s.tag == "TA1" || s.tag == "ISB" || s.tag == "ISE")) return;
  a_.error(ErrorCode::UnexpectedSegment, a_.in_group() ? Scope::Group : Scope::Interchange, s, number,
           "segment " + quote(s.tag) +
               (a_.in_group() ? " between transaction sets: expected ST or GE"
                              : " outside a functional group: expected GS or IEA"));
}

void EnvelopeBuilder::truncate(const Segment& last, uint64_t number, uint64_t end) {
  std::string open;
  if (a_.in_message()) open = set_name(a_.message()) + " of ";
  a_.error(ErrorCode::Truncated, Scope::Interchange, last, number,
           "input ends inside " + open + "interchange " + a_.ic().control_number + ": no IEA");
  if (a_.in_message()) {
    a_.error(ErrorCode::SeMissing, Scope::Message, last, number,
             "missing SE: " + set_name(a_.message()) + " is cut off");
    a_.close_message(end);
  }
  if (a_.in_group()) {
    if (!a_.group().implicit) {
      a_.error(ErrorCode::GeMissing, Scope::Group, last, number,
               "missing GE: functional group " + a_.group().control_number + " is cut off");
    }
    a_.close_group(end);
  }
  a_.finish(end);
}

}  // namespace edihub::x12
