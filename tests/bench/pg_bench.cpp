// The gate on PostgreSQL: new keys per second and duplicate-answer latency
// (p50/p99) through gate::pass_key at 1 and 8 writers, against the floor of
// the same statements with plain libpq in the same run (per message: BEGIN;
// INSERT ... ON CONFLICT DO NOTHING; the sequence upsert the gate's effect
// makes, as an acknowledgment number would; UPDATE to completed with the
// receipt; COMMIT; duplicates: one prepared point read). What the gate adds
// is its own: the read before the transaction (the retransmission's fast
// path) and the lock bound and clock at BEGIN. A benchmark program: it
// prints figures and never judges them (exit 1 only when an operation failed).
// Last, purge under load: 8 writers take new keys through the gate while
// `purge_keys` deletes --purge-keys old keys in batches of 1000; it prints each
// batch's time and the writers' latency while purge ran (p50/p99/max), which
// the design bounds by one batch.
//
//   pg_bench URI [--seconds N] [--keys N] [--purge-keys N]
//     URI: postgresql://user@host:port/db (tools/bench-pg starts a private cluster)
#include <libpq-fe.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "src/gate/pass.h"
#include "src/store/store.h"

using namespace edihub;
using Clock = std::chrono::steady_clock;

namespace {

const std::string kReceipt(300, 'r');
const std::string kHeaders = "Content-Type: application/edi-x12\r\n";

[[noreturn]] void die(const std::string& why) {
  std::fprintf(stderr, "pg_bench: %s\n", why.c_str());
  std::exit(1);
}

std::string sha(uint64_t n) {
  char buf[65];
  std::snprintf(buf, sizeof buf, "%064" PRIx64, n * 2654435761u + 1);
  return buf;
}

std::string key_id(int thread, uint64_t n) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "x12:W%02d:%012" PRIu64, thread, n);
  return buf;
}

struct Figures {
  double per_second = 0;
  int64_t p50_us = 0, p99_us = 0, max_us = 0;
};

// Runs `op(thread, n)` on `writers` threads for `seconds` (or, with `during`,
// for as long as `during` runs); latency per op.
Figures run(int writers, double seconds, const std::function<void(int, uint64_t)>& op,
            const std::function<void()>& during = nullptr) {
  std::atomic<bool> stop{false};
  std::vector<std::vector<int64_t>> lat(writers);
  std::vector<std::thread> threads;
  const auto start = Clock::now();
  for (int t = 0; t < writers; ++t)
    threads.emplace_back([&, t] {
      for (uint64_t n = 0; !stop.load(std::memory_order_relaxed); ++n) {
        const auto a = Clock::now();
        op(t, n);
        lat[t].push_back(std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - a).count());
      }
    });
  if (during)
    during();
  else
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  stop = true;
  for (auto& th : threads) th.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  std::vector<int64_t> all;
  for (auto& l : lat) all.insert(all.end(), l.begin(), l.end());
  std::sort(all.begin(), all.end());
  Figures f;
  f.per_second = all.size() / elapsed;
  if (!all.empty()) {
    f.p50_us = all[all.size() / 2];
    f.p99_us = all[std::min(all.size() - 1, all.size() * 99 / 100)];
    f.max_us = all.back();
  }
  return f;
}

// Plain libpq: the floor.
struct Pq {
  PGconn* c;
  explicit Pq(const std::string& uri) : c(PQconnectdb(uri.c_str())) {
    if (PQstatus(c) != CONNECTION_OK) die(PQerrorMessage(c));
    prepare("ins",
            "INSERT INTO idempotency_keys (partner_id, message_id, protocol, state, received_at, updated_at,"
            " lease_until, attempts, failures, payload_sha256, raw_sha256)"
            " VALUES ('bench', $1, 'x12', 'processing', 1, 1, 2, 1, 0, $2, $2) ON CONFLICT DO NOTHING");
    prepare("set",
            "UPDATE idempotency_keys SET state = 'completed', receipt_status = 200, receipt_headers = $2,"
            " receipt_body = $3, outcome = 'processed', lease_until = NULL"
            " WHERE partner_id = 'bench' AND message_id = $1 AND attempts = 1");
    prepare("seq",
            "INSERT INTO sequences (name, value) VALUES ($1, 1)"
            " ON CONFLICT (name) DO UPDATE SET value = sequences.value + 1 RETURNING value");
    prepare("get",
            "SELECT state, receipt_status, receipt_headers, receipt_body FROM idempotency_keys"
            " WHERE partner_id = 'bench' AND message_id = $1");
  }
  ~Pq() { PQfinish(c); }
  void prepare(const char* name, const char* sql) {
    PGresult* r = PQprepare(c, name, sql, 0, nullptr);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) die(PQresultErrorMessage(r));
    PQclear(r);
  }
  void command(const char* sql) {
    PGresult* r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) die(PQresultErrorMessage(r));
    PQclear(r);
  }
  int64_t scalar(const char* sql) {
    PGresult* r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) die(PQresultErrorMessage(r));
    const int64_t v = std::strtoll(PQgetvalue(r, 0, 0), nullptr, 10);
    PQclear(r);
    return v;
  }
  void exec(const char* name, std::vector<std::string> values, ExecStatusType expect) {
    std::vector<const char*> v;
    std::vector<int> lengths, formats;
    for (auto& s : values) {
      v.push_back(s.data());
      lengths.push_back(static_cast<int>(s.size()));
      formats.push_back(0);
    }
    PGresult* r = PQexecPrepared(c, name, static_cast<int>(v.size()), v.data(), lengths.data(), formats.data(), 1);
    if (PQresultStatus(r) != expect) die(PQresultErrorMessage(r));
    PQclear(r);
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) die("usage: pg_bench URI [--seconds N] [--keys N]");
  const std::string uri = argv[1];
  double seconds = 5;
  uint64_t keys = 100000, purge_keys = 200000;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--seconds") == 0) seconds = std::atof(argv[i + 1]);
    if (std::strcmp(argv[i], "--keys") == 0) keys = std::strtoull(argv[i + 1], nullptr, 10);
    if (std::strcmp(argv[i], "--purge-keys") == 0) purge_keys = std::strtoull(argv[i + 1], nullptr, 10);
  }
  auto open = [&] {
    auto s = store::open_store(uri);
    if (!s.is_ok()) die(s.status().message());
    return std::move(s.value());
  };
  open();  // the schema
  // Preload settled keys, so that new keys and duplicates run at that size.
  {
    Pq pq(uri);
    const std::string sql =
        "INSERT INTO idempotency_keys (partner_id, message_id, protocol, state, received_at, updated_at, attempts,"
        " failures, payload_sha256, raw_sha256, receipt_status, receipt_headers, receipt_body, outcome)"
        " SELECT 'bench', 'x12:PRE:' || lpad(g::text, 12, '0'), 'x12', 'completed', 1, 1, 1, 0,"
        " encode(sha256(convert_to(g::text, 'UTF8')), 'hex'),"
        " encode(sha256(convert_to(g::text, 'UTF8')), 'hex'), 200, 'Content-Type: application/edi-x12',"
        " convert_to(repeat('r', 300), 'UTF8'), 'processed'"
        " FROM generate_series(1, " +
        std::to_string(keys) + ") g ON CONFLICT DO NOTHING";
    pq.command(sql.c_str());
    pq.command("ANALYZE idempotency_keys");
  }
  std::printf("PostgreSQL gate, %" PRIu64 " settled keys preloaded, %.0f s per case\n", keys, seconds);
  std::printf("%-28s %8s %12s %10s %10s\n", "case", "writers", "ops/s", "p50 us", "p99 us");
  std::atomic<int> failures{0};
  std::string json = "{";
  for (int writers : {1, 8}) {
    // Floor: plain libpq, the same statements in one transaction per message.
    std::vector<std::unique_ptr<Pq>> conns;
    for (int t = 0; t < writers; ++t) conns.push_back(std::make_unique<Pq>(uri));
    Figures floor_new = run(writers, seconds, [&](int t, uint64_t n) {
      Pq& pq = *conns[t];
      const std::string id = "floor:" + std::to_string(writers) + ":" + key_id(t, n);
      pq.command("BEGIN");
      pq.exec("ins", {id, sha(n)}, PGRES_COMMAND_OK);
      pq.exec("seq", {"floor-ack-" + std::to_string(t)}, PGRES_TUPLES_OK);  // what the gate's effect does
      pq.exec("set", {id, kHeaders, kReceipt}, PGRES_COMMAND_OK);
      pq.command("COMMIT");
    });
    Figures floor_dup = run(writers, seconds, [&](int t, uint64_t n) {
      char id[48];
      std::snprintf(id, sizeof id, "x12:PRE:%012" PRIu64, 1 + (n * 7919 + uint64_t(t) * 104729) % keys);
      conns[t]->exec("get", {id}, PGRES_TUPLES_OK);
    });
    // edihub: gate::pass_key on the PostgreSQL store.
    std::vector<std::unique_ptr<store::Store>> stores;
    for (int t = 0; t < writers; ++t) stores.push_back(open());
    gate::Gate g{gate::GateOptions{}};
    Figures gate_new = run(writers, seconds, [&](int t, uint64_t n) {
      const std::string id = "gate:" + std::to_string(writers) + ":" + key_id(t, n);
      gate::KeyClaim c{{"bench", id}, store::PayloadDigest::from_hex(sha(n)), store::RawDigest::from_hex(sha(n))};
      gate::KeyOutcome out = gate::pass_key(g, *stores[t], c, [&](store::Transaction& tx) -> Result<store::Settlement> {
        Result<int64_t> seq = tx.next_sequence("bench-ack-" + std::to_string(t));
        if (!seq.is_ok()) return seq.status();
        return store::Settlement{store::KeyState::Completed, {200, kHeaders, kReceipt}, Outcome::Processed, ""};
      });
      if (out.outcome != Outcome::Processed && failures++ == 0) std::fprintf(stderr, "new: %s\n", out.detail.c_str());
    });
    Figures gate_dup = run(writers, seconds, [&](int t, uint64_t n) {
      const uint64_t k = 1 + (n * 7919 + uint64_t(t) * 104729) % keys;
      char id[48];
      std::snprintf(id, sizeof id, "x12:PRE:%012" PRIu64, k);
      const std::string content = std::to_string(k);  // what the preloaded digests are of
      gate::KeyClaim c{{"bench", id}, store::PayloadDigest::of(content), store::RawDigest::of(content)};
      gate::KeyOutcome out = gate::pass_key(g, *stores[t], c, [&](store::Transaction&) -> Result<store::Settlement> {
        return Status::invalid("a duplicate must not run its effect");
      });
      if (out.outcome != Outcome::Duplicate && failures++ == 0)
        std::fprintf(stderr, "duplicate: %s %s\n", std::string(outcome_name(out.outcome)).c_str(), out.detail.c_str());
    });
    auto row = [&](const char* name, const Figures& f) {
      std::printf("%-28s %8d %12.0f %10" PRId64 " %10" PRId64 "\n", name, writers, f.per_second, f.p50_us, f.p99_us);
    };
    row("new: libpq floor", floor_new);
    row("new: edihub gate", gate_new);
    row("duplicate: libpq floor", floor_dup);
    row("duplicate: edihub gate", gate_dup);
    std::printf("%-28s %8d %12.2f\n", "new: gate / floor", writers, gate_new.per_second / floor_new.per_second);
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  "%s\"w%d\":{\"new_floor\":%.0f,\"new_gate\":%.0f,\"dup_floor_p50_us\":%" PRId64
                  ",\"dup_floor_p99_us\":%" PRId64 ",\"dup_gate_p50_us\":%" PRId64 ",\"dup_gate_p99_us\":%" PRId64 "}",
                  writers == 1 ? "" : ",", writers, floor_new.per_second, gate_new.per_second, floor_dup.p50_us,
                  floor_dup.p99_us, gate_dup.p50_us, gate_dup.p99_us);
    json += buf;
  }
  const int64_t bytes_per_key =
      Pq(uri).scalar("SELECT pg_total_relation_size('idempotency_keys') / count(*) FROM idempotency_keys");
  std::printf("bytes per key: %" PRId64 " (the table with its indexes, receipts of 300 bytes)\n", bytes_per_key);
  if (purge_keys > 0) {
    // Old keys of another partner, then purge them while 8 writers take new keys.
    Pq(uri).command(("INSERT INTO idempotency_keys (partner_id, message_id, protocol, state, received_at, updated_at,"
                     " attempts, failures, payload_sha256, raw_sha256, receipt_status, receipt_headers, receipt_body,"
                     " outcome) SELECT 'old', 'x12:OLD:' || g, 'x12', 'completed', 1, 1, 1, 0, 'p', 'r', 200, '',"
                     " convert_to(repeat('r', 300), 'UTF8'), 'processed' FROM generate_series(1, " +
                     std::to_string(purge_keys) + ") g")
                        .c_str());
    auto purger = open();
    std::vector<std::unique_ptr<store::Store>> stores;
    for (int t = 0; t < 8; ++t) stores.push_back(open());
    gate::Gate g{gate::GateOptions{}};
    std::vector<int64_t> batch_us;
    store::PurgeRequest req;
    req.cutoff_ms = 2;
    req.partner_id = "old";
    req.batch = 1000;
    Figures during = run(
        8, 0,
        [&](int t, uint64_t n) {
          const std::string id = "purge:" + key_id(t, n);
          gate::KeyClaim c{{"bench", id}, store::PayloadDigest::from_hex(sha(n)), store::RawDigest::from_hex(sha(n))};
          gate::KeyOutcome out =
              gate::pass_key(g, *stores[t], c, [&](store::Transaction&) -> Result<store::Settlement> {
                return store::Settlement{store::KeyState::Completed, {200, kHeaders, kReceipt}, Outcome::Processed, ""};
              });
          if (out.outcome != Outcome::Processed && failures++ == 0)
            std::fprintf(stderr, "new during purge: %s\n", out.detail.c_str());
        },
        [&] {
          while (true) {
            const auto a = Clock::now();
            Result<store::PurgeBatch> b = purger->purge_keys(req);
            batch_us.push_back(std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - a).count());
            if (!b.is_ok()) die("purge: " + b.status().message());
            if (b->deleted < req.batch) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));  // what `edihub purge` does between batches
          }
        });
    std::vector<int64_t> sorted = batch_us;
    std::sort(sorted.begin(), sorted.end());
    std::printf("purge of %" PRIu64 " keys under 8 writers: %zu batches of 1000, batch p50 %" PRId64 " us, max %" PRId64
                " us\n",
                purge_keys, sorted.size(), sorted[sorted.size() / 2], sorted.back());
    std::printf("writers during purge: %.0f new keys/s, p50 %" PRId64 " us, p99 %" PRId64 " us, max %" PRId64
                " us (%.2f of the longest batch)\n",
                during.per_second, during.p50_us, during.p99_us, during.max_us,
                double(during.max_us) / double(sorted.back()));
    char buf[300];
    std::snprintf(buf, sizeof buf,
                  ",\"purge\":{\"keys\":%" PRIu64 ",\"batches\":%zu,\"batch_max_us\":%" PRId64
                  ",\"writer_p99_us\":%" PRId64 ",\"writer_max_us\":%" PRId64 "}",
                  purge_keys, sorted.size(), sorted.back(), during.p99_us, during.max_us);
    json += buf;
  }
  std::printf("%s,\"keys\":%" PRIu64 ",\"bytes_per_key\":%" PRId64 "}\n", json.c_str(), keys, bytes_per_key);
  return failures > 0 ? 1 : 0;
}
