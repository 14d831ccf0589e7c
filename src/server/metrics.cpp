#include "src/server/metrics.h"

#include "src/common/mutex.h"
#include "src/identity/partner_auth.h"

#include <cstdio>

namespace edihub::server {

namespace {

// A label value as the text format wants it: backslash, quote and line feed escaped.
std::string label(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

void help(std::string* out, const char* name, const char* type, const char* text) {
  *out += std::string("# HELP ") + name + " " + text + "\n# TYPE " + name + " " + type + "\n";
}

}  // namespace

void Metrics::observe(const std::string& protocol, const std::string& partner, Outcome outcome, int64_t ms) {
  MutexLock lock(mu_);
  ++messages_[{protocol, partner, std::string(outcome_name(outcome))}];
  Histogram& h = latency_[protocol];
  const double seconds = static_cast<double>(ms) / 1000.0;
  for (size_t i = 0; i < kBuckets.size(); ++i)
    if (seconds <= kBuckets[i]) {
      ++h.buckets[i];
      break;
    }
  ++h.count;
  h.sum_seconds += seconds;
}

std::string Metrics::render(const store::Gauges* gauges, const std::vector<CertificateInUse>& certificates,
                            int64_t now_ms) const {
  std::string out;
  {
    MutexLock lock(mu_);
    help(&out, "edihub_messages_total", "counter", "Requests answered, by protocol, partner and outcome.");
    for (const auto& [k, n] : messages_)
      out += "edihub_messages_total{protocol=\"" + label(std::get<0>(k)) + "\",partner=\"" + label(std::get<1>(k)) +
             "\",outcome=\"" + label(std::get<2>(k)) + "\"} " + std::to_string(n) + "\n";
    help(&out, "edihub_request_duration_seconds", "histogram", "Time from a complete request to its answer.");
    for (const auto& [protocol, h] : latency_) {
      int64_t cumulative = 0;
      for (size_t i = 0; i < kBuckets.size(); ++i) {
        cumulative += h.buckets[i];
        out += "edihub_request_duration_seconds_bucket{protocol=\"" + label(protocol) + "\",le=\"" +
               number(kBuckets[i]) + "\"} " + std::to_string(cumulative) + "\n";
      }
      out += "edihub_request_duration_seconds_bucket{protocol=\"" + label(protocol) + "\",le=\"+Inf\"} " +
             std::to_string(h.count) + "\n";
      out +=
          "edihub_request_duration_seconds_sum{protocol=\"" + label(protocol) + "\"} " + number(h.sum_seconds) + "\n";
      out += "edihub_request_duration_seconds_count{protocol=\"" + label(protocol) + "\"} " + std::to_string(h.count) +
             "\n";
    }
  }
  help(&out, "edihub_partner_auth_failures_total", "counter",
       "Requests refused by a partner's <auth>, by partner and reason (address, client-cert, basic, throttled).");
  for (const auto& [k, n] : identity::partner_auth_failures())
    out += "edihub_partner_auth_failures_total{partner=\"" + label(k.first) + "\",reason=\"" + label(k.second) +
           "\"} " + std::to_string(n) + "\n";
  help(&out, "edihub_store_up", "gauge", "1 when the store answered this scrape.");
  out += std::string("edihub_store_up ") + (gauges != nullptr ? "1" : "0") + "\n";
  if (gauges != nullptr) {
    help(&out, "edihub_keys_open", "gauge", "Idempotency keys not completed, by state.");
    for (const char* state : {"processing", "failed"}) {
      auto it = gauges->open_keys.find(state);
      out += std::string("edihub_keys_open{state=\"") + state + "\"} " +
             std::to_string(it == gauges->open_keys.end() ? 0 : it->second) + "\n";
    }
    help(&out, "edihub_keys_poison", "gauge", "Keys that failed too often to be processed again.");
    out += "edihub_keys_poison " + std::to_string(gauges->poison_keys) + "\n";
    // Each family's samples together, as the format requires.
    constexpr const char* kStates[] = {"pending", "in-flight", "sent", "failed"};
    auto outbox = [&](const char* state) {
      auto it = gauges->outbox.find(state);
      return it != gauges->outbox.end() ? it->second : store::Gauges::Outbox{};
    };
    help(&out, "edihub_outbox_rows", "gauge", "Outbox rows not done, by state.");
    for (const char* state : kStates)
      out += std::string("edihub_outbox_rows{state=\"") + state + "\"} " + std::to_string(outbox(state).rows) + "\n";
    help(&out, "edihub_outbox_oldest_age_seconds", "gauge", "Age of the oldest outbox row not done, by state.");
    for (const char* state : kStates) {
      const store::Gauges::Outbox o = outbox(state);
      out += std::string("edihub_outbox_oldest_age_seconds{state=\"") + state + "\"} " +
             number(o.rows > 0 ? static_cast<double>(now_ms - o.oldest_created_ms) / 1000.0 : 0) + "\n";
    }
    help(&out, "edihub_store_bytes", "gauge", "Size of the store (database file or PostgreSQL database).");
    out += "edihub_store_bytes " + std::to_string(gauges->store_bytes) + "\n";
    help(&out, "edihub_schema_version", "gauge", "The store's applied schema migration.");
    out += "edihub_schema_version " + std::to_string(gauges->schema_version) + "\n";
    help(&out, "edihub_purge_last_run_timestamp_seconds", "gauge",
         "When edihub purge last finished (seconds since the epoch; 0: never).");
    out += "edihub_purge_last_run_timestamp_seconds " + std::to_string(gauges->last_purge_ms / 1000) + "\n";
  }
  help(&out, "edihub_certificate_expiry_timestamp_seconds", "gauge",
       "When a certificate in use expires (its notAfter, seconds since the epoch).");
  for (const CertificateInUse& c : certificates)
    out += "edihub_certificate_expiry_timestamp_seconds{owner=\"" + label(c.owner) + "\",use=\"" + label(c.use) +
           "\",subject=\"" + label(c.subject) + "\",serial=\"" + label(c.serial) + "\"} " +
           std::to_string(c.not_after) + "\n";
  return out;
}

std::string render_gate(const gate::GateStats& g) {
  std::string out;
  help(&out, "edihub_gate_transactions_running", "gauge", "Gate transactions under way now.");
  out += "edihub_gate_transactions_running " + std::to_string(g.running) + "\n";
  help(&out, "edihub_gate_inflight_waits_total", "counter",
       "Times a retransmission waited for its original, still in flight, to settle.");
  out += "edihub_gate_inflight_waits_total " + std::to_string(g.inflight_waits) + "\n";
  help(&out, "edihub_gate_inflight_wait_seconds_total", "counter", "Time spent in those waits.");
  out += "edihub_gate_inflight_wait_seconds_total " + number(static_cast<double>(g.inflight_wait_ms) / 1000.0) + "\n";
  help(&out, "edihub_gate_inflight_timeouts_total", "counter",
       "Waits that ended before the original settled (the partner was asked to retry).");
  out += "edihub_gate_inflight_timeouts_total " + std::to_string(g.inflight_timeouts) + "\n";
  help(&out, "edihub_gate_commit_duration_seconds", "histogram",
       "Committed gate transactions: the work and the durable commit (with group commit's wait).");
  int64_t cumulative = 0;
  for (size_t i = 0; i < gate::GateStats::kCommitBucketsMs.size(); ++i) {
    cumulative += g.commit_buckets[i];
    out += "edihub_gate_commit_duration_seconds_bucket{le=\"" +
           number(static_cast<double>(gate::GateStats::kCommitBucketsMs[i]) / 1000.0) + "\"} " +
           std::to_string(cumulative) + "\n";
  }
  out += "edihub_gate_commit_duration_seconds_bucket{le=\"+Inf\"} " + std::to_string(g.commits) + "\n";
  out += "edihub_gate_commit_duration_seconds_sum " + number(static_cast<double>(g.commit_ms_sum) / 1000.0) + "\n";
  out += "edihub_gate_commit_duration_seconds_count " + std::to_string(g.commits) + "\n";
  return out;
}

std::string render_log(uint64_t counted, uint64_t dropped) {
  std::string out;
  help(&out, "edihub_message_log_rows_counted_total", "counter",
       "Message-log rows of answers that commit nothing, past a client's limits: counted in one row a minute.");
  out += "edihub_message_log_rows_counted_total " + std::to_string(counted) + "\n";
  help(&out, "edihub_message_log_rows_dropped_total", "counter",
       "Message-log rows lost because the writer's queue was full (the store did not keep up).");
  out += "edihub_message_log_rows_dropped_total " + std::to_string(dropped) + "\n";
  return out;
}

}  // namespace edihub::server
