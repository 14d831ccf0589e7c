// The line syntax shared by definition and guide files: statements of
// tokens, one per line, indented lines belonging to the statement above.
// Internal to src/documents.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/common/status.h"
#include "src/documents/definition.h"

namespace edihub::documents {

struct Line {
  size_t number = 0;
  bool indented = false;
  std::vector<std::string> tokens;
  std::vector<bool> quoted;  // per token: written "in quotes" (a name, never a keyword)
};

// Splits a file into lines of tokens: `#` starts a comment outside quotes, a
// "quoted name" is one token. Blank and comment-only lines are dropped.
Result<std::vector<Line>> tokenize(const Definitions::File& f);

// A decimal number that fits 32 bits, and nothing else.
std::optional<uint32_t> number_of(std::string_view s);
// M, O or X.
std::optional<Usage> usage_of(std::string_view s);

}  // namespace edihub::documents
