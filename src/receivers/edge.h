// The partner-facing edge: checks every request passes before any stage
// reads it, the same for a live request and a replayed capture. Header values
// are data, never structure: a value with a control character, a byte that
// is not UTF-8, or more than one copy of a header the gateway uses is
// answered 400 with the header named, before anything is archived or signed.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "src/http/message.h"

namespace edihub::receivers {

struct EdgeLimits {
  size_t max_headers = 100;
  size_t max_value_bytes = 8192;  // one header value
};

// Why the request's headers cannot be used, or nullopt when they can.
std::optional<std::string> header_problem(const http::HttpRequest& request, const EdgeLimits& limits = {});

// The AS2 id syntax of RFC 4130 6.2: 1 to 128 visible characters (no
// separators), or a quoted string of printable ones. The id, unquoted.
std::optional<std::string> as2_id(std::string_view value);

// Why a header value the gateway copies into a receipt is unusable: empty,
// longer than `max`, not printable ASCII, or an RFC 2047 encoded word
// (which some software would decode back into line breaks). nullopt: fine.
std::optional<std::string> receipt_value_problem(std::string_view name, std::string_view value, size_t max);

}  // namespace edihub::receivers
