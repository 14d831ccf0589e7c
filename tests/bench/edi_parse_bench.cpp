// Envelope parsing throughput: streams a file through the X12/EDIFACT parser
// (the same path as `edihub inspect`, messages counted, not kept) and prints
// one JSON line. tools/bench-edi-parse runs it beside the npm parsers. With
// --validate, the streaming validator reads every message too (the path of
// `edihub inspect --validate`): the messages it checked and their segment
// errors are counted.
#include <sys/resource.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
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

}  // namespace

int main(int argc, char** argv) {
  const bool validate = argc == 3 && std::string(argv[1]) == "--validate";
  if (argc != 2 && !validate) {
    std::fprintf(stderr, "usage: edi_parse_bench [--validate] FILE\n");
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
  auto start = std::chrono::steady_clock::now();
  bool ok = edihub::cli::stream_edi_file(
      path, options,
      [&](edihub::edi::Interchange&& ic) {
        ++interchanges;
        messages += ic.message_count;
        segments += ic.segments;
        errors += ic.errors.size();
      },
      [&](edihub::edi::EnvelopeError&&) { ++errors; }, &io_error);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
      validate ? "edihub --validate" : "edihub", static_cast<long long>(st.st_size), seconds, mib / seconds,
      ru.ru_maxrss / 1024.0, static_cast<unsigned long long>(interchanges), static_cast<unsigned long long>(messages),
      static_cast<unsigned long long>(segments), static_cast<unsigned long long>(errors),
      static_cast<unsigned long long>(counting.validated), static_cast<unsigned long long>(counting.segment_errors));
  return errors == 0 ? 0 : 1;
}
