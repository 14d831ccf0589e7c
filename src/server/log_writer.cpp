#include "src/server/log_writer.h"

#include "src/common/event_log.h"
#include "src/common/mutex.h"

#include <chrono>
#include <iterator>
#include <vector>

namespace edihub::server {

namespace {
constexpr size_t kBatch = 1000;
constexpr int kPauseMs = 20;

// The line of a client's answers counted past its limits (as the server logs one answer).
void log_counted(const store::MessageLog& s) {
  LogLine("protocol", s.protocol)
      .add("partner", s.partner_id)
      .add("outcome", outcome_name(s.outcome))
      .add("answers", s.answers)
      .add("bytes", s.bytes)
      .add("detail", s.detail, 1000)
      .info();
}
}  // namespace

LogWriter::LogWriter(std::string store_uri, LogLimits limits, size_t max_queued)
    : store_uri_(std::move(store_uri)), max_queued_(max_queued), throttle_(limits), lines_(limits, "log lines") {}

LogWriter::~LogWriter() { stop(); }

void LogWriter::start() {
  thread_ = std::thread([this] { run(); });
}

void LogWriter::stop() {
  {
    MutexLock lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void LogWriter::record(store::MessageLog row, std::string_view client) {
  bool full_batch;
  {
    MutexLock lock(mu_);
    if (!throttle_.admit(row, client, std::chrono::steady_clock::now())) return;
    if (rows_.size() >= max_queued_) {
      ++dropped_;
      return;
    }
    rows_.push_back(std::move(row));
    full_batch = rows_.size() == kBatch;
  }
  // The writer wakes on its own every few ms; a full batch does not wait for it.
  if (full_batch) cv_.notify_one();
}

bool LogWriter::admit_line(const store::MessageLog& answer, std::string_view client) {
  MutexLock lock(mu_);
  return lines_.admit(answer, client, std::chrono::steady_clock::now());
}

uint64_t LogWriter::dropped() const {
  MutexLock lock(mu_);
  return dropped_;
}

uint64_t LogWriter::counted() const {
  MutexLock lock(mu_);
  return throttle_.counted();
}

void LogWriter::run() {
  std::unique_ptr<store::Store> store;
  std::vector<store::MessageLog> batch;  // its capacity goes back to the queue with each swap
  while (true) {
    batch.clear();
    std::vector<store::MessageLog> line_counts;
    bool stopping;
    {
      UniqueLock lock(mu_);
      // Rows collect for a few ms: one commit for many of them.
      cv_.wait_for(lock.native(), std::chrono::milliseconds(kPauseMs),
                   [&]() REQUIRES(mu_) { return stopping_ || rows_.size() >= kBatch; });
      stopping = stopping_;
      // The counts of a window that has ended (of the open one at stop), after its rows.
      const auto now = std::chrono::steady_clock::now();
      for (store::MessageLog& s : throttle_.summaries(now, stopping)) rows_.push_back(std::move(s));
      line_counts = lines_.summaries(now, stopping);
      if (rows_.size() <= kBatch) {
        batch.swap(rows_);
      } else {  // more than a commit's worth: the oldest kBatch now, the rest next
        batch.assign(std::make_move_iterator(rows_.begin()), std::make_move_iterator(rows_.begin() + kBatch));
        rows_.erase(rows_.begin(), rows_.begin() + kBatch);
      }
    }
    for (const store::MessageLog& s : line_counts) log_counted(s);
    if (batch.empty()) {
      if (stopping) return;  // everything queued before stop() is written
      continue;
    }
    if (!store) {
      // No fsync per batch: these rows are the log of answers already given
      // (a crash may lose the last ones); the commits that decide carry their
      // own rows and stay durable.
      store::StoreOptions options;
      options.synchronous = "normal";
      auto opened = store::open_store(store_uri_, options);
      if (!opened.is_ok()) {
        log_error("message log: " + opened.status().message() + "; " + std::to_string(batch.size()) + " rows lost");
        continue;
      }
      store = std::move(opened.value());
    }
    Status s = store->log(batch);
    if (!s.is_ok()) log_error("message log: " + s.message() + "; " + std::to_string(batch.size()) + " rows lost");
  }
}

}  // namespace edihub::server
