#include "src/common/status.h"

namespace edihub {

void abort_on_misuse(const char* what) {
  std::fprintf(stderr, "edihub: programming error: %s\n", what);
  std::abort();
}

}  // namespace edihub
