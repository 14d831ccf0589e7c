// A small option parser for `edihub <command> [options] [args]`.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace edihub::cli {

// What an option's value must be. parse_args refuses anything else (exit 2,
// the option and the accepted values named) before a command has opened or
// deleted anything: an operator's typo is never read as some number.
struct ValueRule {
  enum class Kind { Text, Integer, Duration };
  Kind kind = Kind::Text;
  int64_t min = 0, max = 0;  // Integer: the value; Duration: milliseconds
  std::string forever;       // a word that means "no limit" ("never"), accepted besides the range
};

struct OptionSpec {
  OptionSpec(std::string n, std::string v, std::string h, ValueRule r = {})
      : name(std::move(n)), value_name(std::move(v)), help(std::move(h)), rule(std::move(r)) {}
  std::string name;        // without dashes: "json", "db"
  std::string value_name;  // empty for a flag; else shown in help: "URI"
  std::string help;
  ValueRule rule;  // a value's kind and range (Text: anything)
};

// An option whose value is a whole number (digits only) from `min` to `max`,
// or the word `forever` when given.
OptionSpec integer_option(std::string name, std::string value_name, std::string help, int64_t min, int64_t max,
                          std::string forever = "");
// An option whose value is a duration (500ms, 90s, 15m, 36h, 7d) from `min_ms` to `max_ms`.
OptionSpec duration_option(std::string name, std::string help, int64_t min_ms, int64_t max_ms);

struct CommandSpec {
  std::string name;
  std::string summary;     // one line for `edihub --help`
  std::string positional;  // shown in usage: "FILE..."
  size_t min_positional = 0;
  std::vector<OptionSpec> options;
};

struct Args {
  std::map<std::string, std::string> values;  // options with values
  std::vector<std::string> flags;
  std::vector<std::string> positional;
  bool help = false;

  bool flag(const std::string& name) const;
  std::string value(const std::string& name, const std::string& fallback = "") const;
  // The value of an integer_option, `fallback` when absent; nullopt for its
  // "forever" word. REQUIRES: parse_args accepted it.
  std::optional<int64_t> integer(const std::string& name, std::optional<int64_t> fallback) const;
  // The value of a duration_option in milliseconds, nullopt when absent.
  std::optional<int64_t> duration_ms(const std::string& name) const;
};

// Digits only (no sign, spaces or base prefix), at most 18 of them; nullopt otherwise.
std::optional<int64_t> whole_number(const std::string& text);

// Why `value` is not what `rule` accepts ("a whole number from 1 to 36500, or
// never"), or nullopt when it is.
std::optional<std::string> value_problem(const ValueRule& rule, const std::string& value);

// Parses argv after the command name. Accepts --name VALUE, --name=VALUE,
// flags, `--` to end options, and --help/-h. On error, nullopt and a message
// that names the bad option.
std::optional<Args> parse_args(const CommandSpec& spec, const std::vector<std::string>& argv, std::string* error);

// "Usage: edihub inspect [--json] FILE..." followed by one line per option.
std::string command_help(const CommandSpec& spec);

}  // namespace edihub::cli
