// `edihub purge`: deletes settled idempotency keys past their partner's
// retention, and message-log rows past theirs, in short batches so that live
// traffic never waits long on it. Safe while the server runs.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <ostream>
#include <thread>

#include "src/cli/commands.h"
#include "src/cli/duration.h"
#include "src/cli/store_args.h"

namespace edihub::cli {

namespace {
constexpr int64_t kDay = 24LL * 3600 * 1000;
constexpr int kDefaultRetentionDays = 30;
constexpr int kMessageRetentionDays = 90;
constexpr int64_t kMaxDays = 36500;  // a century: anything longer is "never"
}  // namespace

const CommandSpec& purge_spec() {
  static const CommandSpec spec{
      "purge",
      "Deletes idempotency keys, log rows and archives past their retention, in batches.\n"
      "Settled keys older than each partner's retention (default 30 days), the receipts of\n"
      "kept keys older than its receipt retention (default 7 days: a later duplicate gets a\n"
      "fresh receipt saying so), message-log rows and archived requests older than 90 days;\n"
      "keys with a live lease stay. Safe while the server runs.",
      "",
      0,
      {db_option(),
       partners_option(),
       {"config", "FILE", "gateway config: its store, partners and archive retention (what serve uses)"},
       duration_option("older-than", "override every retention (keys, log rows, captures, outbox rows): 0s to 36500d",
                       0, kMaxDays * kDay),
       {"partner", "ID", "only this partner's keys"},
       integer_option("batch", "N", "keys deleted per transaction, 1 to 1000000, default 1000", 1, 1000000),
       integer_option("archive-days", "DAYS",
                      "retention of archived requests (captures in the store), 1 to 36500 or never; default the "
                      "config's <archive retention-days>, else 90",
                      1, kMaxDays, "never"),
       integer_option("outbox-days", "DAYS",
                      "retention of delivered and cancelled outbox rows, 1 to 36500 or never; default 30", 1, kMaxDays,
                      "never"),
       {"archive", "DIR", "also expire capture files an older edihub wrote to DIR (*.as2)"},
       {"dry-run", "", "count what would go, delete nothing"},
       {"json", "", "print the counts as one JSON object"}}};
  return spec;
}

namespace {

// One run of purge: the store, what the options said, and what it did.
class PurgeRun {
 public:
  PurgeRun(store::Store& store, const Args& args, int64_t now_ms)
      : store_(store),
        args_(args),
        now_(now_ms),
        older_than_(args.duration_ms("older-than")),
        batch_(static_cast<int>(*args.integer("batch", 1000))),  // checked: at most 1000000
        dry_run_(args.flag("dry-run")) {}

  // A partner's settled keys past its retention (`days`, or --older-than),
  // and the receipts of the kept ones past `receipt_days`.
  Status partner(const std::string& id, int days, int receipt_days, std::ostream& out) {
    store::PurgeRequest req;
    req.cutoff_ms = now_ - (older_than_ ? *older_than_ : days * kDay);
    req.partner_id = id;
    req.batch = batch_;
    req.dry_run = dry_run_;
    int64_t deleted = 0, live = 0;
    while (true) {
      ASSIGN_OR_RETURN(store::PurgeBatch b, store_.purge_keys(req));
      ++batches_;
      deleted += b.deleted;
      live = b.kept_live;
      if (dry_run_ || b.deleted < batch_) break;
      // Let waiting writers in between batches (they poll the lock every ms).
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    // Receipts past the receipt retention: the keys stay, their answers go.
    store::PurgeRequest receipts = req;
    receipts.cutoff_ms = now_ - receipt_days * kDay;
    ASSIGN_OR_RETURN(const int64_t dropped, drain([&] { return store_.purge_receipts(receipts); }));
    keys_ += deleted;
    live_ += live;
    receipts_ += dropped;
    const std::string retention = older_than_ ? args_.value("older-than") : std::to_string(days) + "d";
    Poco::JSON::Object::Ptr o = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
    o->set("partner", id);
    o->set("retention", retention);
    o->set("keys_deleted", deleted);
    o->set("keys_kept_live", live);
    o->set("receipt_retention", std::to_string(receipt_days) + "d");
    o->set("receipts_dropped", dropped);
    per_partner_->add(o);
    if (!args_.flag("json"))
      out << (dry_run_ ? "would delete " : "deleted ") << deleted << " keys of partner " << id << " older than "
          << retention << (live ? ", kept " + std::to_string(live) + " with a live lease" : "") << "; "
          << (dry_run_ ? "would drop " : "dropped ") << dropped << " receipts older than " << receipt_days << "d\n";
    return Status::ok();
  }

  // One kind of row older than `days` (or --older-than), in batches; none
  // when `days` is "never" (whatever --older-than says).
  Result<int64_t> older(std::optional<int64_t> days, const std::function<Result<int64_t>(int64_t, int, bool)>& purge) {
    if (!days) return int64_t{0};
    const int64_t cutoff = now_ - (older_than_ ? *older_than_ : *days * kDay);
    return drain([&] { return purge(cutoff, batch_, dry_run_); });
  }

  // Capture files an older edihub wrote under `dir` (*.as2) past the retention.
  Result<int64_t> files(const std::string& dir, int64_t days) const {
    std::error_code ec;
    int64_t n = 0;
    const auto cutoff = std::filesystem::file_time_type::clock::now() -
                        std::chrono::milliseconds(older_than_ ? *older_than_ : days * kDay);
    for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      if (!it->is_regular_file(ec) || it->path().extension() != ".as2") continue;
      if (it->last_write_time(ec) >= cutoff) continue;
      ++n;
      if (!dry_run_) std::filesystem::remove(it->path(), ec);
    }
    if (ec) return Status::invalid(dir + ": " + ec.message());
    return n;
  }

  struct Counts {
    int64_t messages = 0, archives = 0, outbox = 0, owners = 0;
  };
  // The audit row (not for a dry run) and the report, text or JSON.
  void report(const Counts& c, int64_t ms, std::ostream& out, std::ostream& err) {
    if (!dry_run_) {
      // What it did, in the audit the console shows; /metrics reads when it last ran.
      const std::string result = "deleted " + std::to_string(keys_) + " keys, " + std::to_string(c.messages) +
                                 " message-log rows, " + std::to_string(c.archives) + " archived requests, " +
                                 std::to_string(c.outbox) + " outbox rows; dropped " + std::to_string(receipts_) +
                                 " receipts; " + std::to_string(batches_) + " batches, " + std::to_string(ms) + " ms";
      Result<int64_t> audited = store_.console().audit({0, 0, "edihub purge", "purge", "store", result, ""});
      if (!audited.is_ok()) err << "edihub purge: done, but not audited: " << audited.status().message() << "\n";
    }
    if (!args_.flag("json")) {
      out << (dry_run_ ? "would delete " : "deleted ") << c.messages << " message-log rows, " << c.archives
          << " archived requests, " << c.outbox << " outbox rows; " << keys_ << " keys in " << batches_ << " batches, "
          << ms << " ms\n";
      return;
    }
    Poco::JSON::Object o(Poco::JSON_PRESERVE_KEY_ORDER);
    o.set("dry_run", dry_run_);
    o.set("keys_deleted", keys_);
    o.set("keys_kept_live", live_);
    o.set("receipts_dropped", receipts_);
    o.set("messages_deleted", c.messages);
    o.set("archives_deleted", c.archives);
    o.set("outbox_deleted", c.outbox);
    o.set("lease_owners_deleted", c.owners);
    o.set("batches", batches_);
    o.set("milliseconds", ms);
    o.set("partners", per_partner_);
    o.stringify(out);
    out << "\n";
  }

  bool dry_run() const { return dry_run_; }
  int64_t now() const { return now_; }

 private:
  // Runs one kind of batch until a batch comes back short (or once, for a
  // dry run), pausing between batches so that waiting writers get in.
  Result<int64_t> drain(const std::function<Result<int64_t>()>& one_batch) {
    int64_t total = 0;
    while (true) {
      ASSIGN_OR_RETURN(int64_t n, one_batch());
      ++batches_;
      total += n;
      if (dry_run_ || n < batch_) return total;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }

  store::Store& store_;
  const Args& args_;
  const int64_t now_;
  const std::optional<int64_t> older_than_;
  const int batch_;
  const bool dry_run_;
  int64_t keys_ = 0, live_ = 0, receipts_ = 0, batches_ = 0;
  Poco::JSON::Array::Ptr per_partner_ = new Poco::JSON::Array;
};

}  // namespace

int run_purge(const Args& command_line, std::ostream& out, std::ostream& err) {
  // Every value was checked by the option parser (ranges, "never"): nothing
  // here reads an operator's typo as a number.
  std::optional<GatewayArgs> ga = gateway_args(command_line, err, "purge");
  if (!ga) return kUsage;
  const Args& args = ga->args;
  // nullopt: kept forever ("never").
  const std::optional<int64_t> archive_days =
      args.integer("archive-days", args.value("config").empty() ? 90 : ga->gateway.archive_retention_days);
  const std::optional<int64_t> outbox_days = args.integer("outbox-days", 30);
  // Retention comes from the partner profiles; with --older-than they are optional.
  std::optional<config::Partners> partners = config::Partners::load(args.value("partners", kDefaultPartners)).is_ok()
                                                 ? load_partners_from(args, err, "purge")
                                                 : std::nullopt;
  if (!partners && !args.duration_ms("older-than")) {
    load_partners_from(args, err, "purge");  // prints why
    err << "edihub purge: without partner profiles, give --older-than\n";
    return kUsage;
  }
  int exit_code = kOk;
  auto store = open_store_from(args, err, "purge", &exit_code);
  if (!store) return exit_code;
  Result<int64_t> now = store->now_ms();
  Result<std::vector<std::string>> ids = args.value("partner").empty()
                                             ? store->partners_with_keys()
                                             : Result<std::vector<std::string>>({args.value("partner")});
  if (!now.is_ok() || !ids.is_ok()) {
    err << "edihub purge: " << (now.is_ok() ? ids.status() : now.status()).message() << "\n";
    return kStoreUnavailable;
  }
  const auto started = std::chrono::steady_clock::now();
  PurgeRun run(*store, args, now.value());
  auto failed = [&](const Status& s) {
    err << "edihub purge: " << s.message() << "\n";
    return kStoreUnavailable;
  };
  for (const auto& id : ids.value()) {
    int days = kDefaultRetentionDays, receipt_days = std::min(7, kDefaultRetentionDays);
    if (const config::Partner* p = partners ? partners->find(id) : nullptr) {
      days = p->retention.days;
      receipt_days = p->retention.receipt_days;
    }
    if (Status s = run.partner(id, days, receipt_days, out); !s.is_ok()) return failed(s);
  }
  using PurgeFn = std::function<Result<int64_t>(int64_t, int, bool)>;
  Result<int64_t> messages = run.older(
      kMessageRetentionDays, PurgeFn([&](int64_t c, int b, bool d) { return store->purge_messages(c, b, d); }));
  // Archived requests (captures in the store), and outbox rows done with (delivered, cancelled).
  Result<int64_t> archives =
      run.older(archive_days, PurgeFn([&](int64_t c, int b, bool d) { return store->purge_captures(c, b, d); }));
  Result<int64_t> outbox =
      run.older(outbox_days, PurgeFn([&](int64_t c, int b, bool d) { return store->purge_outbox(c, b, d); }));
  // Lease owners silent for a day that hold nothing (a row per process start).
  Result<int64_t> owners = store->purge_lease_owners(run.now() - kDay, run.dry_run());
  for (const Result<int64_t>* r : {&messages, &archives, &outbox, &owners})
    if (!r->is_ok()) return failed(r->status());
  PurgeRun::Counts counts{messages.value(), archives.value(), outbox.value(), owners.value()};
  // Capture files of an older edihub, when asked for.
  if (const std::string dir = args.value("archive"); !dir.empty() && archive_days) {
    Result<int64_t> files = run.files(dir, *archive_days);
    if (!files.is_ok()) {
      err << "edihub purge: " << files.status().message() << "\n";
      return kProblems;
    }
    counts.archives += files.value();
  }
  const int64_t ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  run.report(counts, ms, out, err);
  return kOk;
}

}  // namespace edihub::cli
