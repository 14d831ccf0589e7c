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

const CommandSpec& replay_spec();
// `edihub replay ... PATH...`: partner files through the gate, a result per interchange.
int run_replay(const Args& args, std::ostream& out, std::ostream& err);

const CommandSpec& purge_spec();
// `edihub purge ...`: old keys and log rows deleted in short batches.
int run_purge(const Args& args, std::ostream& out, std::ostream& err);

const CommandSpec& serve_spec();
// `edihub serve [--config FILE]`: the gateway (AS2 so far).
int run_serve(const Args& args, std::ostream& out, std::ostream& err);

const CommandSpec& status_spec();
// `edihub status [--db URI] [--json]`: keys, outcomes, row counts, store size.
int run_status(const Args& args, std::ostream& out, std::ostream& err);

}  // namespace edihub::cli
