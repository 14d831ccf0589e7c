// libFuzzer target for the business document readers (X12 856/810, EDIFACT
// DESADV/INVOIC): partner bytes in, a document or an error out, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

#include "parsers/edi/parser.h"
#include "src/business/documents.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const edihub::edi::ParseResult parsed = edihub::edi::parse(input);
  for (const auto& ic : parsed.interchanges) {
    for (const auto& group : ic.groups) {
      for (const auto& message : group.messages) {
        if (message.span.offset + message.span.length > size) __builtin_trap();
        edihub::business::Extracted x = edihub::business::extract(ic, message, input);
        // A result is a document or an error, never both.
        if (!x.error.empty() && !std::holds_alternative<std::monostate>(x.document)) __builtin_trap();
      }
    }
  }
  // Decimal conversion on raw partner text.
  edihub::business::to_minor(input.substr(0, 32), static_cast<int>(size % 5), size % 2 ? ',' : '.');
  return 0;
}
