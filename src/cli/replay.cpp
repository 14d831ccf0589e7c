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

#include "src/cli/commands.h"
#include "src/cli/duration.h"
#include "src/cli/file_list.h"
#include "src/cli/store_args.h"
#include "src/common/files.h"
#include "src/common/partner_text.h"
#include "src/config/gateway.h"
#include "src/gate/heartbeat.h"
#include "src/protocols/peppol/network.h"
#include "src/replay/replay.h"

namespace edihub::cli {

namespace {

void print(std::ostream& out, bool json, const replay::Line& l) {
  if (json) {
    Poco::JSON::Object o(Poco::JSON_PRESERVE_KEY_ORDER);
    o.set("file", l.file);
    o.set("partner", l.partner.empty() ? Poco::Dynamic::Var() : Poco::Dynamic::Var(l.partner));
    o.set("message_id", l.message_id.empty() ? Poco::Dynamic::Var() : Poco::Dynamic::Var(l.message_id));
    o.set("outcome", std::string(outcome_name(l.outcome)));
    o.set("documents", l.documents < 0 ? Poco::Dynamic::Var() : Poco::Dynamic::Var(l.documents));
    if (!l.detail.empty()) o.set("detail", l.detail);
    o.stringify(out);
    out << std::endl;  // a line per result as it happens, for tail -f and pipes
    return;
  }
  out << l.file << ": " << outcome_name(l.outcome);
  if (!l.message_id.empty()) out << " " << l.message_id;
  if (!l.partner.empty()) out << " (partner " << l.partner << ")";
  if (l.outcome == Outcome::Processed && l.documents >= 0)
    out << ", " << l.documents << " document" << (l.documents == 1 ? "" : "s");
  if (!l.detail.empty()) out << ": " << partner_text(l.detail, 2000);
  out << std::endl;
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

// Our identities (for decryption, MDN signatures, the AS4 party), and the
// Peppol network (*network, kept by the caller as long as the settings).
Result<std::pair<as2::Settings, as4::Settings>> load_settings(const config::Gateway& gw,
                                                              const config::Partners& partners,
                                                              std::unique_ptr<peppol::PeppolNetwork>* network) {
  auto as2_settings = as2::Settings::from_config(gw, partners);
  if (!as2_settings.is_ok()) return as2_settings.status();
  auto as4_settings = as4::Settings::from_config(gw, partners);
  if (!as4_settings.is_ok()) return as4_settings.status();
  ASSIGN_OR_RETURN(*network, peppol::PeppolNetwork::from_config(gw, partners));
  as4_settings->network = network->get();
  return std::make_pair(std::move(as2_settings.value()), std::move(as4_settings.value()));
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
       duration_option("lease", "claim lease, 1s to 7d, default 5m: a crashed run's keys are taken over after it", 1000,
                       7 * 86400000LL),
       duration_option("wait", "how long to wait for a key another worker is handling, 0s to 1h, default 10s", 0,
                       3600000),
       {"config", "FILE",
        "gateway config: our identity and EDI ids, its store and partners (unless --db, "
        "--partners), its <documents> default (default: the demo identity)"},
       {"mdn-out", "DIR", "write the MDN of each AS2 capture to DIR/<file name>.mdn"}}};
  return spec;
}

namespace {

// The answer to an AS2 capture (status line, headers, body) as DIR/<file name>.mdn.
void write_answer(const std::string& dir, const std::string& file, const http::HttpAnswer& a, std::ostream& err) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string answer =
      "HTTP " + std::to_string(a.status) + "\r\n" + http::join_headers(a.headers) + "\r\n" + a.body;
  Status written = write_file_whole(dir, std::filesystem::path(file).filename().string() + ".mdn", answer);
  if (!written.is_ok()) err << "edihub replay: the MDN of " << file << ": " << written.message() << "\n";
}

// What this run queued (acknowledgments, document events) goes out only
// through an outbox worker: says so, and how.
void note_queued(store::Store& store, int64_t started_ms, const Args& command_line, std::ostream& err) {
  store::OutboxFilter pending;
  pending.state = "pending";
  pending.limit = 100000;
  Result<std::vector<store::OutboxEntry>> rows = store.list_outbox(pending);
  int64_t queued = 0;
  if (rows.is_ok())
    for (const auto& e : rows.value())
      if (e.created_at_ms >= started_ms) ++queued;
  if (queued > 0)
    err << "edihub replay: " << queued << " outbox row" << (queued == 1 ? " is" : "s are")
        << " queued (acknowledgments to partners, documents to the back office): a running `edihub serve` on this "
           "store delivers them, or `edihub outbox run"
        << (command_line.value("config").empty() ? "" : " --config " + command_line.value("config"))
        << (command_line.value("db").empty() ? "" : " --db " + command_line.value("db"))
        << (command_line.value("partners").empty() ? "" : " --partners " + command_line.value("partners")) << "` now\n";
}

}  // namespace

int run_replay(const Args& command_line, std::ostream& out, std::ostream& err) {
  gate::GateOptions options;
  // Checked by the option parser: durations within their range.
  if (auto lease = command_line.duration_ms("lease")) options.lease_ms = *lease;
  if (auto wait = command_line.duration_ms("wait")) options.inflight_wait_ms = *wait;
  std::optional<GatewayArgs> ga = gateway_args(command_line, err, "replay");
  if (!ga) return kUsage;
  const config::Gateway* gw = &ga->gateway;
  const Args& args = ga->args;
  Result<std::vector<std::string>> files = list_files(args.positional);
  if (!files.is_ok()) {
    err << "edihub replay: " << files.status().message() << "\n";
    return kUsage;
  }
  auto partners = load_partners_from(args, err, "replay");
  if (!partners) return kUsage;
  // Booked documents go where the server would send them.
  partners->default_documents(gw->documents);
  if (!args.value("partner").empty() && partners->find(args.value("partner")) == nullptr) {
    err << "edihub replay: unknown partner '" << args.value("partner") << "'\n";
    return kUsage;
  }
  int exit_code = kOk;
  auto store = open_store_from(args, err, "replay", &exit_code);
  if (!store) return exit_code;

  // Each run its own lease owner: if it is killed, its keys are taken over
  // once its heartbeat stops, not after the whole lease.
  options = gate::with_owner(options, gate::node_id("replay:" + std::to_string(getpid())));
  auto heartbeat = gate::Heartbeat::start(args.value("db", kDefaultDb), options);
  if (!heartbeat.is_ok()) {
    err << "edihub replay: " << heartbeat.status().message() << "\n";
    return kStoreUnavailable;
  }
  const bool json = args.flag("json");
  const Result<int64_t> started_ms = store->now_ms();
  gate::Gate gate(options);
  receivers::DirectLog log(*store);
  receivers::Context context;
  context.partners = &*partners;
  context.gate = &gate;
  context.log = &log;
  context.transport = "replay";
  context.ours = &gw->edi_ids;
  if (!args.value("partner").empty()) context.expected_partner = args.value("partner");
  std::unique_ptr<peppol::PeppolNetwork> network;
  replay::Replayer replayer(context, *store, [&] { return load_settings(*gw, *partners, &network); });

  bool problems = false, store_trouble = false;
  const std::string mdn_out = args.value("mdn-out");
  Progress progress(files->size());
  for (size_t i = 0; i < files->size(); ++i) {
    const std::string& file = (*files)[i];
    progress.tick(i);
    Status ran = replayer.run(file, [&](const replay::Line& l) {
      print(out, json, l);
      if (is_problem(l.outcome)) problems = true;
      if (l.outcome == Outcome::Error) store_trouble = true;
      if (l.answer && !mdn_out.empty()) write_answer(mdn_out, file, *l.answer, err);
    });
    if (!ran.is_ok()) {
      // The identities for a capture cannot be loaded: nothing else can work either.
      if (ran.code() == Code::Configuration) {
        err << "edihub replay: " << ran.message() << "\n";
        return kUsage;
      }
      print(out, json, {file, "", "", Outcome::Rejected, ran.message(), 0, std::nullopt});
      problems = true;
    }
  }
  if (started_ms.is_ok()) note_queued(*store, started_ms.value(), command_line, err);
  if (store_trouble) return kStoreUnavailable;
  return problems ? kProblems : kOk;
}

}  // namespace edihub::cli
