// Envelope parsing throughput: streams a file through the X12/EDIFACT parser
// (the same path as `edihub inspect`, messages counted, not kept) and prints
// one JSON line. tools/bench-edi-parse runs it beside the npm parsers.
#include <sys/resource.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "src/cli/edi_file.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: edi_parse_bench FILE\n");
    return 2;
  }
  struct stat st {};
  if (::stat(argv[1], &st) != 0) {
    std::perror(argv[1]);
    return 1;
  }
  uint64_t interchanges = 0, messages = 0, segments = 0, errors = 0;
  edihub::edi::ParseOptions options;
  options.keep_messages = false;
  std::string io_error;
  auto start = std::chrono::steady_clock::now();
  bool ok = edihub::cli::stream_edi_file(
      argv[1], options,
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
      "{\"parser\":\"edihub\",\"bytes\":%lld,\"seconds\":%.4f,\"mb_per_s\":%.1f,"
      "\"peak_rss_mb\":%.1f,\"interchanges\":%llu,\"messages\":%llu,\"segments\":%llu,"
      "\"envelope_errors\":%llu}\n",
      static_cast<long long>(st.st_size), seconds, mib / seconds, ru.ru_maxrss / 1024.0,
      static_cast<unsigned long long>(interchanges), static_cast<unsigned long long>(messages),
      static_cast<unsigned long long>(segments), static_cast<unsigned long long>(errors));
  return errors == 0 ? 0 : 1;
}
