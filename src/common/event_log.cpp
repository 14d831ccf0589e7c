#include "src/common/event_log.h"

#include <spdlog/spdlog.h>

#include <atomic>
#include <string>

#include "src/common/partner_text.h"

namespace edihub {

namespace {

std::atomic<bool> json_log{false};

// partner_text() leaves printable ASCII only; JSON then needs " and \ escaped.
std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (char c : partner_text(text, 2000)) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out + "\"";
}

void emit(spdlog::level::level_enum level, std::string_view text) {
  if (json_log.load()) {
    spdlog::log(level, "{{\"problem\":{}}}", json_string(text));
  } else {
    spdlog::log(level, "{}", partner_text(text, 2000));
  }
}

}  // namespace

void set_json_log(bool json) { json_log = json; }
void log_error(std::string_view text) { emit(spdlog::level::err, text); }
void log_warning(std::string_view text) { emit(spdlog::level::warn, text); }

}  // namespace edihub
