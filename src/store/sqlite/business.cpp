#include "src/store/sqlite/business.h"

#include "src/store/versions.h"

namespace edihub::store::sqlite {

namespace {

Status ran(const Result<int64_t>& r) { return r.is_ok() ? Status::ok() : r.status(); }

}  // namespace

Business::Business(Connection& c)
    : sn_select_(c,
                 "SELECT document_date, purpose FROM shipment_notices WHERE partner_id = ?1 AND document_number = ?2"),
      sn_insert_(c,
                 "INSERT INTO shipment_notices (partner_id, document_number, purpose, status, document_date,"
                 " ship_date, order_number, ship_from, ship_to, carrier, gross_weight, source, versions,"
                 " created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, 1, ?13, ?13)"),
      sn_replace_(c,
                  "UPDATE shipment_notices SET purpose = ?3, status = 'active', document_date = ?5, ship_date = ?6,"
                  " order_number = ?7, ship_from = ?8, ship_to = ?9, carrier = ?10, gross_weight = ?11, source = ?12,"
                  " versions = versions + 1, updated_at = ?13 WHERE partner_id = ?1 AND document_number = ?2"),
      sn_cancel_(c,
                 "UPDATE shipment_notices SET purpose = ?3, status = 'cancelled', document_date = ?4, source = ?5,"
                 " versions = versions + 1, updated_at = ?6 WHERE partner_id = ?1 AND document_number = ?2"),
      sn_delete_lines_(c, "DELETE FROM shipment_notice_lines WHERE partner_id = ?1 AND document_number = ?2"),
      sn_line_(c,
               "INSERT INTO shipment_notice_lines (partner_id, document_number, position, line_number,"
               " item_id, item_id_type, supplier_item, quantity, unit, order_number)"
               " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"),
      inv_select_(c, "SELECT document_date, purpose FROM invoices WHERE partner_id = ?1 AND invoice_number = ?2"),
      inv_insert_(c,
                  "INSERT INTO invoices (partner_id, invoice_number, credit_note, purpose, status, document_date,"
                  " order_number, currency, total_minor, tax_minor, line_total_minor, source, versions,"
                  " created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, 1, ?13, ?13)"),
      inv_replace_(c,
                   "UPDATE invoices SET credit_note = ?3, purpose = ?4, status = 'active', document_date = ?6,"
                   " order_number = ?7, currency = ?8, total_minor = ?9, tax_minor = ?10, line_total_minor = ?11,"
                   " source = ?12, versions = versions + 1, updated_at = ?13"
                   " WHERE partner_id = ?1 AND invoice_number = ?2"),
      inv_cancel_(c,
                  "UPDATE invoices SET purpose = ?3, status = 'cancelled', document_date = ?4, source = ?5,"
                  " versions = versions + 1, updated_at = ?6 WHERE partner_id = ?1 AND invoice_number = ?2"),
      inv_delete_lines_(c, "DELETE FROM invoice_lines WHERE partner_id = ?1 AND invoice_number = ?2"),
      inv_line_(c,
                "INSERT INTO invoice_lines (partner_id, invoice_number, position, line_number, item_id,"
                " item_id_type, quantity, unit, unit_price, amount_minor)"
                " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"),
      sequence_(c,
                "INSERT INTO sequences (name, value) VALUES (?1, 1)"
                " ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value") {}

Result<StoredVersion> Business::version_of(Stmt& select, const std::string& partner, const std::string& number) {
  Using q(select);
  q->bind(1, partner).bind(2, number);
  ASSIGN_OR_RETURN(bool row, q->step());
  StoredVersion v;
  if (row) v = {true, q->text(0), q->text(1)};
  return v;
}

Result<Applied> Business::put_shipment_notice(const std::string& partner, const business::ShipmentNotice& doc,
                                              const std::string& source, int64_t now_ms) {
  ASSIGN_OR_RETURN(StoredVersion stored, version_of(sn_select_, partner, doc.document_number));
  const Applied applied = decide_version(stored, doc.document_date, doc.purpose);
  const std::string purpose(business::purpose_name(doc.purpose));
  if (applied == Applied::IgnoredOlder) return applied;
  if (applied == Applied::Cancelled && stored.exists) {
    Using q(sn_cancel_);
    q->bind(1, partner).bind(2, doc.document_number).bind(3, purpose).bind(4, doc.document_date);
    q->bind(5, source).bind(6, now_ms);
    Status s = ran(q->run());
    return s.is_ok() ? Result<Applied>(applied) : Result<Applied>(s);
  }
  {
    Using q(applied == Applied::Replaced ? sn_replace_ : sn_insert_);
    q->bind(1, partner).bind(2, doc.document_number).bind(3, purpose);
    if (applied != Applied::Replaced) q->bind(4, applied == Applied::Cancelled ? "cancelled" : "active");
    q->bind(5, doc.document_date).bind(6, doc.ship_date).bind(7, doc.order_number).bind(8, doc.ship_from);
    q->bind(9, doc.ship_to).bind(10, doc.carrier).bind(11, doc.gross_weight).bind(12, source).bind(13, now_ms);
    RETURN_IF_ERROR(ran(q->run()));
  }
  if (applied == Applied::Cancelled) return applied;
  if (applied == Applied::Replaced) {
    Using q(sn_delete_lines_);
    q->bind(1, partner).bind(2, doc.document_number);
    RETURN_IF_ERROR(ran(q->run()));
  }
  int64_t position = 0;
  for (const auto& line : doc.lines) {
    Using q(sn_line_);
    q->bind(1, partner).bind(2, doc.document_number).bind(3, ++position).bind(4, int64_t{line.line_number});
    q->bind(5, line.item_id).bind(6, line.item_id_type).bind(7, line.supplier_item).bind(8, line.quantity);
    q->bind(9, line.unit).bind(10, line.order_number);
    RETURN_IF_ERROR(ran(q->run()));
  }
  return applied;
}

Result<Applied> Business::put_invoice(const std::string& partner, const business::Invoice& doc,
                                      const std::string& source, int64_t now_ms) {
  ASSIGN_OR_RETURN(StoredVersion stored, version_of(inv_select_, partner, doc.invoice_number));
  const Applied applied = decide_version(stored, doc.document_date, doc.purpose);
  const std::string purpose(business::purpose_name(doc.purpose));
  if (applied == Applied::IgnoredOlder) return applied;
  if (applied == Applied::Cancelled && stored.exists) {
    Using q(inv_cancel_);
    q->bind(1, partner).bind(2, doc.invoice_number).bind(3, purpose).bind(4, doc.document_date);
    q->bind(5, source).bind(6, now_ms);
    Status s = ran(q->run());
    return s.is_ok() ? Result<Applied>(applied) : Result<Applied>(s);
  }
  {
    Using q(applied == Applied::Replaced ? inv_replace_ : inv_insert_);
    q->bind(1, partner).bind(2, doc.invoice_number).bind(3, int64_t{doc.credit_note ? 1 : 0}).bind(4, purpose);
    if (applied != Applied::Replaced) q->bind(5, applied == Applied::Cancelled ? "cancelled" : "active");
    q->bind(6, doc.document_date).bind(7, doc.order_number).bind(8, doc.currency).bind(9, doc.total_minor);
    if (doc.tax_minor)
      q->bind(10, *doc.tax_minor);
    else
      q->bind_null(10);
    if (doc.line_total_minor)
      q->bind(11, *doc.line_total_minor);
    else
      q->bind_null(11);
    q->bind(12, source).bind(13, now_ms);
    RETURN_IF_ERROR(ran(q->run()));
  }
  if (applied == Applied::Cancelled) return applied;
  if (applied == Applied::Replaced) {
    Using q(inv_delete_lines_);
    q->bind(1, partner).bind(2, doc.invoice_number);
    RETURN_IF_ERROR(ran(q->run()));
  }
  int64_t position = 0;
  for (const auto& line : doc.lines) {
    Using q(inv_line_);
    q->bind(1, partner).bind(2, doc.invoice_number).bind(3, ++position).bind(4, int64_t{line.line_number});
    q->bind(5, line.item_id).bind(6, line.item_id_type).bind(7, line.quantity).bind(8, line.unit);
    q->bind(9, line.unit_price).bind(10, line.amount_minor);
    RETURN_IF_ERROR(ran(q->run()));
  }
  return applied;
}

Result<int64_t> Business::next_sequence(const std::string& name) {
  Using q(sequence_);
  q->bind(1, name);
  ASSIGN_OR_RETURN(bool row, q->step());
  if (!row) return Status::transient("sequence " + name + ": no value returned");
  return q->int64(0);
}

}  // namespace edihub::store::sqlite
