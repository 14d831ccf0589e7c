// The files named on a command line (replay, and any command taking PATH...).
#pragma once

#include <string>
#include <vector>

#include "src/common/status.h"

namespace edihub::cli {

// Each path in order: a directory stands for its regular files (not
// recursive; symlinks to regular files count), sorted; anything else for
// itself if it is a regular file. Invalid, naming the path and the OS reason,
// when a path is missing, is neither a file nor a directory, or cannot be
// resolved or listed (a symlink loop, no permission). Never throws.
Result<std::vector<std::string>> list_files(const std::vector<std::string>& paths);

}  // namespace edihub::cli
