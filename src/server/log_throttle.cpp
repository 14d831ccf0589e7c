#include "src/server/log_throttle.h"

#include <algorithm>

namespace edihub::server {

namespace {

constexpr size_t kNamedOthers = 5;  // addresses a summary of everyone past `total` names

// "minute", "300 ms window": the window as the summary rows name it (tests use short ones).
std::string window_text(std::chrono::steady_clock::duration window) {
  if (window == std::chrono::minutes(1)) return "minute";
  return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(window).count()) + " ms window";
}

// "the last: <m1@acme.example>: byte-identical retransmission: ..."
std::string last_text(const store::MessageLog& row) {
  return "the last: " + (row.transport_id.empty() ? std::string() : row.transport_id + ": ") + row.detail;
}

}  // namespace

bool LogThrottle::admit(const store::MessageLog& row, std::string_view client, Clock::time_point now) {
  if (!started_) started_ = now;
  auto it = clients_.find({std::string(client), row.partner_id});
  if (it == clients_.end()) {
    if (written_ >= limits_.total) {
      if (std::find(other_clients_.begin(), other_clients_.end(), client) == other_clients_.end()) {
        if (other_clients_.size() < kNamedOthers)
          other_clients_.emplace_back(client);
        else
          more_others_ = true;
      }
      count(others_, row);
      return false;
    }
    it = clients_.emplace(std::make_pair(std::string(client), row.partner_id), Tally{}).first;
    it->second.client = std::string(client);
  }
  Tally& t = it->second;
  if (t.written >= limits_.per_client || written_ >= limits_.total) {
    count(t, row);
    return false;
  }
  ++t.written;
  ++written_;
  return true;
}

void LogThrottle::count(Tally& t, const store::MessageLog& row) {
  Counted& c = t.counted[row.outcome];
  ++c.answers;
  c.bytes += row.bytes;
  c.last = row;
  ++counted_;
}

void LogThrottle::summarize(const Tally& t, bool past_total, std::vector<store::MessageLog>* rows) const {
  for (const auto& [outcome, c] : t.counted) {
    store::MessageLog row;
    row.partner_id = c.last.partner_id;
    row.protocol = c.last.protocol;
    row.transport = c.last.transport;
    row.outcome = outcome;
    row.bytes = c.bytes;
    row.answers = c.answers;
    const std::string more = std::to_string(c.answers) + " more answer" + (c.answers == 1 ? "" : "s");
    if (!past_total) {
      const std::string to =
          "to " + (t.client.empty() ? std::string("an unknown address") : t.client) +
          (c.last.partner_id.empty() ? " for no known partner" : " for partner '" + c.last.partner_id + "'");
      row.detail = more + " " + to + " in this " + window_text(limits_.window) +
                   " were not logged one by one (at most " + std::to_string(limits_.per_client) + " " + unit_ + " a " +
                   window_text(limits_.window) + " per client address and partner); " + last_text(c.last);
    } else {
      row.partner_id.clear();  // several partners, perhaps
      std::string named;
      for (const std::string& client : other_clients_) named += (named.empty() ? "" : ", ") + client;
      row.detail = more + " to clients first seen past the gateway's " + std::to_string(limits_.total) + " " + unit_ +
                   " a " + window_text(limits_.window) + " were not logged one by one (" + named +
                   (more_others_ ? ", ..." : "") + "); " + last_text(c.last);
    }
    rows->push_back(std::move(row));
  }
}

std::vector<store::MessageLog> LogThrottle::summaries(Clock::time_point now, bool force) {
  std::vector<store::MessageLog> rows;
  if (!started_ || (!force && now - *started_ < limits_.window)) return rows;
  for (const auto& [key, t] : clients_) summarize(t, false, &rows);
  summarize(others_, true, &rows);
  started_.reset();
  written_ = 0;
  clients_.clear();
  others_ = Tally{};
  other_clients_.clear();
  more_others_ = false;
  return rows;
}

}  // namespace edihub::server
