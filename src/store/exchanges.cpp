#include "src/store/exchanges.h"

namespace edihub::store {

namespace {

constexpr const char* kColumns =
    "partner_id, message_id, direction, exchanged_at, other_sp, transport_profile, document_type_scheme,"
    " document_type, process_scheme, process, sender, receiver, c1_country, c4_country";

std::string param(char placeholder, int n) { return std::string(1, placeholder) + std::to_string(n); }

}  // namespace

std::string exchange_insert_sql(char placeholder) {
  std::string values;
  for (int i = 1; i <= 14; ++i) values += (i > 1 ? ", " : "") + param(placeholder, i);
  return std::string("INSERT INTO peppol_exchanges (") + kColumns + ") VALUES (" + values + ") ON CONFLICT DO NOTHING";
}

std::string exchange_select_sql(char placeholder) {
  return std::string("SELECT ") + kColumns + " FROM peppol_exchanges WHERE exchanged_at >= " + param(placeholder, 1) +
         " AND exchanged_at < " + param(placeholder, 2) + " ORDER BY exchanged_at, partner_id, message_id";
}

PeppolExchange exchange_of(const std::function<std::string(int)>& text, int64_t exchanged_at_ms) {
  PeppolExchange e;
  e.partner_id = text(0);
  e.message_id = text(1);
  e.direction = text(2);
  e.exchanged_at_ms = exchanged_at_ms;
  e.other_sp = text(4);
  e.transport_profile = text(5);
  e.document_type_scheme = text(6);
  e.document_type = text(7);
  e.process_scheme = text(8);
  e.process = text(9);
  e.sender = text(10);
  e.receiver = text(11);
  e.c1_country = text(12);
  e.c4_country = text(13);
  return e;
}

}  // namespace edihub::store
