// `edihub outbox`: what the gateway has to send, for the operator: listed
// with its state, last error and next attempt; one row retried now or
// cancelled, the action written to the message log.
#include <Poco/JSON/Object.h>

#include <ostream>

#include "src/cli/commands.h"
#include "src/cli/duration.h"
#include "src/cli/store_args.h"
#include "src/common/partner_text.h"

namespace edihub::cli {

namespace {

void print(std::ostream& out, bool json, const store::OutboxEntry& e) {
  if (json) {
    Poco::JSON::Object o(Poco::JSON_PRESERVE_KEY_ORDER);
    o.set("id", e.id);
    o.set("partner", e.item.partner_id);
    o.set("kind", e.item.kind);
    o.set("channel", e.item.channel);
    o.set("destination", partner_text(e.item.destination, 2048));
    o.set("message_id", partner_text(e.item.message_id, 300));
    o.set("reference", partner_text(e.item.reference, 300));
    o.set("state", e.state);
    o.set("attempts", e.attempts);
    o.set("created_at", iso_utc(e.created_at_ms));
    o.set("next_attempt_at", e.state == "pending" || e.state == "in-flight" ? iso_utc(e.next_attempt_ms) : "-");
    if (!e.last_error.empty()) o.set("last_error", partner_text(e.last_error, 1000));
    if (e.delivered_at_ms) o.set("delivered_at", iso_utc(e.delivered_at_ms));
    o.stringify(out);
    out << "\n";
    return;
  }
  out << e.id << "  " << e.state << "  " << e.item.partner_id << "  " << e.item.kind << " via " << e.item.channel
      << " to " << partner_text(e.item.destination, 200) << "  " << partner_text(e.item.message_id, 200)
      << "  attempts " << e.attempts;
  if (e.state == "pending" || e.state == "in-flight") out << ", next " << iso_utc(e.next_attempt_ms);
  if (!e.last_error.empty()) out << ", last error: " << partner_text(e.last_error, 300);
  out << "\n";
}

int64_t parse_id(const std::string& text) {
  char* end = nullptr;
  const long long id = std::strtoll(text.c_str(), &end, 10);
  return end == text.c_str() || *end != '\0' || id < 1 ? 0 : id;
}

}  // namespace

const CommandSpec& outbox_spec() {
  static const CommandSpec spec{
      "outbox",
      "Lists what the gateway has to send, and retries or cancels one row.\n"
      "`edihub outbox` lists rows newest first (state, channel, destination, attempts, next\n"
      "attempt, last error); `edihub outbox retry ID` makes a pending or failed row due now;\n"
      "`edihub outbox cancel ID` makes it never sent. Each action is written to the message log.",
      "[retry ID | cancel ID]",
      0,
      {db_option(),
       {"partner", "ID", "only this partner's rows"},
       {"state", "STATE", "only rows in this state: pending, in-flight, sent, delivered, failed, cancelled"},
       {"limit", "N", "at most N rows, default 100"},
       {"json", "", "one JSON object per row"}}};
  return spec;
}

int run_outbox(const Args& args, std::ostream& out, std::ostream& err) {
  int exit_code = kOk;
  const std::string action = args.positional.empty() ? "list" : args.positional[0];
  if (action != "list" && action != "retry" && action != "cancel") {
    err << "edihub outbox: unknown action '" << action << "' (list, retry ID or cancel ID)\n";
    return kUsage;
  }
  auto store = open_store_from(args, err, "outbox", &exit_code);
  if (!store) return exit_code;
  if (action == "list") {
    store::OutboxFilter filter;
    if (!args.value("partner").empty()) filter.partner_id = args.value("partner");
    if (!args.value("state").empty()) filter.state = args.value("state");
    if (!args.value("limit").empty()) filter.limit = std::atoi(args.value("limit").c_str());
    auto rows = store->list_outbox(filter);
    if (!rows.is_ok()) {
      err << "edihub outbox: " << rows.status().message() << "\n";
      return kStoreUnavailable;
    }
    for (const auto& e : rows.value()) print(out, args.flag("json"), e);
    return kOk;
  }
  const int64_t id = args.positional.size() == 2 ? parse_id(args.positional[1]) : 0;
  if (id == 0) {
    err << "edihub outbox " << action << ": give one row id\n";
    return kUsage;
  }
  auto row = store->outbox_entry(id);
  if (!row.is_ok()) {
    err << "edihub outbox: " << row.status().message() << "\n";
    return kStoreUnavailable;
  }
  if (!row.value()) {
    err << "edihub outbox: no row " << id << "\n";
    return kProblems;
  }
  Result<bool> acted = action == "retry" ? store->outbox_retry_now(id) : store->outbox_cancel(id);
  if (!acted.is_ok()) {
    err << "edihub outbox: " << acted.status().message() << "\n";
    return kStoreUnavailable;
  }
  if (!acted.value()) {
    err << "edihub outbox " << action << ": row " << id << " is " << row.value()->state
        << " (only pending and failed rows can be " << (action == "retry" ? "retried" : "cancelled") << ")\n";
    return kProblems;
  }
  // The operator's action, in the message log with the row it concerns.
  store::MessageLog entry;
  entry.partner_id = row.value()->item.partner_id;
  entry.protocol = "outbox";
  entry.transport = "cli";
  entry.transport_id = "outbox:" + std::to_string(id);
  entry.message_id = row.value()->item.message_id;
  entry.outcome = Outcome::Processed;
  entry.detail = std::string("operator ") + (action == "retry" ? "retried" : "cancelled") + " outbox row " +
                 std::to_string(id) + " (" + row.value()->item.kind + " to " + row.value()->item.destination + ")";
  if (Status s = store->log({entry}); !s.is_ok()) err << "edihub outbox: the action was not logged: " << s.message() << "\n";
  out << "outbox row " << id << (action == "retry" ? " is due now" : " is cancelled") << "\n";
  return kOk;
}

}  // namespace edihub::cli
