#include "src/business/ubl_documents.h"

#include <optional>
#include <utility>

#include "src/business/extract_util.h"

namespace edihub::business {

namespace {

using internal::quote;

// "2024-03-15" -> "20240315", or nullopt.
std::optional<std::string> ccyymmdd(std::string_view date) {
  if (!ubl::is_date(date)) return std::nullopt;
  return std::string(date.substr(0, 4)) + std::string(date.substr(5, 2)) + std::string(date.substr(8, 2));
}

// "15:30:00.5+01:00" -> "153000", or nullopt.
std::optional<std::string> hhmmss(std::string_view time) {
  if (!ubl::is_time(time)) return std::nullopt;
  return std::string(time.substr(0, 2)) + std::string(time.substr(3, 2)) + std::string(time.substr(6, 2));
}

// Date and optional time as the EDI readers write them; empty string and an
// error when either is not what UBL allows.
std::string date_time(const std::string& date, const std::string& time, const std::string& path,
                      const std::string& time_path, std::string* error) {
  if (date.empty()) {
    *error = path + ": missing";
    return {};
  }
  const std::optional<std::string> d = ccyymmdd(date);
  if (!d) {
    *error = path + ": " + quote(date) + " is not a date YYYY-MM-DD";
    return {};
  }
  if (time.empty()) return *d;
  const std::optional<std::string> t = hhmmss(time);
  if (!t) {
    *error = time_path + ": " + quote(time) + " is not a time hh:mm:ss";
    return {};
  }
  return *d + *t;
}

std::optional<int64_t> minor(std::string_view value) {
  if (!value.empty() && value.front() == '+') value.remove_prefix(1);
  return to_minor(value, 2);
}

// An amount the document must have, in minor units; an error when absent or not one.
std::optional<int64_t> required_amount(const ubl::Amount& a, const std::string& path, std::string* error) {
  if (!a.present) {
    *error = path + ": missing";
    return std::nullopt;
  }
  std::optional<int64_t> v = minor(a.value);
  if (!v) *error = path + ": " + quote(a.value) + " is not an amount";
  return v;
}

// An optional amount: nullopt when absent; an error when present and not one.
std::optional<int64_t> optional_amount(const ubl::Amount& a, const std::string& path, std::string* error) {
  if (!a.present) return std::nullopt;
  std::optional<int64_t> v = minor(a.value);
  if (!v) *error = path + ": " + quote(a.value) + " is not an amount";
  return v;
}

// Decimal text as written, '+' dropped; an error when it is no decimal.
std::string decimal(const std::string& value, const std::string& path, std::string* error) {
  if (!ubl::parse_decimal(value)) {
    *error = path + ": " + quote(value) + " is not a decimal number";
    return {};
  }
  return value.front() == '+' ? value.substr(1) : value;
}

struct ItemId {
  std::string id, type;
};

ItemId item_id(const ubl::Item& item) {
  if (!item.standard_item_id.value.empty())
    return {item.standard_item_id.value, item.standard_item_id.scheme == "0160" ? "EN" : ""};
  if (!item.sellers_item_id.empty()) return {item.sellers_item_id, "SA"};
  if (!item.buyers_item_id.empty()) return {item.buyers_item_id, "BP"};
  return {};
}

int line_number(const std::string& id, size_t position) {
  const std::optional<int> n = internal::line_number(id);
  return n ? *n : static_cast<int>(position);
}

std::string party_id(const ubl::Party& p) {
  for (const ubl::Identifier& id : p.identifications)
    if (!id.value.empty()) return id.value;
  return p.endpoint.value;
}

std::string invoice_line(const ubl::InvoiceLine& in, size_t position, const std::string& path,
                         const std::string& quantity_path, InvoiceLine* out) {
  std::string error;
  out->line_number = line_number(in.id, position);
  const ItemId id = item_id(in.item);
  out->item_id = id.id;
  out->item_id_type = id.type;
  if (!in.quantity.present) return quantity_path + ": missing";
  out->quantity = decimal(in.quantity.value, quantity_path, &error);
  out->unit = in.quantity.unit;
  if (in.price.present) out->unit_price = decimal(in.price.value, path + "/cac:Price/cbc:PriceAmount", &error);
  const std::optional<int64_t> amount = required_amount(in.line_extension, path + "/cbc:LineExtensionAmount", &error);
  if (amount) out->amount_minor = *amount;
  return error;
}

std::optional<int64_t> document_tax(const ubl::Invoice& in, const std::string& root, std::string* error) {
  for (size_t i = 0; i < in.tax_totals.size(); ++i) {
    const ubl::Amount& a = in.tax_totals[i].tax_amount;
    if (a.present && a.currency == in.document_currency)
      return optional_amount(a, root + "/cac:TaxTotal[" + std::to_string(i + 1) + "]/cbc:TaxAmount", error);
  }
  return std::nullopt;
}

std::string shipment_line(const ubl::DespatchLine& in, size_t position, const std::string& path, ShipmentLine* out) {
  std::string error;
  out->line_number = line_number(in.id, position);
  const ItemId id = item_id(in.item);
  out->item_id = id.id;
  out->item_id_type = id.type;
  if (id.type != "SA") out->supplier_item = in.item.sellers_item_id;
  if (!in.delivered.present) return path + "/cbc:DeliveredQuantity: missing";
  out->quantity = decimal(in.delivered.value, path + "/cbc:DeliveredQuantity", &error);
  out->unit = in.delivered.unit;
  out->order_number = in.order_id;
  return error;
}

}  // namespace

std::string to_invoice(const ubl::Invoice& in, Invoice* out) {
  const std::string root = in.credit_note ? "/CreditNote" : "/Invoice";
  const std::string line_name = in.credit_note ? "/cac:CreditNoteLine[" : "/cac:InvoiceLine[";
  const std::string quantity_name = in.credit_note ? "/cbc:CreditedQuantity" : "/cbc:InvoicedQuantity";
  Invoice inv;
  if (in.id.empty()) return root + "/cbc:ID: missing";
  inv.invoice_number = in.id;
  inv.credit_note = in.credit_note || in.type_code == "381";
  inv.purpose = Purpose::Original;  // a credit note is a document of its own, never a replace
  std::string error;
  inv.document_date = date_time(in.issue_date, "", root + "/cbc:IssueDate", "", &error);
  if (!error.empty()) return error;
  inv.order_number = in.order_reference;
  inv.currency = in.document_currency;
  const std::string totals = root + "/cac:LegalMonetaryTotal";
  const std::optional<int64_t> total =
      required_amount(in.totals.tax_inclusive, totals + "/cbc:TaxInclusiveAmount", &error);
  if (!total) return error;
  inv.total_minor = *total;
  inv.tax_minor = document_tax(in, root, &error);
  if (!error.empty()) return error;
  inv.line_total_minor = optional_amount(in.totals.line_extension, totals + "/cbc:LineExtensionAmount", &error);
  if (!error.empty()) return error;
  for (size_t i = 0; i < in.lines.size(); ++i) {
    InvoiceLine line;
    const std::string path = root + line_name + std::to_string(i + 1) + "]";
    error = invoice_line(in.lines[i], i + 1, path, path + quantity_name, &line);
    if (!error.empty()) return error;
    inv.lines.push_back(std::move(line));
  }
  *out = std::move(inv);
  return {};
}

std::string to_shipment_notice(const ubl::DespatchAdvice& in, ShipmentNotice* out) {
  const std::string root = "/DespatchAdvice";
  ShipmentNotice sn;
  if (in.id.empty()) return root + "/cbc:ID: missing";
  sn.document_number = in.id;
  sn.purpose = Purpose::Original;
  std::string error;
  sn.document_date = date_time(in.issue_date, in.issue_time, root + "/cbc:IssueDate", root + "/cbc:IssueTime", &error);
  if (!error.empty()) return error;
  const std::string despatch = root + "/cac:Shipment/cac:Delivery/cac:Despatch";
  if (!in.shipment.actual_despatch_date.empty())
    sn.ship_date = date_time(in.shipment.actual_despatch_date, in.shipment.actual_despatch_time,
                             despatch + "/cbc:ActualDespatchDate", despatch + "/cbc:ActualDespatchTime", &error);
  if (!error.empty()) return error;
  sn.order_number = in.order_reference;
  sn.ship_from = party_id(in.supplier);
  sn.ship_to = party_id(in.customer);
  sn.carrier = in.shipment.carrier_name;
  if (in.shipment.gross_weight.present)
    sn.gross_weight = decimal(in.shipment.gross_weight.value, root + "/cac:Shipment/cbc:GrossWeightMeasure", &error);
  if (!error.empty()) return error;
  for (size_t i = 0; i < in.lines.size(); ++i) {
    ShipmentLine line;
    error = shipment_line(in.lines[i], i + 1, root + "/cac:DespatchLine[" + std::to_string(i + 1) + "]", &line);
    if (!error.empty()) return error;
    sn.lines.push_back(std::move(line));
  }
  *out = std::move(sn);
  return {};
}

ReadDocument read_document(const ubl::Invoice& in) {
  ReadDocument r;
  r.handled = true;
  Invoice inv;
  r.error = to_invoice(in, &inv);
  if (r.error.empty()) r.document = to_document(std::move(inv));
  return r;
}

ReadDocument read_document(const ubl::DespatchAdvice& in) {
  ReadDocument r;
  r.handled = true;
  ShipmentNotice sn;
  r.error = to_shipment_notice(in, &sn);
  if (r.error.empty()) r.document = to_document(std::move(sn));
  return r;
}

}  // namespace edihub::business
