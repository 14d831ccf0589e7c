// Reads X12 and EDIFACT interchanges from a byte stream: detects each
// interchange's standard and delimiters, splits segments and builds the
// envelope model. Pure: bytes in, model and errors out; never throws on input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "parsers/edi/interchange.h"
#include "parsers/edi/observer.h"
#include "parsers/edi/segment.h"

namespace edihub::edi {

struct ParseOptions {
  // Keep every Message in Group::messages. Off, messages are only counted, so a
  // huge interchange costs constant memory.
  bool keep_messages = true;
  ScanOptions scan;
  // Sees every message's segments (a validator); not owned, may be null.
  MessageObserver* observer = nullptr;
};

// Incremental parser. Feed it a buffer; it consumes complete segments and
// says how many bytes it used. The caller keeps the rest, appends more input
// and feeds again, so a file streams through a bounded buffer.
class Parser {
 public:
  using InterchangeHandler = std::function<void(Interchange&&)>;
  // Errors outside any interchange (garbage where an interchange should start).
  // After one, the parser consumes and ignores the rest of the input.
  using ErrorHandler = std::function<void(EnvelopeError&&)>;

  Parser(const ParseOptions& options, InterchangeHandler on_interchange, ErrorHandler on_error);
  ~Parser();
  Parser(const Parser&) = delete;
  Parser& operator=(const Parser&) = delete;

  // `buf` holds the input from absolute offset consumed() on. Returns the
  // number of bytes of buf consumed; with eof = true, all of them.
  size_t feed(std::string_view buf, bool eof);
  uint64_t consumed() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

struct ParseResult {
  std::vector<Interchange> interchanges;
  std::vector<EnvelopeError> errors;  // file-level errors

  // No file-level error and no envelope error in any interchange.
  bool ok() const;
};

// Parses a whole buffer. Spans in the result are offsets into `input`.
ParseResult parse(std::string_view input, const ParseOptions& options = {});

}  // namespace edihub::edi
