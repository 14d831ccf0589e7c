#include "src/cli/args.h"

#include <algorithm>

namespace edihub::cli {

bool Args::flag(const std::string& name) const {
  return std::find(flags.begin(), flags.end(), name) != flags.end();
}

std::string Args::value(const std::string& name, const std::string& fallback) const {
  auto it = values.find(name);
  return it == values.end() ? fallback : it->second;
}

std::optional<Args> parse_args(const CommandSpec& spec, const std::vector<std::string>& argv,
                               std::string* error) {
  Args args;
  bool options_done = false;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (options_done || a.size() < 2 || a[0] != '-' ) {
      args.positional.push_back(a);
      continue;
    }
    if (a == "--") {
      options_done = true;
      continue;
    }
    if (a == "--help" || a == "-h") {
      args.help = true;
      continue;
    }
    if (a.rfind("--", 0) != 0) {
      *error = "unknown option '" + a + "' for 'edihub " + spec.name + "' (see --help)";
      return std::nullopt;
    }
    std::string name = a.substr(2), value;
    bool has_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    auto opt = std::find_if(spec.options.begin(), spec.options.end(),
                            [&](const OptionSpec& o) { return o.name == name; });
    if (opt == spec.options.end()) {
      *error = "unknown option '--" + name + "' for 'edihub " + spec.name + "' (see --help)";
      return std::nullopt;
    }
    if (opt->value_name.empty()) {
      if (has_value) {
        *error = "option '--" + name + "' takes no value";
        return std::nullopt;
      }
      args.flags.push_back(name);
      continue;
    }
    if (!has_value) {
      if (i + 1 >= argv.size()) {
        *error = "option '--" + name + "' needs a value (" + opt->value_name + ")";
        return std::nullopt;
      }
      value = argv[++i];
    }
    args.values[name] = value;
  }
  if (!args.help && args.positional.size() < spec.min_positional) {
    *error = "'edihub " + spec.name + "' needs " + spec.positional + " (see --help)";
    return std::nullopt;
  }
  return args;
}

std::string command_help(const CommandSpec& spec) {
  std::string out = "Usage: edihub " + spec.name;
  for (const auto& o : spec.options)
    out += " [--" + o.name + (o.value_name.empty() ? "" : " " + o.value_name) + "]";
  if (!spec.positional.empty()) out += " " + spec.positional;
  out += "\n\n" + spec.summary + "\n";
  if (!spec.options.empty()) out += "\nOptions:\n";
  for (const auto& o : spec.options) {
    std::string left = "  --" + o.name + (o.value_name.empty() ? "" : " " + o.value_name);
    if (left.size() < 24) left.resize(24, ' ');
    out += left + " " + o.help + "\n";
  }
  out += "  --help                 show this help\n";
  return out;
}

}  // namespace edihub::cli
