// Captures: a received request as archived (`captures` table) and exported
// for `edihub replay`: the request line and header block exactly as
// received, then the body (transfer coding removed). Replaying one is the
// same request, read by the same reader and edge checks as the server's,
// never a reinterpretation. Older captures (header lines, a blank line, the
// body; no request line) are read too.
#pragma once

#include <string>
#include <string_view>

#include "src/common/status.h"
#include "src/receivers/http.h"
#include "src/store/captures.h"

namespace edihub::receivers {

enum class CaptureKind { None, As2, As4 };

// What `bytes` are: an AS2 capture, an AS4 capture, or neither (plain EDI).
CaptureKind capture_kind(std::string_view bytes);

// The request in a capture; Invalid says why it cannot be read.
Result<HttpRequest> read_capture(std::string_view bytes);

// A stored capture as the bytes of a capture file.
std::string capture_file(const store::Capture& capture);

}  // namespace edihub::receivers
