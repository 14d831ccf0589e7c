#include "src/console/charts.h"

#include <algorithm>
#include <map>

#include "src/common/utc.h"
#include "src/console/html.h"
#include "src/common/mutex.h"

namespace edihub::console {

namespace {

// Outcomes in stacking order, with their colour; anything else is grey.
struct Shade {
  const char* outcome;
  const char* colour;
};
constexpr Shade kShades[] = {{"processed", "#2e8b57"}, {"duplicate", "#4a7fc1"}, {"in-flight", "#d99a00"},
                             {"conflict", "#c0504d"},  {"rejected", "#d9534f"},  {"poison", "#7b2d26"},
                             {"error", "#a4161a"}};
constexpr const char* kOther = "#8a94a6";

const char* colour_of(const std::string& outcome) {
  for (const Shade& s : kShades)
    if (outcome == s.outcome) return s.colour;
  return kOther;
}

int rank_of(const std::string& outcome) {
  int i = 0;
  for (const Shade& s : kShades) {
    if (outcome == s.outcome) return i;
    ++i;
  }
  return i;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

Result<std::vector<store::HourCount>> HourlyCache::counts(store::ConsoleStore& store, int64_t first_hour,
                                                          int64_t now_hour) {
  MutexLock lock(mu_);
  // Rows of the last hour may still come in (another node's clock, a commit in flight).
  const int64_t complete_until = now_hour - 1;
  const bool fresh = !kept_.empty() && first_hour >= first_ && complete_until_ >= first_hour &&
                     std::chrono::steady_clock::now() - filled_ < std::chrono::minutes(10);
  if (!fresh) {
    kept_.clear();
    first_ = complete_until_ = first_hour;
    filled_ = std::chrono::steady_clock::now();
  }
  ASSIGN_OR_RETURN(std::vector<store::HourCount> recent, store.hourly(complete_until_ * 3600000));
  std::vector<store::HourCount> out;
  for (const auto& c : kept_)
    if (c.hour >= first_hour) out.push_back(c);
  for (const auto& c : recent) {
    out.push_back(c);
    if (c.hour < complete_until) kept_.push_back(c);
  }
  complete_until_ = std::max(complete_until_, complete_until);
  return out;
}

std::string hourly_charts(const std::vector<store::HourCount>& counts, int64_t now_hour, int hours,
                          size_t max_partners) {
  const int64_t first = now_hour - hours + 1;
  std::map<std::string, int64_t> totals;
  std::map<std::string, std::map<int64_t, std::map<std::string, int64_t>>> by;  // partner -> hour -> outcome
  for (const auto& c : counts) {
    if (c.hour < first || c.hour > now_hour) continue;
    totals[c.partner_id] += c.messages;
    by[c.partner_id][c.hour][c.outcome] += c.messages;
  }
  std::vector<std::pair<std::string, int64_t>> partners(totals.begin(), totals.end());
  std::sort(partners.begin(), partners.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (partners.size() > max_partners) partners.resize(max_partners);
  if (partners.empty()) return "<p class=\"empty\">No messages in the last " + std::to_string(hours) + " hours.</p>";

  constexpr double kWidth = 1200, kHeight = 150, kLeft = 48, kTop = 24, kBottom = 22;
  const double plot_w = kWidth - kLeft - 8, plot_h = kHeight - kTop - kBottom, bar_w = plot_w / hours;
  std::string out;
  for (const auto& [partner, total] : partners) {
    int64_t peak = 1;
    for (const auto& [hour, outcomes] : by[partner]) {
      int64_t sum = 0;
      for (const auto& [o, n] : outcomes) sum += n;
      peak = std::max(peak, sum);
    }
    const std::string name = partner.empty() ? "(unknown sender)" : partner;
    out += "<svg viewBox=\"0 0 1200 150\" role=\"img\" aria-label=\"" + html(name) + ": " + std::to_string(total) +
           " messages in " + std::to_string(hours) + " hours\" class=\"chart\">";
    out += "<text x=\"" + num(kLeft) + "\" y=\"16\" font-size=\"14\" font-weight=\"600\">" + html(name) + " - " +
           std::to_string(total) + " messages</text>";
    out += "<line x1=\"" + num(kLeft) + "\" y1=\"" + num(kTop + plot_h) + "\" x2=\"" + num(kLeft + plot_w) +
           "\" y2=\"" + num(kTop + plot_h) + "\" stroke=\"#b9c1cf\"/>";
    out += "<text x=\"" + num(kLeft - 6) + "\" y=\"" + num(kTop + 10) + "\" font-size=\"11\" text-anchor=\"end\">" +
           std::to_string(peak) + "</text>";
    // A tick and the date at each UTC midnight.
    for (int64_t h = first; h <= now_hour; ++h) {
      if (h % 24 != 0) continue;
      const double x = kLeft + (h - first) * bar_w;
      out += "<line x1=\"" + num(x) + "\" y1=\"" + num(kTop) + "\" x2=\"" + num(x) + "\" y2=\"" +
             num(kTop + plot_h + 4) + "\" stroke=\"#eceff4\"/>";
      out += "<text x=\"" + num(x + 2) + "\" y=\"" + num(kHeight - 6) + "\" font-size=\"11\">" +
             html(iso_utc(h * 3600000).substr(0, 10)) + "</text>";
    }
    for (const auto& [hour, outcomes] : by[partner]) {
      std::vector<std::pair<std::string, int64_t>> stack(outcomes.begin(), outcomes.end());
      std::sort(stack.begin(), stack.end(),
                [](const auto& a, const auto& b) { return rank_of(a.first) < rank_of(b.first); });
      double y = kTop + plot_h;
      const double x = kLeft + (hour - first) * bar_w;
      for (const auto& [outcome, n] : stack) {
        const double h = plot_h * static_cast<double>(n) / static_cast<double>(peak);
        y -= h;
        out += "<rect x=\"" + num(x + 0.5) + "\" y=\"" + num(y) + "\" width=\"" + num(std::max(bar_w - 1, 1.0)) +
               "\" height=\"" + num(h) + "\" fill=\"" + colour_of(outcome) + "\"><title>" +
               html(iso_utc(hour * 3600000).substr(0, 13)) + ":00Z " + html(outcome) + ": " + std::to_string(n) +
               "</title></rect>";
      }
    }
    out += "</svg>";
  }
  return out;
}

std::string outcome_mix(const std::vector<store::HourCount>& counts) {
  std::map<std::string, int64_t> by;
  int64_t total = 0;
  for (const auto& c : counts) {
    by[c.outcome] += c.messages;
    total += c.messages;
  }
  if (total == 0) return "<p class=\"empty\">No messages yet.</p>";
  std::vector<std::pair<std::string, int64_t>> mix(by.begin(), by.end());
  std::sort(mix.begin(), mix.end(), [](const auto& a, const auto& b) { return rank_of(a.first) < rank_of(b.first); });
  std::string out = "<svg viewBox=\"0 0 1200 70\" role=\"img\" aria-label=\"outcome mix\" class=\"chart\">";
  double x = 8;
  const double width = 1184;
  for (const auto& [outcome, n] : mix) {
    const double w = width * static_cast<double>(n) / static_cast<double>(total);
    out += "<rect x=\"" + num(x) + "\" y=\"8\" width=\"" + num(w) + "\" height=\"26\" fill=\"" + colour_of(outcome) +
           "\"><title>" + html(outcome) + ": " + std::to_string(n) + "</title></rect>";
    x += w;
  }
  x = 8;
  for (const auto& [outcome, n] : mix) {
    out += "<rect x=\"" + num(x) + "\" y=\"46\" width=\"12\" height=\"12\" fill=\"" + colour_of(outcome) + "\"/>";
    const std::string label = outcome + " " + std::to_string(n) + " (" +
                              num(100.0 * static_cast<double>(n) / static_cast<double>(total)) + "%)";
    out += "<text x=\"" + num(x + 16) + "\" y=\"57\" font-size=\"13\">" + html(label) + "</text>";
    x += 24 + 8.0 * static_cast<double>(label.size());
  }
  return out + "</svg>";
}

}  // namespace edihub::console
