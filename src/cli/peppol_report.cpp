// `edihub peppol-report tsr|eusr --month YYYY-MM`: the monthly Peppol reports
// (Transaction Statistics, End User Statistics) of the documents this access
// point exchanged, from the store's peppol_exchanges rows.
#include <ctime>
#include <ostream>
#include <set>
#include <string_view>

#include "parsers/peppol/reporting.h"
#include "src/cli/commands.h"
#include "src/cli/store_args.h"

namespace edihub::cli {

namespace {

// The number written by the digits of `s` (month_period checked them).
int digits(std::string_view s) {
  int v = 0;
  for (char c : s) v = v * 10 + (c - '0');
  return v;
}

// Milliseconds since the epoch at 00:00 UTC of YYYY-MM-DD.
int64_t day_start_ms(std::string_view date) {
  struct tm tm {};
  tm.tm_year = digits(date.substr(0, 4)) - 1900;
  tm.tm_mon = digits(date.substr(5, 2)) - 1;
  tm.tm_mday = digits(date.substr(8, 2));
  return static_cast<int64_t>(timegm(&tm)) * 1000;
}

peppol::Transaction transaction_of(const store::PeppolExchange& e) {
  peppol::Transaction t;
  t.direction =
      e.direction == "outgoing" ? peppol::Transaction::Direction::Outgoing : peppol::Transaction::Direction::Incoming;
  t.transport_profile = e.transport_profile;
  t.other_sp = e.other_sp;
  t.document_type_scheme = e.document_type_scheme;
  t.document_type = e.document_type;
  t.process_scheme = e.process_scheme;
  t.process = e.process;
  t.c1_country = e.c1_country;
  t.c4_country = e.c4_country;
  t.end_user = t.direction == peppol::Transaction::Direction::Incoming ? e.receiver : e.sender;
  return t;
}

}  // namespace

const CommandSpec& peppol_report_spec() {
  static const CommandSpec spec{
      "peppol-report",
      "Prints a monthly Peppol report of the documents this access point exchanged.\n"
      "tsr: the Transaction Statistics Report (1.0); eusr: the End User Statistics Report\n"
      "(1.1), as XML on stdout, for the month given in UTC. What the reports cannot carry as\n"
      "OpenPeppol validates them (a country unknown, an access point id that is no seat id) is\n"
      "said on stderr. Exit 0, 1 when there was such a problem, 2 usage, 3 store unavailable.",
      "tsr|eusr",
      1,
      {db_option(),
       {"month", "YYYY-MM", "the calendar month reported (UTC)"},
       {"config", "FILE", "gateway config: its <peppol seat> is the reporter, its store is read (unless --db)"}}};
  return spec;
}

int run_peppol_report(const Args& command_line, std::ostream& out, std::ostream& err) {
  const std::string kind = command_line.positional.at(0);
  if (kind != "tsr" && kind != "eusr") {
    err << "edihub peppol-report: the report is tsr or eusr, not '" << kind << "'\n";
    return kUsage;
  }
  peppol::ReportPeriod period;
  if (!peppol::month_period(command_line.value("month"), &period)) {
    err << "edihub peppol-report: --month must be a calendar month YYYY-MM, not '" << command_line.value("month")
        << "'\n";
    return kUsage;
  }
  std::optional<GatewayArgs> gw = gateway_args(command_line, err, "peppol-report");
  if (!gw) return kUsage;
  if (!gw->gateway.peppol.enabled) {
    err << "edihub peppol-report: the gateway config has no <peppol seat>: whose report would it be?\n";
    return kUsage;
  }
  int exit_code = kOk;
  auto store = open_store_from(gw->args, err, "peppol-report", &exit_code);
  if (!store) return exit_code;
  const int64_t from = day_start_ms(period.start), to = day_start_ms(period.end) + 86400000;
  auto rows = store->peppol_exchanges(from, to);
  if (!rows.is_ok()) {
    err << "edihub peppol-report: " << rows.status().message() << "\n";
    return kStoreUnavailable;
  }
  std::vector<peppol::Transaction> transactions;
  std::set<std::string> problems;
  for (const store::PeppolExchange& e : rows.value()) {
    transactions.push_back(transaction_of(e));
    for (const std::string& p : peppol::transaction_problems(transactions.back())) problems.insert(p);
  }
  const std::string& seat = gw->gateway.peppol.seat;
  out << (kind == "tsr" ? peppol::build_tsr(transactions, period, seat)
                        : peppol::build_eusr(transactions, period, seat));
  for (const std::string& p : problems) err << "edihub peppol-report: " << p << "\n";
  return problems.empty() ? kOk : kProblems;
}

}  // namespace edihub::cli
