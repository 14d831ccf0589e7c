// Peppol's UBL documents as the business documents edihub books: an Invoice
// or CreditNote (ubl::Invoice) as an Invoice, a DespatchAdvice as a
// ShipmentNotice, field for field as the X12 and EDIFACT readers fill them
// (documents.h names each field's EDI source), so that both paths book alike.
// Pure: no I/O. Judging the document is ubl::validate's; these only refuse
// what cannot be represented.
#pragma once

#include <string>

#include "parsers/ubl/ubl.h"
#include "src/business/documents.h"
#include "src/business/registry.h"

namespace edihub::business {

// Fills `out` from `in`: invoice_number = cbc:ID; credit_note for a
// CreditNote or type code 381; purpose Original (a credit note is never a
// replace); document_date = IssueDate as CCYYMMDD; order_number =
// OrderReference/ID; currency = DocumentCurrencyCode; total_minor =
// TaxInclusiveAmount; tax_minor = the TaxTotal/TaxAmount in the document
// currency (none: nullopt); line_total_minor = LineExtensionAmount (none:
// nullopt). Lines: line_number = the line's ID when all digits (else its
// position), item_id = StandardItemIdentification ("EN" for GTIN, scheme
// 0160) else SellersItemIdentification ("SA") else BuyersItemIdentification
// ("BP"), quantity and unit, unit_price = PriceAmount (per its BaseQuantity,
// as written), amount_minor = LineExtensionAmount. Amounts go through
// to_minor (2 decimals; a leading '+' dropped). Returns empty, or why the
// document cannot be represented ("/Invoice/cac:InvoiceLine[2]/cbc:LineExtensionAmount:
// '1x' is not an amount"); `out` is then unspecified.
std::string to_invoice(const ubl::Invoice& in, Invoice* out);

// Fills `out` from `in`: document_number = cbc:ID; purpose Original;
// document_date = IssueDate as CCYYMMDD, with IssueTime as HHMMSS when
// present (fraction and zone dropped); ship_date = Shipment/Delivery/
// Despatch/ActualDespatchDate (with ActualDespatchTime), may be empty;
// order_number = OrderReference/ID; ship_from / ship_to = the despatch /
// delivery party's first PartyIdentification/ID, else its EndpointID; carrier
// = the consignment's carrier name; gross_weight = GrossWeightMeasure (decimal
// text). Lines: line_number and item_id as for invoices, supplier_item = the
// seller's item id when item_id is another, quantity = DeliveredQuantity
// (required) and its unit, order_number = OrderLineReference/OrderReference/ID.
// Returns empty or why not, as to_invoice.
std::string to_shipment_notice(const ubl::DespatchAdvice& in, ShipmentNotice* out);

// The same as registry documents: handled, and the document or the error.
ReadDocument read_document(const ubl::Invoice& in);
ReadDocument read_document(const ubl::DespatchAdvice& in);

}  // namespace edihub::business
