// `edihub status`: what the store holds, for an operator at a glance.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <ctime>
#include <ostream>
#include <sstream>
#include <vector>

#include "src/cli/commands.h"
#include "src/cli/duration.h"
#include "src/cli/store_args.h"

namespace edihub::cli {

const CommandSpec& status_spec() {
  static const CommandSpec spec{
      "status",
      "Shows what the store holds: keys, recent outcomes, business rows, size.\n"
      "Idempotency keys by partner, protocol and state, their age, duplicates and conflicts\n"
      "of the last 24 hours, business row counts and the store size; a warning for every\n"
      "certificate in use (ours, the partners') that expires within 30 days.",
      "",
      0,
      {db_option(),
       {"config", "FILE", "gateway config: warn for our certificates expiring within 30 days"},
       partners_option(),
       {"json", "", "print one JSON object"}}};
  return spec;
}

int run_status(const Args& args, std::ostream& out, std::ostream& err) {
  int exit_code = kOk;
  auto store = open_store_from(args, err, "status", &exit_code);
  if (!store) return exit_code;
  auto report = store->report();
  if (!report.is_ok()) {
    err << "edihub status: " << report.status().message() << "\n";
    return kStoreUnavailable;
  }
  const store::StatusReport& r = report.value();
  // Certificates expiring soon; a config or partners dir that cannot be read is not this command's concern.
  std::ostringstream ignored;
  std::vector<identity::CertificateInUse> expiring;
  const std::time_t now = std::time(nullptr);
  if (auto certs = certificates_from(args, ignored, "status"))
    for (const auto& c : *certs)
      if (days_left(c, now) < kCertificateWarnDays) expiring.push_back(c);
  if (args.flag("json")) {
    Poco::JSON::Object o(Poco::JSON_PRESERVE_KEY_ORDER);
    Poco::JSON::Array::Ptr keys = new Poco::JSON::Array;
    for (const auto& k : r.keys) {
      Poco::JSON::Object::Ptr ko = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
      ko->set("partner", k.partner_id);
      ko->set("protocol", k.protocol);
      ko->set("state", k.state);
      ko->set("keys", k.keys);
      keys->add(ko);
    }
    o.set("keys", keys);
    o.set("oldest_received_at",
          r.oldest_received_ms ? Poco::Dynamic::Var(iso_utc(r.oldest_received_ms)) : Poco::Dynamic::Var());
    o.set("newest_received_at",
          r.newest_received_ms ? Poco::Dynamic::Var(iso_utc(r.newest_received_ms)) : Poco::Dynamic::Var());
    Poco::JSON::Object::Ptr day = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
    for (const char* outcome :
         {"processed", "duplicate", "conflict", "rejected", "poison", "in-flight", "error", "archived"}) {
      auto it = r.outcomes_24h.find(outcome);
      day->set(outcome, it == r.outcomes_24h.end() ? 0 : it->second);
    }
    o.set("last_24h", day);
    Poco::JSON::Object::Ptr rows = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
    for (const auto& [table, count] : r.business_rows) rows->set(table, count);
    o.set("rows", rows);
    o.set("store_bytes", r.store_bytes);
    o.set("schema_version", r.schema_version);
    Poco::JSON::Array::Ptr soon = new Poco::JSON::Array;
    for (const auto& c : expiring) {
      Poco::JSON::Object::Ptr co = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
      co->set("owner", c.owner);
      co->set("use", c.use);
      co->set("subject", c.subject);
      co->set("not_after", iso_utc(c.not_after * 1000));
      co->set("days_left", days_left(c, now));
      soon->add(co);
    }
    o.set("certificates_expiring", soon);
    o.stringify(out);
    out << "\n";
    return kOk;
  }
  out << "idempotency keys (partner, protocol, state):\n";
  if (r.keys.empty()) out << "  none\n";
  for (const auto& k : r.keys)
    out << "  " << k.partner_id << "  " << k.protocol << "  " << k.state << "  " << k.keys << "\n";
  out << "received: oldest " << iso_utc(r.oldest_received_ms) << ", newest " << iso_utc(r.newest_received_ms) << "\n";
  out << "last 24h:";
  for (const char* outcome :
       {"processed", "duplicate", "conflict", "rejected", "poison", "in-flight", "error", "archived"}) {
    auto it = r.outcomes_24h.find(outcome);
    out << " " << outcome << " " << (it == r.outcomes_24h.end() ? 0 : it->second);
  }
  out << "\nrows:";
  for (const auto& [table, count] : r.business_rows) out << " " << table << " " << count;
  out << "\nstore: " << r.store_bytes << " bytes, schema version " << r.schema_version << "\n";
  for (const auto& c : expiring)
    out << "warning: certificate " << c.owner << " " << c.use << " " << c.subject << " "
        << (days_left(c, now) < 0 ? "expired" : "expires") << " " << iso_utc(c.not_after * 1000) << " ("
        << days_left(c, now) << " days left): `edihub certs` lists them all\n";
  return kOk;
}

}  // namespace edihub::cli
