// Content-Transfer-Encoding (RFC 2045 6): a MIME entity's body as its
// sender encoded it, decoded. Pure and bounded: the output is never longer
// than the input.
#pragma once

#include <string>
#include <string_view>

#include "parsers/mime/entity.h"

namespace edihub::mime {

// Base64 (RFC 2045 6.8): line breaks and spaces between groups are skipped;
// any other character outside the alphabet, or bad padding, is an error.
bool base64_decode(std::string_view in, std::string* out);

// Base64 in one line, padded (for XML, hashes and MIC values).
std::string base64_encode(std::string_view data);
// Base64 in lines of 76 characters, each ended by CR LF (RFC 2045 6.8).
std::string base64_encode_lines(std::string_view data);

// The entity's body with its Content-Transfer-Encoding (binary, 7bit, 8bit
// or base64) removed. An error says which encoding is wrong.
Error decode_body(const Entity& entity, std::string* out);

}  // namespace edihub::mime
