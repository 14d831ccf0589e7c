// libFuzzer target: the whole-buffer parser on arbitrary bytes, then the X12
// acknowledgment builders (TA1, 997, 999) on whatever model it produced.
//
// Invariants (a violation prints one line to stderr and traps):
//  - spans: every interchange lies within the input, in order and without
//    overlap; its groups and messages lie within it; error offsets are within
//    the input; counters agree with the kept groups and messages;
//  - acks: every built ack parses back as exactly one X12 interchange with
//    zero errors, unless the original interchange has an ISA problem the ack
//    cannot help inheriting (see ack_must_be_clean); a 997/999 holds one
//    transaction set per original group and one AK2 per original message.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "parsers/edi/parser.h"
#include "parsers/x12/acks.h"

namespace {
constexpr const char* kTarget = "x12_envelope_fuzz";
}  // namespace

#include "tests/fuzz/envelope_checks.h"

namespace {

using namespace edihub;

bool has_error(const edi::Interchange& ic, edi::ErrorCode code) {
  for (const auto& e : ic.errors)
    if (e.code == code) return true;
  return false;
}

// When a built ack must parse back without errors. Exceptions, for originals
// whose ISA is already broken (ISA_ELEMENT / ISA_LENGTH / INVALID_DELIMITERS):
//  - INVALID_DELIMITERS: the ack is written in the original's delimiters, so
//    a clash (say element separator == terminator) is inherited by design;
//  - an ISA06 or ISA08 that is empty, or blank in its first 15 characters
//    (an over-long id with leading spaces; the ack keeps 15): the ack's
//    ISA08 / ISA06 has nobody to address.
// Values echoed from a broken ISA that hold a delimiter (ISA09/10/13 read by
// separator count can hold the terminator) are no exception: the builders
// must neutralize them.
bool ack_must_be_clean(const edi::Interchange& ic) {
  if (has_error(ic, edi::ErrorCode::InvalidDelimiters)) return false;
  auto blank15 = [](const std::string& id) { return id.substr(0, 15).find_first_not_of(' ') == std::string::npos; };
  return !blank15(ic.sender.id) && !blank15(ic.receiver.id);
}

// Parses a built ack and checks it is one clean X12 interchange. Returns it.
edi::Interchange reparse(const std::string& ack, bool must_be_clean, const char* what) {
  edi::ParseResult r = edi::parse(ack);
  check_model(r, ack.size());
  if (must_be_clean) {
    if (!r.errors.empty() || r.interchanges.size() != 1 || !r.interchanges[0].ok()) {
      std::fprintf(stderr, "x12_envelope_fuzz: %s does not parse back cleanly:\n%s\n", what, escaped(ack).c_str());
      for (const auto& e : r.errors)
        std::fprintf(stderr, "  file error %s: %s\n", std::string(edi::code_name(e.code)).c_str(), e.text.c_str());
      for (const auto& ic : r.interchanges)
        for (const auto& e : ic.errors)
          std::fprintf(stderr, "  error %s: %s\n", std::string(edi::code_name(e.code)).c_str(), e.text.c_str());
      fail("ack does not parse back with zero errors");
    }
    check(r.interchanges[0].standard == edi::Standard::X12, "ack is not X12");
    return std::move(r.interchanges[0]);
  }
  return r.interchanges.empty() ? edi::Interchange{} : std::move(r.interchanges[0]);
}

void check_acks(const edi::Interchange& ic) {
  const bool clean = ack_must_be_clean(ic);
  for (const char* suffix : {"", "\r\n"}) {
    x12::AckEnvelope env;
    env.control_number = "1";
    env.group_control_number = "7";
    env.date = "20240131";
    env.time = "1200";
    env.segment_suffix = suffix;

    reparse(x12::build_ta1(ic, x12::ta1_for(ic), env), clean, "TA1");
    reparse(x12::build_ta1(ic, x12::ta1_duplicate(), env), clean, "TA1 (duplicate)");
    if (ic.message_count == 0) continue;

    for (int flavor = 0; flavor < 2; ++flavor) {
      const std::string ack = flavor == 0 ? x12::build_997(ic, env) : x12::build_999(ic, env);
      edi::Interchange back = reparse(ack, clean, flavor == 0 ? "997" : "999");
      if (!clean) continue;
      check(back.groups.size() == 1, "functional ack is not one group");
      const edi::Group& g = back.groups[0];
      check(g.messages.size() == ic.groups.size(), "functional ack: sets != original groups");
      // Per set: ST, AK1, AK2 (+AK3/AK4 ...) + AK5 per message, AK9, SE.
      for (size_t i = 0; i < g.messages.size(); ++i) {
        uint32_t min_segments = 4 + 2 * static_cast<uint32_t>(ic.groups[i].messages.size());
        check(g.messages[i].segments >= min_segments, "functional ack set is too short");
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz_envelopes(data, size, edi::Standard::X12, check_acks);
  return 0;
}
