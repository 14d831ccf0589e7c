#include "src/cli/file_list.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace edihub::cli {

namespace {

namespace fs = std::filesystem;

// Why `path` cannot be used, for an error the operator can act on.
Status unusable(const std::string& path, const std::error_code& ec) {
  if (ec == std::errc::no_such_file_or_directory) return Status::invalid(path + ": no such file or directory");
  return Status::invalid(path + ": cannot access: " + ec.message());
}

// The regular files directly in `dir`, sorted. An entry whose type cannot be
// read (a symlink loop, a dangling symlink) is an error, not skipped: the
// operator asked for everything in the directory.
Status add_directory(const std::string& dir, std::vector<std::string>* out) {
  std::vector<std::string> files;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const fs::file_status st = it->status(ec);  // follows symlinks
    if (ec) return unusable(it->path().string(), ec);
    if (fs::is_regular_file(st)) files.push_back(it->path().string());
  }
  if (ec) return Status::invalid(dir + ": cannot list directory: " + ec.message());
  std::sort(files.begin(), files.end());
  out->insert(out->end(), files.begin(), files.end());
  return Status::ok();
}

}  // namespace

Result<std::vector<std::string>> list_files(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& path : paths) {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec) return unusable(path, ec);
    if (fs::is_directory(st)) {
      RETURN_IF_ERROR(add_directory(path, &out));
    } else if (fs::is_regular_file(st)) {
      out.push_back(path);
    } else {
      return Status::invalid(path + ": not a regular file or a directory");
    }
  }
  return out;
}

}  // namespace edihub::cli
