// libFuzzer target for the business document readers (every registry type:
// X12 856/810/850/855, EDIFACT DESADV/INVOIC/ORDERS/ORDRSP): partner bytes
// in, a document or an error out, never a crash; a document always has one
// value per field of its type.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

#include "parsers/edi/parser.h"
#include "src/business/documents.h"
#include "src/business/registry.h"

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
        const edihub::business::ReadDocument r = edihub::business::read_document(ic, message, input);
        if (r.handled != edihub::business::books(ic, message)) __builtin_trap();
        if (r.handled && r.error.empty()) {
          const auto& d = r.document;
          if (d.type == nullptr || d.fields.size() != d.type->fields.size()) __builtin_trap();
          for (const auto& line : d.lines)
            if (line.size() != d.type->line_fields.size()) __builtin_trap();
        }
      }
    }
  }
  // Decimal conversion on raw partner text.
  edihub::business::to_minor(input.substr(0, 32), static_cast<int>(size % 5), size % 2 ? ',' : '.');
  return 0;
}
