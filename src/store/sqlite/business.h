// The business tables on SQLite: shipment notices and invoices with their
// lines, booked in document-date order; and the sequences counters.
#pragma once

#include "src/business/documents.h"
#include "src/store/sqlite/connection.h"
#include "src/store/transaction.h"
#include "src/store/versions.h"

namespace edihub::store::sqlite {

class Business {
 public:
  explicit Business(Connection& c);

  Result<Applied> put_shipment_notice(const std::string& partner, const business::ShipmentNotice& doc,
                                      const std::string& source, int64_t now_ms);
  Result<Applied> put_invoice(const std::string& partner, const business::Invoice& doc, const std::string& source,
                              int64_t now_ms);
  Result<int64_t> next_sequence(const std::string& name);

 private:
  Result<StoredVersion> version_of(Stmt& select, const std::string& partner, const std::string& number);

  Stmt sn_select_, sn_insert_, sn_replace_, sn_cancel_, sn_delete_lines_, sn_line_;
  Stmt inv_select_, inv_insert_, inv_replace_, inv_cancel_, inv_delete_lines_, inv_line_;
  Stmt sequence_;
};

}  // namespace edihub::store::sqlite
