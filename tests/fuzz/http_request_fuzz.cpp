// libFuzzer target for the HTTP request path as the server sees it: bytes fed
// to the request reader whole and in pieces (the split chosen by the first
// byte) must read the same requests, then pass the
// edge's header checks. A difference would be a request-smuggling primitive.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "src/http/reader.h"
#include "src/receivers/edge.h"

namespace {

using namespace edihub::receivers;
using namespace edihub::http;

// Every request in `bytes` read with pieces of `step`: method, target, headers, body or the failure.
std::vector<std::string> requests(std::string_view bytes, size_t step) {
  std::vector<std::string> out;
  ReaderLimits limits;
  limits.max_head_bytes = 4096;
  limits.max_body_bytes = 4096;
  std::string pending;  // bytes arrived and not yet used, as on a connection
  size_t offered = 0;
  while (out.size() < 8) {
    RequestReader reader(limits);
    RequestReader::State state = RequestReader::State::NeedMore;
    while (true) {
      pending.erase(0, reader.feed(pending, &state));
      if (state == RequestReader::State::Head) {
        (void)header_problem(reader.request());
        continue;
      }
      if (state != RequestReader::State::NeedMore || offered == bytes.size()) break;
      const size_t n = std::min(step, bytes.size() - offered);
      pending.append(bytes.substr(offered, n));
      offered += n;
    }
    if (state == RequestReader::State::Failed) {
      out.push_back("F:" + std::to_string(reader.failure().status) + " " + reader.failure().detail);
      return out;
    }
    if (state != RequestReader::State::Done) return out;
    const HttpRequest& r = reader.request();
    std::string s = "R:" + r.method + " " + r.target + "\n";  // "R:"/"F:": a method can be any token
    for (const auto& [k, v] : r.headers) s += k + ": " + v + "\n";
    out.push_back(s + "\n" + r.body);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t step = 1 + data[0] % 17;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  // The requests read must be the same; a refusal may come earlier when the
  // whole buffer shows the error at once (a bare-LF line waits for a CRLF
  // when fed byte by byte, until the head deadline), never a different request.
  std::vector<std::string> whole = requests(bytes, bytes.size() + 1), pieces = requests(bytes, step);
  auto read_ok = [](std::vector<std::string> v) {
    if (!v.empty() && v.back().rfind("F:", 0) == 0) v.pop_back();
    return v;
  };
  if (read_ok(whole) != read_ok(pieces)) {
    // Say what differs before stopping: the reproduction starts from this.
    for (const auto& r : whole) std::fprintf(stderr, "whole: [%s]\n", r.c_str());
    for (const auto& r : pieces) std::fprintf(stderr, "pieces of %zu: [%s]\n", step, r.c_str());
    __builtin_trap();
  }
  return 0;
}
