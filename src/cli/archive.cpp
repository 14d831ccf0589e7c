// `edihub archive`: the requests the gateway archived (captures in the
// store), listed and exported as files that `edihub replay` takes.
#include <Poco/JSON/Object.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "src/cli/commands.h"
#include "src/cli/duration.h"
#include "src/cli/store_args.h"
#include "src/common/files.h"
#include "src/common/partner_text.h"
#include "src/receivers/capture.h"

namespace edihub::cli {

namespace {

int list(const Args& args, store::Store& store, std::ostream& out, std::ostream& err) {
  store::CaptureFilter filter;
  if (!args.value("partner").empty()) filter.partner_id = args.value("partner");
  if (!args.value("message-id").empty()) filter.message_id = args.value("message-id");
  filter.limit = static_cast<int>(*args.integer("limit", 100));  // checked: 1-100000
  auto found = store.list_captures(filter);
  if (!found.is_ok()) {
    err << "edihub archive: " << found.status().message() << "\n";
    return kStoreUnavailable;
  }
  for (const auto& c : found.value()) {
    if (args.flag("json")) {
      Poco::JSON::Object o(Poco::JSON_PRESERVE_KEY_ORDER);
      o.set("id", c.id);
      o.set("received_at", iso_utc(c.received_at_ms));
      o.set("partner", c.partner_id);
      o.set("protocol", c.protocol);
      o.set("message_id", partner_text(c.message_id, 1000));
      o.set("bytes", c.bytes);
      o.stringify(out);
      out << "\n";
    } else {
      out << c.id << "  " << iso_utc(c.received_at_ms) << "  " << c.partner_id << "  " << c.protocol << "  "
          << partner_text(c.message_id, 1000) << "  " << c.bytes << " bytes\n";
    }
  }
  return kOk;
}

int export_captures(const Args& args, store::Store& store, std::ostream& out, std::ostream& err) {
  const std::string dir = args.value("out");
  if (dir.empty() || args.positional.size() < 2) {
    err << "edihub archive export: give --out DIR and one or more capture ids\n";
    return kUsage;
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    err << "edihub archive: " << dir << ": " << ec.message() << "\n";
    return kProblems;
  }
  int code = kOk;
  for (size_t i = 1; i < args.positional.size(); ++i) {
    const std::string& id_text = args.positional[i];
    const int64_t id = whole_number(id_text).value_or(0);
    if (id < 1) {
      err << "edihub archive: '" << id_text << "' is not a capture id\n";
      return kUsage;
    }
    auto capture = store.read_capture(id);
    if (!capture.is_ok()) {
      err << "edihub archive: " << capture.status().message() << "\n";
      return kStoreUnavailable;
    }
    if (!capture.value()) {
      err << "edihub archive: no capture " << id << " (purged?)\n";
      code = kProblems;
      continue;
    }
    const std::string name = "capture-" + std::to_string(id) + "." + capture.value()->protocol;
    // Never through a link at that name (common/files.h): in a shared directory, or as root, it could point anywhere.
    if (Status written = write_file_whole(dir, name, receivers::capture_file(*capture.value())); !written.is_ok()) {
      err << "edihub archive: " << written.message() << "\n";
      code = kProblems;
      continue;
    }
    out << dir + "/" + name << "\n";
  }
  return code;
}

}  // namespace

const CommandSpec& archive_spec() {
  static const CommandSpec spec{
      "archive",
      "Lists and exports the archived requests (captures) kept in the store.\n"
      "`edihub archive list` shows the newest first; `edihub archive export --out DIR ID...`\n"
      "writes each as DIR/capture-ID.as2|as4, the request exactly as received, which\n"
      "`edihub replay` takes.",
      "list|export [ID...]",
      1,
      {db_option(),
       {"partner", "ID", "list: only this partner's captures"},
       {"message-id", "KEY", "list: only this transport key, e.g. as2:<id@host>"},
       integer_option("limit", "N", "list: at most N captures, 1 to 100000, default 100", 1, 100000),
       {"out", "DIR", "export: the directory to write the files to"},
       {"json", "", "list: one JSON object per capture"}}};
  return spec;
}

int run_archive(const Args& args, std::ostream& out, std::ostream& err) {
  const std::string& action = args.positional[0];
  if (action != "list" && action != "export") {
    err << "edihub archive: unknown action '" << action << "' (list or export)\n";
    return kUsage;
  }
  int exit_code = kOk;
  auto store = open_store_from(args, err, "archive", &exit_code);
  if (!store) return exit_code;
  return action == "list" ? list(args, *store, out, err) : export_captures(args, *store, out, err);
}

}  // namespace edihub::cli
