// The gateway's log: one line per event, the same fields in either format
// (<log format>), written through LogLine only:
//   text  logfmt after spdlog's time and level:
//           [info] protocol=as2 partner=acme message_id=<1@acme.example> outcome=processed status=200 ...
//   json  one object per line:
//           {"time":"...","level":"info","event":{"protocol":"as2","partner":"acme",...}}
// A line's first field says what it is about: protocol (one per partner
// request), console (one per console request), outbox (a delivery attempt),
// listening, stopping, problem (an error or warning an operator must see).
// Every value passes partner_text() here, bounded per field: a partner's
// bytes never add a line or a field, and no caller formats a line by hand.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace edihub {

enum class LogFormat { Text, Json };

// Set once at start (edihub serve), before any thread logs: also sets
// spdlog's pattern for the format. Text by default.
void set_log_format(LogFormat format);

class LogLine {
 public:
  // The first field: what the line is about, e.g. ("protocol", "as2").
  LogLine(std::string_view key, std::string_view value, size_t max = kMaxValue);

  // A field; `value` is cut to `max` bytes by partner_text().
  LogLine& add(std::string_view key, std::string_view value, size_t max = kMaxValue);
  LogLine& add(std::string_view key, int64_t value);
  // The field only when `value` is not empty.
  LogLine& add_nonempty(std::string_view key, std::string_view value, size_t max = kMaxValue);

  void info() const;
  void warning() const;
  void error() const;

  // The line as it is logged in `format`, without spdlog's prefix (tests).
  std::string render(LogFormat format) const;

  static constexpr size_t kMaxValue = 300;

 private:
  struct Field {
    std::string key, value;
    bool number = false;
  };
  std::vector<Field> fields_;
};

// A problem line: `text` (which may quote partner values) is its one field.
void log_error(std::string_view text);
void log_warning(std::string_view text);

}  // namespace edihub
