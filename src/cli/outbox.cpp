// `edihub outbox`: what the gateway has to send, for the operator: listed
// with its state, last error and next attempt; one row retried now or
// cancelled, the action written to the message log.
#include <Poco/JSON/Object.h>

#include <ostream>

#include "src/protocols/peppol/network.h"
#include "src/cli/commands.h"
#include "src/cli/duration.h"
#include "src/cli/store_args.h"
#include "src/common/partner_text.h"
#include "src/server/gateway_outbox.h"

#include <curl/curl.h>

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

int64_t parse_id(const std::string& text) { return whole_number(text).value_or(0); }

// `edihub outbox run`: what a server would deliver, once, from this process.
int run_once(const Args& command_line, std::ostream& out, std::ostream& err) {
  std::optional<GatewayArgs> ga = gateway_args(command_line, err, "outbox");
  if (!ga) return kUsage;
  config::Gateway* gw = &ga->gateway;
  const Args& args = ga->args;
  gw->store_uri = args.value("db", kDefaultDb);
  auto partners = load_partners_from(args, err, "outbox");
  if (!partners) return kUsage;
  partners->default_documents(gw->documents);
  Result<as2::Settings> as2 = as2::Settings::from_config(*gw, partners.value());
  if (!as2.is_ok()) {
    err << "edihub outbox: " << as2.status().message() << "\n";
    return kUsage;
  }
  auto network = peppol::PeppolNetwork::from_config(*gw, partners.value());
  if (!network.is_ok()) {
    err << "edihub outbox: " << network.status().message() << "\n";
    return kUsage;
  }
  curl_global_init(CURL_GLOBAL_DEFAULT);
  server::GatewayOutbox outbox(*gw, partners.value(), as2.value(), network->get());
  Result<delivery::OutboxDelivery::Drained> d = outbox.delivery().drain();
  if (!d.is_ok()) {
    err << "edihub outbox: " << d.status().message() << "\n";
    return kStoreUnavailable;
  }
  out << "outbox run: " << d->delivered << " delivered, " << d->sent
      << " sent (their MDNs come to a running edihub serve), " << d->retrying << " to retry later, " << d->failed
      << " failed\n";
  return d->retrying > 0 || d->failed > 0 ? kProblems : kOk;
}

}  // namespace

const CommandSpec& outbox_spec() {
  static const CommandSpec spec{
      "outbox",
      "Lists what the gateway has to send, and retries or cancels one row.\n"
      "`edihub outbox` lists rows newest first (state, channel, destination, attempts, next\n"
      "attempt, last error); `edihub outbox retry ID` makes a pending or failed row due now;\n"
      "`edihub outbox cancel ID` makes it never sent. Each action is written to the message log.\n"
      "`edihub outbox run` delivers every row that is due now, one attempt each, as a running\n"
      "server would, and exits: exit 0 when all were delivered or sent, 1 when some are to be\n"
      "retried or failed.",
      "[retry ID | cancel ID | run]",
      0,
      {db_option(),
       partners_option(),
       {"config", "FILE", "run: the gateway config (identity, store, partners, outbox settings)"},
       {"partner", "ID", "only this partner's rows"},
       {"state", "STATE", "only rows in this state: pending, in-flight, sent, delivered, failed, cancelled"},
       integer_option("limit", "N", "at most N rows, 1 to 100000, default 100", 1, 100000),
       {"json", "", "one JSON object per row"}}};
  return spec;
}

int run_outbox(const Args& args, std::ostream& out, std::ostream& err) {
  int exit_code = kOk;
  const std::string action = args.positional.empty() ? "list" : args.positional[0];
  if (action != "list" && action != "retry" && action != "cancel" && action != "run") {
    err << "edihub outbox: unknown action '" << action << "' (list, retry ID, cancel ID or run)\n";
    return kUsage;
  }
  if (action == "run") return run_once(args, out, err);
  auto store = open_store_from(args, err, "outbox", &exit_code);
  if (!store) return exit_code;
  if (action == "list") {
    store::OutboxFilter filter;
    if (!args.value("partner").empty()) filter.partner_id = args.value("partner");
    if (!args.value("state").empty()) filter.state = args.value("state");
    filter.limit = static_cast<int>(*args.integer("limit", 100));  // checked: 1-100000
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
  if (Status s = store->log({entry}); !s.is_ok())
    err << "edihub outbox: the action was not logged: " << s.message() << "\n";
  out << "outbox row " << id << (action == "retry" ? " is due now" : " is cancelled") << "\n";
  return kOk;
}

}  // namespace edihub::cli
