#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "src/cli/args.h"
#include "src/cli/commands.h"
#include "src/cli/file_list.h"

using namespace edihub::cli;

TEST_CASE("options, flags and positionals") {
  CommandSpec spec{"replay", "Replays files.", "PATH...", 1, {{"db", "URI", "store"}, {"json", "", "JSON lines"}}};
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
  CHECK(help.rfind(
            "Usage: edihub inspect [--json] [--validate] [--definitions DIR] [--guide FILE] [--documents] FILE...\n",
            0) == 0);
  CHECK(help.find("--json") != std::string::npos);
  CHECK(help.find("--validate") != std::string::npos);
  CHECK(help.find("--help") != std::string::npos);
}

TEST_CASE("an exception escaping a command is an internal error with its own exit code, not an abort") {
  std::ostringstream out, err;
  Args args;
  int code = run_guarded(
      "replay",
      [](const Args&, std::ostream&, std::ostream&) -> int {
        throw std::filesystem::filesystem_error("directory iterator cannot open directory", "samples/loop",
                                                std::make_error_code(std::errc::too_many_symbolic_link_levels));
      },
      args, out, err);
  CHECK(code == kInternal);
  CHECK(kInternal == 4);
  CHECK(err.str().rfind("edihub replay: internal error: ", 0) == 0);
  CHECK(err.str().find("samples/loop") != std::string::npos);

  err.str("");
  code = run_guarded(
      "purge", [](const Args&, std::ostream&, std::ostream&) -> int { throw 42; }, args, out, err);
  CHECK(code == kInternal);
  CHECK(err.str() == "edihub purge: internal error: an exception that is not a std::exception\n");

  code = run_guarded(
      "status", [](const Args&, std::ostream&, std::ostream&) { return int(kStoreUnavailable); }, args, out, err);
  CHECK(code == kStoreUnavailable);
}

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/edihub-files-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() {
    chmod(path.c_str(), 0700);
    std::filesystem::remove_all(path);
  }
  std::string touch(const std::string& name) const {
    std::ofstream(path + "/" + name) << "x";
    return path + "/" + name;
  }
};

}  // namespace

TEST_CASE("list_files: a directory stands for its regular files, sorted, a file for itself") {
  namespace fs = std::filesystem;
  TempDir d;
  const std::string b = d.touch("b.edi"), a = d.touch("a.edi");
  fs::create_directory(d.path + "/sub");
  d.touch("sub/c.edi");                                         // not recursive
  fs::create_symlink(d.path + "/a.edi", d.path + "/link.edi");  // a symlink to a file counts
  fs::create_directory_symlink(d.path, d.path + "/loop");       // a symlink to a directory does not
  auto r = list_files({d.path, b});
  REQUIRE(r.is_ok());
  CHECK(r.value() == std::vector<std::string>{a, b, d.path + "/link.edi", b});
  auto through_link = list_files({d.path + "/loop"});
  REQUIRE(through_link.is_ok());
  CHECK(through_link->size() == 3);
}

TEST_CASE("list_files: missing paths, symlink loops and unlistable directories are errors naming the path") {
  namespace fs = std::filesystem;
  TempDir d;
  CHECK(list_files({d.path + "/nope"}).status().message() == d.path + "/nope: no such file or directory");
  CHECK(list_files({d.path + "/nope"}).status().kind() == edihub::Status::Kind::Invalid);

  fs::create_directory_symlink(d.path + "/loop2", d.path + "/loop1");
  fs::create_directory_symlink(d.path + "/loop1", d.path + "/loop2");
  CHECK(list_files({d.path + "/loop1"}).status().message() ==
        d.path + "/loop1: cannot access: Too many levels of symbolic links");
  // Inside a listed directory the loop is an error too, not a file silently left out.
  CHECK(list_files({d.path}).status().message() == d.path + "/loop1: cannot access: Too many levels of symbolic links");

  fs::remove(d.path + "/loop1");
  fs::remove(d.path + "/loop2");
  fs::create_symlink(d.path + "/gone.edi", d.path + "/dangling.edi");
  CHECK(list_files({d.path}).status().message() == d.path + "/dangling.edi: no such file or directory");
  fs::remove(d.path + "/dangling.edi");

  REQUIRE(mkfifo((d.path + "/fifo").c_str(), 0600) == 0);
  CHECK(list_files({d.path + "/fifo"}).status().message() == d.path + "/fifo: not a regular file or a directory");
  CHECK(list_files({d.path})->empty());  // a FIFO in a directory is not a regular file

  // Root lists any directory: this case needs an ordinary user.
  if (geteuid() != 0) {
    REQUIRE(chmod(d.path.c_str(), 0300) == 0);
    CHECK(list_files({d.path}).status().message() == d.path + ": cannot list directory: Permission denied");
  }
}

TEST_CASE("numbers and durations are read strictly, in their range, before any command runs") {
  CommandSpec spec{"purge",
                   "x",
                   "",
                   0,
                   {integer_option("archive-days", "DAYS", "", 1, 36500, "never"),
                    duration_option("older-than", "", 0, 36500LL * 86400000)}};
  std::string error;
  for (const char* bad : {"ten", "-1", "0x10", "7.5", "0", "", " 7", "+7", "1000000000000", "99999999999999999999"}) {
    CHECK_FALSE_MESSAGE(parse_args(spec, {"--archive-days", bad}, &error), bad);
    CHECK(error == std::string("--archive-days must be a whole number from 1 to 36500, or never, not '") + bad + "'");
  }
  auto a = parse_args(spec, {"--archive-days=36500"}, &error);
  REQUIRE(a);
  CHECK(a->integer("archive-days", 90) == 36500);
  a = parse_args(spec, {"--archive-days", "never"}, &error);
  REQUIRE(a);
  CHECK_FALSE(a->integer("archive-days", 90).has_value());  // kept forever
  a = parse_args(spec, {}, &error);
  REQUIRE(a);
  CHECK(a->integer("archive-days", 90) == 90);
  CHECK_FALSE(a->duration_ms("older-than").has_value());
  for (const char* bad : {"", "7", "7 d", "-1d", "36501d", "1000000000d", "1w"}) {
    CHECK_FALSE_MESSAGE(parse_args(spec, {"--older-than", bad}, &error), bad);
    CHECK(error == std::string("--older-than must be a duration (500ms, 90s, 15m, 36h, 7d) from 0s to 36500d, not '") +
                       bad + "'");
  }
  a = parse_args(spec, {"--older-than", "36h"}, &error);
  REQUIRE(a);
  CHECK(a->duration_ms("older-than") == 36 * 3600000LL);
  CHECK(whole_number("007") == 7);
  CHECK_FALSE(whole_number("7a").has_value());
}
