// Invariants every envelope fuzz target checks on a parse result. Include
// once per target, after defining `constexpr const char* kTarget = "name";`
// in an anonymous namespace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "parsers/edi/parser.h"

namespace {

using namespace edihub;

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "%s: invariant violated: %s\n", kTarget, what);
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
        check(e.message < static_cast<int>(ic.groups[e.group].messages.size()), "error message index out of range");
    }
  }
  for (const edi::EnvelopeError& e : r.errors) check(e.offset <= size, "file error offset beyond the input");
}

// The body of an envelope target: parse, check the model, then run the
// target's acknowledgment checks on each interchange of `standard`.
void fuzz_envelopes(const uint8_t* data, size_t size, edi::Standard standard,
                    void (*check_acks)(const edi::Interchange&)) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const edi::ParseResult r = edi::parse(input);
  check_model(r, size);
  for (const edi::Interchange& ic : r.interchanges)
    if (ic.standard == standard) check_acks(ic);
}

}  // namespace
