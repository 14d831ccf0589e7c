// Peppol documents exchanged with other access points, kept for the monthly
// Peppol reports (End User and Transaction Statistics, parsers/peppol/
// reporting.h): one row per document, written in the transaction that books
// it, so a duplicate never counts twice.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace edihub::store {

struct PeppolExchange {
  std::string partner_id, message_id;  // the document's key (peppol:<sender>:<InstanceIdentifier>)
  std::string direction = "incoming";  // or "outgoing"
  int64_t exchanged_at_ms = 0;         // the store's clock when written (set by the store)
  std::string other_sp;                // the other access point's seat id (eb:From of an incoming one)
  std::string transport_profile = "peppol-transport-as4-v2_0";
  std::string document_type_scheme, document_type;  // busdox-docid-qns, the SBDH DOCUMENTID
  std::string process_scheme, process;              // cenbii-procid-ubl, the SBDH PROCESSID
  std::string sender, receiver;                     // C1 and C4 participant identifiers
  std::string c1_country, c4_country;               // ISO 3166 alpha-2; empty: unknown
};

}  // namespace edihub::store

namespace edihub::store {

// The SQL both backends run, with `placeholder` '?' (SQLite) or '$' (PostgreSQL):
// the insert binds the fields in PeppolExchange's order (exchanged_at 4th);
// the select binds from_ms and to_ms and returns the same columns.
std::string exchange_insert_sql(char placeholder);
std::string exchange_select_sql(char placeholder);
// A row of the select: `text(i)` is column i's text; exchanged_at (column 3) is given.
PeppolExchange exchange_of(const std::function<std::string(int)>& text, int64_t exchanged_at_ms);

}  // namespace edihub::store
