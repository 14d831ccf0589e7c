// The subcommands of the `edihub` binary. Each returns the process exit code.
#pragma once

#include <ctime>
#include <exception>
#include <istream>
#include <ostream>
#include <string>

#include "src/cli/args.h"
#include "src/identity/credentials.h"

namespace edihub::cli {

// Exit codes shared by every command.
// kInternal: an exception escaped the command (a bug): nothing it reported is
// known to be complete.
enum Exit : int { kOk = 0, kProblems = 1, kUsage = 2, kStoreUnavailable = 3, kInternal = 4 };

using RunCommand = int (*)(const Args& args, std::ostream& out, std::ostream& err);

// Runs a command so that no exception ends the process with abort() and a
// core dump: it prints "edihub <name>: internal error: <what>" on `err` and
// returns kInternal. Commands report expected failures as values; this is
// the last line for a bug or a library that throws.
inline int run_guarded(const std::string& name, RunCommand run, const Args& args, std::ostream& out,
                       std::ostream& err) {
  try {
    return run(args, out, err);
  } catch (const std::exception& e) {
    err << "edihub " << name << ": internal error: " << e.what() << "\n";
  } catch (...) {
    err << "edihub " << name << ": internal error: an exception that is not a std::exception\n";
  }
  return kInternal;
}

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

const CommandSpec& archive_spec();
// `edihub archive list|export ...`: the captures kept in the store.
int run_archive(const Args& args, std::ostream& out, std::ostream& err);

const CommandSpec& peppol_report_spec();
// `edihub peppol-report tsr|eusr --month YYYY-MM`: a monthly Peppol report, XML on stdout.
int run_peppol_report(const Args& args, std::ostream& out, std::ostream& err);

const CommandSpec& outbox_spec();
// `edihub outbox [retry ID | cancel ID]`: what is queued to be sent.
int run_outbox(const Args& args, std::ostream& out, std::ostream& err);

const CommandSpec& certs_spec();
// `edihub certs [--config FILE] [--partners DIR] [--warn-days N] [--json]`: certificates in use, days left.
int run_certs(const Args& args, std::ostream& out, std::ostream& err);
using identity::days_left;  // src/identity/credentials.h
using identity::kCertificateWarnDays;

const CommandSpec& hash_password_spec();
const CommandSpec& new_identity_spec();
int run_new_identity(const Args& args, std::ostream& out, std::ostream& err);
// `echo PASSWORD | edihub hash-password`: the <auth basic-password-hash> of a partner.
int run_hash_password(const Args& args, std::ostream& out, std::ostream& err);
// One line from `in` without its line end; false when there is none or it is empty.
bool read_password_line(std::istream& in, std::string* password);

const CommandSpec& operator_spec();
// `echo PASSWORD | edihub operator add NAME [--role R]`, `list`, `remove NAME`: console accounts.
int run_operator(const Args& args, std::ostream& out, std::ostream& err);

const CommandSpec& status_spec();
// `edihub status [--db URI] [--json]`: keys, outcomes, row counts, store size.
int run_status(const Args& args, std::ostream& out, std::ostream& err);

}  // namespace edihub::cli
