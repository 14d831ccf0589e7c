// The message-log rows of answers that commit nothing (a duplicate answered
// from the store, a refusal at the edge, a 503), written in batches by one
// thread with its own store connection: one commit for many rows, off the
// answer's path. A row may be lost in a crash; no receipt depends on it.
// Bounded per client address and partner (log_throttle.h): past its limits a
// client's rows are counted and written as one row when the window ends.
// The server's log lines of those answers have the same limits, counted apart
// (admit_line): past them a client's answers make one line per outcome when
// the window ends, so a client that proves nothing cannot flood the log
// either.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "src/common/mutex.h"
#include <string>
#include <thread>
#include <vector>

#include "src/receivers/pipeline.h"
#include "src/server/log_throttle.h"

namespace edihub::server {

class LogWriter : public receivers::LogSink {
 public:
  LogWriter(std::string store_uri, LogLimits limits, size_t max_queued = 100000);
  ~LogWriter() override;
  void start();
  // Writes what is queued, then stops.
  void stop();
  void record(store::MessageLog row, std::string_view client) override;
  // Rows dropped because the queue was full (the store could not keep up).
  uint64_t dropped() const;
  // Rows counted past a client's limits instead of written one by one.
  uint64_t counted() const;
  // Whether the log line of `answer` (an answer that commits nothing) goes out
  // now; false: it is counted, for its client's line when the window ends.
  bool admit_line(const store::MessageLog& answer, std::string_view client);

 private:
  void run();

  std::string store_uri_;
  size_t max_queued_;
  std::thread thread_;
  mutable Mutex mu_;
  std::condition_variable cv_;
  // Taken by the writer in one swap: the workers that queue rows never wait
  // for rows to be moved one by one.
  std::vector<store::MessageLog> rows_ GUARDED_BY(mu_);
  bool stopping_ GUARDED_BY(mu_) = false;
  uint64_t dropped_ GUARDED_BY(mu_) = 0;
  LogThrottle throttle_ GUARDED_BY(mu_);
  LogThrottle lines_ GUARDED_BY(mu_);
};

}  // namespace edihub::server
