#include "src/business/registry.h"

#include <exception>
#include <utility>

#include "src/business/extract_util.h"

namespace edihub::business {

namespace {

using K = FieldKind;

// What each message type books as, and the reader that maps it.
struct Reader {
  edi::Standard standard;
  std::string_view message;
  ReadDocument (*read)(const edi::Interchange&, const edi::Message&, std::string_view);
};

ReadDocument typed(Extracted&& x) {
  ReadDocument out;
  out.handled = true;
  out.error = std::move(x.error);
  if (auto* sn = std::get_if<ShipmentNotice>(&x.document)) out.document = to_document(std::move(*sn));
  if (auto* inv = std::get_if<Invoice>(&x.document)) out.document = to_document(std::move(*inv));
  return out;
}

ReadDocument read_typed(const edi::Interchange& ic, const edi::Message& m, std::string_view input) {
  return typed(extract(ic, m, input));
}

const Reader kReaders[] = {
    {edi::Standard::X12, "856", read_typed},
    {edi::Standard::X12, "810", read_typed},
    {edi::Standard::X12, "850", internal::read_x12_850},
    {edi::Standard::X12, "855", internal::read_x12_855},
    {edi::Standard::Edifact, "DESADV", read_typed},
    {edi::Standard::Edifact, "INVOIC", read_typed},
    {edi::Standard::Edifact, "ORDERS", internal::read_orders},
    {edi::Standard::Edifact, "ORDRSP", internal::read_ordrsp},
};

const Reader* reader_for(const edi::Interchange& ic, const edi::Message& m) {
  for (const Reader& r : kReaders)
    if (r.standard == ic.standard && r.message == m.type) return &r;
  return nullptr;
}

}  // namespace

const DocumentType& shipment_notice_type() {
  static const DocumentType t{"shipment-notice",
                              "shipment_notice",
                              "shipment_notices",
                              "document_number",
                              {{"ship_date", K::OptionalText},
                               {"order_number", K::OptionalText},
                               {"ship_from", K::OptionalText},
                               {"ship_to", K::OptionalText},
                               {"carrier", K::OptionalText},
                               {"gross_weight", K::OptionalText}},
                              "shipment_notice_lines",
                              {{"line_number", K::Integer},
                               {"item_id", K::Text},
                               {"item_id_type", K::OptionalText},
                               {"supplier_item", K::OptionalText},
                               {"quantity", K::Text},
                               {"unit", K::OptionalText},
                               {"order_number", K::OptionalText}},
                              {},
                              {}};
  return t;
}

const DocumentType& invoice_type() {
  static const DocumentType t{"invoice",
                              "invoice",
                              "invoices",
                              "invoice_number",
                              {{"credit_note", K::Flag},
                               {"order_number", K::OptionalText},
                               {"currency", K::OptionalText},
                               {"total_minor", K::Integer},
                               {"tax_minor", K::OptionalInteger},
                               {"line_total_minor", K::OptionalInteger}},
                              "invoice_lines",
                              {{"line_number", K::Integer},
                               {"item_id", K::Text},
                               {"item_id_type", K::OptionalText},
                               {"quantity", K::Text},
                               {"unit", K::OptionalText},
                               {"unit_price", K::OptionalText},
                               {"amount_minor", K::Integer}},
                              "credit_note",
                              "credit-note"};
  return t;
}

// X12 850 / EDIFACT ORDERS. The field order is internal::OrderField's.
const DocumentType& order_type() {
  static const DocumentType t{"order",
                              "order",
                              "orders",
                              "order_number",
                              {{"order_type", K::OptionalText},
                               {"currency", K::OptionalText},
                               {"buyer", K::OptionalText},
                               {"seller", K::OptionalText},
                               {"ship_to", K::OptionalText},
                               {"delivery_date", K::OptionalText},
                               {"total_minor", K::OptionalInteger}},
                              "order_lines",
                              {{"line_number", K::Integer},
                               {"item_id", K::Text},
                               {"item_id_type", K::OptionalText},
                               {"quantity", K::Text},
                               {"unit", K::OptionalText},
                               {"unit_price", K::OptionalText}},
                              {},
                              {}};
  return t;
}

// X12 855 / EDIFACT ORDRSP. The field order is internal::ResponseField's.
const DocumentType& order_response_type() {
  static const DocumentType t{"order-response",
                              "order_response",
                              "order_responses",
                              "response_number",
                              {{"order_number", K::Text},
                               {"response_type", K::OptionalText},
                               {"buyer", K::OptionalText},
                               {"seller", K::OptionalText}},
                              "order_response_lines",
                              {{"line_number", K::Integer},
                               {"item_id", K::Text},
                               {"item_id_type", K::OptionalText},
                               {"quantity", K::OptionalText},
                               {"unit", K::OptionalText},
                               {"line_status", K::OptionalText}},
                              {},
                              {}};
  return t;
}

size_t DocumentType::variant_index() const {
  if (variant.empty()) return std::string_view::npos;
  for (size_t i = 0; i < fields.size(); ++i)
    if (fields[i].name == variant) return i;
  return std::string_view::npos;
}

std::string_view kind_of(const Document& doc) {
  const size_t v = doc.type->variant_index();
  return v != std::string_view::npos && doc.fields.at(v).integer != 0 ? doc.type->variant_kind : doc.type->kind;
}

const std::vector<const DocumentType*>& document_types() {
  static const std::vector<const DocumentType*> types = {&invoice_type(), &shipment_notice_type(), &order_type(),
                                                         &order_response_type()};
  return types;
}

bool books(const edi::Interchange& ic, const edi::Message& m) { return reader_for(ic, m) != nullptr; }

ReadDocument read_document(const edi::Interchange& ic, const edi::Message& m, std::string_view input) {
  const Reader* r = reader_for(ic, m);
  if (r == nullptr) return {};
  try {
    return r->read(ic, m, input);
  } catch (const std::exception& e) {
    ReadDocument out;
    out.handled = true;
    out.error = "cannot read the " + m.type + " message: " + e.what();
    return out;
  }
}

namespace {

Value optional_integer(const std::optional<int64_t>& v) { return v ? Value::of(*v) : Value::none(); }

}  // namespace

Document to_document(ShipmentNotice&& sn) {
  Document d;
  d.type = &shipment_notice_type();
  d.number = std::move(sn.document_number);
  d.purpose = sn.purpose;
  d.document_date = std::move(sn.document_date);
  d.fields = {Value::of(std::move(sn.ship_date)), Value::of(std::move(sn.order_number)),
              Value::of(std::move(sn.ship_from)), Value::of(std::move(sn.ship_to)),
              Value::of(std::move(sn.carrier)),   Value::of(std::move(sn.gross_weight))};
  d.lines.reserve(sn.lines.size());
  for (ShipmentLine& l : sn.lines)
    d.lines.push_back({Value::of(int64_t{l.line_number}), Value::of(std::move(l.item_id)),
                       Value::of(std::move(l.item_id_type)), Value::of(std::move(l.supplier_item)),
                       Value::of(std::move(l.quantity)), Value::of(std::move(l.unit)),
                       Value::of(std::move(l.order_number))});
  return d;
}

Document to_document(Invoice&& inv) {
  Document d;
  d.type = &invoice_type();
  d.number = std::move(inv.invoice_number);
  d.purpose = inv.purpose;
  d.document_date = std::move(inv.document_date);
  d.fields = {Value::of(int64_t{inv.credit_note ? 1 : 0}),
              Value::of(std::move(inv.order_number)),
              Value::of(std::move(inv.currency)),
              Value::of(inv.total_minor),
              optional_integer(inv.tax_minor),
              optional_integer(inv.line_total_minor)};
  d.lines.reserve(inv.lines.size());
  for (InvoiceLine& l : inv.lines)
    d.lines.push_back({Value::of(int64_t{l.line_number}), Value::of(std::move(l.item_id)),
                       Value::of(std::move(l.item_id_type)), Value::of(std::move(l.quantity)),
                       Value::of(std::move(l.unit)), Value::of(std::move(l.unit_price)), Value::of(l.amount_minor)});
  return d;
}

Document to_document(const ShipmentNotice& sn) { return to_document(ShipmentNotice(sn)); }
Document to_document(const Invoice& inv) { return to_document(Invoice(inv)); }

}  // namespace edihub::business
