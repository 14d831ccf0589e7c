// The subcommands of the `edihub` binary. Each returns the process exit code.
#pragma once

#include <iosfwd>

#include "src/cli/args.h"

namespace edihub::cli {

// Exit codes shared by every command.
enum Exit : int { kOk = 0, kProblems = 1, kUsage = 2, kStoreUnavailable = 3 };

const CommandSpec& inspect_spec();
// `edihub inspect [--json] FILE...`: every interchange found, with its errors.
int run_inspect(const Args& args, std::ostream& out, std::ostream& err);

}  // namespace edihub::cli
