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
#include "src/config/gateway.h"
#include "src/gate/interchanges.h"
#include "src/receivers/as2/capture.h"
#include "src/receivers/as4/receiver.h"

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
    o.set("documents", l.documents < 0 ? Poco::Dynamic::Var() : Poco::Dynamic::Var(l.documents));
    if (!l.detail.empty()) o.set("detail", l.detail);
    o.stringify(out);
    out << std::endl;  // a line per result as it happens, for tail -f and pipes
    return;
  }
  out << l.file << ": " << l.outcome;
  if (!l.message_id.empty()) out << " " << l.message_id;
  if (!l.partner.empty()) out << " (partner " << l.partner << ")";
  if (l.outcome == "processed" && l.documents >= 0) out << ", " << l.documents << " document" << (l.documents == 1 ? "" : "s");
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

// Our AS2 identity (for decryption and MDN signatures) from --config, or the demo one.
std::optional<as2::As2Context> load_as2_context(const Args& args, const config::Partners& partners,
                                                std::ostream& err) {
  config::Gateway gw = config::Gateway::defaults();
  if (!args.value("config").empty()) {
    auto loaded = config::Gateway::load(args.value("config"));
    if (!loaded.is_ok()) {
      err << "edihub replay: " << loaded.status().message() << "\n";
      return std::nullopt;
    }
    gw = loaded.value();
  }
  auto context = as2::As2Context::from_config(gw, partners);
  if (!context.is_ok()) {
    err << "edihub replay: " << context.status().message() << "\n";
    return std::nullopt;
  }
  return context.value();
}

}  // namespace

const CommandSpec& replay_spec() {
  static const CommandSpec spec{
      "replay",
      "Runs partner files through the gate and business handlers, exactly once.\n"
      "The same path as the server: one result per interchange (processed, duplicate,\n"
      "conflict, rejected, error), or per AS2 capture (archived requests). Replaying a\n"
      "file again gives duplicate and books nothing. Exit 0 when nothing was rejected or in\n"
      "conflict, 1 otherwise, 2 usage, 3 store unavailable.",
      "PATH...",
      1,
      {db_option(),
       partners_option(),
       {"partner", "ID", "only accept interchanges from this partner"},
       {"json", "", "one JSON object per interchange on stdout"},
       {"lease", "DURATION", "claim lease, default 5m: a crashed run's keys are taken over after it"},
       {"wait", "DURATION", "how long to wait for a key another worker is handling, default 10s"},
       {"config", "FILE", "gateway config: our AS2 identity for AS2 captures (default: the demo identity)"},
       {"mdn-out", "DIR", "write the MDN of each AS2 capture to DIR/<file name>.mdn"}}};
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
  std::optional<as2::As2Context> as2_context;  // loaded at the first AS2 capture
  std::optional<as4::As4Context> as4_context;  // at the first AS4 capture
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
    if (auto capture = as2::read_capture(bytes)) {
      // An archived AS2 request: through the AS2 receiver, as the server would.
      if (!as2_context) {
        as2_context = load_as2_context(args, *partners, err);
        if (!as2_context) return kUsage;
      }
      as2::Receiver receiver(*as2_context, gate, *store);
      as2::HttpAnswer answer = receiver.receive(*capture);
      const std::string id = "as2:" + capture->header("Message-ID");
      // The interchanges' documents are in their own log rows; an AS2 line counts none.
      print(out, json, {file, answer.partner, id, answer.outcome, answer.detail.substr(0, 500), -1});
      if (answer.outcome == "rejected" || answer.outcome == "conflict" || answer.outcome == "error") problems = true;
      if (!args.value("mdn-out").empty()) {
        std::filesystem::create_directories(args.value("mdn-out"), ec);
        std::ofstream mdn(args.value("mdn-out") + "/" + std::filesystem::path(file).filename().string() + ".mdn",
                          std::ios::binary);
        mdn << "HTTP " << answer.status << "\r\n" << as2::join_headers(answer.headers) << "\r\n" << answer.body;
      }
      continue;
    }
    if (auto capture = as2::read_as4_capture(bytes)) {
      // An archived AS4 request: through the AS4 receiver.
      if (!as4_context) {
        config::Gateway gw = config::Gateway::defaults();
        if (!args.value("config").empty()) {
          auto loaded = config::Gateway::load(args.value("config"));
          if (!loaded.is_ok()) {
            err << "edihub replay: " << loaded.status().message() << "\n";
            return kUsage;
          }
          gw = loaded.value();
        }
        as4_context = as4::As4Context{gw.as4_party_id, gw.as4_party_type, &*partners};
      }
      as4::Receiver receiver(*as4_context, gate, *store);
      as2::HttpAnswer answer = receiver.receive(*capture);
      print(out, json, {file, answer.partner, answer.message_id.empty() ? "" : "as4:" + answer.message_id,
                        answer.outcome, answer.detail.substr(0, 500), -1});
      if (answer.outcome == "rejected" || answer.outcome == "conflict" || answer.outcome == "error") problems = true;
      continue;
    }
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
