// `edihub operator`: the console's accounts. The password comes on standard
// input (one line), is kept as a PBKDF2 hash, and is never printed.
#include <iostream>
#include <ostream>

#include "src/cli/commands.h"
#include "src/cli/duration.h"
#include "src/cli/store_args.h"
#include "src/crypto/password.h"

namespace edihub::cli {

const CommandSpec& operator_spec() {
  static const CommandSpec spec{
      "operator",
      "Adds, lists and removes operator console accounts.\n"
      "`echo PASSWORD | edihub operator add NAME [--role viewer|operator]` adds the account or\n"
      "replaces its password and role; `edihub operator list`; `edihub operator remove NAME`\n"
      "(its sessions end at once). Viewers see every page; operators also act.",
      "add NAME | list | remove NAME",
      1,
      {db_option(), {"role", "ROLE", "viewer (looks) or operator (also acts), default viewer"}}};
  return spec;
}

int run_operator(const Args& args, std::ostream& out, std::ostream& err) {
  const std::string action = args.positional[0];
  const bool named = action == "add" || action == "remove";
  if ((named && args.positional.size() != 2) || (action == "list" && args.positional.size() != 1) ||
      (!named && action != "list")) {
    err << "edihub operator: use add NAME, list or remove NAME\n";
    return kUsage;
  }
  const std::string name = named ? args.positional[1] : "";
  if (named && (name.empty() || name.size() > 64 ||
                name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._@-") !=
                    std::string::npos)) {
    err << "edihub operator: a name is 1-64 letters, digits or . _ @ -\n";
    return kUsage;
  }
  const std::string role = args.value("role").empty() ? "viewer" : args.value("role");
  if (role != "viewer" && role != "operator") {
    err << "edihub operator: --role is viewer or operator, not '" << role << "'\n";
    return kUsage;
  }
  std::string password;
  if (action == "add" && !read_password_line(std::cin, &password)) {
    err << "edihub operator add: give the password on standard input (one line)\n";
    return kUsage;
  }
  if (action == "add" && password.size() < 10) {
    err << "edihub operator add: the password needs at least 10 characters\n";
    return kUsage;
  }
  int exit_code = kOk;
  auto store = open_store_from(args, err, "operator", &exit_code);
  if (!store) return exit_code;
  store::ConsoleStore& console = store->console();
  if (action == "add") {
    Status s = console.put_operator({name, crypto::hash_password(password), role, 0});
    if (!s.is_ok()) {
      err << "edihub operator: " << s.message() << "\n";
      return kStoreUnavailable;
    }
    out << "operator " << name << " (" << role << ") saved\n";
    return kOk;
  }
  if (action == "remove") {
    Result<bool> removed = console.remove_operator(name);
    if (!removed.is_ok()) {
      err << "edihub operator: " << removed.status().message() << "\n";
      return kStoreUnavailable;
    }
    if (!removed.value()) {
      err << "edihub operator: no operator " << name << "\n";
      return kProblems;
    }
    out << "operator " << name << " removed\n";
    return kOk;
  }
  Result<std::vector<store::Operator>> all = console.operators();
  if (!all.is_ok()) {
    err << "edihub operator: " << all.status().message() << "\n";
    return kStoreUnavailable;
  }
  for (const auto& op : all.value())
    out << op.name << "  " << op.role << "  since " << iso_utc(op.created_at_ms) << "\n";
  return kOk;
}

}  // namespace edihub::cli
