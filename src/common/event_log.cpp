#include "src/common/event_log.h"

#include <spdlog/spdlog.h>

#include <atomic>

#include "src/common/partner_text.h"

namespace edihub {

namespace {

// Written once by set_log_format() before the threads start; read by every line.
std::atomic<LogFormat> log_format{LogFormat::Text};

// After partner_text() a value is printable ASCII: only " and \ need escaping,
// in JSON always, in logfmt inside the quotes a value with a space, = or " takes.
void append_quoted(std::string& out, std::string_view value) {
  out.push_back('"');
  for (char c : value) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('"');
}

bool needs_quotes(std::string_view value) {
  return value.empty() || value.find_first_of(" =\"\\") != std::string_view::npos;
}

void emit(spdlog::level::level_enum level, const LogLine& line) {
  spdlog::log(level, "{}", line.render(log_format.load(std::memory_order_relaxed)));
}

}  // namespace

void set_log_format(LogFormat format) {
  log_format = format;
  if (format == LogFormat::Json) spdlog::set_pattern(R"({"time":"%Y-%m-%dT%H:%M:%S.%e%z","level":"%l","event":%v})");
}

LogLine::LogLine(std::string_view key, std::string_view value, size_t max) { add(key, value, max); }

LogLine& LogLine::add(std::string_view key, std::string_view value, size_t max) {
  fields_.push_back({std::string(key), partner_text(value, max), false});
  return *this;
}

LogLine& LogLine::add(std::string_view key, int64_t value) {
  fields_.push_back({std::string(key), std::to_string(value), true});
  return *this;
}

LogLine& LogLine::add_nonempty(std::string_view key, std::string_view value, size_t max) {
  return value.empty() ? *this : add(key, value, max);
}

std::string LogLine::render(LogFormat format) const {
  std::string out;
  if (format == LogFormat::Json) out.push_back('{');
  for (const Field& f : fields_) {
    if (format == LogFormat::Json) {
      if (out.size() > 1) out.push_back(',');
      append_quoted(out, f.key);
      out.push_back(':');
      if (f.number) {
        out += f.value;
      } else {
        append_quoted(out, f.value);
      }
    } else {
      if (!out.empty()) out.push_back(' ');
      out += f.key;
      out.push_back('=');
      if (!f.number && needs_quotes(f.value)) {
        append_quoted(out, f.value);
      } else {
        out += f.value;
      }
    }
  }
  if (format == LogFormat::Json) out.push_back('}');
  return out;
}

void LogLine::info() const { emit(spdlog::level::info, *this); }
void LogLine::warning() const { emit(spdlog::level::warn, *this); }
void LogLine::error() const { emit(spdlog::level::err, *this); }

void log_error(std::string_view text) { LogLine("problem", text, 2000).error(); }
void log_warning(std::string_view text) { LogLine("problem", text, 2000).warning(); }

}  // namespace edihub
