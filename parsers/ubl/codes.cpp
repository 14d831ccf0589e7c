// The code lists the UBL rules check. Each is a space-separated list searched
// whole-word; they are short enough that a set would buy nothing.
#include <string_view>

#include "parsers/ubl/ubl.h"

namespace edihub::ubl {

namespace {

bool listed(std::string_view list, std::string_view code) {
  if (code.empty() || code.find(' ') != std::string_view::npos) return false;
  for (size_t at = list.find(code); at != std::string_view::npos; at = list.find(code, at + 1)) {
    const bool starts = at == 0 || list[at - 1] == ' ';
    const bool ends = at + code.size() == list.size() || list[at + code.size()] == ' ';
    if (starts && ends) return true;
  }
  return false;
}

// ISO 4217 alpha-3: the codes in use in 2025 together with those the Peppol
// BIS Billing 3.0 lists still carry after ISO withdrew them (HRK, MRO, VEF),
// so that neither a new nor a lingering code is refused.
constexpr std::string_view kCurrencies =
    "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD "
    "CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS "
    "GIP GMD GNF GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD "
    "KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRO MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK "
    "NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP "
    "STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VEF VES VND VUV WST "
    "XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF XPT XSU XTS XUA XXX YER ZAR ZMW ZWG ZWL";

// UN/ECE Recommendation 20 (with Rec 21 packaging codes prefixed X) has
// about 2,000 codes that change every year; edihub refuses what cannot be one
// (BR-CL-23 on the shape) and only warns about a well-formed code outside
// this list of the ones invoices and despatch advices commonly carry.
constexpr std::string_view kCommonUnits =
    "C62 H87 EA PR SET DZN NAR NPR LS E48 KGM GRM MGM TNE KGS MTR CMT MMT KMT LM MTK CMK HAR MTQ LTR MLT CLT "
    "HUR MIN SEC DAY WEE MON ANN KWH KWT MWH ZZ XBX XPK XCT XPX XBG XRO XPP XPA XBO XCS XTU XBE XSA XCR";

// UNCL5305 as EN 16931 restricts it (BR-CL-17, BR-CL-18), with B (split
// payment, Italy), which the EN 16931 and Peppol BIS 3 schematrons list.
constexpr std::string_view kVatCategories = "AE L M E S Z G O K B";

// UNCL1001 invoice codes: the EN 16931 list (BR-CL-01) joined with the ones
// Peppol profile 01 allows (PEPPOL-EN16931-P0100), so neither list refuses
// what the other accepts.
// Both as the EN 16931 UBL schematron (ConnectingEurope eInvoicing-EN16931 at
// b6c9e06) and the Peppol BIS 3 one (OpenPEPPOL peppol-bis-invoice-3 at
// 78d7f7d) list them, checked 2026-12-06.
constexpr std::string_view kInvoiceTypes =
    "71 80 81 82 84 102 130 202 203 204 211 218 219 295 325 326 331 380 382 383 384 385 386 387 388 389 390 393 394 "
    "395 456 457 471 472 473 500 501 502 503 527 553 575 623 633 751 780 817 870 875 876 877 935";
constexpr std::string_view kCreditNoteTypes = "81 83 261 262 296 308 381 396 420 458 532";
constexpr std::string_view kPeppolInvoiceTypes =
    "71 80 82 84 102 218 219 326 331 380 382 383 384 386 388 393 395 553 575 623 780 817 870 875 876 877";
constexpr std::string_view kPeppolCreditNoteTypes = "81 83 381 396 532";

}  // namespace

bool is_currency_code(std::string_view code) { return code.size() == 3 && listed(kCurrencies, code); }

bool is_unit_code_format(std::string_view code) {
  if (code.size() < 2 || code.size() > 3) return false;
  for (char c : code)
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
  return true;
}

bool is_common_unit_code(std::string_view code) { return listed(kCommonUnits, code); }
bool is_vat_category(std::string_view code) { return listed(kVatCategories, code); }
bool is_invoice_type_code(std::string_view code) { return listed(kInvoiceTypes, code); }
bool is_credit_note_type_code(std::string_view code) { return listed(kCreditNoteTypes, code); }
bool is_peppol_invoice_type_code(std::string_view code) { return listed(kPeppolInvoiceTypes, code); }
bool is_peppol_credit_note_type_code(std::string_view code) { return listed(kPeppolCreditNoteTypes, code); }

}  // namespace edihub::ubl
