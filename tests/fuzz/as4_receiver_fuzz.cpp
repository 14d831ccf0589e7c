// libFuzzer target for the AS4 receiver's SOAP/MIME handling: the envelope
// stage (Content-Type, SwA parts by Content-ID, eb:Messaging) and the unwrap
// stage (mustUnderstand blocks, attachments by cid:, bounded gzip). The first
// line of the input is the Content-Type. Any bytes: no crash, budget given back.
#include <cstddef>
#include <cstdint>

#include "src/protocols/as4/inbound.h"

namespace {

using namespace edihub;

const config::Partners& partners() {
  static const config::Partners p = [] {
    const char* dir = std::getenv("EDIHUB_SOURCE_DIR");
    return config::Partners::load(std::string(dir != nullptr ? dir : EDIHUB_SOURCE_DIR) + "/partners").value();
  }();
  return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const size_t eol = bytes.find('\n');
  if (eol == std::string_view::npos) return 0;
  http::HttpRequest request;
  request.headers.emplace_back("Content-Type", std::string(bytes.substr(0, eol)));
  request.body = std::string(bytes.substr(eol + 1));
  receivers::Context context;
  Budget shared(8u << 20);
  context.unwrap_budget = &shared;
  context.max_message_bytes = 4u << 20;
  as4::Settings settings{"EDIHUB", "", &partners(), {}, {}};
  {
    receivers::Message m(request, context);
    as4::As4Protocol protocol(settings);
    http::HttpAnswer answer;
    if (protocol.envelope(m, &answer) == receivers::Next::Continue) {
      if (m.work.claim.key.message_id.rfind("as4:", 0) != 0) __builtin_trap();
      if (protocol.unwrap(m, &answer) == receivers::Next::Continue && m.failure == gate::Failure::None &&
          m.work.claim.payload.empty())
        __builtin_trap();  // content read: its digest is known
    } else if (answer.status != 500 && answer.status != 200) {
      __builtin_trap();
    }
  }
  if (shared.used() != 0) __builtin_trap();
  return 0;
}
