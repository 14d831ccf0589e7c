// The monthly Peppol reports (TSR 1.0, EUSR 1.1): the exact XML for a small
// month worked out by hand, the empty month, what neither report counts, the
// rules OpenPeppol's Schematron checks (sums, distinct end users, no empty or
// repeated subtotal) on a larger random month, order independence, and the
// calendar month as a period.
#include <doctest/doctest.h>

#include <pugixml.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "parsers/peppol/reporting.h"

using namespace edihub;
using peppol::Transaction;

namespace {

constexpr const char* kInvoice =
    "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#"
    "urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1";
constexpr const char* kCreditNote =
    "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:cen.eu:en16931:2017#compliant#"
    "urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1";
constexpr const char* kBilling = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0";
constexpr const char* kSeat = "PNO000042";

Transaction in(const char* sp, const char* doc, const char* c1, const char* c4, const char* end_user) {
  Transaction t;
  t.direction = Transaction::Direction::Incoming;
  t.transport_profile = "peppol-transport-as4-v2_0";
  t.other_sp = sp;
  t.document_type_scheme = "busdox-docid-qns";
  t.document_type = doc;
  t.process_scheme = "cenbii-procid-ubl";
  t.process = kBilling;
  t.c1_country = c1;
  t.c4_country = c4;
  t.end_user = end_user;
  return t;
}

Transaction out(const char* sp, const char* doc, const char* c1, const char* end_user) {
  Transaction t = in(sp, doc, c1, "", end_user);
  t.direction = Transaction::Direction::Outgoing;
  return t;
}

peppol::ReportPeriod november() {
  peppol::ReportPeriod p;
  REQUIRE(peppol::month_period("2026-11", &p));
  return p;
}

// Our end users A (0192:111) and B (0192:222) receive in Norway, D (0007:444)
// in Sweden; A and C (0192:333) send from Norway. A takes part five times, C
// twice: each is one end user. One sender left COUNTRY_C1 out.
std::vector<Transaction> month() {
  return {
      in("POP000001", kInvoice, "SE", "NO", "0192:111"),     // 1
      in("POP000001", kInvoice, "SE", "NO", "0192:111"),     // 2: A again
      in("POP000002", kInvoice, "", "NO", "0192:222"),       // 3: no C1 country
      in("POP000001", kCreditNote, "DK", "NO", "0192:111"),  // 4
      out("POP000002", kInvoice, "NO", "0192:111"),          // 5: A sends
      out("POP000002", kInvoice, "NO", "0192:333"),          // 6
      out("POP000001", kCreditNote, "NO", "0192:333"),       // 7: C again
      in("POP000002", kInvoice, "NO", "SE", "0007:444"),     // 8
  };
}

std::string head(const char* root, const char* ns, const char* customization) {
  return std::string("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<") + root + " xmlns=\"" + ns +
         "\">\n"
         "  <CustomizationID>" +
         customization +
         "</CustomizationID>\n"
         "  <ProfileID>urn:fdc:peppol.eu:edec:bis:reporting:1.0</ProfileID>\n"
         "  <Header>\n"
         "    <ReportPeriod>\n"
         "      <StartDate>2026-11-01</StartDate>\n"
         "      <EndDate>2026-11-30</EndDate>\n"
         "    </ReportPeriod>\n"
         "    <ReporterID schemeID=\"CertSubjectCN\">PNO000042</ReporterID>\n"
         "  </Header>\n";
}

std::string tsr_head() {
  return head("TransactionStatisticsReport", "urn:fdc:peppol:transaction-statistics-report:1.0",
              "urn:fdc:peppol.eu:edec:trns:transaction-statistics-reporting:1.0");
}

std::string eusr_head() {
  return head("EndUserStatisticsReport", "urn:fdc:peppol:end-user-statistics-report:1.1",
              "urn:fdc:peppol.eu:edec:trns:end-user-statistics-report:1.1");
}

std::string key(const char* meta, const char* scheme, const std::string& value) {
  return std::string("    <Key metaSchemeID=\"") + meta + "\" schemeID=\"" + scheme + "\">" + value + "</Key>\n";
}

std::string sp_dt(const char* sp, const char* doc) {
  return key("SP", "CertSubjectCN", sp) + key("DT", "busdox-docid-qns", doc) + key("PR", "cenbii-procid-ubl", kBilling);
}

std::string counts(int incoming, int outgoing) {
  return "    <Incoming>" + std::to_string(incoming) + "</Incoming>\n    <Outgoing>" + std::to_string(outgoing) +
         "</Outgoing>\n";
}

std::string subtotal(const char* type, const std::string& keys, int incoming, int outgoing) {
  return std::string("  <Subtotal type=\"") + type + "\">\n" + keys + counts(incoming, outgoing) + "  </Subtotal>\n";
}

std::string cc(const char* sender, const char* receiver) {
  return key("CC", "SenderCountry", sender) + key("CC", "ReceiverCountry", receiver);
}

std::string users(int sending, int receiving, int either) {
  return "    <SendingEndUsers>" + std::to_string(sending) + "</SendingEndUsers>\n    <ReceivingEndUsers>" +
         std::to_string(receiving) + "</ReceivingEndUsers>\n    <SendingOrReceivingEndUsers>" + std::to_string(either) +
         "</SendingOrReceivingEndUsers>\n";
}

std::string subset(const char* type, const std::string& keys, int sending, int receiving, int either) {
  return std::string("  <Subset type=\"") + type + "\">\n" + keys + users(sending, receiving, either) + "  </Subset>\n";
}

std::string dt(const char* doc) { return key("DT", "busdox-docid-qns", doc); }
std::string pr() { return key("PR", "cenbii-procid-ubl", kBilling); }
std::string euc(const char* country) { return key("CC", "EndUserCountry", country); }

pugi::xml_document parse(const std::string& xml) {
  pugi::xml_document doc;
  REQUIRE(doc.load_buffer(xml.data(), xml.size()));
  return doc;
}

uint64_t number(const pugi::xml_node& n, const char* child) {
  REQUIRE(n.child(child));
  return std::stoull(n.child_value(child));
}

// A subtotal's or subset's identity: its type and every key with its schemes.
std::string identity(const pugi::xml_node& n) {
  std::string id = n.attribute("type").value();
  for (pugi::xml_node k : n.children("Key"))
    id += std::string("|") + k.attribute("metaSchemeID").value() + "/" + k.attribute("schemeID").value() + "=" +
          k.child_value();
  return id;
}

// What the TSR Schematron checks: per kind, the sums against Total (PerSP-DT-PR-CC:
// incoming only, outgoing 0), no repeated key combination, no all-zero subtotal.
void check_tsr_rules(const std::string& xml) {
  pugi::xml_document doc = parse(xml);
  pugi::xml_node root = doc.child("TransactionStatisticsReport");
  const uint64_t total_in = number(root.child("Total"), "Incoming");
  const uint64_t total_out = number(root.child("Total"), "Outgoing");
  std::map<std::string, std::pair<uint64_t, uint64_t>> sums;
  std::set<std::string> seen;
  for (pugi::xml_node s : root.children("Subtotal")) {
    const uint64_t i = number(s, "Incoming"), o = number(s, "Outgoing");
    CHECK(i + o > 0);
    CHECK(seen.insert(identity(s)).second);
    sums[s.attribute("type").value()].first += i;
    sums[s.attribute("type").value()].second += o;
  }
  CHECK(sums.size() == (total_in > 0 ? 3u : total_out > 0 ? 2u : 0u));
  for (const char* type : {"PerTP", "PerSP-DT-PR"}) {
    if (total_in + total_out == 0) break;
    CHECK(sums[type].first == total_in);
    CHECK(sums[type].second == total_out);
  }
  if (total_in > 0) {
    CHECK(sums["PerSP-DT-PR-CC"].first == total_in);
    CHECK(sums["PerSP-DT-PR-CC"].second == 0);
  }
}

struct Users {
  uint64_t sending, receiving, either;
};

Users users_of(const pugi::xml_node& n) {
  return {number(n, "SendingEndUsers"), number(n, "ReceivingEndUsers"), number(n, "SendingOrReceivingEndUsers")};
}

// What the EUSR Schematron checks: the set sizes consistent in FullSet and in
// each subset, no subset larger than the full set, no empty or repeated subset,
// and the three mandatory kinds present once anyone took part.
void check_eusr_rules(const std::string& xml) {
  pugi::xml_document doc = parse(xml);
  pugi::xml_node root = doc.child("EndUserStatisticsReport");
  auto consistent = [](const Users& u) {
    CHECK(u.either >= u.sending);
    CHECK(u.either >= u.receiving);
    CHECK(u.either <= u.sending + u.receiving);
  };
  const Users full = users_of(root.child("FullSet"));
  consistent(full);
  std::set<std::string> seen, types;
  for (pugi::xml_node s : root.children("Subset")) {
    const Users u = users_of(s);
    consistent(u);
    CHECK(u.either > 0);
    CHECK(u.sending <= full.sending);
    CHECK(u.receiving <= full.receiving);
    CHECK(u.either <= full.either);
    CHECK(seen.insert(identity(s)).second);
    types.insert(s.attribute("type").value());
  }
  if (full.either > 0) {
    CHECK(types.count("PerDT-PR") == 1);
    CHECK(types.count("PerDT-EUC") == 1);
    CHECK(types.count("PerEUC") == 1);
  } else {
    CHECK(types.empty());
  }
}

// A month of `n` documents drawn from a few access points, document types,
// processes, countries (some unknown or wrong) and end users.
std::vector<Transaction> random_month(unsigned seed, int n) {
  std::mt19937 rng(seed);
  auto pick = [&](const std::vector<const char*>& from) { return from[rng() % from.size()]; };
  const std::vector<const char*> sps = {"POP000001", "POP000002", "PDE000100", "PBE000007"};
  const std::vector<const char*> docs = {kInvoice, kCreditNote, "urn:x::Order##y::2.1"};
  const std::vector<const char*> countries = {"NO", "SE", "DE", "BE", "", "XX"};
  const std::vector<const char*> end_users = {"0192:1", "0192:2", "0192:3", "0088:4", "0088:5", ""};
  std::vector<Transaction> month;
  for (int i = 0; i < n; ++i) {
    Transaction t = in(pick(sps), pick(docs), pick(countries), pick(countries), pick(end_users));
    if (rng() % 2) t.direction = Transaction::Direction::Outgoing;
    if (rng() % 5 == 0) t.process = "urn:fdc:peppol.eu:poacc:bis:ordering:3";
    if (rng() % 7 == 0) t.transport_profile = "peppol-transport-as4-v3_0";
    month.push_back(t);
  }
  return month;
}

}  // namespace

TEST_CASE("peppol TSR: a month in and out, two access points, two document types, one C1 country missing") {
  const std::string expected = tsr_head() + "  <Total>\n" + counts(5, 3) + "  </Total>\n" +
                               subtotal("PerTP", key("TP", "Peppol", "peppol-transport-as4-v2_0"), 5, 3) +
                               // Per access point and document type: credit notes sort before invoices.
                               subtotal("PerSP-DT-PR", sp_dt("POP000001", kCreditNote), 1, 1) +
                               subtotal("PerSP-DT-PR", sp_dt("POP000001", kInvoice), 2, 0) +
                               subtotal("PerSP-DT-PR", sp_dt("POP000002", kInvoice), 2, 2) +
                               // Incoming only; the envelope without COUNTRY_C1 is ZZ.
                               subtotal("PerSP-DT-PR-CC", sp_dt("POP000001", kCreditNote) + cc("DK", "NO"), 1, 0) +
                               subtotal("PerSP-DT-PR-CC", sp_dt("POP000001", kInvoice) + cc("SE", "NO"), 2, 0) +
                               subtotal("PerSP-DT-PR-CC", sp_dt("POP000002", kInvoice) + cc("NO", "SE"), 1, 0) +
                               subtotal("PerSP-DT-PR-CC", sp_dt("POP000002", kInvoice) + cc("ZZ", "NO"), 1, 0) +
                               "</TransactionStatisticsReport>\n";
  const std::string tsr = peppol::build_tsr(month(), november(), kSeat);
  CHECK(tsr == expected);
  check_tsr_rules(tsr);
}

TEST_CASE("peppol EUSR: the same month counts each end user once per set") {
  // Sending: A, C. Receiving: A, B, D. Either: A, B, C, D. Norway: A, B, C; Sweden: D.
  const std::string expected =
      eusr_head() + "  <FullSet>\n" + users(2, 3, 4) + "  </FullSet>\n" +
      subset("PerDT-PR", dt(kCreditNote) + pr(), 1, 1, 2) + subset("PerDT-PR", dt(kInvoice) + pr(), 2, 3, 4) +  //
      subset("PerEUC", euc("NO"), 2, 2, 3) +                                                                    //
      subset("PerEUC", euc("SE"), 0, 1, 1) + subset("PerDT-EUC", dt(kCreditNote) + euc("NO"), 1, 1, 2) +
      subset("PerDT-EUC", dt(kInvoice) + euc("NO"), 2, 2, 3) + subset("PerDT-EUC", dt(kInvoice) + euc("SE"), 0, 1, 1) +
      subset("PerDT-PR-EUC", dt(kCreditNote) + pr() + euc("NO"), 1, 1, 2) +
      subset("PerDT-PR-EUC", dt(kInvoice) + pr() + euc("NO"), 2, 2, 3) +
      subset("PerDT-PR-EUC", dt(kInvoice) + pr() + euc("SE"), 0, 1, 1) + "</EndUserStatisticsReport>\n";
  const std::string eusr = peppol::build_eusr(month(), november(), kSeat);
  CHECK(eusr == expected);
  check_eusr_rules(eusr);
}

TEST_CASE("peppol reports: an empty month is a report with zero counts and nothing else") {
  // Both specs: the report is sent even for a month without exchanges; a
  // subtotal or subset with nothing in it is never written.
  CHECK(peppol::build_tsr({}, november(), kSeat) ==
        tsr_head() + "  <Total>\n" + counts(0, 0) + "  </Total>\n</TransactionStatisticsReport>\n");
  CHECK(peppol::build_eusr({}, november(), kSeat) ==
        eusr_head() + "  <FullSet>\n" + users(0, 0, 0) + "  </FullSet>\n</EndUserStatisticsReport>\n");
}

TEST_CASE("peppol reports: the reports themselves count in neither, an MLS in the TSR only") {
  Transaction tsr = out("POP000001", "", "NO", "0192:111");
  tsr.document_type = std::string(peppol::kTsrDocumentType);
  Transaction eusr = tsr;
  eusr.document_type = std::string(peppol::kEusrDocumentType);
  Transaction mls = out("POP000001", "", "NO", "0192:111");
  mls.document_type = std::string(peppol::kMlsDocumentType);
  mls.process = "urn:peppol:edec:mls";

  CHECK(peppol::build_tsr({tsr, eusr}, november(), kSeat) == peppol::build_tsr({}, november(), kSeat));
  CHECK(peppol::build_eusr({tsr, eusr, mls}, november(), kSeat) == peppol::build_eusr({}, november(), kSeat));
  const std::string with_mls = peppol::build_tsr({tsr, mls, eusr}, november(), kSeat);
  CHECK(with_mls.find("<Outgoing>1</Outgoing>") != std::string::npos);
  CHECK(with_mls.find(std::string(">") + std::string(peppol::kMlsDocumentType) + "</Key>") != std::string::npos);
  check_tsr_rules(with_mls);
}

TEST_CASE("peppol reports: an unknown receiver country is ZZ in the TSR and no country in the EUSR") {
  const std::vector<Transaction> month = {in("POP000001", kInvoice, "SE", "", "0192:111"),
                                          in("POP000001", kInvoice, "SE", "NO", "0192:222"),
                                          out("POP000001", kInvoice, "no", "0192:333")};
  const std::string tsr = peppol::build_tsr(month, november(), kSeat);
  CHECK(tsr.find(sp_dt("POP000001", kInvoice) + cc("SE", "ZZ") + counts(1, 0)) != std::string::npos);
  check_tsr_rules(tsr);

  // The end users without a country (the first's C4, the third's C1 in lower
  // case) are in FullSet and PerDT-PR, and in no country's subset.
  const std::string eusr = peppol::build_eusr(month, november(), kSeat);
  CHECK(eusr == eusr_head() + "  <FullSet>\n" + users(1, 2, 3) + "  </FullSet>\n" +
                    subset("PerDT-PR", dt(kInvoice) + pr(), 1, 2, 3) + subset("PerEUC", euc("NO"), 0, 1, 1) +
                    subset("PerDT-EUC", dt(kInvoice) + euc("NO"), 0, 1, 1) +
                    subset("PerDT-PR-EUC", dt(kInvoice) + pr() + euc("NO"), 0, 1, 1) + "</EndUserStatisticsReport>\n");
  check_eusr_rules(eusr);
}

TEST_CASE("peppol reports: the same documents in any order give the same bytes") {
  std::vector<Transaction> month = ::month();
  const std::string tsr = peppol::build_tsr(month, november(), kSeat);
  const std::string eusr = peppol::build_eusr(month, november(), kSeat);
  std::mt19937 rng(7);
  for (int round = 0; round < 50; ++round) {
    std::shuffle(month.begin(), month.end(), rng);
    CHECK(peppol::build_tsr(month, november(), kSeat) == tsr);
    CHECK(peppol::build_eusr(month, november(), kSeat) == eusr);
  }
  std::vector<Transaction> big = random_month(11, 500);
  const std::string big_tsr = peppol::build_tsr(big, november(), kSeat);
  const std::string big_eusr = peppol::build_eusr(big, november(), kSeat);
  std::reverse(big.begin(), big.end());
  CHECK(peppol::build_tsr(big, november(), kSeat) == big_tsr);
  CHECK(peppol::build_eusr(big, november(), kSeat) == big_eusr);
}

TEST_CASE("peppol reports: random months keep every Schematron sum and set rule") {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    CAPTURE(seed);
    const std::vector<Transaction> month = random_month(seed, static_cast<int>(seed) * 13);
    check_tsr_rules(peppol::build_tsr(month, november(), kSeat));
    check_eusr_rules(peppol::build_eusr(month, november(), kSeat));
  }
}

TEST_CASE("peppol reports: elements in the order of the XSDs") {
  auto names = [](const pugi::xml_node& n) {
    std::vector<std::string> v;
    for (pugi::xml_node c : n.children()) v.push_back(c.name());
    return v;
  };
  using V = std::vector<std::string>;
  pugi::xml_document tsr = parse(peppol::build_tsr(month(), november(), kSeat));
  pugi::xml_node t = tsr.child("TransactionStatisticsReport");
  V root = names(t);
  REQUIRE(root.size() == 4 + 8);
  CHECK(V(root.begin(), root.begin() + 5) == V{"CustomizationID", "ProfileID", "Header", "Total", "Subtotal"});
  CHECK(names(t.child("Header")) == V{"ReportPeriod", "ReporterID"});
  CHECK(names(t.child("Header").child("ReportPeriod")) == V{"StartDate", "EndDate"});
  CHECK(names(t.child("Total")) == V{"Incoming", "Outgoing"});
  CHECK(names(t.child("Subtotal")) == V{"Key", "Incoming", "Outgoing"});

  pugi::xml_document eusr = parse(peppol::build_eusr(month(), november(), kSeat));
  pugi::xml_node e = eusr.child("EndUserStatisticsReport");
  root = names(e);
  CHECK(V(root.begin(), root.begin() + 5) == V{"CustomizationID", "ProfileID", "Header", "FullSet", "Subset"});
  CHECK(names(e.child("FullSet")) == V{"SendingEndUsers", "ReceivingEndUsers", "SendingOrReceivingEndUsers"});
  CHECK(names(e.child("Subset")) ==
        V{"Key", "Key", "SendingEndUsers", "ReceivingEndUsers", "SendingOrReceivingEndUsers"});
}

TEST_CASE("peppol reports: a calendar month as the report period") {
  struct Case {
    const char* month;
    const char* start;
    const char* end;
  };
  for (const Case& c : {Case{"2024-02", "2024-02-01", "2024-02-29"}, Case{"2026-11", "2026-11-01", "2026-11-30"},
                        Case{"2026-02", "2026-02-01", "2026-02-28"}, Case{"2000-02", "2000-02-01", "2000-02-29"},
                        Case{"1900-02", "1900-02-01", "1900-02-28"}, Case{"2026-12", "2026-12-01", "2026-12-31"},
                        Case{"2026-01", "2026-01-01", "2026-01-31"}, Case{"2026-04", "2026-04-01", "2026-04-30"}}) {
    CAPTURE(c.month);
    peppol::ReportPeriod p;
    REQUIRE(peppol::month_period(c.month, &p));
    CHECK(p.start == c.start);
    CHECK(p.end == c.end);
  }
  for (const char* bad : {"", "2026", "2026-1", "2026-13", "2026-00", "0000-01", "2026/11", "2026-11-01", "+026-11",
                          " 2026-11", "2026-1a", "26-11", "2026--1", "20261-1"}) {
    CAPTURE(bad);
    peppol::ReportPeriod p{"untouched", "untouched"};
    CHECK_FALSE(peppol::month_period(bad, &p));
    CHECK(p.start == "untouched");
    CHECK(p.end == "untouched");
  }
}

TEST_CASE("peppol reports: country codes, seat ids and the problems an operator is told of") {
  for (const char* good : {"NO", "SE", "EL", "XI", "XK", "1A", "ZW", "AD"}) CHECK(peppol::reportable_country(good));
  for (const char* bad : {"ZZ", "no", "XX", "N", "NOR", "", "UK"}) CHECK_FALSE(peppol::reportable_country(bad));
  CHECK(peppol::seat_id("POP000123"));
  CHECK(peppol::seat_id("PDE999999"));
  for (const char* bad : {"", "pop000123", "POP00012", "POP0001234", "PoP000123", "XOP000123", "POP00012A"})
    CHECK_FALSE(peppol::seat_id(bad));

  CHECK(peppol::transaction_problems(in("POP000001", kInvoice, "SE", "NO", "0192:1")).empty());
  CHECK(peppol::transaction_problems(out("POP000001", kInvoice, "NO", "0192:1")).empty());  // C4 is not ours to know
  CHECK(peppol::transaction_problems(in("POP000001", kInvoice, "", "NO", "0192:1")) ==
        std::vector<std::string>{"c1_country missing: the TSR writes ZZ"});
  CHECK(peppol::transaction_problems(in("POP000001", kInvoice, "SE", "XX", "0192:1")) ==
        std::vector<std::string>{
            "c4_country 'XX' is not in the code list: the TSR writes ZZ, the EUSR counts the end user in no country"});
  CHECK(peppol::transaction_problems(out("POP000001", kInvoice, "", "")) ==
        std::vector<std::string>{"c1_country missing: the EUSR counts the end user in no country",
                                 "end_user missing: the EUSR leaves the document out"});
  Transaction bare;
  CHECK(peppol::transaction_problems(bare) ==
        std::vector<std::string>{"transport_profile missing", "other_sp '' is not a seat id (P, 2 letters, 6 digits)",
                                 "document_type_scheme missing", "document_type missing", "process_scheme missing",
                                 "process missing", "c1_country missing: the TSR writes ZZ",
                                 "c4_country missing: the TSR writes ZZ, the EUSR counts the end user in no country",
                                 "end_user missing: the EUSR leaves the document out"});
  Transaction report = bare;
  report.document_type = std::string(peppol::kEusrDocumentType);
  CHECK(peppol::transaction_problems(report).empty());
}
