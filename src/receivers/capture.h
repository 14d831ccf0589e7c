// Captures: a received request as archived (`captures` table) and exported
// for `edihub replay`: the request line and header block as received, with
// credentials redacted (redacted_head), then the body (transfer coding
// removed). An exported file starts with one line naming the partner the
// gateway attributed it to:
//
//   EDIHUB-CAPTURE partner=acme
//   POST /as2 HTTP/1.1
//   ...
//
// Replaying one is the same request, read by the same reader and edge checks
// as the server's, never a reinterpretation, and it may only be that
// partner's. Older captures (no first line; or header lines, a blank line,
// the body, with no request line) are read too.
#pragma once

#include <string>
#include <string_view>

#include "src/common/status.h"
#include "src/http/message.h"
#include "src/store/captures.h"

namespace edihub::receivers {

enum class CaptureKind { None, As2, As4 };

// What `bytes` are: an AS2 capture, an AS4 capture, or neither (plain EDI).
CaptureKind capture_kind(std::string_view bytes);

// The request in a capture; Invalid says why it cannot be read. Sets
// *recorded_partner (when given) to the partner the file's first line names,
// or clears it when it names none.
Result<http::HttpRequest> read_capture(std::string_view bytes, std::string* recorded_partner = nullptr);

// A stored capture as the bytes of a capture file: the partner line, the
// head with credentials redacted, the body.
std::string capture_file(const store::Capture& capture);

// `head` (request line and header lines) with the values of the headers that
// carry credentials (Authorization, Proxy-Authorization, Cookie) replaced:
// what is stored, shown and exported. The scheme of an Authorization stays
// ("Basic [redacted]"), so an operator sees how the partner authenticated.
std::string redacted_head(std::string_view head);

}  // namespace edihub::receivers
