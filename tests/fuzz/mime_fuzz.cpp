// libFuzzer target for the MIME entity and multipart parser: any bytes, no
// crash, and every part a view inside its parent.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "parsers/mime/entity.h"

namespace {

bool inside(std::string_view part, std::string_view whole) {
  return part.data() >= whole.data() && part.data() + part.size() <= whole.data() + whole.size();
}

void walk(std::string_view bytes, int depth) {
  using namespace edihub::mime;
  Entity e;
  if (parse_entity(bytes, &e)) return;
  if (!inside(e.body, bytes) || e.header_block.size() + e.body.size() != bytes.size()) __builtin_trap();
  ContentType ct = e.content_type();
  if (ct.type != "multipart" || depth >= 4) return;
  std::vector<std::string_view> parts;
  if (split_multipart(e.body, ct.param("boundary"), &parts)) return;
  for (std::string_view p : parts) {
    if (!inside(p, e.body)) __builtin_trap();
    walk(p, depth + 1);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  walk(std::string_view(reinterpret_cast<const char*>(data), size), 0);
  return 0;
}
