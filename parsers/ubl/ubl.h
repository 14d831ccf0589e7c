// UBL 2.1 documents as Peppol carries them: Invoice and CreditNote (Peppol
// BIS Billing 3.0, the EN 16931 core) and DespatchAdvice (Peppol BIS Despatch
// Advice 3). Pure: XML bytes in, model or error out; then the rules the
// booking depends on, as findings. Values stay text exactly as written
// (amounts with their currencyID: money is never floating point here); the
// rules compute with exact decimals (rules.cpp). pugixml parses through the
// bounded loader of parsers/as4/xml.h (no DTDs or entities).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/as4/xml.h"

namespace edihub::ubl {

inline constexpr std::string_view kInvoiceNs = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
inline constexpr std::string_view kCreditNoteNs = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
inline constexpr std::string_view kDespatchAdviceNs = "urn:oasis:names:specification:ubl:schema:xsd:DespatchAdvice-2";
inline constexpr std::string_view kCacNs = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2";
inline constexpr std::string_view kCbcNs = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";

// Peppol BIS Billing 3.0's specification identifier (CustomizationID starts with it).
inline constexpr std::string_view kBillingCustomization =
    "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0";
inline constexpr std::string_view kDespatchCustomization = "urn:fdc:peppol.eu:poacc:trns:despatch_advice:3";
inline constexpr std::string_view kDespatchProfile = "urn:fdc:peppol.eu:poacc:bis:despatch_advice:3";

// An amount as written: decimal text (surrounding white space removed) and its currencyID.
struct Amount {
  bool present = false;
  std::string value;
  std::string currency;
};

// A quantity (or a measure) as written, with its unitCode.
struct Quantity {
  bool present = false;
  std::string value;
  std::string unit;
};

// An identifier with its schemeID ("0088", "0160" ...), both may be empty.
struct Identifier {
  std::string value;
  std::string scheme;
};

struct Address {
  bool present = false;
  std::string street, city, postal_zone;
  std::string country;  // Country/IdentificationCode
};

// cac:Party as the accounting, despatch and delivery parties use it.
struct Party {
  bool present = false;
  Identifier endpoint;                       // cbc:EndpointID
  std::vector<Identifier> identifications;   // PartyIdentification/ID
  std::string name;                          // PartyName/Name (the first)
  Address address;                           // PostalAddress
  std::vector<std::string> tax_company_ids;  // PartyTaxScheme/CompanyID
  bool legal_entity = false;                 // a PartyLegalEntity is there
  std::string registration_name;             // PartyLegalEntity/RegistrationName
  Identifier legal_company_id;               // PartyLegalEntity/CompanyID
};

// cac:TaxCategory / cac:ClassifiedTaxCategory.
struct TaxCategory {
  bool present = false;
  std::string id;       // UNCL5305: S, Z, E, AE, K, G, O, L, M
  std::string percent;  // decimal text, may be empty
  std::string exemption_reason;
};

struct AllowanceCharge {
  std::string charge_indicator;  // "true" / "false" as written (anything else is a finding)
  std::string reason, reason_code;
  Amount amount;
  Amount base_amount;        // BaseAmount, may be absent
  TaxCategory tax_category;  // document level
};

struct TaxSubtotal {
  Amount taxable_amount, tax_amount;
  TaxCategory category;
};

struct TaxTotal {
  Amount tax_amount;
  std::vector<TaxSubtotal> subtotals;
};

struct MonetaryTotal {
  bool present = false;
  Amount line_extension, tax_exclusive, tax_inclusive, allowance_total, charge_total, prepaid, payable_rounding,
      payable;
};

struct Item {
  bool present = false;
  std::string name, description;
  std::string buyers_item_id;   // BuyersItemIdentification/ID
  std::string sellers_item_id;  // SellersItemIdentification/ID
  Identifier standard_item_id;  // StandardItemIdentification/ID (scheme 0160: GTIN)
  TaxCategory classified_tax_category;
};

struct InvoiceLine {
  std::string id;
  Quantity quantity;  // InvoicedQuantity / CreditedQuantity
  Amount line_extension;
  std::string order_line_id;  // OrderLineReference/LineID
  std::vector<AllowanceCharge> allowance_charges;
  Item item;
  bool has_price = false;
  Amount price;            // Price/PriceAmount
  Quantity base_quantity;  // Price/BaseQuantity
};

struct BillingReference {
  std::string id;          // InvoiceDocumentReference/ID
  std::string issue_date;  // InvoiceDocumentReference/IssueDate
};

struct PaymentMeans {
  std::string code;        // PaymentMeansCode
  std::string account_id;  // PayeeFinancialAccount/ID
};

struct Delivery {
  bool present = false;
  std::string actual_date;  // ActualDeliveryDate
  Identifier location_id;   // DeliveryLocation/ID
  Address address;          // DeliveryLocation/Address
};

// What rules say about a document.
enum class Severity { Fatal, Warning };

struct Finding {
  std::string rule;  // "BR-CO-15", "PEPPOL-EN16931-R004", "EDIHUB-UBL-..." (edihub's own)
  Severity severity = Severity::Fatal;
  std::string text;  // for people
  std::string path;  // "/Invoice/cac:InvoiceLine[2]/cbc:ID" (cbc/cac whatever the sender's prefixes)
  bool operator==(const Finding& o) const {
    return rule == o.rule && severity == o.severity && text == o.text && path == o.path;
  }
};

// An Invoice or a CreditNote (the same model: the credit note's
// CreditNoteTypeCode, CreditNoteLine and CreditedQuantity fill the same fields).
struct Invoice {
  bool credit_note = false;  // the root is CreditNote
  std::string customization_id, profile_id, id, issue_date, due_date;
  std::string type_code;  // InvoiceTypeCode / CreditNoteTypeCode
  std::vector<std::string> notes;
  std::string tax_point_date, document_currency, tax_currency, buyer_reference;
  std::string order_reference;  // OrderReference/ID
  std::vector<BillingReference> billing_references;
  Party supplier, customer;  // Accounting{Supplier,Customer}Party/Party
  Delivery delivery;
  std::vector<PaymentMeans> payment_means;
  std::string payment_terms;  // PaymentTerms/Note
  std::vector<AllowanceCharge> allowance_charges;
  std::vector<TaxTotal> tax_totals;
  MonetaryTotal totals;
  std::vector<InvoiceLine> lines;
  // What the reading itself found wrong with the structure (a single element
  // repeated, an empty element: PEPPOL-EN16931-R008): validate() reports
  // these first.
  std::vector<Finding> structure;
  // The paths of elements the model reads that are there but empty (the
  // first Limits::max_repeats): rules that ask whether an element exists
  // (PEPPOL-EN16931-R001, R003, R010, R020, R054) count them as there; R008
  // has refused them already.
  std::vector<std::string> empty_elements;
};

struct Shipment {
  bool present = false;
  std::string id;
  Quantity gross_weight;                 // GrossWeightMeasure
  std::string carrier_name;              // Consignment/CarrierParty/PartyName/Name
  std::string tracking_id;               // Delivery/TrackingID
  std::string actual_delivery_date;      // Delivery/ActualDeliveryDate
  std::string period_element;            // "EstimatedDeliveryPeriod" or else "RequestedDeliveryPeriod" ("": neither)
  std::string period_start, period_end;  // its StartDate and EndDate
  Address delivery_address;              // Delivery/DeliveryAddress
  std::string actual_despatch_date;      // Delivery/Despatch/ActualDespatchDate
  std::string actual_despatch_time;      // Delivery/Despatch/ActualDespatchTime
};

struct DespatchLine {
  std::string id;
  Quantity delivered, outstanding;
  std::string outstanding_reason;
  bool order_line_reference = false;  // a cac:OrderLineReference is there
  std::string order_line_id;          // OrderLineReference/LineID
  std::string order_id;               // OrderLineReference/OrderReference/ID
  Item item;
};

struct DespatchAdvice {
  std::string customization_id, profile_id, id, issue_date, issue_time;
  std::vector<std::string> notes;
  std::string order_reference;  // OrderReference/ID
  Party supplier;               // DespatchSupplierParty/Party
  Party customer;               // DeliveryCustomerParty/Party
  Shipment shipment;
  std::vector<DespatchLine> lines;
  std::vector<Finding> structure;  // as Invoice::structure
};

enum class DocumentType { Unknown, Invoice, CreditNote, DespatchAdvice };

// The type of a root element (an SBDH payload's namespace and local name).
DocumentType document_type(std::string_view namespace_uri, std::string_view local_name);

enum class ErrorCode {
  None,
  Xml,            // not well-formed, a DTD or entity declaration, a bound crossed
  NotUbl,         // the root is none of the documents read here
  WrongDocument,  // e.g. a DespatchAdvice given to parse_invoice
  TooMany,        // more lines (or repeats of one group) than the limits allow
};

std::string_view code_name(ErrorCode code);  // "UBL_XML", "UBL_NOT_UBL" ...

struct Error {
  ErrorCode code = ErrorCode::None;
  std::string text;
  explicit operator bool() const { return code != ErrorCode::None; }
};

// The loader's bounds for a UBL document (the same as peppol::envelope_bounds,
// which a payload lies within): 100 MiB, text nodes up to 100 MiB (embedded
// attachments), depth 64, 2,000,000 elements.
as4::xml::Bounds document_bounds();

struct Limits {
  as4::xml::Bounds xml = document_bounds();
  size_t max_lines = 100000;  // invoice, credit note or despatch lines
  size_t max_repeats = 1000;  // of any other repeated group in one parent (notes, subtotals, allowances ...)
};

// Reads an Invoice or a CreditNote; fills `out` or returns why it cannot.
// Missing or malformed values are no error: validate() reports them.
Error parse_invoice(std::string_view xml, Invoice* out, const Limits& limits = {});
// Reads a DespatchAdvice, the same way.
Error parse_despatch_advice(std::string_view xml, DespatchAdvice* out, const Limits& limits = {});

// The rules (rules.cpp lists them with their ids), in a fixed order: the
// reader's structure findings, then document, parties, payment, lines,
// document allowances and charges, VAT, totals, currencies. A rule that needs
// a value the document lacks (or cannot be read as a number) is not
// evaluated: that value's own finding says why.
std::vector<Finding> validate(const Invoice& invoice);
std::vector<Finding> validate(const DespatchAdvice& advice);

// True when a finding is fatal: the booking rejects the document.
bool rejects(const std::vector<Finding>& findings);

// An exact decimal: value = units / 10^scale. From xs:decimal text ("-12.50",
// "+3", ".5", "7."); nullopt for anything else or beyond 18 significant digits
// (after dropping leading zeros and trailing fraction zeros).
struct Decimal {
  int64_t units = 0;
  int scale = 0;  // 0..18
};
std::optional<Decimal> parse_decimal(std::string_view text);
// Decimal text to hundredths (cents) exactly: nullopt when it is no decimal,
// its value needs more than two fraction digits ("1.230" is 123 cents; the
// BR-DEC rules count the digits as written) or the cents overflow 64 bits.
std::optional<int64_t> cents(std::string_view text);

// True for YYYY-MM-DD naming a real calendar day.
bool is_date(std::string_view text);
// True for an xs:time: hh:mm:ss, an optional fraction, an optional zone (Z, +hh:mm).
bool is_time(std::string_view text);

// The code lists the rules check (codes.cpp says where each comes from).
bool is_currency_code(std::string_view code);                 // ISO 4217 alpha-3
bool is_unit_code_format(std::string_view code);              // UN/ECE Rec 20/21 shape: [A-Z0-9]{2,3}
bool is_common_unit_code(std::string_view code);              // the Rec 20/21 codes invoices commonly use
bool is_vat_category(std::string_view code);                  // UNCL5305 as EN 16931 restricts it
bool is_invoice_type_code(std::string_view code);             // UNCL1001, the invoice codes
bool is_credit_note_type_code(std::string_view code);         // UNCL1001, the credit note codes
bool is_peppol_invoice_type_code(std::string_view code);      // the subset Peppol profile 01 allows
bool is_peppol_credit_note_type_code(std::string_view code);  // the same for credit notes

}  // namespace edihub::ubl
