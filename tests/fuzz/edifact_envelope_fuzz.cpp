// libFuzzer target: the whole-buffer parser on arbitrary bytes, then the
// EDIFACT CONTRL builder (duplicate false and true) on whatever model it
// produced.
//
// Invariants (a violation prints one line to stderr and traps):
//  - spans: every interchange lies within the input, in order and without
//    overlap; its groups and messages lie within it; error offsets are within
//    the input; counters agree with the kept groups and messages;
//  - CONTRL: parses back as exactly one EDIFACT interchange holding one
//    CONTRL message, with zero errors, whenever the original interchange has
//    no interchange-level error; with duplicate = false and an acknowledged
//    interchange it has one UCM per original message;
//  - APERAK: with the first message of a clean interchange marked as not
//    booked (its error text made of the partner's own values), parses back
//    as one clean interchange with one APERAK per original message.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "parsers/edi/parser.h"
#include "parsers/edifact/aperak.h"
#include "parsers/edifact/contrl.h"

namespace {
constexpr const char* kTarget = "edifact_envelope_fuzz";
}  // namespace

#include "tests/fuzz/envelope_checks.h"

namespace {

using namespace edihub;

void check_contrl(const edi::Interchange& ic) {
  const bool clean = !ic.has_interchange_errors();
  for (const char* suffix : {"", "\n"}) {
    for (bool duplicate : {false, true}) {
      edifact::ContrlEnvelope env;
      env.control_reference = "CTL1";
      env.message_reference = "1";
      env.date = "240131";
      env.time = "1200";
      env.segment_suffix = suffix;
      const std::string contrl = edifact::build_contrl(ic, env, duplicate);

      edi::ParseResult r = edi::parse(contrl);
      check_model(r, contrl.size());
      if (!clean) continue;
      if (!r.errors.empty() || r.interchanges.size() != 1 || !r.interchanges[0].ok()) {
        std::fprintf(stderr, "edifact_envelope_fuzz: CONTRL (duplicate=%d) does not parse back cleanly:\n%s\n",
                     duplicate ? 1 : 0, escaped(contrl).c_str());
        for (const auto& e : r.errors)
          std::fprintf(stderr, "  file error %s: %s\n", std::string(edi::code_name(e.code)).c_str(), e.text.c_str());
        for (const auto& back : r.interchanges)
          for (const auto& e : back.errors)
            std::fprintf(stderr, "  error %s: %s\n", std::string(edi::code_name(e.code)).c_str(), e.text.c_str());
        fail("CONTRL does not parse back with zero errors");
      }
      const edi::Interchange& back = r.interchanges[0];
      check(back.standard == edi::Standard::Edifact, "CONTRL is not EDIFACT");
      check(back.message_count == 1 && back.groups.size() == 1 && back.groups[0].messages.size() == 1,
            "CONTRL interchange does not hold exactly one message");
      check(back.groups[0].messages[0].type == "CONTRL", "CONTRL message type is not CONTRL");
      check(back.control_number == env.control_reference, "CONTRL control reference changed");
      if (!duplicate) {
        // UNH, UCI, UNT + one UCM per message (+ UCF per explicit group) when
        // the interchange is acknowledged (no interchange-level error).
        uint32_t expected = 3;
        for (const edi::Group& g : ic.groups)
          expected += static_cast<uint32_t>(g.messages.size()) + (g.implicit ? 0 : 1);
        check(back.groups[0].messages[0].segments == expected, "CONTRL has the wrong number of UCF/UCM");
      }
    }
  }
}

void check_aperak(const edi::Interchange& original) {
  if (original.has_interchange_errors() || original.groups.empty() || original.groups[0].messages.empty()) return;
  edi::Interchange ic = original;
  for (const edi::Group& g : ic.groups)
    if (!g.implicit) return;  // an APERAK interchange has no UNG: one without them
  const edi::Message& m = ic.groups[0].messages[0];
  edi::EnvelopeError e;
  e.code = edi::ErrorCode::ApplicationRejected;
  e.group = 0;
  e.message = 0;
  e.text = m.type + " " + m.control_number + ": " + ic.sender.id + " " + m.version + " " + ic.receiver.id + " " +
           ic.control_number + " " + m.control_number;
  ic.errors.push_back(std::move(e));
  for (const char* suffix : {"", "\n"}) {
    edifact::AperakEnvelope env;
    env.control_reference = "APK1";
    env.date = "240131";
    env.time = "1200";
    env.created = "202401311200";
    env.segment_suffix = suffix;
    const std::string aperak = edifact::build_aperak(ic, env);
    edi::ParseResult r = edi::parse(aperak);
    check_model(r, aperak.size());
    if (!r.errors.empty() || r.interchanges.size() != 1 || !r.interchanges[0].ok()) {
      std::fprintf(stderr, "edifact_envelope_fuzz: APERAK does not parse back cleanly:\n%s\n", escaped(aperak).c_str());
      fail("APERAK does not parse back with zero errors");
    }
    size_t messages = 0;
    for (const edi::Group& g : ic.groups) messages += g.messages.size();
    const edi::Interchange& back = r.interchanges[0];
    check(back.groups.size() == 1 && back.groups[0].messages.size() == messages, "APERAK: not one per message");
    for (const edi::Message& a : back.groups[0].messages) check(a.type == "APERAK", "APERAK message type changed");
  }
}

void check_acks(const edi::Interchange& ic) {
  check_contrl(ic);
  check_aperak(ic);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz_envelopes(data, size, edi::Standard::Edifact, check_acks);
  return 0;
}
