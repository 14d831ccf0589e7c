// Log lines an operator must see outside the per-message line (a
// configuration error, rows that could not be written), in the log's format:
// text, or one JSON object per line under <log format="json">.
#pragma once

#include <string_view>

namespace edihub {

// Set once at start (edihub serve); text by default.
void set_json_log(bool json);
// An error: `text` passes partner_text() first (it may quote partner values).
void log_error(std::string_view text);
void log_warning(std::string_view text);

}  // namespace edihub
