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

// One value by its field's kind: optional text absent when empty, an
// optional integer absent when NULL, a flag as a boolean; decimal text stays
// text (never a float).
void set_value(Object& o, const business::Field& f, const business::Value& v) {
  switch (f.kind) {
    case business::FieldKind::Text:
      o.set(std::string(f.name), v.text);
      break;
    case business::FieldKind::OptionalText:
      set_text(o, std::string(f.name), v.text);
      break;
    case business::FieldKind::Integer:
      o.set(std::string(f.name), v.integer);
      break;
    case business::FieldKind::OptionalInteger:
      if (v.present) o.set(std::string(f.name), v.integer);
      break;
    case business::FieldKind::Flag:
      o.set(std::string(f.name), v.integer != 0);
      break;
  }
}

Object::Ptr document_object(const Document& doc) {
  const business::DocumentType& t = *doc.type;
  Object::Ptr d = object();
  d->set("number", doc.number);
  d->set("purpose", std::string(business::purpose_name(doc.purpose)));
  d->set("document_date", doc.document_date);
  for (size_t f = 0; f < t.fields.size(); ++f) set_value(*d, t.fields[f], doc.fields.at(f));
  Poco::JSON::Array::Ptr lines = new Array;
  for (const auto& values : doc.lines) {
    Object::Ptr line = object();
    for (size_t f = 0; f < t.line_fields.size(); ++f) set_value(*line, t.line_fields[f], values.at(f));
    lines->add(line);
  }
  d->set("lines", lines);
  return d;
}

}  // namespace

std::string document_key(const std::string& partner_id, const Document& doc) {
  return partner_text(std::string(business::kind_of(doc)) + ":" + partner_id + ":" + doc.number, 512);
}

std::string document_version_key(const std::string& partner_id, const Document& doc) {
  // The number and date are the partner's bytes and the key becomes an HTTP
  // header: through partner_text, which is deterministic (the same key on
  // every retry). The kind is the document's own (a credit note is not the
  // invoice numbered alike).
  return partner_text(std::string(business::kind_of(doc)) + ":" + partner_id + ":" + doc.number + ":" +
                          doc.document_date + ":" + std::string(business::purpose_name(doc.purpose)),
                      512);
}

std::string document_json(const std::string& partner_id, const Document& doc, store::Applied applied,
                          const std::string& source) {
  Object event(Poco::JSON_PRESERVE_KEY_ORDER);
  event.set("event", std::string(doc.type->event));
  event.set("id", document_version_key(partner_id, doc));
  event.set("partner", partner_id);
  // inserted (a new number), replaced (a later version), cancelled.
  event.set("applied", std::string(store::applied_name(applied)));
  event.set("source", source);
  event.set("document", document_object(doc));
  std::ostringstream out;
  event.stringify(out);
  std::string json = out.str();
  // The whole message (schema/document/), as the canonical writer made it.
  if (!doc.canonical.empty() && !json.empty() && json.back() == '}') {
    json.pop_back();
    json += ",\"message\":" + doc.canonical + "}";
  }
  return json;
}

store::OutboxItem document_event(const config::Partner& partner, const std::string& owner, const Document& doc,
                                 store::Applied applied, const std::string& source) {
  store::OutboxItem item;
  item.partner_id = partner.id;
  item.kind = "document";
  item.message_id = document_version_key(owner, doc);
  item.reference = item.message_id;
  item.order_key = document_key(owner, doc);
  const bool webhook = partner.documents.via == config::Partner::Documents::Via::Webhook;
  item.channel = webhook ? "webhook" : "dir";
  item.destination = partner.documents.target;
  item.body = document_json(owner, doc, applied, source);
  return item;
}

}  // namespace edihub::gate
