// How many message-log rows the answers that commit nothing may make the
// store write. Those answers go to whoever sends a request (a refusal at the
// edge, an unknown sender, a copy that proves no sender, a retransmission
// answered from the store, a 503), so without a bound a client that proves
// nothing could make the store write a row per request for as long as it
// likes. Per client address and partner named, the first `per_client` rows of
// a window are written as they come, and at most `total` rows a window in
// all; the rest are counted, and each client's count of each outcome is
// written as one row when the window ends ("37 more answers to 203.0.113.9 for
// partner 'acme' ... the last: ...", `answers` 37), rows of clients first
// seen past `total` as one row per outcome for all of them. So a window writes
// at most `total` rows one by one and, per outcome counted, at most total + 1
// count rows, whoever sends.
//
// Not thread-safe: the log writer calls it under its lock. The clock is the
// caller's, so that a test can move it.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/store/message_log.h"

namespace edihub::server {

// The gateway's <limits max-log-rows-per-client max-log-rows> (config::Gateway
// holds their defaults); tests shorten the window.
struct LogLimits {
  int per_client;  // rows a window per client address and partner named
  int total;       // rows a window, all clients together
  std::chrono::steady_clock::duration window = std::chrono::minutes(1);
};

class LogThrottle {
 public:
  using Clock = std::chrono::steady_clock;

  // `unit`: what is counted, as the count rows name it ("rows", "log lines").
  explicit LogThrottle(LogLimits limits, std::string unit = "rows") : limits_(limits), unit_(std::move(unit)) {}

  // True: write `row` now. False: it was counted, for its client's summary row.
  bool admit(const store::MessageLog& row, std::string_view client, Clock::time_point now);
  // The summary rows of the window once it has ended by `now` (with `force`,
  // of the open window, whenever it started: the writer stops); the next row
  // starts a new window. Empty when nothing was counted.
  std::vector<store::MessageLog> summaries(Clock::time_point now, bool force = false);
  // Rows counted instead of written since the start (each in a summary row).
  uint64_t counted() const { return counted_; }

 private:
  // The answers of one outcome counted for a tally.
  struct Counted {
    int64_t answers = 0, bytes = 0;
    store::MessageLog last;  // the last row counted
  };
  // One client address and partner named, or everyone past `total`.
  struct Tally {
    int written = 0;
    std::map<Outcome, Counted> counted;  // one count row each
    std::string client;                  // its address
  };
  void count(Tally& t, const store::MessageLog& row);
  // The count rows of a tally; `past_total`: those of everyone first seen past `total`.
  void summarize(const Tally& t, bool past_total, std::vector<store::MessageLog>* rows) const;

  const LogLimits limits_;
  const std::string unit_;
  std::optional<Clock::time_point> started_;  // the open window's first row
  int written_ = 0;                           // rows written in the open window
  // At most `total` entries: one is made only for a row that is written.
  std::map<std::pair<std::string, std::string>, Tally> clients_;
  Tally others_;                            // clients first seen once the window's `total` was written
  std::vector<std::string> other_clients_;  // their first few addresses, for the summary
  bool more_others_ = false;                // and more than those
  uint64_t counted_ = 0;
};

}  // namespace edihub::server
