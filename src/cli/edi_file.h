// Streams an EDI file through the envelope parser with a bounded buffer.
#pragma once

#include <string>

#include "parsers/edi/parser.h"

namespace edihub::cli {

// Reads `path` in chunks and feeds the parser; memory stays bounded by the
// longest segment, not the file size. Returns false and sets `error` when the
// file cannot be read (envelope problems go to the parser's handlers).
bool stream_edi_file(const std::string& path, const edi::ParseOptions& options,
                     const edi::Parser::InterchangeHandler& on_interchange, const edi::Parser::ErrorHandler& on_error,
                     std::string* error);

}  // namespace edihub::cli
