// `edihub replay`: partner files through the same gate and handlers as the server.
#include <unistd.h>

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Stringifier.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include "parsers/edi/parser.h"
#include "src/cli/commands.h"
#include "src/cli/duration.h"
#include "src/cli/store_args.h"
#include "src/gate/interchanges.h"

namespace edihub::cli {

namespace {

// Replay reads whole files: a partner file is one transport message.
constexpr uintmax_t kMaxFileBytes = uintmax_t{1} << 31;

struct Line {
  std::string file, partner, message_id, outcome, detail;
  int documents = 0;
};

void print(std::ostream& out, bool json, const Line& l) {
  if (json) {
    Poco::JSON::Object o(Poco::JSON_PRESERVE_KEY_ORDER);
    o.set("file", l.file);
    o.set("partner", l.partner.empty() ? Poco::Dynamic::Var() : Poco::Dynamic::Var(l.partner));
    o.set("message_id", l.message_id.empty() ? Poco::Dynamic::Var() : Poco::Dynamic::Var(l.message_id));
    o.set("outcome", l.outcome);
    o.set("documents", l.documents);
    if (!l.detail.empty()) o.set("detail", l.detail);
    o.stringify(out);
    out << std::endl;  // a line per result as it happens, for tail -f and pipes
    return;
  }
  out << l.file << ": " << l.outcome;
  if (!l.message_id.empty()) out << " " << l.message_id;
  if (!l.partner.empty()) out << " (partner " << l.partner << ")";
  if (l.outcome == "processed") out << ", " << l.documents << " document" << (l.documents == 1 ? "" : "s");
  if (!l.detail.empty()) out << ": " << l.detail;
  out << std::endl;
}

// PATHs to files: a directory stands for its regular files, sorted.
bool collect(const std::vector<std::string>& paths, std::vector<std::string>* files, std::ostream& err) {
  for (const auto& p : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      std::vector<std::string> in_dir;
      for (const auto& e : std::filesystem::directory_iterator(p, ec))
        if (e.is_regular_file()) in_dir.push_back(e.path().string());
      std::sort(in_dir.begin(), in_dir.end());
      files->insert(files->end(), in_dir.begin(), in_dir.end());
    } else if (std::filesystem::is_regular_file(p, ec)) {
      files->push_back(p);
    } else {
      err << "edihub replay: " << p << ": no such file or directory\n";
      return false;
    }
  }
  return true;
}

class Progress {
 public:
  explicit Progress(size_t total) : total_(total), on_(::isatty(STDERR_FILENO) == 1) {}
  void tick(size_t done) {
    if (!on_) return;
    auto now = std::chrono::steady_clock::now();
    double elapsed = std::chrono::duration<double>(now - start_).count();
    if (elapsed < 2.0 || now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    shown_ = true;
    std::fprintf(stderr, "\rreplay: %zu/%zu files, %.1f files/s ", done, total_, done / elapsed);
    std::fflush(stderr);
  }
  ~Progress() {
    if (shown_) std::fprintf(stderr, "\n");
  }

 private:
  size_t total_;
  bool on_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_;
};

}  // namespace

const CommandSpec& replay_spec() {
  static const CommandSpec spec{
      "replay",
      "Runs partner files through the gate and business handlers, exactly once.\n"
      "The same path as the server: one result per interchange (processed, duplicate,\n"
      "conflict, rejected, error). Replaying a\n"
      "file again gives duplicate and books nothing. Exit 0 when nothing was rejected or in\n"
      "conflict, 1 otherwise, 2 usage, 3 store unavailable.",
      "PATH...",
      1,
      {db_option(),
       partners_option(),
       {"partner", "ID", "only accept interchanges from this partner"},
       {"json", "", "one JSON object per interchange on stdout"},
       {"lease", "DURATION", "claim lease, default 5m: a crashed run's keys are taken over after it"},
       {"wait", "DURATION", "how long to wait for a key another worker is handling, default 10s"}}};
  return spec;
}

int run_replay(const Args& args, std::ostream& out, std::ostream& err) {
  gate::GateOptions options;
  for (const char* name : {"lease", "wait"}) {
    if (args.value(name).empty()) continue;
    auto ms = parse_duration_ms(args.value(name));
    if (!ms) {
      err << "edihub replay: --" << name << " '" << args.value(name) << "' is not a duration like 30s, 5m, 1h\n";
      return kUsage;
    }
    (std::string(name) == "lease" ? options.lease_ms : options.inflight_wait_ms) = *ms;
  }
  std::vector<std::string> files;
  if (!collect(args.positional, &files, err)) return kUsage;
  auto partners = load_partners_from(args, err, "replay");
  if (!partners) return kUsage;
  if (!args.value("partner").empty() && partners->find(args.value("partner")) == nullptr) {
    err << "edihub replay: unknown partner '" << args.value("partner") << "'\n";
    return kUsage;
  }
  int exit_code = kOk;
  auto store = open_store_from(args, err, "replay", &exit_code);
  if (!store) return exit_code;

  const bool json = args.flag("json");
  gate::Gate gate(options);
  gate::InterchangeIntake intake(gate, *store, *partners);
  gate::Arrival arrival;
  arrival.transport = "replay";
  if (!args.value("partner").empty()) arrival.expected_partner = args.value("partner");

  bool problems = false, store_trouble = false;
  Progress progress(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string& file = files[i];
    progress.tick(i);
    std::error_code ec;
    if (std::filesystem::file_size(file, ec) > kMaxFileBytes) {
      print(out, json, {file, "", "", "rejected", "file larger than 2 GiB: split it", 0});
      problems = true;
      continue;
    }
    std::ifstream in(file, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    if (!in) {
      print(out, json, {file, "", "", "rejected", "cannot read the file", 0});
      problems = true;
      continue;
    }
    const std::string bytes = buffer.str();
    edi::ParseResult parsed = edi::parse(bytes);
    for (const auto& e : parsed.errors) {
      print(out, json, {file, "", "", "rejected", std::string(edi::code_name(e.code)) + ": " + e.text, 0});
      problems = true;
    }
    if (parsed.interchanges.empty() && parsed.errors.empty()) {
      print(out, json, {file, "", "", "rejected", "no interchange found (empty file?)", 0});
      problems = true;
    }
    arrival.transport_id = file;
    for (const auto& ic : parsed.interchanges) {
      gate::InterchangeResult r = intake.process(ic, bytes, arrival);
      print(out, json, {file, r.partner_id, r.message_id, r.outcome, r.detail, r.documents});
      if (r.outcome == "rejected" || r.outcome == "conflict" || r.outcome == "error") problems = true;
      if (r.store_trouble) store_trouble = true;
    }
  }
  if (store_trouble) return kStoreUnavailable;
  return problems ? kProblems : kOk;
}

}  // namespace edihub::cli
