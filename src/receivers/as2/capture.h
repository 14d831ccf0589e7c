// AS2 captures: a received request as archived and replayed, "Name: value"
// header lines, a blank line, then the body exactly as received.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "src/common/status.h"
#include "src/receivers/as2/receiver.h"

namespace edihub::as2 {

std::string write_capture(const HttpRequest& request);

// Parses a capture. nullopt when `bytes` is no capture (no AS2-From header
// before the blank line): the caller treats it as plain EDI.
std::optional<HttpRequest> read_capture(std::string_view bytes);

// An AS4 capture: a Content-Type header line, a blank line, a body carrying
// the ebMS 3.0 namespace. nullopt otherwise.
std::optional<HttpRequest> read_as4_capture(std::string_view bytes);

// Writes the capture under `dir`/YYYY/MM/DD/, named by time and a UUID;
// returns the path. Creates the directories.
Result<std::string> archive_capture(const std::string& dir, const HttpRequest& request);

}  // namespace edihub::as2
