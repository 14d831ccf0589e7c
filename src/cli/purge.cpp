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

int run_purge(const Args& command_line, std::ostream& out, std::ostream& err) {
  // Every value was checked by the option parser (ranges, "never"): nothing
  // here reads an operator's typo as a number.
  std::optional<GatewayArgs> ga = gateway_args(command_line, err, "purge");
  if (!ga) return kUsage;
  const config::Gateway* gw = &ga->gateway;
  const Args& args = ga->args;
  const std::optional<int64_t> older_than = args.duration_ms("older-than");
  const int batch = static_cast<int>(*args.integer("batch", 1000));  // at most 1000000
  // nullopt: kept forever ("never").
  const std::optional<int64_t> archive_days =
      args.integer("archive-days", args.value("config").empty() ? 90 : gw->archive_retention_days);
  const std::optional<int64_t> outbox_days = args.integer("outbox-days", 30);
  // Retention comes from the partner profiles; with --older-than they are optional.
  std::optional<config::Partners> partners = config::Partners::load(args.value("partners", kDefaultPartners)).is_ok()
                                                 ? load_partners_from(args, err, "purge")
                                                 : std::nullopt;
  if (!partners && !older_than) {
    load_partners_from(args, err, "purge");  // prints why
    err << "edihub purge: without partner profiles, give --older-than\n";
    return kUsage;
  }
  int exit_code = kOk;
  auto store = open_store_from(args, err, "purge", &exit_code);
  if (!store) return exit_code;
  const bool dry_run = args.flag("dry-run");
  auto now = store->now_ms();
  std::vector<std::string> ids;
  if (!args.value("partner").empty()) {
    ids.push_back(args.value("partner"));
  } else {
    auto listed = store->partners_with_keys();
    if (!listed.is_ok()) {
      err << "edihub purge: " << listed.status().message() << "\n";
      return kStoreUnavailable;
    }
    ids = listed.value();
  }

  const auto started = std::chrono::steady_clock::now();
  Poco::JSON::Array::Ptr per_partner = new Poco::JSON::Array;
  int64_t total_deleted = 0, total_live = 0, total_receipts = 0, batches = 0;
  // Runs one kind of batch until a batch comes back short (or once, for a
  // dry run), pausing between batches so that waiting writers get in.
  auto drain = [&](const std::function<Result<int64_t>()>& one_batch) -> Result<int64_t> {
    int64_t total = 0;
    while (true) {
      ASSIGN_OR_RETURN(int64_t n, one_batch());
      ++batches;
      total += n;
      if (dry_run || n < batch) return total;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  };
  for (const auto& id : ids) {
    int days = kDefaultRetentionDays, receipt_days = std::min(7, kDefaultRetentionDays);
    if (partners)
      if (const config::Partner* p = partners->find(id)) {
        days = p->retention_days;
        receipt_days = p->receipt_retention_days;
      }
    store::PurgeRequest req;
    req.cutoff_ms = now.value() - (older_than ? *older_than : days * kDay);
    req.partner_id = id;
    req.batch = batch;
    req.dry_run = dry_run;
    int64_t deleted = 0, live = 0;
    while (true) {
      auto b = store->purge_keys(req);
      if (!b.is_ok()) {
        err << "edihub purge: " << b.status().message() << "\n";
        return kStoreUnavailable;
      }
      ++batches;
      deleted += b->deleted;
      live = b->kept_live;
      if (dry_run || b->deleted < batch) break;
      // Let waiting writers in between batches (they poll the lock every ms).
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    // Receipts past the receipt retention: the keys stay, their answers go.
    store::PurgeRequest receipts = req;
    receipts.cutoff_ms = now.value() - receipt_days * kDay;
    Result<int64_t> receipts_dropped = drain([&] { return store->purge_receipts(receipts); });
    if (!receipts_dropped.is_ok()) {
      err << "edihub purge: " << receipts_dropped.status().message() << "\n";
      return kStoreUnavailable;
    }
    const int64_t dropped = receipts_dropped.value();
    total_receipts += dropped;
    total_deleted += deleted;
    total_live += live;
    Poco::JSON::Object::Ptr o = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
    o->set("partner", id);
    o->set("retention", older_than ? args.value("older-than") : std::to_string(days) + "d");
    o->set("keys_deleted", deleted);
    o->set("keys_kept_live", live);
    o->set("receipt_retention", std::to_string(receipt_days) + "d");
    o->set("receipts_dropped", dropped);
    per_partner->add(o);
    if (!args.flag("json"))
      out << (dry_run ? "would delete " : "deleted ") << deleted << " keys of partner " << id << " older than "
          << (older_than ? args.value("older-than") : std::to_string(days) + "d")
          << (live ? ", kept " + std::to_string(live) + " with a live lease" : "") << "; "
          << (dry_run ? "would drop " : "dropped ") << dropped << " receipts older than " << receipt_days << "d\n";
  }
  // One kind of row older than `days` (or --older-than), in batches; none
  // when `days` is "never" (whatever --older-than says).
  auto purge_older = [&](std::optional<int64_t> days,
                         const std::function<Result<int64_t>(int64_t cutoff)>& purge) -> Result<int64_t> {
    if (!days) return int64_t{0};
    const int64_t cutoff = now.value() - (older_than ? *older_than : *days * kDay);
    return drain([&] { return purge(cutoff); });
  };
  Result<int64_t> messages_purged =
      purge_older(kMessageRetentionDays, [&](int64_t cutoff) { return store->purge_messages(cutoff, batch, dry_run); });
  // Archived requests (captures in the store), and outbox rows done with (delivered, cancelled).
  Result<int64_t> archives_purged =
      purge_older(archive_days, [&](int64_t cutoff) { return store->purge_captures(cutoff, batch, dry_run); });
  Result<int64_t> outbox_purged =
      purge_older(outbox_days, [&](int64_t cutoff) { return store->purge_outbox(cutoff, batch, dry_run); });
  for (const Result<int64_t>* r : {&messages_purged, &archives_purged, &outbox_purged})
    if (!r->is_ok()) {
      err << "edihub purge: " << r->status().message() << "\n";
      return kStoreUnavailable;
    }
  const int64_t messages = messages_purged.value(), outbox_rows = outbox_purged.value();
  int64_t archives = archives_purged.value();
  // Lease owners silent for a day that hold nothing (a row per process start).
  auto owners = store->purge_lease_owners(now.value() - kDay, dry_run);
  if (!owners.is_ok()) {
    err << "edihub purge: " << owners.status().message() << "\n";
    return kStoreUnavailable;
  }
  // Capture files of an older edihub, when asked for.
  if (const std::string dir = args.value("archive"); !dir.empty() && archive_days) {
    std::error_code ec;
    const auto cutoff = std::filesystem::file_time_type::clock::now() -
                        std::chrono::milliseconds(older_than ? *older_than : *archive_days * kDay);
    for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      if (!it->is_regular_file(ec) || it->path().extension() != ".as2") continue;
      if (it->last_write_time(ec) >= cutoff) continue;
      ++archives;
      if (!dry_run) std::filesystem::remove(it->path(), ec);
    }
    if (ec) {
      err << "edihub purge: " << dir << ": " << ec.message() << "\n";
      return kProblems;
    }
  }
  const int64_t ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  if (!dry_run) {
    // What it did, in the audit the console shows; /metrics reads when it last ran.
    const std::string result = "deleted " + std::to_string(total_deleted) + " keys, " + std::to_string(messages) +
                               " message-log rows, " + std::to_string(archives) + " archived requests, " +
                               std::to_string(outbox_rows) + " outbox rows; dropped " + std::to_string(total_receipts) +
                               " receipts; " + std::to_string(batches) + " batches, " + std::to_string(ms) + " ms";
    Result<int64_t> audited = store->console().audit({0, 0, "edihub purge", "purge", "store", result, ""});
    if (!audited.is_ok()) err << "edihub purge: done, but not audited: " << audited.status().message() << "\n";
  }
  if (args.flag("json")) {
    Poco::JSON::Object o(Poco::JSON_PRESERVE_KEY_ORDER);
    o.set("dry_run", dry_run);
    o.set("keys_deleted", total_deleted);
    o.set("keys_kept_live", total_live);
    o.set("receipts_dropped", total_receipts);
    o.set("messages_deleted", messages);
    o.set("archives_deleted", archives);
    o.set("outbox_deleted", outbox_rows);
    o.set("lease_owners_deleted", owners.value());
    o.set("batches", batches);
    o.set("milliseconds", ms);
    o.set("partners", per_partner);
    o.stringify(out);
    out << "\n";
  } else {
    out << (dry_run ? "would delete " : "deleted ") << messages << " message-log rows, " << archives
        << " archived requests, " << outbox_rows << " outbox rows; " << total_deleted << " keys in " << batches
        << " batches, " << ms << " ms\n";
  }
  return kOk;
}

}  // namespace edihub::cli
