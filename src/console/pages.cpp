#include "src/console/pages.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <strings.h>
#include <optional>
#include <cstring>

#include "src/console/charts.h"
#include "src/console/findings.h"
#include "src/console/html.h"
#include "src/receivers/capture.h"

namespace edihub::console {

namespace {

constexpr int64_t kDayMs = 86400000;

// "2026-12-01" as ms since the epoch (UTC midnight), 0 when not a date.
// A YYYY-MM-DD date as the start of its day (UTC); nullopt when it is not a
// real date (2026-13-45, 2026-02-30, "abc").
std::optional<int64_t> date_ms(const std::string& text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
  const int y = std::stoi(text.substr(0, 4)), m = std::stoi(text.substr(5, 2)), d = std::stoi(text.substr(8, 2));
  std::tm tm{};
  tm.tm_year = y - 1900;
  tm.tm_mon = m - 1;
  tm.tm_mday = d;
  const time_t t = timegm(&tm);
  std::tm back{};
  gmtime_r(&t, &back);  // timegm normalises 02-30 to 03-02: only a date that comes back is one
  if (m < 1 || m > 12 || back.tm_year != y - 1900 || back.tm_mon != m - 1 || back.tm_mday != d) return std::nullopt;
  return static_cast<int64_t>(t) * 1000;
}

// The value of the first "Name: value" line of `text` (case-insensitive name).
std::optional<std::string> field_line(std::string_view text, std::string_view name) {
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    if (line.size() > name.size() && line[name.size()] == ':' &&
        strncasecmp(line.data(), std::string(name).c_str(), name.size()) == 0) {
      line.remove_prefix(name.size() + 1);
      while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
      return std::string(line);
    }
    at = end + 1;
  }
  return std::nullopt;
}

// A search field as searched and shown: without the spaces around it.
std::string trimmed(const std::string& s) {
  const size_t start = s.find_first_not_of(" \t");
  if (start == std::string::npos) return "";
  return s.substr(start, s.find_last_not_of(" \t") - start + 1);
}

std::string message_link(const store::MessageRow& m) {
  const std::string& text = !m.transport_id.empty() ? m.transport_id : m.message_id;
  return link("/messages/" + std::to_string(m.id), text.empty() ? "#" + std::to_string(m.id) : text);
}

std::string options(const std::vector<std::string>& values, const std::string& chosen, const std::string& any) {
  std::string out = "<option value=\"\">" + html(any) + "</option>";
  for (const auto& v : values)
    out += "<option value=\"" + html(v) + "\"" + (v == chosen ? " selected" : "") + ">" + html(v) + "</option>";
  return out;
}

std::string input(const std::string& label, const std::string& name, const std::string& value,
                  const std::string& type = "text") {
  return "<label>" + html(label) + "<input type=\"" + type + "\" name=\"" + name + "\" value=\"" + html(value) +
         "\"></label>";
}

// The buttons an outbox row offers an operator.
std::string outbox_actions(const View& v, const store::OutboxEntry& e, const std::string& back) {
  if (!v.session.can_act()) return "";
  std::string out;
  const std::vector<std::pair<std::string, std::string>> id = {{"id", std::to_string(e.id)}, {"return", back}};
  if (e.state == "pending" || e.state == "failed") {
    out += action_button("/actions/outbox-retry", "Retry now", id, v.session.info.csrf);
    out += action_button("/actions/outbox-cancel", "Cancel", id, v.session.info.csrf);
  }
  if (e.item.kind != "document" && e.state != "in-flight" && e.state != "pending")
    out += action_button("/actions/resend", "Resend", id, v.session.info.csrf);
  return out;
}

std::vector<std::string> outbox_cells(const View& v, const store::OutboxEntry& e, const std::string& back) {
  return {std::to_string(e.id),
          when(e.created_at_ms),
          html(e.item.partner_id),
          html(e.item.kind),
          html(e.item.channel) + " " + html(e.item.destination, 200),
          html(e.item.message_id, 200),
          badge(e.state),
          std::to_string(e.attempts),
          html(e.last_error, 400),
          outbox_actions(v, e, back)};
}

std::string outbox_table(const View& v, const std::vector<store::OutboxEntry>& rows, const std::string& back) {
  std::vector<std::vector<std::string>> cells;
  cells.reserve(rows.size());
  for (const auto& e : rows) cells.push_back(outbox_cells(v, e, back));
  return table({"#", "Queued", "Partner", "Kind", "To", "Message-ID", "State", "Attempts", "Last error", ""}, cells,
               "No outbox rows.");
}

bool poison(const View& v, const store::KeyRecord& k) {
  return k.state == store::KeyState::Failed && k.failures >= v.context.gate->options().max_failures;
}

std::string release_button(const View& v, const store::KeyRecord& k, const std::string& back) {
  if (!v.session.can_act() || !poison(v, k)) return "";
  return action_button("/actions/release-key", "Release key",
                       {{"partner", k.key.partner_id}, {"message_id", k.key.message_id}, {"return", back}},
                       v.session.info.csrf);
}

// The receipt as stored: status, header lines, body (text shown as is, bounded).
std::string receipt_block(const store::Receipt& r) {
  if (r.empty()) return "<p class=\"empty\">No stored answer (none yet, or purged after the receipt retention).</p>";
  // The two lines an operator looks for in an MDN, above the raw text (whose
  // box folds them out of sight).
  std::string summary;
  for (std::string_view name : {"Disposition", "Received-Content-MIC"})
    if (std::optional<std::string> value = field_line(r.body, name))
      summary += "<dt>" + html(std::string(name)) + "</dt><dd>" + html(*value, 300) + "</dd>";
  std::string text = (r.status ? "HTTP " + std::to_string(r.status) + "\n" : std::string()) + r.headers + "\n";
  constexpr size_t kShown = size_t{64} * 1024;
  text += r.body.substr(0, kShown);
  if (r.body.size() > kShown) text += "\n... (" + std::to_string(r.body.size()) + " bytes in all)";
  // Line by line: html() keeps each line printable and bounded.
  std::string out = "<pre>";
  std::string_view rest(text);
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out += html(line, 4096) + "\n";
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
  }
  return (summary.empty() ? "" : "<dl class=\"mdn-summary\">" + summary + "</dl>") + out + "</pre>";
}

// The keys an operator's search text may stand for: itself (a key copied from
// a page), an AS2 or AS4 message id, or an interchange control number under
// each sender id of the partner (of every partner when none is chosen).
std::vector<std::string> candidate_keys(const View& v, const std::string& partner, const std::string& text) {
  if (text.empty()) return {};
  std::vector<std::string> keys = {text, store::MessageKey::as2("", text).message_id,
                                   store::MessageKey::as4("", text).message_id};
  for (const auto& p : v.context.partners->all()) {
    if (!partner.empty() && p.id != partner) continue;
    for (const auto& x : p.x12_ids) keys.push_back(store::MessageKey::x12(p.id, x.id, text).message_id);
    for (const auto& e : p.edifact_ids) keys.push_back(store::MessageKey::edifact(p.id, e.id, text).message_id);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

}  // namespace

std::string notice_of(const View& v) {
  const int64_t id = positive_number(field(v.query, "notice"));
  if (id == 0) return "";
  Result<std::vector<store::AuditEntry>> trail = v.store.console().audit_trail(50);
  if (!trail.is_ok()) return "";
  for (const auto& e : trail.value())
    if (e.id == id && e.operator_name == v.session.info.operator_name)
      return "<p class=\"notice\" role=\"status\">" + html(e.action) + " " + html(e.target) + ": " + html(e.result) +
             "</p>";
  return "";
}

Result<Rendered> dashboard_page(const View& v) {
  const int max_failures = v.context.gate->options().max_failures;
  ASSIGN_OR_RETURN(store::Gauges g, v.store.gauges(max_failures));
  std::vector<std::string> problems;
  const int64_t failed = g.open_keys.count("failed") ? g.open_keys.at("failed") : 0;
  if (g.poison_keys > 0)
    problems.push_back(link("/keys?state=poison", std::to_string(g.poison_keys) + " poison keys") + " failed " +
                       std::to_string(max_failures) + " times: release them once the cause is fixed");
  if (failed > g.poison_keys)
    problems.push_back(link("/keys?state=failed", std::to_string(failed - g.poison_keys) + " failed keys") +
                       " wait for the partner's retransmission");
  if (g.outbox.count("failed") && g.outbox.at("failed").rows > 0)
    problems.push_back(
        link("/outbox?state=failed", std::to_string(g.outbox.at("failed").rows) + " outbox rows failed") +
        ": retry or cancel them");
  for (const char* state : {"pending", "sent"}) {
    auto it = g.outbox.find(state);
    if (it != g.outbox.end() && it->second.rows > 0 && v.now_ms - it->second.oldest_created_ms > 3600000)
      problems.push_back(
          link(std::string("/outbox?state=") + state, std::to_string(it->second.rows) + " outbox rows " + state) +
          ", the oldest queued " + when(it->second.oldest_created_ms));
  }
  for (const auto& c : v.context.certificates) {
    const int64_t left = identity::days_left(c, v.now_ms / 1000);
    if (left < identity::kCertificateWarnDays)
      problems.push_back(html(c.owner) + " " + html(c.use) + " certificate " + html(c.subject) +
                         (left < 0 ? " expired " + std::to_string(-left) + " days ago"
                                   : " expires in " + std::to_string(left) + " days"));
  }
  std::string body = notice_of(v) + "<h2>Open problems</h2>";
  if (problems.empty()) {
    body +=
        "<p class=\"ok\">None: no failed or poison keys, no failed or stuck outbox rows, no certificate "
        "expiring within 30 days.</p>";
  } else {
    body += "<ul class=\"problems\">";
    for (const auto& p : problems) body += "<li class=\"warn\">" + p + "</li>";
    body += "</ul>";
  }
  constexpr int kHours = 7 * 24;
  const int64_t now_hour = v.now_ms / 3600000;
  Result<std::vector<store::HourCount>> counts = v.hourly.counts(v.store.console(), now_hour - kHours + 1, now_hour);
  if (!counts.is_ok()) return counts.status();
  body +=
      "<h2>Outcomes, last 7 days</h2><p class=\"note\">Each interchange counts once, whatever brought it; "
      "so does each transport message not represented by its interchanges (a retransmission answered "
      "from the store, a refusal, a payload that is not EDI).</p>" +
      outcome_mix(counts.value());
  body += "<h2>Interchanges per partner per hour, last 7 days</h2>" + hourly_charts(counts.value(), now_hour, kHours);
  return Rendered{200, "Dashboard", "/", body};
}

Result<Rendered> messages_page(const View& v) {
  store::MessageQuery q;
  q.partner_id = field(v.query, "partner");
  q.protocol = field(v.query, "protocol");
  q.outcome = field(v.query, "outcome");
  q.text = trimmed(field(v.query, "q"));
  q.document = trimmed(field(v.query, "document"));
  // A date that is not one is refused on the page, never dropped while the field still shows it.
  std::string bad_dates;
  const std::string from_text = trimmed(field(v.query, "from")), to_text = trimmed(field(v.query, "to"));
  const std::optional<int64_t> from = from_text.empty() ? std::optional<int64_t>(0) : date_ms(from_text);
  const std::optional<int64_t> to = to_text.empty() ? std::optional<int64_t>(0) : date_ms(to_text);
  if (!from) bad_dates += "From '" + html(from_text, 40) + "' is not a date (YYYY-MM-DD). ";
  if (!to) bad_dates += "To '" + html(to_text, 40) + "' is not a date (YYYY-MM-DD). ";
  q.since_ms = from.value_or(0);
  q.until_ms = to.value_or(0) ? *to + kDayMs - 1 : 0;
  q.before_id = positive_number(field(v.query, "before"));
  q.keys = candidate_keys(v, q.partner_id, q.text);
  for (const auto& p : v.context.partners->all()) q.document_partners.push_back(p.id);
  ASSIGN_OR_RETURN(std::vector<store::MessageRow> rows,
                   bad_dates.empty() ? v.store.console().find_messages(q)
                                     : Result<std::vector<store::MessageRow>>(std::vector<store::MessageRow>{}));

  std::vector<std::string> partners;
  for (const auto& p : v.context.partners->all()) partners.push_back(p.id);
  std::string body = "<form method=\"get\" action=\"/messages\" class=\"filters\" role=\"search\">";
  body += "<label>Partner<select name=\"partner\">" + options(partners, q.partner_id, "any") + "</select></label>";
  body += "<label>Protocol<select name=\"protocol\">" + options({"as2", "as4", "x12", "edifact"}, q.protocol, "any") +
          "</select></label>";
  body +=
      "<label>Outcome<select name=\"outcome\">" +
      options({"processed", "duplicate", "conflict", "rejected", "poison", "in-flight", "error"}, q.outcome, "any") +
      "</select></label>";
  body += input("Message id or control number", "q", q.text) + input("Document number", "document", q.document);
  body += input("From", "from", from_text, "date") + input("To", "to", to_text, "date");
  body += "<button type=\"submit\">Search</button></form>";
  if (!bad_dates.empty())
    return Rendered{400, "Messages", "/messages",
                    body + "<p class=\"error-box\" role=\"alert\">" + bad_dates + "Nothing was searched.</p>"};

  std::vector<std::vector<std::string>> cells;
  cells.reserve(rows.size());
  for (const auto& m : rows)
    cells.push_back({when(m.received_at_ms), html(m.partner_id.empty() ? "-" : m.partner_id), html(m.protocol),
                     message_link(m), html(m.message_id, 200), badge(m.outcome), std::to_string(m.documents),
                     std::to_string(m.bytes), html(m.detail, 300)});
  body += table({"Received", "Partner", "Protocol", "Message", "Key", "Outcome", "Documents", "Bytes", "Detail"}, cells,
                "No message matches.");
  if (static_cast<int>(rows.size()) == q.limit) {
    std::string next = "/messages?before=" + std::to_string(rows.back().id);
    for (const char* name : {"partner", "protocol", "outcome", "q", "document", "from", "to"})
      if (!trimmed(field(v.query, name)).empty())
        next += std::string("&") + name + "=" + url(trimmed(field(v.query, name)));
    body += "<p>" + link(next, "Older messages") + "</p>";
  }
  return Rendered{200, "Messages", "/messages", body};
}

Result<Rendered> message_page(const View& v, int64_t id) {
  ASSIGN_OR_RETURN(std::optional<store::MessageRow> found, v.store.console().message(id));
  if (!found)
    return Rendered{404, "No such message", "/messages",
                    "<p>No message #" + std::to_string(id) + " (it may have been purged).</p>"};
  const store::MessageRow& m = *found;
  const std::string back = "/messages/" + std::to_string(id);
  std::string body = notice_of(v) + "<dl>";
  auto row = [&](const std::string& k, const std::string& value_html) {
    body += "<dt>" + html(k) + "</dt><dd>" + value_html + "</dd>";
  };
  row("Received", when(m.received_at_ms));
  row("Partner", html(m.partner_id.empty() ? "(unknown)" : m.partner_id));
  row("Protocol", html(m.protocol) + " over " + html(m.transport));
  row("Transport id", html(m.transport_id));
  row("Key", html(m.message_id));
  row("Outcome", badge(m.outcome));
  row("Detail", html(m.detail, 2000));
  row("Bytes", std::to_string(m.bytes));
  row("Documents booked", std::to_string(m.documents));
  row("Handling time", std::to_string(m.duration_ms) + " ms");
  body += "</dl>";

  if (m.capture_id) {
    Result<std::optional<store::CaptureHead>> capture = v.store.console().capture_head(m.capture_id);
    if (capture.is_ok() && capture.value()) {
      body += "<h2>Transport headers, as received</h2>" +
              receipt_block({0, receivers::redacted_head(capture.value()->head), ""});
      if (v.session.can_act())
        body += "<p>" + link("/captures/" + std::to_string(m.capture_id), "Download the capture") + " (" +
                std::to_string(capture.value()->bytes) + " bytes, for edihub replay)</p>";
    }
  }

  // The transport message and its interchanges: each key, its stored answer, what it caused.
  ASSIGN_OR_RETURN(std::vector<store::MessageRow> related,
                   m.transport_id.empty() ? Result<std::vector<store::MessageRow>>(std::vector<store::MessageRow>{m})
                                          : v.store.console().transport_rows(m.partner_id, m.transport_id));
  // The transport message first (it is logged after its interchanges).
  std::stable_partition(related.begin(), related.end(),
                        [](const store::MessageRow& r) { return r.protocol == "as2" || r.protocol == "as4"; });
  constexpr size_t kShownRows = 100;  // each costs a few look-ups; a 450-interchange message stays quick
  if (related.size() > kShownRows) {
    body += "<p class=\"notice\">" + std::to_string(related.size()) + " rows belong to this message: the first " +
            std::to_string(kShownRows) + " are shown; search the others by their control number.</p>";
    related.resize(kShownRows);
  }
  for (const auto& r : related) {
    if (r.message_id.empty()) continue;
    const bool interchange = r.protocol == "x12" || r.protocol == "edifact";
    body += "<h2>" + html(interchange ? "Interchange " : "Message ") + html(r.message_id) + " " + badge(r.outcome) +
            "</h2>";
    if (!r.detail.empty()) body += "<p>" + html(r.detail, 2000) + "</p>";
    ASSIGN_OR_RETURN(std::optional<store::KeyRecord> key, v.store.lookup({r.partner_id, r.message_id}));
    if (key) {
      const store::KeyRecord& k = *key;
      body += "<p>Key " + badge(std::string(store::state_name(k.state))) + " attempts " + std::to_string(k.attempts) +
              ", failures " + std::to_string(k.failures) + (k.error.empty() ? "" : ": " + html(k.error, 1000)) + " " +
              release_button(v, k, back) + "</p>";
      if (interchange) {
        // Each error the acknowledgment names, at its segment.
        const std::vector<FindingRow> findings = acknowledged_findings(k.receipt);
        if (!findings.empty()) {
          std::vector<std::vector<std::string>> cells;
          cells.reserve(findings.size());
          for (const FindingRow& f : findings)
            cells.push_back({html(f.segment), html(f.loop), html(f.element), html(f.what)});
          body += "<h3>Errors, as acknowledged</h3>" + table({"Segment", "Loop", "Element", "Error"}, cells);
        }
      }
      body += "<h3>" + html(interchange ? "Acknowledgment as stored" : "Answer as sent") + "</h3>" +
              receipt_block(k.receipt);
    }
    if (interchange) {
      ASSIGN_OR_RETURN(std::vector<store::BookedDocument> docs,
                       v.store.console().documents_from(r.partner_id, r.message_id));
      std::vector<std::vector<std::string>> cells;
      cells.reserve(docs.size());
      for (const auto& d : docs)
        cells.push_back({html(d.kind), html(d.number), html(d.purpose), badge(d.status), html(d.document_date),
                         std::to_string(d.versions), when(d.updated_at_ms)});
      body += "<h3>Documents booked</h3>" +
              table({"Kind", "Number", "Purpose", "Status", "Date", "Versions", "Updated"}, cells,
                    "No document booked from this interchange (or a later version replaced it).");
    }
    store::OutboxFilter f;
    f.partner_id = r.partner_id;
    f.reference = r.message_id;
    f.limit = 100;
    ASSIGN_OR_RETURN(std::vector<store::OutboxEntry> out, v.store.list_outbox(f));
    body += "<h3>Sent because of it</h3>" + outbox_table(v, out, back);
  }
  return Rendered{200, "Message " + (m.transport_id.empty() ? "#" + std::to_string(id) : m.transport_id), "/messages",
                  body};
}

Result<Rendered> keys_page(const View& v) {
  std::string state = field(v.query, "state");
  if (state != "failed" && state != "poison") state = "processing";
  const int64_t poison_at = v.context.gate->options().max_failures;
  Result<std::vector<store::KeyRecord>> keys =
      v.store.console().open_keys(state == "poison" ? "failed" : state, state == "poison" ? poison_at : 0, 500);
  if (!keys.is_ok()) return keys.status();
  std::string body = notice_of(v) + "<p>";
  for (const char* s : {"processing", "failed", "poison"})
    body += (state == s ? "<strong>" + html(s) + "</strong>" : link(std::string("/keys?state=") + s, s)) + " ";
  body += "</p>";
  const std::string back = "/keys?state=" + state;
  std::vector<std::vector<std::string>> cells;
  for (const auto& k : keys.value()) {
    if (state == "failed" && poison(v, k)) continue;  // listed under poison
    const std::string lease = k.state == store::KeyState::Processing
                                  ? when(k.lease_until_ms) + (k.lease_until_ms < v.now_ms ? " (expired)" : "")
                                  : "-";
    cells.push_back(
        {html(k.key.partner_id),
         link("/messages?partner=" + url(k.key.partner_id) + "&q=" + url(k.key.message_id), k.key.message_id),
         when(k.received_at_ms), lease, html(k.owner.empty() ? "-" : k.owner), std::to_string(k.attempts),
         std::to_string(k.failures), html(k.error, 400), release_button(v, k, back)});
  }
  body += table({"Partner", "Key", "Received", "Lease until", "Owner", "Attempts", "Failures", "Error", ""}, cells,
                "No " + state + " keys.");
  return Rendered{200, "Keys: " + state, "/keys", body};
}

Result<Rendered> outbox_page(const View& v) {
  store::OutboxFilter f;
  const std::string state = field(v.query, "state");
  if (!state.empty()) f.state = state;
  f.limit = 200;
  ASSIGN_OR_RETURN(std::vector<store::OutboxEntry> rows, v.store.list_outbox(f));
  std::string body = notice_of(v) + "<p>" + link("/outbox", "all") + " ";
  for (const char* s : {"pending", "in-flight", "sent", "failed", "delivered", "cancelled"})
    body += (state == s ? "<strong>" + html(s) + "</strong>" : link(std::string("/outbox?state=") + s, s)) + " ";
  body += "</p>" + outbox_table(v, rows, state.empty() ? "/outbox" : "/outbox?state=" + state);
  return Rendered{200, state.empty() ? "Outbox" : "Outbox: " + state, "/outbox", body};
}

Result<Rendered> partners_page(const View& v) {
  auto certs_of = [&](const std::string& owner) {
    std::string out;
    for (const auto& c : v.context.certificates) {
      if (c.owner != owner) continue;
      const int64_t left = identity::days_left(c, v.now_ms / 1000);
      const bool warn = left < identity::kCertificateWarnDays;
      out += "<div" + std::string(warn ? " class=\"warn\"" : "") + ">" + html(c.use) + ": " + html(c.subject) + ", " +
             (left < 0 ? "expired" : std::to_string(left) + " days left") + "</div>";
    }
    return out.empty() ? std::string("-") : out;
  };
  std::vector<std::vector<std::string>> cells;
  for (const auto& p : v.context.partners->all()) {
    std::string ids;
    for (const auto& a : p.as2.ids) ids += "<div>AS2 " + html(a) + "</div>";
    for (const auto& [id, type] : p.as4.parties)
      ids += "<div>AS4 " + html(type.empty() ? id : type + ":" + id) + "</div>";
    for (const auto& x : p.x12_ids) ids += "<div>X12 " + html(x.qualifier + ":" + x.id) + "</div>";
    for (const auto& e : p.edifact_ids)
      ids += "<div>EDIFACT " + html(e.id + (e.qualifier.empty() ? "" : ":" + e.qualifier)) + "</div>";
    ASSIGN_OR_RETURN(int64_t last, v.store.console().last_received(p.id));
    cells.push_back(
        {link("/messages?partner=" + url(p.id), p.id), html(p.name), ids, certs_of(p.id), last ? when(last) : "never"});
  }
  std::string body = table({"Partner", "Name", "Identifiers", "Certificates", "Last message"}, cells, "No partners.");
  body += "<h2>Our identities</h2><p>" + certs_of("edihub") + "</p>";
  return Rendered{200, "Partners", "/partners", body};
}

Result<Rendered> audit_page(const View& v) {
  ASSIGN_OR_RETURN(std::vector<store::AuditEntry> trail, v.store.console().audit_trail(200));
  std::vector<std::vector<std::string>> cells;
  cells.reserve(trail.size());
  for (const auto& e : trail)
    cells.push_back({std::to_string(e.id), when(e.at_ms), html(e.operator_name), html(e.peer), html(e.action),
                     html(e.target, 500), html(e.result, 500)});
  return Rendered{200, "Audit", "/audit",
                  table({"#", "When", "Operator", "From", "Action", "Target", "Result"}, cells, "No action yet.")};
}

std::string login_page_body(const std::string& error) {
  std::string out = "<form method=\"post\" action=\"/login\" class=\"login\">";
  if (!error.empty()) out += "<p class=\"error-box\" role=\"alert\">" + html(error) + "</p>";
  out +=
      "<label>Name<input name=\"name\" autocomplete=\"username\" required autofocus></label>"
      "<label>Password<input name=\"password\" type=\"password\" autocomplete=\"current-password\" required>"
      "</label><button type=\"submit\">Log in</button></form>";
  return out;
}

}  // namespace edihub::console
