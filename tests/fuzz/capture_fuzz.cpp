// libFuzzer target for captures as replay reads them: the kind, the head
// through the server's request reader, the edge's header checks. Any bytes:
// no crash; an accepted capture never carries a header value with a line break.
#include <cstddef>
#include <cstdint>

#include "src/receivers/capture.h"
#include "src/receivers/edge.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace edihub::receivers;
  using namespace edihub::http;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (capture_kind(bytes) == CaptureKind::None) return 0;
  edihub::Result<HttpRequest> r = read_capture(bytes);
  if (!r.is_ok()) return 0;
  if (header_problem(r.value())) return 0;
  for (const auto& [name, value] : r->headers)
    if (value.find('\r') != std::string::npos || value.find('\n') != std::string::npos ||
        name.find(':') != std::string::npos)
      __builtin_trap();
  if (r->head.size() + r->body.size() > bytes.size() + 20) __builtin_trap();  // 20: a synthesized request line
  return 0;
}
