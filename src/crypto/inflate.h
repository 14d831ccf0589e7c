// Bounded inflation (and deflation) of zlib (RFC 1950, AS2 compressed-data) and gzip
// (RFC 1952, AS4 CompressionType application/gzip) streams: every output
// chunk is counted against the message's Lease before it is kept.
#pragma once

#include <string>
#include <string_view>

#include "src/common/budget.h"
#include "src/common/status.h"

namespace edihub::crypto {

enum class Wrapping { Zlib, Gzip };

// The inflated bytes. Invalid when the stream is corrupt or truncated or the
// message's cap is reached (the text says which); Transient when the
// gateway-wide cap is reached (answer "retry later").
Result<std::string> inflate(std::string_view compressed, Wrapping wrapping, Lease& lease);

// The other way, for what edihub sends (our own bytes: no lease).
std::string deflate(std::string_view content, Wrapping wrapping);

}  // namespace edihub::crypto
