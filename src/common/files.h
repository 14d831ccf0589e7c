// Files edihub writes for an operator or a partner's pick-up (exported
// captures, acknowledgments and documents in a directory, MDNs of a replay):
// never through a link, never half written.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

#include "src/common/status.h"

namespace edihub {

// Writes `bytes` as `dir`/`name`: a temporary name in `dir` created with
// O_CREAT | O_EXCL | O_NOFOLLOW (an existing file or link there is never
// opened), written, fsync'ed, then renamed over `name` and the directory
// synced. A `name` that is a symbolic link, a directory or anything but a
// regular file is refused (Invalid, naming the path and what is there), and
// so is a `name` holding a '/'. A regular file of that name is replaced.
// Invalid: what is in the way, for the operator to remove; Transient: the
// file system refused (permissions, a full disk, an I/O error).
Status write_file_whole(const std::string& dir, const std::string& name, std::string_view bytes, mode_t mode = 0640);

// Creates `path` holding `bytes` (fsync'ed), only if nothing is there: a file,
// a link or anything else at `path` is refused (Invalid, naming it), never
// replaced or followed. For what must never be overwritten (a private key).
Status write_new_file(const std::string& path, std::string_view bytes, mode_t mode);

// The bytes of the file at `path` (links followed: reading through one
// changes nothing), at most `max_bytes` of them. Invalid names the path and
// why: it cannot be opened, is not a regular file, or is larger than that.
Result<std::string> read_file_bounded(const std::string& path, size_t max_bytes);

}  // namespace edihub
