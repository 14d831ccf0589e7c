// A small option parser for `edihub <command> [options] [args]`.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace edihub::cli {

struct OptionSpec {
  std::string name;        // without dashes: "json", "db"
  std::string value_name;  // empty for a flag; else shown in help: "URI"
  std::string help;
};

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
};

// Parses argv after the command name. Accepts --name VALUE, --name=VALUE,
// flags, `--` to end options, and --help/-h. On error, nullopt and a message
// that names the bad option.
std::optional<Args> parse_args(const CommandSpec& spec, const std::vector<std::string>& argv,
                               std::string* error);

// "Usage: edihub inspect [--json] FILE..." followed by one line per option.
std::string command_help(const CommandSpec& spec);

}  // namespace edihub::cli
