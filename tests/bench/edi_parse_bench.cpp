// Envelope parsing throughput: streams a file through the X12/EDIFACT parser
// (the same path as `edihub inspect`, messages counted, not kept) and prints
// one JSON line. tools/bench-edi-parse runs it beside the npm parsers. With
// --validate, the streaming validator reads every message too (the path of
// `edihub inspect --validate`): the messages it checked and their segment
// errors are counted. With --in-memory the file is read first and parsed
// from memory (Parser::feed, one call); with --memchr the same bytes are only
// searched for the segment terminator with memchr: the floor a parser is
// measured against (what finding every segment costs, nothing else). Both
// in-memory modes run kMemoryRuns times over the same bytes and print the
// fastest run.
#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "src/cli/edi_file.h"
#include "src/documents/validator.h"

namespace {

// The validator, counting what it finds (messages are not kept).
class Counting : public edihub::edi::MessageObserver {
 public:
  void begin(const edihub::edi::Interchange& ic, const edihub::edi::Group& g, const edihub::edi::Message& m) override {
    v_.begin(ic, g, m);
  }
  void segment(const edihub::edi::Segment& s, uint32_t number) override { v_.segment(s, number); }
  Findings end() override {
    Findings f = v_.end();
    validated += f.checked ? 1 : 0;
    segment_errors += f.errors.size();
    return f;
  }
  uint64_t validated = 0, segment_errors = 0;

 private:
  edihub::documents::Validator v_{edihub::documents::standard_definitions()};
};

std::string read_all(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

constexpr int kMemoryRuns = 5;

// X12's terminator follows the 105 bytes of the ISA; EDIFACT's is UNA's
// sixth service character, or ' by default.
char terminator_of(const std::string& bytes) {
  if (bytes.compare(0, 3, "ISA") == 0 && bytes.size() > 105) return bytes[105];
  if (bytes.compare(0, 3, "UNA") == 0 && bytes.size() > 8) return bytes[8];
  return '\'';
}

// The floor: every terminator found with memchr, in memory.
int memchr_floor(const char* path) {
  const std::string bytes = read_all(path);
  const char term = terminator_of(bytes);
  uint64_t segments = 0;
  double seconds = 1e9;
  for (int run = 0; run < kMemoryRuns; ++run) {
    segments = 0;
    auto start = std::chrono::steady_clock::now();
    const char* p = bytes.data();
    const char* end = p + bytes.size();
    while (const void* hit = std::memchr(p, term, static_cast<size_t>(end - p))) {
      ++segments;
      p = static_cast<const char*>(hit) + 1;
    }
    seconds = std::min(seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::printf(
      "{\"parser\":\"memchr floor\",\"floor\":true,\"bytes\":%zu,\"seconds\":%.4f,\"mb_per_s\":%.1f,"
      "\"terminators\":%llu}\n",
      bytes.size(), seconds, static_cast<double>(bytes.size()) / 1048576.0 / seconds,
      static_cast<unsigned long long>(segments));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc == 3 ? argv[1] : "";
  if (mode == "--memchr") return memchr_floor(argv[2]);
  const bool validate = mode == "--validate", in_memory = mode == "--in-memory";
  if (argc != 2 && !validate && !in_memory) {
    std::fprintf(stderr, "usage: edi_parse_bench [--validate | --in-memory | --memchr] FILE\n");
    return 2;
  }
  const char* path = argv[argc - 1];
  struct stat st {};
  if (::stat(path, &st) != 0) {
    std::perror(path);
    return 1;
  }
  uint64_t interchanges = 0, messages = 0, segments = 0, errors = 0;
  edihub::edi::ParseOptions options;
  options.keep_messages = false;
  Counting counting;
  if (validate) options.observer = &counting;
  std::string io_error;
  auto count = [&](edihub::edi::Interchange&& ic) {
    ++interchanges;
    messages += ic.message_count;
    segments += ic.segments;
    errors += ic.errors.size();
  };
  auto error = [&](edihub::edi::EnvelopeError&&) { ++errors; };
  const std::string bytes = in_memory ? read_all(path) : std::string();
  bool ok = true;
  double seconds = 1e9;
  for (int run = 0; run < (in_memory ? kMemoryRuns : 1); ++run) {
    interchanges = messages = segments = errors = 0;
    auto start = std::chrono::steady_clock::now();
    if (in_memory) {
      edihub::edi::Parser parser(options, count, error);
      parser.feed(bytes, true);
    } else {
      ok = edihub::cli::stream_edi_file(path, options, count, error, &io_error);
    }
    seconds = std::min(seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  if (!ok) {
    std::fprintf(stderr, "%s\n", io_error.c_str());
    return 1;
  }
  struct rusage ru {};
  ::getrusage(RUSAGE_SELF, &ru);
  double mib = static_cast<double>(st.st_size) / 1048576.0;
  std::printf(
      "{\"parser\":\"%s\",\"bytes\":%lld,\"seconds\":%.4f,\"mb_per_s\":%.1f,"
      "\"peak_rss_mb\":%.1f,\"interchanges\":%llu,\"messages\":%llu,\"segments\":%llu,"
      "\"envelope_errors\":%llu,\"validated\":%llu,\"segment_errors\":%llu}\n",
      validate    ? "edihub --validate"
      : in_memory ? "edihub, in memory"
                  : "edihub",
      static_cast<long long>(st.st_size), seconds, mib / seconds, ru.ru_maxrss / 1024.0,
      static_cast<unsigned long long>(interchanges), static_cast<unsigned long long>(messages),
      static_cast<unsigned long long>(segments), static_cast<unsigned long long>(errors),
      static_cast<unsigned long long>(counting.validated), static_cast<unsigned long long>(counting.segment_errors));
  return errors == 0 ? 0 : 1;
}
