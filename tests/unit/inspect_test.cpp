// `edihub inspect` as a user sees it: the JSON contract and exit codes.
#include <doctest/doctest.h>

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <streambuf>
#include <thread>

#include "src/cli/commands.h"
#include "tests/unit/test_util.h"

using namespace edihub::cli;
using Poco::JSON::Array;
using Poco::JSON::Object;

namespace {

struct Run {
  int exit;
  std::string out, err;
};

Run inspect(std::vector<std::string> files, bool json = true) {
  Args a;
  if (json) a.flags.push_back("json");
  for (auto& f : files) a.positional.push_back(std::string(EDIHUB_SOURCE_DIR) + "/" + f);
  std::ostringstream out, err;
  int code = run_inspect(a, out, err);
  return {code, out.str(), err.str()};
}

Object::Ptr json_of(const std::string& line) { return Poco::JSON::Parser().parse(line).extract<Object::Ptr>(); }

// Output another thread can watch while inspect writes it.
class WatchedOutput : public std::streambuf {
 public:
  bool wait_for(const std::string& text, std::chrono::seconds timeout) {
    std::unique_lock<std::mutex> lock(mu_);
    return changed_.wait_for(lock, timeout, [&] { return written_.find(text) != std::string::npos; });
  }
  std::string written() {
    std::lock_guard<std::mutex> lock(mu_);
    return written_;
  }

 protected:
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) append(std::string(1, traits_type::to_char_type(c)));
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    append(std::string(s, static_cast<size_t>(n)));
    return n;
  }

 private:
  void append(const std::string& s) {
    std::lock_guard<std::mutex> lock(mu_);
    written_ += s;
    changed_.notify_all();
  }
  std::mutex mu_;
  std::condition_variable changed_;
  std::string written_;
};

}  // namespace

TEST_CASE("inspect --json on an X12 856") {
  Run r = inspect({"samples/edi/x12-856-005010.edi"});
  CHECK(r.exit == 0);
  auto doc = json_of(r.out);
  CHECK(doc->getValue<std::string>("file").find("x12-856-005010.edi") != std::string::npos);
  auto ics = doc->getArray("interchanges");
  REQUIRE(ics->size() == 1);
  auto ic = ics->getObject(0);
  CHECK(ic->getValue<std::string>("standard") == "x12");
  CHECK(ic->getValue<std::string>("sender") == "ZZ:ACMESUPPLY");
  CHECK(ic->getValue<std::string>("receiver") == "ZZ:EDIHUB");
  CHECK(ic->getValue<std::string>("control_number") == "000000102");
  CHECK(ic->getValue<std::string>("version") == "00501");
  CHECK(ic->getValue<bool>("test") == false);
  auto groups = ic->getArray("groups");
  REQUIRE(groups->size() == 1);
  auto messages = groups->getObject(0)->getArray("messages");
  REQUIRE(messages->size() == 2);
  CHECK(messages->getObject(0)->getValue<std::string>("type") == "856");
  CHECK(messages->getObject(0)->getValue<std::string>("control_number") == "0001");
  CHECK(messages->getObject(0)->getValue<int>("segments") == 23);
  CHECK(ic->getArray("errors")->size() == 0);
  CHECK(doc->getArray("errors")->size() == 0);
}

TEST_CASE("inspect --json on EDIFACT: id:qualifier, implicit group with null control number") {
  Run r = inspect({"samples/edi/edifact-desadv-d96a-una.edi"});
  CHECK(r.exit == 0);
  auto ic = json_of(r.out)->getArray("interchanges")->getObject(0);
  CHECK(ic->getValue<std::string>("standard") == "edifact");
  CHECK(ic->getValue<std::string>("sender") == "5412345000013:14");
  CHECK(ic->getValue<std::string>("receiver") == "5400000000009:14");
  auto group = ic->getArray("groups")->getObject(0);
  CHECK(group->isNull("control_number"));
  CHECK(group->getArray("messages")->getObject(0)->getValue<std::string>("type") == "DESADV");
  CHECK(r.out.find("\"control_number\":null") != std::string::npos);
}

TEST_CASE("inspect --json: one document per file, errors with code, segment and message") {
  Run r = inspect({"samples/edi/x12-810-004010.edi", "samples/edi/broken-x12-se-count.edi"});
  CHECK(r.exit == 1);
  std::istringstream lines(r.out);
  std::string first, second;
  REQUIRE(std::getline(lines, first));
  REQUIRE(std::getline(lines, second));
  CHECK(json_of(first)->getArray("interchanges")->getObject(0)->getArray("errors")->size() == 0);
  auto errors = json_of(second)->getArray("interchanges")->getObject(0)->getArray("errors");
  REQUIRE(errors->size() == 1);
  auto e = errors->getObject(0);
  CHECK(e->getValue<std::string>("code") == "SE01_COUNT");
  CHECK(e->getValue<int>("segment") == 23);
  CHECK(e->getValue<std::string>("message") ==
        "SE01 is '22' but transaction set 0001 (810) has 21 segments (ST through SE)");
}

TEST_CASE("inspect on every sample: exit status follows the envelope errors") {
  const char* good[] = {"x12-856-004010.edi",
                        "x12-856-005010.edi",
                        "x12-810-004010.edi",
                        "x12-810-005010.edi",
                        "edifact-desadv-d96a-una.edi",
                        "edifact-invoic-d96a.edi",
                        "edifact-desadv-d96a-groups.edi",
                        "edifact-syntax4.edi",
                        "two-interchanges.edi"};
  const char* bad[] = {"broken-x12-se-count.edi",    "broken-x12-iea-control.edi",   "broken-x12-ge-count.edi",
                       "broken-x12-truncated.edi",   "broken-x12-isa-short.edi",     "broken-edifact-unt-count.edi",
                       "broken-edifact-unz-ref.edi", "broken-edifact-truncated.edi", "broken-edifact-unt-ref.edi"};
  for (const char* f : good) {
    CAPTURE(f);
    CHECK(inspect({std::string("samples/edi/") + f}).exit == 0);
    CHECK(inspect({std::string("samples/edi/") + f}, false).exit == 0);
  }
  for (const char* f : bad) {
    CAPTURE(f);
    CHECK(inspect({std::string("samples/edi/") + f}).exit == 1);
  }
}

TEST_CASE("inspect text output: a line per interchange and message, errors underneath") {
  Run r = inspect({"samples/edi/broken-edifact-unt-ref.edi"}, false);
  CHECK(r.exit == 1);
  CHECK(r.out.find("edifact interchange DES0009918 from 5412345000013:14 to 5400000000009:14") != std::string::npos);
  CHECK(r.out.find("\n  DESADV 1 (D:96A:UN:EAN005), 25 segments\n") != std::string::npos);
  CHECK(r.out.find("\n  error UNT0062_REFERENCE at segment 26: UNT 0062 is '2' but UNH 0062 is '1'\n") !=
        std::string::npos);
}

TEST_CASE("inspect: unreadable and non-EDI files are errors") {
  Run missing = inspect({"samples/edi/no-such-file.edi"});
  CHECK(missing.exit == 1);
  auto e = json_of(missing.out)->getArray("errors")->getObject(0);
  CHECK(e->getValue<std::string>("code") == "IO_ERROR");
  CHECK(e->getValue<std::string>("message").find("No such file or directory") != std::string::npos);

  Run readme = inspect({"samples/edi/README.md"});
  CHECK(readme.exit == 1);
  CHECK(json_of(readme.out)->getArray("errors")->getObject(0)->getValue<std::string>("code") == "UNKNOWN_START");
}

TEST_CASE("inspect --json writes each interchange as soon as the parser hands it over") {
  // The input is a FIFO fed one interchange at a time: the second is sent only
  // once the first one's JSON is out, so a command that holds the document
  // until the end of the file times out here.
  char tmpl[] = "/tmp/edihub-inspect-XXXXXX";
  const std::string dir = mkdtemp(tmpl), fifo = dir + "/feed.edi";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const std::string ic = edihub::test::read_file(std::string(EDIHUB_SOURCE_DIR) + "/samples/edi/x12-810-004010.edi");
  WatchedOutput watched;
  std::ostream out(&watched);
  std::ostringstream err;
  bool first_written_early = false;
  std::thread feeder([&] {
    std::ofstream f(fifo, std::ios::binary);
    f << ic << std::flush;
    first_written_early = watched.wait_for("\"length\":614}]}],\"errors\":[]}", std::chrono::seconds(10));
    f << ic;
  });
  Args a;
  a.flags.push_back("json");
  a.positional.push_back(fifo);
  int code = run_inspect(a, out, err);
  feeder.join();
  std::filesystem::remove_all(dir);
  CHECK(first_written_early);
  CHECK(code == 0);
  const std::string doc = watched.written();
  CHECK(doc.back() == '\n');
  CHECK(json_of(doc)->getArray("interchanges")->size() == 2);
  CHECK(json_of(doc)->getArray("errors")->size() == 0);
}
