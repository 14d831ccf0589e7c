// edihub: the gateway binary. `edihub <command> --help` describes each command.
#include <iostream>
#include <string>
#include <vector>

#include "src/cli/commands.h"

namespace {

using edihub::cli::Args;
using edihub::cli::CommandSpec;

struct Command {
  const CommandSpec& spec;
  edihub::cli::RunCommand run;
};

const std::vector<Command>& commands() {
  static const std::vector<Command> all = {
      {edihub::cli::inspect_spec(), edihub::cli::run_inspect},
      {edihub::cli::replay_spec(), edihub::cli::run_replay},
      {edihub::cli::purge_spec(), edihub::cli::run_purge},
      {edihub::cli::status_spec(), edihub::cli::run_status},
      {edihub::cli::certs_spec(), edihub::cli::run_certs},
      {edihub::cli::hash_password_spec(), edihub::cli::run_hash_password},
      {edihub::cli::new_identity_spec(), edihub::cli::run_new_identity},
      {edihub::cli::operator_spec(), edihub::cli::run_operator},
      {edihub::cli::archive_spec(), edihub::cli::run_archive},
      {edihub::cli::outbox_spec(), edihub::cli::run_outbox},
      {edihub::cli::peppol_report_spec(), edihub::cli::run_peppol_report},
      {edihub::cli::serve_spec(), edihub::cli::run_serve},
  };
  return all;
}

void usage(std::ostream& out) {
  out << "Usage: edihub <command> [options]\n\n"
         "edihub is an EDI gateway for AS2/AS4 partners sending X12 and EDIFACT.\n\n"
         "Commands:\n";
  for (const auto& c : commands()) {
    std::string name = "  " + c.spec.name;
    name.resize(17, ' ');
    out << name << c.spec.summary.substr(0, c.spec.summary.find('\n')) << "\n";
  }
  out << "\n'edihub <command> --help' describes a command's options.\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    usage(std::cerr);
    return edihub::cli::kUsage;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    usage(std::cout);
    return edihub::cli::kOk;
  }
  if (args[0] == "--version") {
    std::cout << "edihub 0.1.0\n";
    return edihub::cli::kOk;
  }
  for (const auto& c : commands()) {
    if (c.spec.name != args[0]) continue;
    std::string error;
    auto parsed = edihub::cli::parse_args(c.spec, {args.begin() + 1, args.end()}, &error);
    if (!parsed) {
      std::cerr << "edihub " << c.spec.name << ": " << error << "\n";
      return edihub::cli::kUsage;
    }
    if (parsed->help) {
      std::cout << edihub::cli::command_help(c.spec);
      return edihub::cli::kOk;
    }
    return edihub::cli::run_guarded(c.spec.name, c.run, *parsed, std::cout, std::cerr);
  }
  std::cerr << "edihub: unknown command '" << args[0] << "'\n\n";
  usage(std::cerr);
  return edihub::cli::kUsage;
}
