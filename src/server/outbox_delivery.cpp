#include "src/server/outbox_delivery.h"

#include <curl/curl.h>
#include <spdlog/spdlog.h>

#include <Poco/JSON/Object.h>

#include <algorithm>
#include <sstream>
#include <chrono>

#include "src/common/event_log.h"
#include "src/common/partner_text.h"
#include "src/store/store.h"

namespace edihub::server {

namespace {
size_t discard(char*, size_t size, size_t count, void*) { return size * count; }
}  // namespace

std::string http_post(const std::string& url, const std::string& header_lines, const std::string& body,
                      int timeout_seconds) {
  CURL* curl = curl_easy_init();
  if (curl == nullptr) return "curl_easy_init failed";
  curl_slist* headers = nullptr;
  size_t pos = 0;
  while (pos < header_lines.size()) {
    size_t end = header_lines.find("\r\n", pos);
    if (end == std::string::npos) end = header_lines.size();
    if (end > pos) headers = curl_slist_append(headers, header_lines.substr(pos, end - pos).c_str());
    pos = end + 2;
  }
  headers = curl_slist_append(headers, "Expect:");
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);  // the allowed URL, nowhere else
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, static_cast<long>(timeout_seconds));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
  std::string error;
  CURLcode rc = curl_easy_perform(curl);
  if (rc != CURLE_OK) {
    error = curl_easy_strerror(rc);
  } else {
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    if (status < 200 || status > 299) error = "HTTP " + std::to_string(status);
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return error;
}

OutboxDelivery::OutboxDelivery(std::string store_uri, DeliveryOptions options)
    : store_uri_(std::move(store_uri)), options_(options) {}

OutboxDelivery::~OutboxDelivery() { stop(); }

void OutboxDelivery::start() { thread_ = std::thread([this] { run(); }); }

void OutboxDelivery::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void OutboxDelivery::wake() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    woken_ = true;
  }
  cv_.notify_all();
}

void OutboxDelivery::log(const store::OutboxEntry& e, const std::string& state, const std::string& error,
                         int64_t attempts, int64_t retry_ms) {
  if (options_.json_log) {
    Poco::JSON::Object line(Poco::JSON_PRESERVE_KEY_ORDER);
    line.set("outbox", state);
    line.set("kind", e.item.kind);
    line.set("reference", partner_text(e.item.reference, 1000));
    line.set("destination", partner_text(e.item.destination, 2048));
    line.set("attempts", attempts);
    if (!error.empty()) line.set("error", error);
    if (retry_ms > 0) line.set("retry_ms", retry_ms);
    std::ostringstream out;
    line.stringify(out);
    spdlog::info("{}", out.str());
    return;
  }
  if (state == "sent") {
    spdlog::info("outbox sent {} for {} to {}", e.item.kind, partner_text(e.item.reference, 1000),
                 partner_text(e.item.destination, 2048));
  } else {
    spdlog::warn("outbox {} for {} to {}: {} (attempt {}{})", e.item.kind, partner_text(e.item.reference, 1000),
                 partner_text(e.item.destination, 2048), partner_text(error, 500), attempts, state == "failed" ? ", giving up" : ", retrying in " + std::to_string(retry_ms) + " ms");
  }
}

void OutboxDelivery::run() {
  auto opened = store::open_store(store_uri_);
  if (!opened.is_ok()) {
    log_error("outbox delivery stopped: " + opened.status().message());
    return;
  }
  store::Store& store = *opened.value();
  while (true) {
    auto due = store.due_outbox(16, int64_t{options_.timeout_seconds + 30} * 1000);
    if (due.is_ok()) {
      for (const store::OutboxEntry& e : due.value()) {
        std::string error = http_post(e.item.destination, e.item.headers, e.item.body, options_.timeout_seconds);
        if (error.empty()) {
          // If this write fails the item is sent again after its lease: the
          // partner's duplicate detection answers it; say so loudly.
          if (Status s = store.outbox_sent(e.id); !s.is_ok())
            log_error("outbox item " + std::to_string(e.id) + " was delivered but not marked sent: " + s.message());
          log(e, "sent", "", e.attempts + 1, 0);
          continue;
        }
        const int64_t attempts = e.attempts + 1;
        const bool give_up = attempts >= options_.max_attempts;
        const int64_t delay = std::min(options_.max_retry_ms, options_.first_retry_ms << std::min<int64_t>(attempts - 1, 20));
        Result<int64_t> now = store.now_ms();
        if (Status s = now.is_ok() ? store.outbox_retry(e.id, now.value() + delay, error, give_up) : now.status();
            !s.is_ok())
          log_error("outbox item " + std::to_string(e.id) + ": the failed attempt could not be recorded: " + s.message());
        log(e, give_up ? "failed" : "retry", error, attempts, give_up ? 0 : delay);
      }
    }
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, std::chrono::milliseconds(options_.poll_ms), [&] { return stopping_ || woken_; });
    if (stopping_) return;
    woken_ = false;
  }
}

}  // namespace edihub::server
