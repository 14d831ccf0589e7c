#include "src/common/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace edihub {

namespace {

// Closes a descriptor at the end of its scope.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

std::string why(const std::string& path) { return path + ": " + std::strerror(errno); }

// What lstat found at a name that must be a regular file, or empty.
std::string not_regular(const struct stat& st) {
  if (S_ISLNK(st.st_mode)) return "is a symbolic link";
  if (S_ISDIR(st.st_mode)) return "is a directory";
  if (!S_ISREG(st.st_mode)) return "is not a regular file";
  return "";
}

}  // namespace

Status write_file_whole(const std::string& dir, const std::string& name, std::string_view bytes, mode_t mode) {
  const std::string path = dir + "/" + name;
  if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
    return Status::invalid(path + ": not a file name");
  Fd d{::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (d.fd < 0) return Status::transient(why(dir));
  // Refused before anything is written: the operator sees what is in the way.
  struct stat st {};
  if (::fstatat(d.fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
    if (const std::string what = not_regular(st); !what.empty())
      return Status::invalid(path + " " + what +
                             ": refused (edihub never writes through a link or over a "
                             "non-regular file)");
  } else if (errno != ENOENT) {
    return Status::transient(why(path));
  }
  static std::atomic<uint64_t> counter{0};
  const std::string temp = ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(++counter) + "-" + name;
  Fd f{::openat(d.fd, temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)};
  if (f.fd < 0) return Status::transient(why(dir + "/" + temp));
  auto fail = [&](Status s) {
    ::unlinkat(d.fd, temp.c_str(), 0);
    return s;
  };
  for (size_t written = 0; written < bytes.size();) {
    const ssize_t n = ::write(f.fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(Status::transient(why(dir + "/" + temp)));
    written += static_cast<size_t>(n);
  }
  // Whole on disk before it has its name: whoever picks files up never sees half of one.
  if (::fsync(f.fd) != 0) return fail(Status::transient(why(dir + "/" + temp)));
  // Checked again right before the rename: a link put there meanwhile is
  // refused, and rename() itself replaces a name, it never follows one.
  if (::fstatat(d.fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0)
    if (const std::string what = not_regular(st); !what.empty())
      return fail(Status::invalid(path + " " + what + ": refused (edihub never writes through a link)"));
  if (::renameat(d.fd, temp.c_str(), d.fd, name.c_str()) != 0) return fail(Status::transient(why(path)));
  ::fsync(d.fd);  // the new name durable too; a failure here loses nothing already written
  return Status::ok();
}

Status write_new_file(const std::string& path, std::string_view bytes, mode_t mode) {
  Fd f{::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)};
  if (f.fd < 0) return errno == EEXIST ? Status::invalid(path + " exists: not replaced") : Status::transient(why(path));
  for (size_t written = 0; written < bytes.size();) {
    const ssize_t n = ::write(f.fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::unlink(path.c_str());
      return Status::transient(why(path));
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(f.fd) != 0) {
    ::unlink(path.c_str());
    return Status::transient(why(path));
  }
  return Status::ok();
}

Result<std::string> read_file_bounded(const std::string& path, size_t max_bytes) {
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0) return Status::invalid(path + ": cannot read: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) return Status::invalid(path + ": cannot read: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return Status::invalid(path + ": cannot read: " + not_regular(st));
  std::string bytes;
  char buf[16384];
  while (true) {
    const ssize_t n = ::read(f.fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::invalid(path + ": cannot read: " + std::strerror(errno));
    if (n == 0) break;
    if (bytes.size() + static_cast<size_t>(n) > max_bytes)
      return Status::invalid(path + ": larger than " + std::to_string(max_bytes) + " bytes");
    bytes.append(buf, static_cast<size_t>(n));
  }
  return bytes;
}

}  // namespace edihub
