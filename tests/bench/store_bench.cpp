// Store throughput and latency: new-key claims+settles per second and
// duplicate answers per second through gate::pass_key on the SQLite store, at 1 and
// 8 concurrent writers, with synchronous FULL and NORMAL, against the plain
// sqlite3 C API doing the same work in one transaction per message (the floor
// of this design); then `edihub purge`'s loop on a large table with a
// concurrent writer, and the latency that purge added to it.
//
// A benchmark program, not a test: it prints figures (a table per section and
// one final JSON line) and never judges them. Exit status 1 only when an
// operation failed (a figure built on errors is not a figure).
//
//   store_bench [--seconds N] [--keys N] [--purge-keys N] [--purge-sync full|normal]
//               [--dir DIR] [--only new|dup|purge] [--sync full|normal] [--writers N] [--quick]
//
// --only/--sync/--writers narrow the run (e.g. to profile one case); the
// default runs everything.
//
// New-key implementations, each on a fresh copy of the same preloaded database:
//   floor_capi_1tx     sqlite3 C API, per message BEGIN IMMEDIATE; INSERT ... ON
//                      CONFLICT DO NOTHING; UPDATE to completed; COMMIT
//   capi_edihub_stmts  sqlite3 C API issuing the statements claim + settle issue
//                      (two write transactions), all prepared once
//   edihub_gate        gate::pass_key on the SQLite store, the effect takes a
//                      sequence number and returns a 300-byte receipt
//   edihub_gate+log    the same plus the message-log row inside the transaction, as the intake does
// Duplicates: capi_select (one prepared point read), edihub_gate (gate::pass_key of
// a settled key), edihub_gate+log (plus the intake's message-log row).
#include <fcntl.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "src/gate/pass.h"
#include "src/store/store.h"

namespace {

using namespace edihub;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

constexpr const char* kPartner = "P1";
constexpr int64_t kDayMs = 24LL * 3600 * 1000;

int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int64_t ns_since(Clock::time_point t0, Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t - t0).count();
}

// A 64-hex-digit stand-in for a SHA-256, deterministic in (seed, n).
std::string fake_sha(uint64_t seed, uint64_t n) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ULL ^ (n + 0x632BE59BD9B4E019ULL);
  char out[65];
  for (int i = 0; i < 4; ++i) {
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    std::snprintf(out + i * 16, 17, "%016" PRIx64, x);
  }
  return std::string(out, 64);
}

const std::string& receipt_body() {  // ~300 bytes, like a small MDN / 997
  static const std::string body = [] {
    std::string b = "ISA*00*          *00*          *ZZ*EDIHUB         *ZZ*PARTNER        *";
    while (b.size() < 300) b += "AK1*SH*1234~AK2*856*0001~AK5*A~";
    b.resize(300);
    return b;
  }();
  return body;
}
const char* kReceiptHeaders = "Content-Type: application/edi-x12\r\n";

std::string preload_id(int64_t i) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "x12:PRELOAD:%010" PRId64, i);
  return buf;
}

// ---------------------------------------------------------------- sqlite3 C API helpers

struct Db {
  sqlite3* db = nullptr;
  ~Db() {
    if (db) sqlite3_close_v2(db);
  }
};

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "store_bench: %s\n", what.c_str());
  std::exit(2);
}

void exec(sqlite3* db, const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string e = err ? err : "?";
    sqlite3_free(err);
    die(sql + ": " + e);
  }
}

sqlite3_stmt* prepare(sqlite3* db, const char* sql) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, nullptr) != SQLITE_OK)
    die(std::string("prepare: ") + sql + ": " + sqlite3_errmsg(db));
  return st;
}

struct Stmt {
  sqlite3_stmt* st = nullptr;
  Stmt() = default;
  Stmt(sqlite3* db, const char* sql) : st(prepare(db, sql)) {}
  Stmt(const Stmt&) = delete;
  Stmt& operator=(Stmt&& o) noexcept {
    std::swap(st, o.st);
    return *this;
  }
  ~Stmt() {
    if (st) sqlite3_finalize(st);
  }
  void text(int i, const std::string& s) { sqlite3_bind_text(st, i, s.data(), int(s.size()), SQLITE_STATIC); }
  void blob(int i, const std::string& s) { sqlite3_bind_blob(st, i, s.data(), int(s.size()), SQLITE_STATIC); }
  void i64(int i, int64_t v) { sqlite3_bind_int64(st, i, v); }
  // Steps to the end (or the first row); returns the last result code.
  int run() {
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc;
  }
};

// Opens a connection with the store's pragmas.
void open_like_store(Db& d, const std::string& path, const std::string& sync, int busy_ms = 30000) {
  if (sqlite3_open_v2(path.c_str(), &d.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI, nullptr) !=
      SQLITE_OK)
    die("open " + path + ": " + (d.db ? sqlite3_errmsg(d.db) : "?"));
  sqlite3_busy_timeout(d.db, busy_ms);
  exec(d.db, "PRAGMA journal_mode = WAL");
  exec(d.db, "PRAGMA synchronous = " + sync);
  exec(d.db, "PRAGMA foreign_keys = ON");
}

void fsync_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

// Creates `path` with the store's schema (a Store opened once runs the
// migrations), then inserts n settled keys of partner P1 in one transaction;
// received_at runs from `received_from` by `step` ms (oldest first, in rowid order).
void create_preloaded(const std::string& path, int64_t n, int64_t received_from, int64_t step) {
  {
    auto s = store::open_store("sqlite:" + path);
    if (!s.is_ok()) die("open_store " + path + ": " + s.status().message());
  }
  Db d;
  if (sqlite3_open_v2(path.c_str(), &d.db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) die("reopen " + path);
  exec(d.db, "PRAGMA journal_mode = OFF");
  exec(d.db, "PRAGMA synchronous = OFF");
  exec(d.db, "PRAGMA cache_size = -262144");
  exec(d.db, "BEGIN");
  {
    Stmt ins(d.db,
             "INSERT INTO idempotency_keys (partner_id, message_id, protocol, state, received_at,"
             " updated_at, lease_until, attempts, failures, payload_sha256, raw_sha256, receipt_status,"
             " receipt_headers, receipt_body, outcome, error)"
             " VALUES (?1, ?2, 'x12', 'completed', ?3, ?3, NULL, 1, 0, ?4, ?4, 200, ?5, ?6, 'processed', '')");
    const std::string partner = kPartner, headers = kReceiptHeaders;
    ins.text(1, partner);
    ins.text(5, headers);
    ins.blob(6, receipt_body());
    for (int64_t i = 0; i < n; ++i) {
      std::string id = preload_id(i), sha = fake_sha(1, uint64_t(i));
      ins.text(2, id);
      ins.i64(3, received_from + i * step);
      ins.text(4, sha);
      if (ins.run() != SQLITE_DONE) die(std::string("preload insert: ") + sqlite3_errmsg(d.db));
    }
  }
  exec(d.db, "COMMIT");
  exec(d.db, "PRAGMA journal_mode = WAL");
  sqlite3_close_v2(d.db);
  d.db = nullptr;
  fsync_file(path);
}

void remove_db(const std::string& path) {
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(path + suffix, ec);
}

// ---------------------------------------------------------------- statistics

struct Stats {
  int64_t ops = 0, errors = 0;
  double seconds = 0, ops_per_s = 0, p50_us = 0, p99_us = 0, max_us = 0, mean_us = 0;
};

Stats summarize(std::vector<int64_t> lat_ns, int64_t errors, double seconds) {
  Stats s;
  s.ops = int64_t(lat_ns.size());
  s.errors = errors;
  s.seconds = seconds;
  s.ops_per_s = seconds > 0 ? double(s.ops) / seconds : 0;
  if (lat_ns.empty()) return s;
  std::sort(lat_ns.begin(), lat_ns.end());
  auto pct = [&](double p) {
    size_t i = size_t(p * double(lat_ns.size() - 1) + 0.5);
    return double(lat_ns[std::min(i, lat_ns.size() - 1)]) / 1000.0;
  };
  s.p50_us = pct(0.50);
  s.p99_us = pct(0.99);
  s.max_us = double(lat_ns.back()) / 1000.0;
  double sum = 0;
  for (int64_t v : lat_ns) sum += double(v);
  s.mean_us = sum / double(lat_ns.size()) / 1000.0;
  return s;
}

// ---------------------------------------------------------------- workers

// One writer: its own connection, one operation per call.
struct Worker {
  virtual ~Worker() = default;
  // false on an error (described in *err).
  virtual bool op(uint64_t n, std::string* err) = 0;
};

struct NewKey {
  std::string id, sha;
};
NewKey new_key(int thread, uint64_t n) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "x12:W%02d:%012" PRIu64, thread, n);
  return {buf, fake_sha(100 + uint64_t(thread), n)};
}

// The user path: gate::pass_key with an effect that takes an ack control number
// and returns a ~300-byte receipt. with_log adds the message-log row the
// interchange intake writes in the same transaction.
class GateNewWorker : public Worker {
 public:
  GateNewWorker(std::unique_ptr<store::Store> s, gate::Gate& g, int thread, bool with_log)
      : store_(std::move(s)), gate_(g), thread_(thread), with_log_(with_log) {}
  bool op(uint64_t n, std::string* err) override {
    NewKey k = new_key(thread_, n);
    gate::KeyClaim req{{kPartner, k.id}, store::PayloadDigest::from_hex(k.sha), store::RawDigest::from_hex(k.sha)};
    const bool with_log = with_log_;
    gate::KeyOutcome out =
        gate::pass_key(gate_, *store_, req, [&](store::Transaction& tx) -> Result<store::Settlement> {
          Result<int64_t> seq = tx.next_sequence("bench-ack");
          if (!seq.is_ok()) return seq.status();
          if (with_log) {  // the intake's message-log row, committed with the effect
            store::MessageLog m;
            m.partner_id = kPartner;
            m.protocol = "x12";
            m.transport = "replay";
            m.transport_id = "bench";
            m.message_id = k.id;
            m.outcome = Outcome::Processed;
            m.bytes = 2000;
            m.documents = 1;
            Status logged = tx.log(m);
            if (!logged.is_ok()) return logged;
          }
          store::Settlement s;
          s.state = store::KeyState::Completed;
          s.receipt = {200, kReceiptHeaders, receipt_body()};
          s.outcome = Outcome::Processed;
          return s;
        });
    if (out.outcome != Outcome::Processed) {
      *err = std::string(outcome_name(out.outcome)) + ": " + out.detail;
      return false;
    }
    return true;
  }

 private:
  std::unique_ptr<store::Store> store_;
  gate::Gate& gate_;
  int thread_;
  bool with_log_;
};

// A retransmission of a settled key, chosen at random: the stored receipt back.
class GateDupWorker : public Worker {
 public:
  GateDupWorker(std::unique_ptr<store::Store> s, gate::Gate& g, int64_t keys, uint64_t seed, bool with_log)
      : store_(std::move(s)), gate_(g), pick_(0, keys - 1), rng_(seed), with_log_(with_log) {}
  bool op(uint64_t, std::string* err) override {
    int64_t i = pick_(rng_);
    const std::string sha = fake_sha(1, uint64_t(i));
    gate::KeyClaim req{{kPartner, preload_id(i)}, store::PayloadDigest::from_hex(sha), store::RawDigest::from_hex(sha)};
    gate::KeyOutcome out = gate::pass_key(gate_, *store_, req, [](store::Transaction&) -> Result<store::Settlement> {
      return Status::invalid("the effect ran for a duplicate");
    });
    if (out.outcome != Outcome::Duplicate || out.receipt.body.size() != receipt_body().size()) {
      *err = std::string(outcome_name(out.outcome)) + ": " + out.detail;
      return false;
    }
    if (with_log_) {  // the intake logs a duplicate too, before answering
      store::MessageLog m;
      m.partner_id = kPartner;
      m.protocol = "x12";
      m.transport = "replay";
      m.transport_id = "bench";
      m.message_id = req.key.message_id;
      m.outcome = Outcome::Duplicate;
      m.detail = "already processed: answered with the stored acknowledgment";
      m.bytes = 2000;
      Status s = store_->log({m});
      if (!s.is_ok()) {
        *err = "log: " + s.message();
        return false;
      }
    }
    return true;
  }

 private:
  std::unique_ptr<store::Store> store_;
  gate::Gate& gate_;
  std::uniform_int_distribution<int64_t> pick_;
  std::mt19937_64 rng_;
  bool with_log_;
};

// A worker on the C API, with the store's connection settings and the
// transaction statements prepared once.
class CapiWriteWorker : public Worker {
 protected:
  CapiWriteWorker(const std::string& path, const std::string& sync, int thread) : thread_(thread) {
    open_like_store(d_, path, sync);
    begin_ = Stmt(d_.db, "BEGIN IMMEDIATE");
    commit_ = Stmt(d_.db, "COMMIT");
    rollback_ = Stmt(d_.db, "ROLLBACK");
  }
  // Reports the step that failed and rolls back an open transaction.
  bool fail(const char* what, std::string* err) {
    *err = std::string(what) + ": " + sqlite3_errmsg(d_.db);
    if (!sqlite3_get_autocommit(d_.db)) rollback_.run();
    return false;
  }
  Db d_;
  int thread_;
  Stmt begin_, commit_, rollback_;
};

// The floor: one transaction per message, INSERT ... ON CONFLICT DO NOTHING
// then UPDATE to completed with the receipt, prepared statements reused.
class FloorWorker : public CapiWriteWorker {
 public:
  FloorWorker(const std::string& path, const std::string& sync, int thread) : CapiWriteWorker(path, sync, thread) {
    insert_ = Stmt(d_.db,
                   "INSERT INTO idempotency_keys (partner_id, message_id, protocol, state, received_at,"
                   " updated_at, lease_until, attempts, failures, payload_sha256, raw_sha256)"
                   " VALUES (?1, ?2, 'x12', 'processing', ?3, ?3, ?4, 1, 0, ?5, ?5) ON CONFLICT DO NOTHING");
    update_ = Stmt(d_.db,
                   "UPDATE idempotency_keys SET state = 'completed', receipt_status = 200, receipt_headers = ?1,"
                   " receipt_body = ?2, outcome = 'processed', error = '', lease_until = NULL, updated_at = ?3"
                   " WHERE partner_id = ?4 AND message_id = ?5 AND state = 'processing' AND attempts = 1");
  }
  bool op(uint64_t n, std::string* err) override {
    NewKey k = new_key(thread_, n);
    const std::string partner = kPartner, headers = kReceiptHeaders;
    int64_t now = wall_ms();
    if (begin_.run() != SQLITE_DONE) return fail("begin", err);
    insert_.text(1, partner);
    insert_.text(2, k.id);
    insert_.i64(3, now);
    insert_.i64(4, now + 300000);
    insert_.text(5, k.sha);
    if (insert_.run() != SQLITE_DONE || sqlite3_changes(d_.db) != 1) return fail("insert", err);
    update_.text(1, headers);
    update_.blob(2, receipt_body());
    update_.i64(3, wall_ms());
    update_.text(4, partner);
    update_.text(5, k.id);
    if (update_.run() != SQLITE_DONE || sqlite3_changes(d_.db) != 1) return fail("update", err);
    if (commit_.run() != SQLITE_DONE) return fail("commit", err);
    return true;
  }

 private:
  Stmt insert_, update_;
};

// The statements edihub's claim + settle issue today, on the C API with every
// statement prepared once: separates the cost of the design (two write
// transactions, the reads, the sequence) from the cost of POCO.
class ShapeWorker : public CapiWriteWorker {
 public:
  ShapeWorker(const std::string& path, const std::string& sync, int thread) : CapiWriteWorker(path, sync, thread) {
    select_ = Stmt(d_.db,
                   "SELECT protocol, state, received_at, COALESCE(lease_until, 0), attempts, failures,"
                   " payload_sha256, raw_sha256, COALESCE(outcome, ''), COALESCE(error, ''),"
                   " COALESCE(receipt_status, 0), COALESCE(receipt_headers, ''), COALESCE(receipt_body, x'')"
                   " FROM idempotency_keys WHERE partner_id = ?1 AND message_id = ?2 LIMIT 1");
    insert_ = Stmt(d_.db,
                   "INSERT INTO idempotency_keys (partner_id, message_id, protocol, state, received_at,"
                   " updated_at, lease_until, attempts, failures, payload_sha256, raw_sha256)"
                   " VALUES (?1, ?2, ?3, 'processing', ?4, ?4, ?5, 1, 0, ?6, ?7) ON CONFLICT DO NOTHING");
    seq_up_ = Stmt(d_.db,
                   "INSERT INTO sequences (name, value) VALUES (?1, 1)"
                   " ON CONFLICT (name) DO UPDATE SET value = value + 1");
    seq_get_ = Stmt(d_.db, "SELECT value FROM sequences WHERE name = ?1");
    update_ = Stmt(d_.db,
                   "UPDATE idempotency_keys SET state = ?1, receipt_status = ?2, receipt_headers = ?3,"
                   " receipt_body = ?4, outcome = ?5, error = ?6, lease_until = NULL, updated_at = ?7,"
                   " failures = failures + ?8"
                   " WHERE partner_id = ?9 AND message_id = ?10 AND state = 'processing' AND attempts = ?11");
  }
  bool op(uint64_t n, std::string* err) override {
    NewKey k = new_key(thread_, n);
    const std::string partner = kPartner, headers = kReceiptHeaders, protocol = "x12", seq = "bench-ack",
                      state = "completed", outcome = "processed", empty;
    // claim: the fast-path read (a miss), then the insert in its own transaction.
    select_.text(1, partner);
    select_.text(2, k.id);
    if (select_.run() != SQLITE_DONE) return fail("select (claim)", err);
    if (begin_.run() != SQLITE_DONE) return fail("begin (claim)", err);
    int64_t now = wall_ms();
    insert_.text(1, partner);
    insert_.text(2, k.id);
    insert_.text(3, protocol);
    insert_.i64(4, now);
    insert_.i64(5, now + 300000);
    insert_.text(6, k.sha);
    insert_.text(7, k.sha);
    if (insert_.run() != SQLITE_DONE || sqlite3_changes(d_.db) != 1) return fail("insert", err);
    if (commit_.run() != SQLITE_DONE) return fail("commit (claim)", err);
    // settle: re-read under the write lock, the effect (sequence), the update.
    if (begin_.run() != SQLITE_DONE) return fail("begin (settle)", err);
    if (sqlite3_step(select_.st) != SQLITE_ROW) {
      sqlite3_reset(select_.st);
      return fail("select (settle)", err);
    }
    sqlite3_reset(select_.st);
    seq_up_.text(1, seq);
    if (seq_up_.run() != SQLITE_DONE) return fail("sequence", err);
    seq_get_.text(1, seq);
    if (seq_get_.run() != SQLITE_ROW) return fail("sequence read", err);
    update_.text(1, state);
    update_.i64(2, 200);
    update_.text(3, headers);
    update_.blob(4, receipt_body());
    update_.text(5, outcome);
    update_.text(6, empty);
    update_.i64(7, wall_ms());
    update_.i64(8, 0);
    update_.text(9, partner);
    update_.text(10, k.id);
    update_.i64(11, 1);
    if (update_.run() != SQLITE_DONE || sqlite3_changes(d_.db) != 1) return fail("update", err);
    if (commit_.run() != SQLITE_DONE) return fail("commit (settle)", err);
    return true;
  }

 private:
  Stmt select_, insert_, seq_up_, seq_get_, update_;
};

// The duplicate floor: one prepared point read of the stored receipt.
class CapiDupWorker : public Worker {
 public:
  CapiDupWorker(const std::string& path, const std::string& sync, int64_t keys, uint64_t seed)
      : pick_(0, keys - 1), rng_(seed) {
    open_like_store(d_, path, sync);
    select_ = Stmt(d_.db,
                   "SELECT state, payload_sha256, receipt_status, receipt_headers, receipt_body"
                   " FROM idempotency_keys WHERE partner_id = ?1 AND message_id = ?2");
  }
  bool op(uint64_t, std::string* err) override {
    int64_t i = pick_(rng_);
    const std::string partner = kPartner, id = preload_id(i), sha = fake_sha(1, uint64_t(i));
    select_.text(1, partner);
    select_.text(2, id);
    bool ok = sqlite3_step(select_.st) == SQLITE_ROW &&
              std::strcmp(reinterpret_cast<const char*>(sqlite3_column_text(select_.st, 0)), "completed") == 0 &&
              sha == reinterpret_cast<const char*>(sqlite3_column_text(select_.st, 1));
    std::string body;
    if (ok) {
      body.assign(static_cast<const char*>(sqlite3_column_blob(select_.st, 4)),
                  size_t(sqlite3_column_bytes(select_.st, 4)));
    }
    sqlite3_reset(select_.st);
    if (!ok || body.size() != receipt_body().size()) {
      *err = std::string("duplicate read: ") + sqlite3_errmsg(d_.db);
      return false;
    }
    return true;
  }

 private:
  Db d_;
  Stmt select_;
  std::uniform_int_distribution<int64_t> pick_;
  std::mt19937_64 rng_;
};

// ---------------------------------------------------------------- the timed runner

struct Run {
  std::string section, impl, sync;
  int writers = 0;
  Stats stats;
  std::string first_error;
};

// Runs each worker on its own thread for `seconds`, from a common start.
Run run_timed(std::vector<std::unique_ptr<Worker>> workers, double seconds) {
  const size_t w = workers.size();
  std::vector<std::vector<int64_t>> lat(w);
  std::vector<int64_t> errors(w, 0);
  std::vector<std::string> first_error(w);
  std::atomic<bool> go{false};
  std::atomic<int> ready{0};
  Clock::time_point start, deadline;
  std::vector<Clock::time_point> ended(w);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < w; ++t) {
    threads.emplace_back([&, t] {
      lat[t].reserve(1 << 16);
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      uint64_t n = 0;
      std::string err;
      while (true) {
        auto a = Clock::now();
        if (a >= deadline) break;
        bool ok = workers[t]->op(n++, &err);
        auto b = Clock::now();
        if (ok) {
          lat[t].push_back(ns_since(a, b));
        } else {
          if (errors[t]++ == 0) first_error[t] = err;
          if (errors[t] > 1000) break;  // something is broken: stop hammering
        }
      }
      ended[t] = Clock::now();
    });
  }
  while (ready.load() < int(w)) std::this_thread::yield();
  start = Clock::now();
  deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  go.store(true, std::memory_order_release);
  for (auto& th : threads) th.join();
  Clock::time_point end = *std::max_element(ended.begin(), ended.end());
  std::vector<int64_t> all;
  int64_t errs = 0;
  Run r;
  for (size_t t = 0; t < w; ++t) {
    all.insert(all.end(), lat[t].begin(), lat[t].end());
    errs += errors[t];
    if (r.first_error.empty()) r.first_error = first_error[t];
  }
  r.writers = int(w);
  r.stats = summarize(std::move(all), errs, std::chrono::duration<double>(end - start).count());
  return r;
}

// ---------------------------------------------------------------- output

void print_header(const char* title) {
  std::printf("\n== %s\n", title);
  std::printf("%-7s %-7s %-22s %10s %10s %10s %10s %10s %6s\n", "sync", "writers", "impl", "ops", "ops/s", "p50 us",
              "p99 us", "max us", "errors");
}

void print_run(const Run& r) {
  std::printf("%-7s %7d %-22s %10" PRId64 " %10.0f %10.1f %10.1f %10.1f %6" PRId64 "\n", r.sync.c_str(), r.writers,
              r.impl.c_str(), r.stats.ops, r.stats.ops_per_s, r.stats.p50_us, r.stats.p99_us, r.stats.max_us,
              r.stats.errors);
  if (!r.first_error.empty()) std::printf("        first error: %s\n", r.first_error.c_str());
  std::fflush(stdout);
}

std::string json_stats(const Stats& s) {
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "\"ops\":%" PRId64 ",\"errors\":%" PRId64
                ",\"seconds\":%.3f,\"ops_per_s\":%.1f,\"p50_us\":%.1f,\"p99_us\":%.1f,\"max_us\":%.1f,"
                "\"mean_us\":%.1f",
                s.ops, s.errors, s.seconds, s.ops_per_s, s.p50_us, s.p99_us, s.max_us, s.mean_us);
  return buf;
}

std::string json_run(const Run& r) {
  return "{\"section\":\"" + r.section + "\",\"impl\":\"" + r.impl + "\",\"sync\":\"" + r.sync +
         "\",\"writers\":" + std::to_string(r.writers) + "," + json_stats(r.stats) + "}";
}

struct Options {
  double seconds = 3;
  int64_t keys = 100000;
  int64_t purge_keys = 1000000;
  double baseline_seconds = 2;
  std::string purge_sync = "full";
  std::string dir = "/tmp";
  std::string only, sync;  // empty: all
  int writers = 0;         // 0: 1 and 8
  bool quick = false;
};

// `edihub purge`'s loop over o.purge_keys old keys while one gate::pass_key writer
// runs on its own connection; the writer's latency before and during the purge.
// false when the purge or the writer failed.
template <class OpenStore>
bool run_purge(const Options& o, const std::string& dir, gate::Gate& gate, OpenStore open_edihub, std::string* json) {
  std::printf("\n== purge: %" PRId64 " old keys, batch 1000, synchronous=%s, one concurrent gate::pass_key writer\n",
              o.purge_keys, o.purge_sync.c_str());
  const std::string ppath = dir + "/purge.db";
  auto t0 = Clock::now();
  {
    // received_at spread over the year before yesterday, oldest first.
    const int64_t span = 365 * kDayMs;
    const int64_t step = std::max<int64_t>(1, span / o.purge_keys);
    create_preloaded(ppath, o.purge_keys, wall_ms() - 2 * kDayMs - step * o.purge_keys, step);
  }
  std::printf("  preloaded %" PRId64 " keys in %.2f s (%.1f MB)\n", o.purge_keys,
              std::chrono::duration<double>(Clock::now() - t0).count(), double(fs::file_size(ppath)) / 1048576.0);
  std::fflush(stdout);

  GateNewWorker writer(open_edihub(ppath, o.purge_sync), gate, 99, false);
  auto purge_store = open_edihub(ppath, o.purge_sync);
  struct Sample {
    int64_t at_ns, lat_ns;
  };
  std::vector<Sample> samples;
  samples.reserve(1 << 20);
  std::atomic<bool> stop{false};
  int64_t writer_errors = 0;
  std::string writer_first_error;
  const Clock::time_point origin = Clock::now();
  std::thread wt([&] {
    uint64_t n = 0;
    std::string err;
    while (!stop.load(std::memory_order_relaxed)) {
      auto a = Clock::now();
      bool ok = writer.op(n++, &err);
      auto b = Clock::now();
      if (ok)
        samples.push_back({ns_since(origin, a), ns_since(a, b)});
      else if (writer_errors++ == 0)
        writer_first_error = err;
    }
  });
  // The WAL's size, sampled: a purge that outruns the checkpoints grows it.
  std::atomic<bool> stop_watch{false};
  std::atomic<int64_t> wal_max_before{0}, wal_max{0}, wal_max_at_ns{0};
  std::atomic<bool> purging{false};
  std::thread watch([&] {
    std::error_code ec;
    while (!stop_watch.load()) {
      auto size = fs::file_size(ppath + "-wal", ec);
      int64_t bytes = ec ? 0 : int64_t(size);
      if (!purging.load()) {
        wal_max_before = std::max<int64_t>(wal_max_before.load(), bytes);
      } else if (bytes > wal_max.load()) {
        wal_max = bytes;
        wal_max_at_ns = ns_since(origin, Clock::now());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
  std::this_thread::sleep_for(std::chrono::duration<double>(o.baseline_seconds));

  purging = true;
  const Clock::time_point purge_start = Clock::now();
  int64_t deleted = 0, batches = 0, kept_live = 0;
  std::vector<int64_t> batch_ns, batch_at_ns;
  std::string purge_error;
  auto now = purge_store->now_ms();
  if (!now.is_ok()) die("now_ms: " + now.status().message());
  auto partners = purge_store->partners_with_keys();
  if (!partners.is_ok()) die("partners_with_keys: " + partners.status().message());
  for (const auto& id : partners.value()) {  // the loop of `edihub purge`
    store::PurgeRequest req;
    req.cutoff_ms = now.value() - kDayMs;
    req.partner_id = id;
    req.batch = 1000;
    while (true) {
      auto a = Clock::now();
      auto b = purge_store->purge_keys(req);
      batch_ns.push_back(ns_since(a, Clock::now()));
      batch_at_ns.push_back(ns_since(purge_start, a));
      if (!b.is_ok()) {
        purge_error = b.status().message();
        break;
      }
      ++batches;
      deleted += b->deleted;
      kept_live = b->kept_live;
      if (b->deleted < req.batch) break;
      std::this_thread::yield();
    }
    if (!purge_error.empty()) break;
  }
  const Clock::time_point purge_end = Clock::now();
  stop.store(true);
  wt.join();
  stop_watch = true;
  watch.join();

  const double purge_s = std::chrono::duration<double>(purge_end - purge_start).count();
  const int64_t ps = ns_since(origin, purge_start), pe = ns_since(origin, purge_end);
  std::vector<int64_t> before, during;
  int64_t worst_at_ns = 0, worst_lat = 0;
  for (const auto& s : samples) {
    if (s.at_ns < ps) {
      before.push_back(s.lat_ns);
    } else if (s.at_ns < pe) {
      during.push_back(s.lat_ns);
      if (s.lat_ns > worst_lat) worst_lat = s.lat_ns, worst_at_ns = s.at_ns - ps;
    }
  }
  size_t slowest = size_t(std::max_element(batch_ns.begin(), batch_ns.end()) - batch_ns.begin());
  int64_t slow_batches = 0;
  for (int64_t b : batch_ns) slow_batches += b > 100000000;
  const int64_t slowest_ns = batch_ns.empty() ? 0 : batch_ns[slowest];
  Stats sb = summarize(before, 0, double(ps) / 1e9);
  Stats sd = summarize(during, 0, purge_s);
  Stats sbatch = summarize(batch_ns, 0, purge_s);
  const double rows_per_s = purge_s > 0 ? double(deleted) / purge_s : 0;
  std::printf("  deleted %" PRId64 " keys in %" PRId64 " batches, %.2f s: %.0f rows/s (kept live %" PRId64 ")\n",
              deleted, batches, purge_s, rows_per_s, kept_live);
  const double slowest_at_s = batch_at_ns.empty() ? 0 : double(batch_at_ns[slowest]) / 1e9;
  std::printf(
      "  purge batch time: p50 %.1f ms, p99 %.1f ms, max %.1f ms (batch #%zu of %zu, started %.2f s in),"
      " %" PRId64 " batches over 100 ms\n",
      sbatch.p50_us / 1000, sbatch.p99_us / 1000, sbatch.max_us / 1000, slowest + 1, batch_ns.size(), slowest_at_s,
      slow_batches);
  std::printf("  WAL size: max %.1f MB before the purge, %.1f MB during it (%.2f s in)\n",
              double(wal_max_before.load()) / 1048576.0, double(wal_max.load()) / 1048576.0,
              double(wal_max_at_ns.load() - ps) / 1e9);
  if (!purge_error.empty()) std::printf("  purge error: %s\n", purge_error.c_str());
  std::printf("  %-16s %10s %10s %10s %10s %10s\n", "writer", "ops", "ops/s", "p50 us", "p99 us", "max us");
  std::printf("  %-16s %10" PRId64 " %10.0f %10.1f %10.1f %10.1f\n", "before purge", sb.ops, sb.ops_per_s, sb.p50_us,
              sb.p99_us, sb.max_us);
  std::printf("  %-16s %10" PRId64 " %10.0f %10.1f %10.1f %10.1f\n", "during purge", sd.ops, sd.ops_per_s, sd.p50_us,
              sd.p99_us, sd.max_us);
  std::printf("  worst added latency: max %+.1f ms (at %.2f s into the purge), p99 %+.1f ms\n",
              (sd.max_us - sb.max_us) / 1000, double(worst_at_ns) / 1e9, (sd.p99_us - sb.p99_us) / 1000);
  if (writer_errors)
    std::printf("  writer errors: %" PRId64 ", first: %s\n", writer_errors, writer_first_error.c_str());
  std::fflush(stdout);

  char buf[512];
  std::snprintf(
      buf, sizeof buf,
      "{\"sync\":\"%s\",\"deleted\":%" PRId64 ",\"batches\":%" PRId64
      ",\"seconds\":%.3f,\"rows_per_s\":%.1f,\"batch_p50_ms\":%.2f,\"batch_p99_ms\":%.2f,"
      "\"batch_max_ms\":%.2f,\"slowest_batch\":%zu,\"slowest_batch_at_s\":%.3f,\"batches_over_100ms\":%" PRId64
      ",\"wal_max_mb_before\":%.1f,\"wal_max_mb\":%.1f,",
      o.purge_sync.c_str(), deleted, batches, purge_s, rows_per_s, sbatch.p50_us / 1000, sbatch.p99_us / 1000,
      double(slowest_ns) / 1e6, slowest + 1, slowest_at_s, slow_batches, double(wal_max_before.load()) / 1048576.0,
      double(wal_max.load()) / 1048576.0);
  *json = buf;
  std::snprintf(buf, sizeof buf, "\"added_max_ms\":%.2f,\"added_p99_ms\":%.2f,\"writer_errors\":%" PRId64 "}",
                (sd.max_us - sb.max_us) / 1000, (sd.p99_us - sb.p99_us) / 1000, writer_errors);
  *json += "\"writer_before\":{" + json_stats(sb) + "},\"writer_during\":{" + json_stats(sd) + "}," + buf;
  remove_db(ppath);
  return writer_errors == 0 && purge_error.empty();
}

int usage() {
  std::fprintf(stderr,
               "usage: store_bench [--seconds N] [--keys N] [--purge-keys N] [--purge-sync full|normal]\n"
               "                   [--dir DIR] [--only new|dup|purge] [--sync full|normal] [--writers N]\n"
               "                   [--quick]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  bool seconds_set = false, keys_set = false, purge_set = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "--quick") {
      o.quick = true;
    } else if (a == "--seconds" || a == "--keys" || a == "--purge-keys" || a == "--purge-sync" || a == "--dir" ||
               a == "--only" || a == "--sync" || a == "--writers") {
      const char* v = next();
      if (!v) return usage();
      if (a == "--seconds")
        o.seconds = std::atof(v), seconds_set = true;
      else if (a == "--keys")
        o.keys = std::atoll(v), keys_set = true;
      else if (a == "--purge-keys")
        o.purge_keys = std::atoll(v), purge_set = true;
      else if (a == "--purge-sync")
        o.purge_sync = v;
      else if (a == "--only")
        o.only = v;
      else if (a == "--sync")
        o.sync = v;
      else if (a == "--writers")
        o.writers = std::atoi(v);
      else
        o.dir = v;
    } else {
      return usage();
    }
  }
  if (o.quick) {
    if (!seconds_set) o.seconds = 0.5;
    if (!keys_set) o.keys = 5000;
    if (!purge_set) o.purge_keys = 20000;
    o.baseline_seconds = 0.5;
  }
  if (o.seconds <= 0 || o.keys < 1 || o.purge_keys < 1 || o.writers < 0) return usage();
  if (!o.only.empty() && o.only != "new" && o.only != "dup" && o.only != "purge") return usage();
  const bool do_new = o.only.empty() || o.only == "new", do_dup = o.only.empty() || o.only == "dup",
             do_purge = o.only.empty() || o.only == "purge";

  std::string tmpl_dir = o.dir + "/store_bench.XXXXXX";
  if (!::mkdtemp(tmpl_dir.data())) die("mkdtemp " + tmpl_dir + ": " + std::strerror(errno));
  const std::string dir = tmpl_dir;
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{dir};

  std::printf("store_bench: sqlite %s, %u hardware threads, dir %s\n", sqlite3_libversion(),
              std::thread::hardware_concurrency(), dir.c_str());
  std::printf("  %.1f s per run, %" PRId64 " preloaded settled keys, purge of %" PRId64
              " keys (synchronous=%s); receipts %zu bytes\n",
              o.seconds, o.keys, o.purge_keys, o.purge_sync.c_str(), receipt_body().size());
  std::fflush(stdout);

  // One template with the preloaded keys; every run gets a fresh copy of it.
  const std::string tmpl = dir + "/template.db";
  if (do_new || do_dup) {
    auto t0 = Clock::now();
    create_preloaded(tmpl, o.keys, wall_ms() - 30 * kDayMs, 1);
    std::printf("  preloaded %" PRId64 " keys in %.2f s (%.1f MB)\n", o.keys,
                std::chrono::duration<double>(Clock::now() - t0).count(), double(fs::file_size(tmpl)) / 1048576.0);
  }
  int run_no = 0;
  auto fresh_copy = [&]() {
    std::string p = dir + "/run" + std::to_string(++run_no) + ".db";
    fs::copy_file(tmpl, p, fs::copy_options::overwrite_existing);
    fsync_file(p);  // no dirty pages of the copy left to compete with the run's fsyncs
    return p;
  };
  auto open_edihub = [&](const std::string& path, const std::string& sync) {
    auto s = store::open_store("sqlite:" + path + "?synchronous=" + sync);
    if (!s.is_ok()) die("open_store: " + s.status().message());
    return std::move(s.value());
  };

  gate::Gate gate(gate::GateOptions{});
  std::vector<Run> runs;
  bool any_errors = false;
  const std::vector<std::string> syncs =
      o.sync.empty() ? std::vector<std::string>{"full", "normal"} : std::vector<std::string>{o.sync};
  const std::vector<int> writer_counts = o.writers ? std::vector<int>{o.writers} : std::vector<int>{1, 8};
  // Labels a finished run, prints it and keeps it for the summary; its database goes.
  auto record = [&](Run r, const char* section, const char* impl, const std::string& sync, const std::string& path) {
    r.section = section;
    r.impl = impl;
    r.sync = sync;
    any_errors |= r.stats.errors > 0;
    print_run(r);
    runs.push_back(std::move(r));
    remove_db(path);
  };

  // 1 + 3: new keys, edihub against the floor.
  if (do_new) print_header("new keys: claim + effect + settle per message");
  for (const auto& sync : do_new ? syncs : std::vector<std::string>{}) {
    for (int w : writer_counts) {
      for (const char* impl : {"floor_capi_1tx", "capi_edihub_stmts", "edihub_gate", "edihub_gate+log"}) {
        std::string path = fresh_copy();
        std::vector<std::unique_ptr<Worker>> workers;
        for (int t = 0; t < w; ++t) {
          std::string i = impl;
          if (i == "floor_capi_1tx")
            workers.push_back(std::make_unique<FloorWorker>(path, sync, t));
          else if (i == "capi_edihub_stmts")
            workers.push_back(std::make_unique<ShapeWorker>(path, sync, t));
          else
            workers.push_back(
                std::make_unique<GateNewWorker>(open_edihub(path, sync), gate, t, i == "edihub_gate+log"));
        }
        record(run_timed(std::move(workers), o.seconds), "new_keys", impl, sync, path);
      }
    }
  }

  auto find = [&](const std::string& section, const std::string& impl, const std::string& sync, int w) -> const Run* {
    for (const auto& r : runs)
      if (r.section == section && r.impl == impl && r.sync == sync && r.writers == w) return &r;
    return nullptr;
  };
  if (do_new) std::printf("\n   edihub / floor (new keys/s; target >= 0.80)\n");
  if (do_new)
    std::printf("%-7s %7s %12s %14s %18s %14s\n", "sync", "writers", "gate/floor", "gate+log/floor", "capi_stmts/floor",
                "gate/capi_stmts");
  std::string ratios_json;
  for (const auto& sync : do_new ? syncs : std::vector<std::string>{}) {
    for (int w : writer_counts) {
      const Run *f = find("new_keys", "floor_capi_1tx", sync, w), *s = find("new_keys", "capi_edihub_stmts", sync, w),
                *g = find("new_keys", "edihub_gate", sync, w), *gl = find("new_keys", "edihub_gate+log", sync, w);
      auto ratio = [](const Run* a, const Run* b) {
        return b->stats.ops_per_s > 0 ? a->stats.ops_per_s / b->stats.ops_per_s : 0.0;
      };
      double rg = ratio(g, f), rgl = ratio(gl, f), rs = ratio(s, f), rgs = ratio(g, s);
      std::printf("%-7s %7d %12.2f %14.2f %18.2f %14.2f\n", sync.c_str(), w, rg, rgl, rs, rgs);
      char buf[256];
      std::snprintf(buf, sizeof buf,
                    "%s{\"sync\":\"%s\",\"writers\":%d,\"gate_over_floor\":%.3f,\"gate_log_over_floor\":%.3f,"
                    "\"capi_stmts_over_floor\":%.3f,\"gate_over_capi_stmts\":%.3f}",
                    ratios_json.empty() ? "" : ",", sync.c_str(), w, rg, rgl, rs, rgs);
      ratios_json += buf;
    }
  }
  std::fflush(stdout);

  // 2: duplicates of settled keys.
  if (do_dup) print_header("duplicates: claim of a settled key, the stored receipt back (target p50 < 1000 us)");
  for (const auto& sync : do_dup ? syncs : std::vector<std::string>{}) {
    for (int w : writer_counts) {
      for (const char* impl : {"capi_select", "edihub_gate", "edihub_gate+log"}) {
        std::string path = fresh_copy();
        std::vector<std::unique_ptr<Worker>> workers;
        for (int t = 0; t < w; ++t) {
          uint64_t seed = 7777 + uint64_t(t);
          if (std::string(impl) == "capi_select")
            workers.push_back(std::make_unique<CapiDupWorker>(path, sync, o.keys, seed));
          else
            workers.push_back(std::make_unique<GateDupWorker>(open_edihub(path, sync), gate, o.keys, seed,
                                                              std::string(impl) == "edihub_gate+log"));
        }
        record(run_timed(std::move(workers), o.seconds), "duplicates", impl, sync, path);
      }
    }
  }
  remove_db(tmpl);

  // 4: purge with a concurrent writer.
  std::string purge_json = "null";
  if (do_purge) any_errors |= !run_purge(o, dir, gate, open_edihub, &purge_json);

  // The final JSON line.
  std::string runs_json;
  for (const auto& r : runs) runs_json += (runs_json.empty() ? "" : ",") + json_run(r);
  std::printf("\n{\"bench\":\"store\",\"sqlite\":\"%s\",\"seconds\":%.2f,\"keys\":%" PRId64 ",\"purge_keys\":%" PRId64
              ",\"runs\":[%s],\"ratios\":[%s],\"purge\":%s}\n",
              sqlite3_libversion(), o.seconds, o.keys, o.purge_keys, runs_json.c_str(), ratios_json.c_str(),
              purge_json.c_str());
  return any_errors ? 1 : 0;
}
