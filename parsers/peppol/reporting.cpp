#include "parsers/peppol/reporting.h"

#include <pugixml.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include "parsers/peppol/text.h"

namespace edihub::peppol {

namespace {

// The country codes both reports' Schematron accept (ISO 3166-1 alpha-2 with
// EL for Greece, XI for Northern Ireland, XK and 1A for Kosovo); the TSR's
// list adds ZZ. Sorted, one space apart: code i is at 3 * i.
constexpr std::string_view kCountries =
    "1A AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ "
    "CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH EL ER ES ET FI FJ FK FM FO "
    "FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM "
    "JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ "
    "MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE "
    "RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT "
    "TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XI XK YE YT ZA ZM ZW";

constexpr std::string_view kCertSubjectCn = "CertSubjectCN";  // the one seat id scheme the reports know

bool is_report(const Transaction& t) {
  return t.document_type == kTsrDocumentType || t.document_type == kEusrDocumentType;
}

bool incoming(const Transaction& t) { return t.direction == Transaction::Direction::Incoming; }

// Our end user's country: the receiver's for a document we received, the sender's for one we sent.
const std::string& end_user_country(const Transaction& t) { return incoming(t) ? t.c4_country : t.c1_country; }

std::string tsr_country(const std::string& code) {
  return reportable_country(code) ? code : std::string(kUnknownCountry);
}

// --- Writing ---------------------------------------------------------------

using text::add;
using text::StringWriter;

pugi::xml_node add(pugi::xml_node parent, const char* name, uint64_t count) {
  return add(parent, name, std::to_string(count));
}

void add_key(pugi::xml_node parent, std::string_view meta_scheme, std::string_view scheme, std::string_view value) {
  pugi::xml_node k = add(parent, "Key", value);
  k.append_attribute("metaSchemeID").set_value(std::string(meta_scheme).c_str());
  k.append_attribute("schemeID").set_value(std::string(scheme).c_str());
}

// The declaration, the root in `ns` and what both reports begin with.
pugi::xml_node begin(pugi::xml_document* doc, const char* root_name, std::string_view ns,
                     std::string_view customization_id, const ReportPeriod& period, const std::string& reporter_seat) {
  pugi::xml_node decl = doc->append_child(pugi::node_declaration);
  decl.append_attribute("version").set_value("1.0");
  decl.append_attribute("encoding").set_value("UTF-8");
  pugi::xml_node root = doc->append_child(root_name);
  root.append_attribute("xmlns").set_value(std::string(ns).c_str());
  add(root, "CustomizationID", customization_id);
  add(root, "ProfileID", kReportingProfileId);
  pugi::xml_node header = root.append_child("Header");
  pugi::xml_node p = header.append_child("ReportPeriod");
  add(p, "StartDate", period.start);
  add(p, "EndDate", period.end);
  add(header, "ReporterID", reporter_seat).append_attribute("schemeID").set_value(std::string(kCertSubjectCn).c_str());
  return root;
}

std::string finish(const pugi::xml_document& doc) {
  StringWriter w;
  doc.save(w, "  ", pugi::format_indent, pugi::encoding_utf8);
  return std::move(w.out);
}

// --- TSR -------------------------------------------------------------------

struct Counts {
  uint64_t incoming = 0, outgoing = 0;
  void add(bool in) { ++(in ? incoming : outgoing); }
};

// Keys as arrays of strings: std::map orders them element by element, each
// compared as bytes, which is the report's order.
using SpDtPr = std::array<std::string, 5>;    // SP, DT scheme, DT, PR scheme, PR
using SpDtPrCc = std::array<std::string, 7>;  // ... sender country, receiver country
using DtPr = std::array<std::string, 4>;      // DT scheme, DT, PR scheme, PR
using DtEuc = std::array<std::string, 3>;     // DT scheme, DT, country
using DtPrEuc = std::array<std::string, 5>;   // DT scheme, DT, PR scheme, PR, country

void add_counts(pugi::xml_node n, const Counts& c) {
  add(n, "Incoming", c.incoming);
  add(n, "Outgoing", c.outgoing);
}

pugi::xml_node subtotal(pugi::xml_node root, const char* type) {
  pugi::xml_node s = root.append_child("Subtotal");
  s.append_attribute("type").set_value(type);
  return s;
}

// The SP, DT and PR keys both SP subtotals begin with.
void add_sp_dt_pr(pugi::xml_node s, const std::string* k) {
  add_key(s, "SP", kCertSubjectCn, k[0]);
  add_key(s, "DT", k[1], k[2]);
  add_key(s, "PR", k[3], k[4]);
}

// --- EUSR ------------------------------------------------------------------

// Distinct end users: a set each, as the counts are cardinalities of sets.
struct EndUsers {
  std::set<std::string> sending, receiving, either;
  void add(const std::string& end_user, bool in) {
    (in ? receiving : sending).insert(end_user);
    either.insert(end_user);
  }
};

void add_end_users(pugi::xml_node n, const EndUsers& e) {
  add(n, "SendingEndUsers", e.sending.size());
  add(n, "ReceivingEndUsers", e.receiving.size());
  add(n, "SendingOrReceivingEndUsers", e.either.size());
}

pugi::xml_node subset(pugi::xml_node root, const char* type) {
  pugi::xml_node s = root.append_child("Subset");
  s.append_attribute("type").set_value(type);
  return s;
}

void add_country_key(pugi::xml_node s, const std::string& country) { add_key(s, "CC", "EndUserCountry", country); }

}  // namespace

std::string build_tsr(const std::vector<Transaction>& transactions, const ReportPeriod& period,
                      const std::string& reporter_seat) {
  Counts total;
  std::map<std::string, Counts> per_tp;
  std::map<SpDtPr, Counts> per_sp_dt_pr;
  std::map<SpDtPrCc, Counts> per_sp_dt_pr_cc;
  for (const Transaction& t : transactions) {
    if (is_report(t)) continue;
    const bool in = incoming(t);
    total.add(in);
    per_tp[t.transport_profile].add(in);
    per_sp_dt_pr[{t.other_sp, t.document_type_scheme, t.document_type, t.process_scheme, t.process}].add(in);
    // Only the receiving side knows both countries: the spec keeps this
    // subtotal to incoming documents (its Outgoing is always 0).
    if (in)
      per_sp_dt_pr_cc[{t.other_sp, t.document_type_scheme, t.document_type, t.process_scheme, t.process,
                       tsr_country(t.c1_country), tsr_country(t.c4_country)}]
          .add(in);
  }

  pugi::xml_document doc;
  pugi::xml_node root = begin(&doc, "TransactionStatisticsReport", kTsrNs, kTsrCustomizationId, period, reporter_seat);
  add_counts(root.append_child("Total"), total);
  for (const auto& [tp, c] : per_tp) {
    pugi::xml_node s = subtotal(root, "PerTP");
    add_key(s, "TP", "Peppol", tp);
    add_counts(s, c);
  }
  for (const auto& [k, c] : per_sp_dt_pr) {
    pugi::xml_node s = subtotal(root, "PerSP-DT-PR");
    add_sp_dt_pr(s, k.data());
    add_counts(s, c);
  }
  for (const auto& [k, c] : per_sp_dt_pr_cc) {
    pugi::xml_node s = subtotal(root, "PerSP-DT-PR-CC");
    add_sp_dt_pr(s, k.data());
    add_key(s, "CC", "SenderCountry", k[5]);
    add_key(s, "CC", "ReceiverCountry", k[6]);
    add_counts(s, c);
  }
  return finish(doc);
}

std::string build_eusr(const std::vector<Transaction>& transactions, const ReportPeriod& period,
                       const std::string& reporter_seat) {
  EndUsers full;
  std::map<DtPr, EndUsers> per_dt_pr;
  std::map<std::string, EndUsers> per_euc;
  std::map<DtEuc, EndUsers> per_dt_euc;
  std::map<DtPrEuc, EndUsers> per_dt_pr_euc;
  for (const Transaction& t : transactions) {
    // An MLS is left out as phax/peppol-reporting does (citing OpenPeppol's
    // operational guideline on MLS, which these specs do not contain).
    if (is_report(t) || t.document_type == kMlsDocumentType || t.end_user.empty()) continue;
    const bool in = incoming(t);
    full.add(t.end_user, in);
    per_dt_pr[{t.document_type_scheme, t.document_type, t.process_scheme, t.process}].add(t.end_user, in);
    // The spec is silent on an end user whose country is unknown, and its code
    // list has no "ZZ": such an end user counts where no country is keyed.
    const std::string& country = end_user_country(t);
    if (!reportable_country(country)) continue;
    per_euc[country].add(t.end_user, in);
    per_dt_euc[{t.document_type_scheme, t.document_type, country}].add(t.end_user, in);
    per_dt_pr_euc[{t.document_type_scheme, t.document_type, t.process_scheme, t.process, country}].add(t.end_user, in);
  }

  pugi::xml_document doc;
  pugi::xml_node root = begin(&doc, "EndUserStatisticsReport", kEusrNs, kEusrCustomizationId, period, reporter_seat);
  add_end_users(root.append_child("FullSet"), full);
  for (const auto& [k, e] : per_dt_pr) {
    pugi::xml_node s = subset(root, "PerDT-PR");
    add_key(s, "DT", k[0], k[1]);
    add_key(s, "PR", k[2], k[3]);
    add_end_users(s, e);
  }
  for (const auto& [country, e] : per_euc) {
    pugi::xml_node s = subset(root, "PerEUC");
    add_country_key(s, country);
    add_end_users(s, e);
  }
  for (const auto& [k, e] : per_dt_euc) {
    pugi::xml_node s = subset(root, "PerDT-EUC");
    add_key(s, "DT", k[0], k[1]);
    add_country_key(s, k[2]);
    add_end_users(s, e);
  }
  for (const auto& [k, e] : per_dt_pr_euc) {
    pugi::xml_node s = subset(root, "PerDT-PR-EUC");
    add_key(s, "DT", k[0], k[1]);
    add_key(s, "PR", k[2], k[3]);
    add_country_key(s, k[4]);
    add_end_users(s, e);
  }
  return finish(doc);
}

bool month_period(std::string_view month, ReportPeriod* out) {
  if (month.size() != 7 || month[4] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6})
    if (month[i] < '0' || month[i] > '9') return false;
  const int year = (month[0] - '0') * 1000 + (month[1] - '0') * 100 + (month[2] - '0') * 10 + (month[3] - '0');
  const int m = (month[5] - '0') * 10 + (month[6] - '0');
  if (year == 0 || m < 1 || m > 12) return false;
  const int last = text::days_in_month(year, m);
  out->start = std::string(month) + "-01";
  out->end = std::string(month) + "-" + std::to_string(last);
  return true;
}

bool reportable_country(std::string_view code) {
  if (code.size() != 2) return false;
  for (size_t i = 0; i < kCountries.size(); i += 3)
    if (kCountries.substr(i, 2) == code) return true;
  return false;
}

bool seat_id(std::string_view s) {
  if (s.size() != 9 || s[0] != 'P') return false;
  for (size_t i = 1; i < 3; ++i)
    if (s[i] < 'A' || s[i] > 'Z') return false;
  for (size_t i = 3; i < 9; ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

std::vector<std::string> transaction_problems(const Transaction& t) {
  std::vector<std::string> out;
  if (is_report(t)) return out;  // counted in neither report
  auto missing = [&](const std::string& v, const char* name) {
    if (v.empty()) out.push_back(std::string(name) + " missing");
  };
  missing(t.transport_profile, "transport_profile");
  if (!seat_id(t.other_sp)) out.push_back("other_sp '" + t.other_sp + "' is not a seat id (P, 2 letters, 6 digits)");
  missing(t.document_type_scheme, "document_type_scheme");
  missing(t.document_type, "document_type");
  missing(t.process_scheme, "process_scheme");
  missing(t.process, "process");
  auto country = [&](const std::string& v, const char* name, const char* consequence) {
    if (!reportable_country(v))
      out.push_back(std::string(name) + (v.empty() ? " missing" : " '" + v + "' is not in the code list") + ": " +
                    consequence);
  };
  const bool in_eusr = t.document_type != kMlsDocumentType;
  if (incoming(t)) {
    country(t.c1_country, "c1_country", "the TSR writes ZZ");
    country(t.c4_country, "c4_country",
            in_eusr ? "the TSR writes ZZ, the EUSR counts the end user in no country" : "the TSR writes ZZ");
  } else if (in_eusr) {
    country(t.c1_country, "c1_country", "the EUSR counts the end user in no country");
  }
  if (in_eusr && t.end_user.empty()) out.push_back("end_user missing: the EUSR leaves the document out");
  return out;
}

}  // namespace edihub::peppol
