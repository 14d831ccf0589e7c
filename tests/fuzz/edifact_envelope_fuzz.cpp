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
//    interchange it has one UCM per original message.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "parsers/edi/parser.h"
#include "parsers/edifact/contrl.h"

namespace {

using namespace edihub;

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "edifact_envelope_fuzz: invariant violated: %s\n", what);
  __builtin_trap();
}

void check(bool ok, const char* what) {
  if (!ok) fail(what);
}

// The bytes with non-printable characters as \xNN, for the failure report.
std::string escaped(std::string_view s) {
  std::string out;
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f && c != '\\') {
      out.push_back(c);
    } else if (c == '\n') {
      out += "\\n\n";
    } else {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\x%02X", u);
      out += buf;
    }
  }
  return out;
}

bool within(const edi::Span& inner, const edi::Span& outer) {
  return inner.offset >= outer.offset && inner.length <= outer.length &&
         inner.offset - outer.offset <= outer.length - inner.length;
}

void check_model(const edi::ParseResult& r, uint64_t size) {
  const edi::Span input{0, size};
  uint64_t previous_end = 0;
  for (const edi::Interchange& ic : r.interchanges) {
    check(within(ic.span, input), "interchange span outside the input");
    check(ic.span.offset >= previous_end, "interchanges overlap or are out of order");
    previous_end = ic.span.offset + ic.span.length;
    uint32_t messages = 0, explicit_groups = 0;
    for (const edi::Group& g : ic.groups) {
      check(within(g.span, ic.span), "group span outside its interchange span");
      check(g.messages.size() == g.message_count, "group message_count != kept messages");
      messages += g.message_count;
      if (!g.implicit) ++explicit_groups;
      for (const edi::Message& m : g.messages) {
        check(within(m.span, ic.span), "message span outside its interchange span");
        check(within(m.span, g.span), "message span outside its group span");
        check(m.segments >= 1, "message with no segments");
      }
    }
    check(messages == ic.message_count, "interchange message_count != sum over groups");
    check(explicit_groups == ic.group_count, "interchange group_count != explicit groups");
    for (const edi::EnvelopeError& e : ic.errors) {
      check(e.offset <= size, "error offset beyond the input");
      check(e.group < static_cast<int>(ic.groups.size()), "error group index out of range");
      if (e.group >= 0 && e.message >= 0)
        check(e.message < static_cast<int>(ic.groups[e.group].messages.size()),
              "error message index out of range");
    }
  }
  for (const edi::EnvelopeError& e : r.errors) check(e.offset <= size, "file error offset beyond the input");
}

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
          std::fprintf(stderr, "  file error %s: %s\n", std::string(edi::code_name(e.code)).c_str(),
                       e.text.c_str());
        for (const auto& back : r.interchanges)
          for (const auto& e : back.errors)
            std::fprintf(stderr, "  error %s: %s\n", std::string(edi::code_name(e.code)).c_str(),
                         e.text.c_str());
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const edi::ParseResult r = edi::parse(input);
  check_model(r, size);
  for (const edi::Interchange& ic : r.interchanges)
    if (ic.standard == edi::Standard::Edifact) check_contrl(ic);
  return 0;
}
