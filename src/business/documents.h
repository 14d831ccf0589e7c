// The business documents edihub books: shipment notices (EDIFACT DESADV, X12
// 856) and invoices (EDIFACT INVOIC, X12 810). Money is exact: integer minor
// units (cents) or decimal text, never floating point. Decimal text always has
// '.' as its mark (an EDIFACT "1,5" becomes "1.5").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "parsers/edi/interchange.h"

namespace edihub::business {

// What a document does to the booked version with the same number.
enum class Purpose { Original, Replace, Cancel };

std::string_view purpose_name(Purpose p);  // "original" / "replace" / "cancel"

struct ShipmentLine {
  int line_number = 0;        // LIN01 / LIN 1082 (or the position when absent)
  std::string item_id;        // LIN buyer/vendor item (UP, VP, BP...) / LIN C212 7140
  std::string item_id_type;   // "UP", "VP", "EN", "SRV" ...
  std::string supplier_item;  // PIA / a second LIN id, may be empty
  std::string quantity;       // decimal text, SN102 / QTY+12
  std::string unit;           // SN103 / QTY 6411, may be empty
  std::string order_number;   // PRF01 / RFF+ON in the line's scope, may be empty
};

struct ShipmentNotice {
  std::string document_number;          // BSN02 / BGM 1004
  Purpose purpose = Purpose::Original;  // BSN01 00/05/01 / BGM 1225 9/5/1
  std::string document_date;            // CCYYMMDD[HHMM[SS]]: BSN03+BSN04 / DTM+137
  std::string ship_date;                // CCYYMMDD[HHMM[SS]]: DTM*011 date+time (X12) / DTM+11, may be empty
  std::string order_number;             // PRF01 at order level / RFF+ON, may be empty
  std::string ship_from;                // N1*SF / NAD+SU (or +CZ) party id, may be empty
  std::string ship_to;                  // N1*ST / NAD+DP (or +ST), may be empty
  std::string carrier;                  // TD5 03 / TDT carrier, may be empty
  std::string gross_weight;             // TD107 (TD106 G) / MEA C502 G or AAB, decimal text, may be empty
  std::vector<ShipmentLine> lines;
};

struct InvoiceLine {
  int line_number = 0;
  std::string item_id;
  std::string item_id_type;
  std::string quantity;      // decimal text: IT102 / QTY+47
  std::string unit;          // IT103 / QTY 6411
  std::string unit_price;    // decimal text: IT104 / PRI+AAA (or AAB, INV)
  int64_t amount_minor = 0;  // minor units: MOA+203 (else 66) / quantity x price, rounded half up
};

struct Invoice {
  std::string invoice_number;               // BIG02 / BGM 1004
  bool credit_note = false;                 // BGM 381 / BIG07 = CR
  Purpose purpose = Purpose::Original;      // BIG08 00/05/01 (absent: original) / BGM 1225 9/5/1
  std::string document_date;                // BIG01 CCYYMMDD / DTM+137 (else DTM+3) CCYYMMDD[HHMM[SS]]
  std::string order_number;                 // BIG04 / RFF+ON, may be empty
  std::string currency;                     // CUR02 / CUX 6345, may be empty
  int64_t total_minor = 0;                  // TDS01 (two implied decimals) / MOA+86 (or 77, 9, 39, 128)
  std::optional<int64_t> tax_minor;         // TXI02 sum / MOA+124 sum, else 176, else MOA+150 sum
  std::optional<int64_t> line_total_minor;  // sum of the IT1 amounts (X12) / MOA+79 (EDIFACT)
  std::vector<InvoiceLine> lines;
};

// A document read from one message, or why it could not be read.
struct Extracted {
  std::variant<std::monostate, ShipmentNotice, Invoice> document;  // monostate: not handled
  std::string error;  // non-empty: the message is of a handled type but unusable
  // Where the error is, for the operator: "segment 12 (BSN): BSN02 is empty"; the
  // number is the 1-based position in the input, as EnvelopeError::segment.
};

// True for the message types edihub books: X12 856/810, EDIFACT DESADV/INVOIC.
bool handled(const edi::Interchange& ic, const edi::Message& m);

// Reads the document in `message` (its bytes are input[m.span]) of interchange
// `ic`. Pure: no I/O. Other message types give monostate and no error.
Extracted extract(const edi::Interchange& ic, const edi::Message& m, std::string_view input);

// Decimal text ("1202.58", "1202,58" with the interchange's decimal mark,
// "-3", ".5") to minor units with `decimals` fraction digits, rounding half
// away from zero; nullopt for anything else or on overflow.
std::optional<int64_t> to_minor(std::string_view decimal, int decimals = 2, char mark = '.');

}  // namespace edihub::business
