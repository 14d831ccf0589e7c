#include "src/cli/edi_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace edihub::cli {

namespace {
constexpr size_t kChunk = 1 << 20;
}

bool stream_edi_file(const std::string& path, const edi::ParseOptions& options,
                     const edi::Parser::InterchangeHandler& on_interchange, const edi::Parser::ErrorHandler& on_error,
                     std::string* error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = path + ": " + std::strerror(errno);
    return false;
  }
  edi::Parser parser(options, on_interchange, on_error);
  std::vector<char> buf(kChunk);
  size_t have = 0;  // unconsumed bytes at the front of buf
  while (true) {
    if (buf.size() - have < kChunk / 2) buf.resize(buf.size() * 2);  // a long segment
    ssize_t n = ::read(fd, buf.data() + have, buf.size() - have);
    if (n < 0) {
      if (errno == EINTR) continue;
      *error = path + ": " + std::strerror(errno);
      ::close(fd);
      return false;
    }
    have += static_cast<size_t>(n);
    bool eof = n == 0;
    size_t used = parser.feed(std::string_view(buf.data(), have), eof);
    if (eof) break;
    std::memmove(buf.data(), buf.data() + used, have - used);
    have -= used;
    // Shrink back after a long segment has passed.
    if (buf.size() > kChunk && have < kChunk / 2) buf.resize(kChunk);
  }
  ::close(fd);
  return true;
}

}  // namespace edihub::cli
