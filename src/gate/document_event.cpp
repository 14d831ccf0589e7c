#include "src/gate/document_event.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <sstream>

#include "src/common/partner_text.h"

namespace edihub::gate {

namespace {

using Poco::JSON::Array;
using Poco::JSON::Object;

Object::Ptr object() { return new Object(Poco::JSON_PRESERVE_KEY_ORDER); }

// Optional text: absent rather than "".
void set_text(Object& o, const std::string& name, const std::string& value) {
  if (!value.empty()) o.set(name, value);
}

Object::Ptr shipment_json(const business::ShipmentNotice& sn) {
  Object::Ptr d = object();
  d->set("number", sn.document_number);
  d->set("purpose", std::string(business::purpose_name(sn.purpose)));
  d->set("document_date", sn.document_date);
  set_text(*d, "ship_date", sn.ship_date);
  set_text(*d, "order_number", sn.order_number);
  set_text(*d, "ship_from", sn.ship_from);
  set_text(*d, "ship_to", sn.ship_to);
  set_text(*d, "carrier", sn.carrier);
  set_text(*d, "gross_weight", sn.gross_weight);
  Poco::JSON::Array::Ptr lines = new Array;
  for (const business::ShipmentLine& l : sn.lines) {
    Object::Ptr line = object();
    line->set("line_number", l.line_number);
    line->set("item_id", l.item_id);
    set_text(*line, "item_id_type", l.item_id_type);
    set_text(*line, "supplier_item", l.supplier_item);
    line->set("quantity", l.quantity);  // decimal text, as booked: never a float
    set_text(*line, "unit", l.unit);
    set_text(*line, "order_number", l.order_number);
    lines->add(line);
  }
  d->set("lines", lines);
  return d;
}

Object::Ptr invoice_json(const business::Invoice& inv) {
  Object::Ptr d = object();
  d->set("number", inv.invoice_number);
  d->set("purpose", std::string(business::purpose_name(inv.purpose)));
  d->set("document_date", inv.document_date);
  d->set("credit_note", inv.credit_note);
  set_text(*d, "order_number", inv.order_number);
  set_text(*d, "currency", inv.currency);
  d->set("total_minor", inv.total_minor);  // integer minor units (cents)
  if (inv.tax_minor) d->set("tax_minor", *inv.tax_minor);
  if (inv.line_total_minor) d->set("line_total_minor", *inv.line_total_minor);
  Poco::JSON::Array::Ptr lines = new Array;
  for (const business::InvoiceLine& l : inv.lines) {
    Object::Ptr line = object();
    line->set("line_number", l.line_number);
    line->set("item_id", l.item_id);
    set_text(*line, "item_id_type", l.item_id_type);
    line->set("quantity", l.quantity);
    set_text(*line, "unit", l.unit);
    set_text(*line, "unit_price", l.unit_price);
    line->set("amount_minor", l.amount_minor);
    lines->add(line);
  }
  d->set("lines", lines);
  return d;
}

bool is_shipment(const Document& doc) { return std::holds_alternative<business::ShipmentNotice>(doc); }

}  // namespace

std::string document_version_key(const std::string& partner_id, const Document& doc) {
  // The number and date are the partner's bytes and the key becomes an HTTP
  // header: through partner_text, which is deterministic (the same key on
  // every retry).
  if (const auto* sn = std::get_if<business::ShipmentNotice>(&doc))
    return partner_text("shipment-notice:" + partner_id + ":" + sn->document_number + ":" + sn->document_date + ":" +
                            std::string(business::purpose_name(sn->purpose)),
                        512);
  const auto& inv = std::get<business::Invoice>(doc);
  return partner_text("invoice:" + partner_id + ":" + inv.invoice_number + ":" + inv.document_date + ":" +
                          std::string(business::purpose_name(inv.purpose)),
                      512);
}

std::string document_json(const std::string& partner_id, const Document& doc, store::Applied applied,
                          const std::string& source) {
  Object event(Poco::JSON_PRESERVE_KEY_ORDER);
  event.set("event", is_shipment(doc) ? "shipment_notice" : "invoice");
  event.set("id", document_version_key(partner_id, doc));
  event.set("partner", partner_id);
  // inserted (a new number), replaced (a later version), cancelled.
  event.set("applied", std::string(store::applied_name(applied)));
  event.set("source", source);
  event.set("document", is_shipment(doc) ? shipment_json(std::get<business::ShipmentNotice>(doc))
                                         : invoice_json(std::get<business::Invoice>(doc)));
  std::ostringstream out;
  event.stringify(out);
  return out.str();
}

store::OutboxItem document_event(const config::Partner& partner, const Document& doc, store::Applied applied,
                                 const std::string& source) {
  store::OutboxItem item;
  item.partner_id = partner.id;
  item.kind = "document";
  item.message_id = document_version_key(partner.id, doc);
  item.reference = item.message_id;
  const bool webhook = partner.documents.via == config::Partner::Documents::Via::Webhook;
  item.channel = webhook ? "webhook" : "dir";
  item.destination = partner.documents.target;
  item.body = document_json(partner.id, doc, applied, source);
  return item;
}

}  // namespace edihub::gate
