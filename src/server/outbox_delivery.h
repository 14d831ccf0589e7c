// Delivers what the outbox holds for http(s) destinations (async MDNs) with
// libcurl: retries with exponential backoff, kept in the store, so they
// survive a restart.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "src/store/store.h"

namespace edihub::server {

struct DeliveryOptions {
  int64_t first_retry_ms = 5000;      // doubled after each failure ...
  int64_t max_retry_ms = 3600 * 1000;  // ... up to this
  int max_attempts = 12;               // then the item is failed, for the operator
  int timeout_seconds = 30;
  int64_t poll_ms = 1000;              // new items also wake the worker at once
  bool json_log = false;               // log lines as JSON objects (<log format="json">)
};

class OutboxDelivery {
 public:
  OutboxDelivery(std::string store_uri, DeliveryOptions options);
  ~OutboxDelivery();
  void start();
  void stop();
  // Something was queued: deliver now rather than at the next poll.
  void wake();

 private:
  void run();
  void log(const store::OutboxEntry& e, const std::string& state, const std::string& error, int64_t attempts,
           int64_t retry_ms);

  std::string store_uri_;
  DeliveryOptions options_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false, woken_ = false;
};

// POSTs `body` with the header lines to `url`; empty on a 2xx answer, else why not.
std::string http_post(const std::string& url, const std::string& header_lines, const std::string& body,
                      int timeout_seconds);

}  // namespace edihub::server
