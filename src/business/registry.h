// The document registry: every type of business document edihub books,
// described once. A type names its table, its number column, its fields and
// its lines' fields, and the messages it is read from; the store books any
// type through one generic path (Transaction::put_document), the console
// searches every type's numbers, the back office gets one JSON event shape.
//
// Adding a type is a DocumentType here, a reader (the mapping from the
// message's segments to the fields), and a migration creating its two tables
// in both schemas with the fixed columns below. Nothing in the gate, the
// store or the console names a type.
//
// Fixed columns of every header table: partner_id, <number_column>, purpose,
// status ('active'/'cancelled'), document_date, <fields...>, source,
// versions, created_at, updated_at; primary key (partner_id, number), or
// (partner_id, number, <variant>) for a type with a variant.
// Every line table: partner_id, <number_column>, [<variant>,] position, <line_fields...>.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/edi/interchange.h"
#include "src/business/documents.h"

namespace edihub::business {

// How a field is stored (SQL) and told to the back office (JSON).
enum class FieldKind {
  Text,             // TEXT, always in the JSON (even empty)
  OptionalText,     // TEXT, absent from the JSON when empty
  Integer,          // INTEGER, always
  OptionalInteger,  // INTEGER or NULL; absent from the JSON when NULL
  Flag,             // INTEGER 0/1; a JSON boolean
};

struct Field {
  std::string_view name;  // the column, and the JSON member
  FieldKind kind = FieldKind::Text;
};

// One field's value: `text` for the text kinds, `integer` for the others;
// `present` false for NULL (OptionalInteger).
struct Value {
  std::string text;
  int64_t integer = 0;
  bool present = true;
  static Value of(std::string s) { return {std::move(s), 0, true}; }
  static Value of(int64_t i) { return {{}, i, true}; }
  static Value none() { return {{}, 0, false}; }
};

struct DocumentType {
  std::string_view kind;           // "invoice", "shipment-notice": the console's and the event id's word
  std::string_view event;          // "invoice", "shipment_notice": the JSON event's name
  std::string_view table;          // "invoices"
  std::string_view number_column;  // "invoice_number"
  std::vector<Field> fields;       // after document_date, in column order
  std::string_view line_table;     // "invoice_lines"
  std::vector<Field> line_fields;  // after position, in column order
  // A Flag field that is part of the key: two documents whose numbers are
  // equal and whose flags differ are different documents, each with its own
  // versions (an invoice and a credit note numbered alike: several ERPs number
  // both in one series). Empty: the number alone is the key.
  std::string_view variant;
  std::string_view variant_kind;  // the kind of a document whose variant is set ("credit-note")

  // The position of `variant` in `fields` (npos: none).
  size_t variant_index() const;
};

// A document as booked: its type, the version key (number, purpose, date)
// and one Value per field of the type, in order.
struct Document {
  const DocumentType* type = nullptr;
  std::string number;
  Purpose purpose = Purpose::Original;
  std::string document_date;  // CCYYMMDD[HHMM[SS]]: orders the versions
  std::vector<Value> fields;
  std::vector<std::vector<Value>> lines;
  // The whole message as its canonical JSON (src/documents/canonical.h), for
  // the back office; empty when nobody asked for it.
  std::string canonical;
};

// The document's own kind: the type's, or its variant's when the flag is set
// ("credit-note"). It names the document in its event id and its ordering key.
std::string_view kind_of(const Document& doc);

// Every type, in the order the console lists them.
const std::vector<const DocumentType*>& document_types();

const DocumentType& shipment_notice_type();
const DocumentType& invoice_type();
const DocumentType& order_type();
const DocumentType& order_response_type();

// A message read into its document, or why it could not be.
struct ReadDocument {
  bool handled = false;  // the message type books a document
  Document document;
  std::string error;  // non-empty: handled, but unusable ("segment 12 (BEG): BEG03 is empty")
};

// True for the message types a DocumentType is read from.
bool books(const edi::Interchange& ic, const edi::Message& m);
// Reads the document of `m` (its bytes are input[m.span]). Pure: no I/O.
ReadDocument read_document(const edi::Interchange& ic, const edi::Message& m, std::string_view input);

// The typed documents as registry documents (their readers' results); the
// rvalue forms move the texts instead of copying them.
Document to_document(ShipmentNotice&& sn);
Document to_document(Invoice&& inv);
Document to_document(const ShipmentNotice& sn);
Document to_document(const Invoice& inv);

}  // namespace edihub::business
