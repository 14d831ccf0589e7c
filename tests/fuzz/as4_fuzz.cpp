// libFuzzer target for the ebMS3 header parser: any bytes, an answer (model or
// EBMS error), never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "parsers/as4/user_message.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  edihub::as4::UserMessage m;
  edihub::as4::Error e =
      edihub::as4::parse_user_message(std::string_view(reinterpret_cast<const char*>(data), size), &m);
  if (!e && m.message_id.empty()) __builtin_trap();  // a model always has its MessageId
  return 0;
}
