#include <doctest/doctest.h>

#include "src/cli/args.h"
#include "src/cli/commands.h"

using namespace edihub::cli;

TEST_CASE("options, flags and positionals") {
  CommandSpec spec{"replay", "Replays files.", "PATH...", 1,
                   {{"db", "URI", "store"}, {"json", "", "JSON lines"}}};
  std::string error;
  auto a = parse_args(spec, {"--db", "sqlite:x.db", "a.edi", "--json", "b.edi"}, &error);
  REQUIRE(a);
  CHECK(a->value("db") == "sqlite:x.db");
  CHECK(a->flag("json"));
  CHECK(a->positional == std::vector<std::string>{"a.edi", "b.edi"});
  a = parse_args(spec, {"--db=sqlite:y.db", "--", "--json"}, &error);
  REQUIRE(a);
  CHECK(a->value("db") == "sqlite:y.db");
  CHECK_FALSE(a->flag("json"));
  CHECK(a->positional == std::vector<std::string>{"--json"});
}

TEST_CASE("usage errors name the problem") {
  CommandSpec spec{"inspect", "x", "FILE...", 1, {{"json", "", "JSON"}}};
  std::string error;
  CHECK_FALSE(parse_args(spec, {"--jsn", "a"}, &error));
  CHECK(error == "unknown option '--jsn' for 'edihub inspect' (see --help)");
  CHECK_FALSE(parse_args(spec, {"--json"}, &error));
  CHECK(error == "'edihub inspect' needs FILE... (see --help)");
  CHECK_FALSE(parse_args(spec, {"--json=1", "a"}, &error));
  CHECK(error == "option '--json' takes no value");
  CommandSpec with_value{"purge", "x", "", 0, {{"batch", "N", "rows per batch"}}};
  CHECK_FALSE(parse_args(with_value, {"--batch"}, &error));
  CHECK(error == "option '--batch' needs a value (N)");
  auto help = parse_args(spec, {"--help"}, &error);
  REQUIRE(help);
  CHECK(help->help);
}

TEST_CASE("command help lists every option") {
  std::string help = command_help(inspect_spec());
  CHECK(help.rfind("Usage: edihub inspect [--json] FILE...\n", 0) == 0);
  CHECK(help.find("--json") != std::string::npos);
  CHECK(help.find("--help") != std::string::npos);
}
