// The two monthly Peppol reports a service provider sends OpenPeppol: the
// Transaction Statistics Report (TSR 1.0, spec v1.0.2) and the End User
// Statistics Report (EUSR 1.1, spec v1.1.1). Pure builders: the documents
// exchanged in a month in, the report's XML out; no clock, no I/O, no store.
//
// Sources (docs.peppol.eu/edelivery/specs/reporting/{tsr,eusr}/bis and the
// OpenPeppol edec-reporting sources behind them: XSDs, Schematron TSR 1.0.4 /
// EUSR 1.1.4, the appendix examples):
// - TSR: Total (incoming, outgoing) and three subtotal kinds: PerTP, PerSP-DT-PR
//   (both mandatory once anything was exchanged) and PerSP-DT-PR-CC (incoming
//   only: its Outgoing is always 0; a sending SP never knows the C4 country).
//   The SP key is the other access point: C2 for incoming, C3 for outgoing.
// - EUSR: FullSet and four subset kinds of distinct end users (PerDT-PR,
//   PerEUC, PerDT-EUC, PerDT-PR-EUC), each with sending, receiving and
//   sending-or-receiving counts.
// - Neither report counts TSR or EUSR documents; an empty month still gives a
//   report (zero counts, no subtotals or subsets); a subtotal or subset whose
//   counts are all zero is never written.
// - The spec fixes no order among subtotals or subsets; ours follows the
//   appendix examples (TSR: PerTP, PerSP-DT-PR, PerSP-DT-PR-CC; EUSR: PerDT-PR,
//   PerEUC, PerDT-EUC, PerDT-PR-EUC), each kind sorted by its key values
//   compared as bytes, so the same input in any order gives the same bytes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace edihub::peppol {

inline constexpr std::string_view kTsrNs = "urn:fdc:peppol:transaction-statistics-report:1.0";
inline constexpr std::string_view kEusrNs = "urn:fdc:peppol:end-user-statistics-report:1.1";
inline constexpr std::string_view kTsrCustomizationId =
    "urn:fdc:peppol.eu:edec:trns:transaction-statistics-reporting:1.0";
inline constexpr std::string_view kEusrCustomizationId = "urn:fdc:peppol.eu:edec:trns:end-user-statistics-report:1.1";
inline constexpr std::string_view kReportingProfileId = "urn:fdc:peppol.eu:edec:bis:reporting:1.0";

// The reports' own document type identifiers (scheme busdox-docid-qns), to
// send them over Peppol, and to leave them out of both reports.
inline constexpr std::string_view kTsrDocumentType =
    "urn:fdc:peppol:transaction-statistics-report:1.0::TransactionStatisticsReport##"
    "urn:fdc:peppol.eu:edec:trns:transaction-statistics-reporting:1.0::1.0";
inline constexpr std::string_view kEusrDocumentType =
    "urn:fdc:peppol:end-user-statistics-report:1.1::EndUserStatisticsReport##"
    "urn:fdc:peppol.eu:edec:trns:end-user-statistics-report:1.1::1.1";
// Message Level Status: counted in the TSR, not in the EUSR (see build_eusr).
inline constexpr std::string_view kMlsDocumentType =
    "urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2::ApplicationResponse##"
    "urn:peppol:edec:mls:1.0::2.1";

// The TSR's country code for a sender country that is missing or not in the
// code list (the TSR code list adds it for an SBDH without COUNTRY_C1; the
// EUSR's code list does not have it).
inline constexpr std::string_view kUnknownCountry = "ZZ";

struct Transaction {  // one dataset exchanged with another access point
  enum class Direction { Incoming, Outgoing };
  Direction direction = Direction::Incoming;
  std::string transport_profile;     // "peppol-transport-as4-v2_0"
  std::string other_sp;              // the other access point's seat id (its certificate CN, e.g. "POP000123")
  std::string document_type_scheme;  // "busdox-docid-qns"
  std::string document_type;         // the document type identifier value
  std::string process_scheme;        // "cenbii-procid-ubl"
  std::string process;
  std::string c1_country;  // ISO 3166 alpha-2 from the SBDH COUNTRY_C1 scope; empty: unknown
  std::string c4_country;  // the receiving end user's country (ours for Incoming); empty: unknown
  // Our end user in the exchange: C4 for Incoming, C1 for Outgoing ("0088:...").
  // The EUSR counts distinct values of this: an end user with several
  // participant identifiers must be given one value for all of them.
  std::string end_user;
};

struct ReportPeriod {  // YYYY-MM-DD, inclusive (a calendar month)
  std::string start, end;
};

// The TSR as XML (UTF-8, with an XML declaration, default namespace as in the
// spec's examples), the same bytes for the same transactions in any order.
// `reporter_seat` is our certificate's CN ("POP000360"). Values are written as
// given, except the PerSP-DT-PR-CC countries: a sender (C1) country that is
// empty or not in the code list is written "ZZ", and so is an unknown receiver
// (C4) country, which the spec does not foresee (see transaction_problems).
std::string build_tsr(const std::vector<Transaction>& transactions, const ReportPeriod& period,
                      const std::string& reporter_seat);

// The EUSR likewise. Our end user's country is c4_country for Incoming and
// c1_country for Outgoing. Left out: TSR and EUSR documents, MLS (as the
// reference implementation does: an MLS is the access point's, not an end
// user's), a transaction without end_user; one whose end-user country is
// unknown or not in the code list counts in FullSet and PerDT-PR only (the
// EUSR code list has no "ZZ").
std::string build_eusr(const std::vector<Transaction>& transactions, const ReportPeriod& period,
                       const std::string& reporter_seat);

// The calendar month "2026-11" as a period (2026-11-01 .. 2026-11-30, leap years
// right); false (and `out` untouched) for anything else: another length, a
// sign, month 00 or 13, year 0000.
bool month_period(std::string_view month, ReportPeriod* out);

// Whether `code` is in the reports' country code list (ISO 3166-1 alpha-2 plus
// the spec's additions EL, XI, XK and 1A; without "ZZ").
bool reportable_country(std::string_view code);

// A Peppol seat id as the reports' rules want it: P, two capital letters, six digits.
bool seat_id(std::string_view s);

// What in `t` the reports cannot carry as OpenPeppol validates them, one line
// each ("process missing", "c1_country missing: the TSR writes ZZ"), empty
// when nothing: for the operator before the reports are sent.
std::vector<std::string> transaction_problems(const Transaction& t);

}  // namespace edihub::peppol
