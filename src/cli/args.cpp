#include "src/cli/args.h"

#include <algorithm>

#include "src/cli/duration.h"

namespace edihub::cli {

std::optional<int64_t> whole_number(const std::string& text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  int64_t n = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return n;
}

namespace {

// "1 to 36500", "0s to 100d": a range as the operator writes it.
std::string range_text(const ValueRule& r) {
  if (r.kind == ValueRule::Kind::Integer) return std::to_string(r.min) + " to " + std::to_string(r.max);
  auto d = [](int64_t ms) {
    if (ms == 0) return std::string("0s");
    if (ms % 86400000 == 0) return std::to_string(ms / 86400000) + "d";
    if (ms % 3600000 == 0) return std::to_string(ms / 3600000) + "h";
    if (ms % 60000 == 0) return std::to_string(ms / 60000) + "m";
    if (ms % 1000 == 0) return std::to_string(ms / 1000) + "s";
    return std::to_string(ms) + "ms";
  };
  return d(r.min) + " to " + d(r.max);
}

}  // namespace

OptionSpec integer_option(std::string name, std::string value_name, std::string help, int64_t min, int64_t max,
                          std::string forever) {
  return {std::move(name), std::move(value_name), std::move(help),
          ValueRule{ValueRule::Kind::Integer, min, max, std::move(forever)}};
}

OptionSpec duration_option(std::string name, std::string help, int64_t min_ms, int64_t max_ms) {
  return {std::move(name), "DURATION", std::move(help), ValueRule{ValueRule::Kind::Duration, min_ms, max_ms, ""}};
}

std::optional<std::string> value_problem(const ValueRule& rule, const std::string& value) {
  if (rule.kind == ValueRule::Kind::Text) return std::nullopt;
  if (!rule.forever.empty() && value == rule.forever) return std::nullopt;
  const std::optional<int64_t> n =
      rule.kind == ValueRule::Kind::Integer ? whole_number(value) : parse_duration_ms(value);
  if (n && *n >= rule.min && *n <= rule.max) return std::nullopt;
  std::string expected = rule.kind == ValueRule::Kind::Integer
                             ? "a whole number from " + range_text(rule)
                             : "a duration (500ms, 90s, 15m, 36h, 7d) from " + range_text(rule);
  if (!rule.forever.empty()) expected += ", or " + rule.forever;
  return expected;
}

std::optional<int64_t> Args::integer(const std::string& name, std::optional<int64_t> fallback) const {
  auto it = values.find(name);
  if (it == values.end()) return fallback;
  return whole_number(it->second);  // nullopt: the "forever" word (the only other value accepted)
}

std::optional<int64_t> Args::duration_ms(const std::string& name) const {
  auto it = values.find(name);
  if (it == values.end()) return std::nullopt;
  return parse_duration_ms(it->second);
}

bool Args::flag(const std::string& name) const { return std::find(flags.begin(), flags.end(), name) != flags.end(); }

std::string Args::value(const std::string& name, const std::string& fallback) const {
  auto it = values.find(name);
  return it == values.end() ? fallback : it->second;
}

std::optional<Args> parse_args(const CommandSpec& spec, const std::vector<std::string>& argv, std::string* error) {
  Args args;
  bool options_done = false;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (options_done || a.size() < 2 || a[0] != '-') {
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
    auto opt =
        std::find_if(spec.options.begin(), spec.options.end(), [&](const OptionSpec& o) { return o.name == name; });
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
    if (std::optional<std::string> expected = value_problem(opt->rule, value)) {
      *error = "--" + name + " must be " + *expected + ", not '" + value + "'";
      return std::nullopt;
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
  for (const auto& o : spec.options) out += " [--" + o.name + (o.value_name.empty() ? "" : " " + o.value_name) + "]";
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
