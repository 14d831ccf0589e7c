// The rules a UBL document must pass to be booked, each reported under the
// id its specification gives it:
//   EN 16931 (CEN/TS 16931-3-2, the UBL binding): BR-01..BR-16 (mandatory
//     document fields), BR-21..BR-27 (lines), BR-31..BR-33, BR-36..BR-38
//     (document allowances and charges), BR-41..BR-44 (line allowances and
//     charges), BR-45..BR-48 (VAT breakdown), BR-49, BR-53, BR-55, BR-61,
//     BR-CO-04, BR-CO-10..BR-CO-18, BR-CO-25, BR-CO-26, BR-DEC-01, 05, 09..20,
//     23, 24, 27 (two decimals), BR-CL-01, 03, 04, 05, 17, 18, 23 (code lists);
//   Peppol BIS Billing 3.0: PEPPOL-EN16931-R001, R003, R004, R005, R007,
//     R008 (the reader's: no empty element), R010, R020, R043, R051, R053,
//     R054, R120, R121, R130, P0100, P0101, P0112, F001;
//     PEPPOL-COMMON-R040 (GLN) and R041 (Norwegian organisation number);
//   Peppol BIS Despatch Advice 3 (T16): PEPPOL-T16-B00101..B00107, B00201
//     (as a prefix, so that national extensions of the identifier pass),
//     B00301, B01101, B01102, B01201, B02701, B03401, B03402, B03501, B05001,
//     B10701, B11001, B14601..B14603, B14901, B14902, B15101, B15102, B15401,
//     B16601, R001, R003, R004, R006, R007, R008 (R001, R007, R008 warnings
//     as Peppol flags them), PEPPOL-COMMON-R030 (dates), R040, R041;
//   edihub's own, where no specification rule applies: EDIHUB-UBL-REPEATED
//     (the reader's: an element UBL allows once, twice), EDIHUB-UBL-DECIMAL
//     (a number that is none), EDIHUB-UBL-RANGE (beyond 64-bit cents or
//     128-bit products), EDIHUB-UBL-TAX-AMOUNT (a TaxTotal without its
//     amount), EDIHUB-UBL-UNIT-UNLISTED (a warning), EDIHUB-UBL-TIME and
//     EDIHUB-UBL-DATE (the despatch advice's time and despatch date), and
//     EDIHUB-UBL-DELIVERED-QUANTITY (fatal where Peppol's R005 only warns:
//     the booking needs the quantity).
// Rule ids are those of the EN 16931 UBL schematron (ConnectingEurope
// eInvoicing-EN16931) and the Peppol BIS schematrons; the texts are edihub's.
// The arithmetic is exact: amounts are integer cents (every amount has at
// most two decimals, or its BR-DEC rule fails and the sums using it are not
// checked); quantities and prices are exact decimals in 128-bit integers.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/ubl/ubl.h"

namespace edihub::ubl {

namespace {

using Wide = __int128;  // products of two 18-digit decimals

constexpr int64_t kPowers[] = {1,
                               10,
                               100,
                               1000,
                               10000,
                               100000,
                               1000000,
                               10000000,
                               100000000,
                               1000000000,
                               10000000000,
                               100000000000,
                               1000000000000,
                               10000000000000,
                               100000000000000,
                               1000000000000000,
                               10000000000000000,
                               100000000000000000,
                               1000000000000000000};

std::string quote(std::string_view v) {
  constexpr size_t kShown = 60;
  return "'" + std::string(v.substr(0, kShown)) + (v.size() > kShown ? "...'" : "'");
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& ch : out)
    if (ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 'a' + 'A');
  return out;
}

std::string format_cents(int64_t cents) {
  const bool negative = cents < 0;
  const uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(cents) : static_cast<uint64_t>(cents);
  std::string fraction = std::to_string(magnitude % 100);
  if (fraction.size() < 2) fraction.insert(0, "0");
  return (negative ? "-" : "") + std::to_string(magnitude / 100) + "." + fraction;
}

class Sink {
 public:
  void fatal(std::string_view rule, std::string text, std::string path) {
    out_.push_back({std::string(rule), Severity::Fatal, std::move(text), std::move(path)});
  }
  void warning(std::string_view rule, std::string text, std::string path) {
    out_.push_back({std::string(rule), Severity::Warning, std::move(text), std::move(path)});
  }
  void add(const std::vector<Finding>& more) { out_.insert(out_.end(), more.begin(), more.end()); }
  std::vector<Finding> take() { return std::move(out_); }

 private:
  std::vector<Finding> out_;
};

// A decimal the rules read, or the finding saying why it cannot be.
std::optional<Decimal> number(std::string_view text, const std::string& what, const std::string& path, Sink& s) {
  std::optional<Decimal> d = parse_decimal(text);
  if (!d)
    s.fatal("EDIHUB-UBL-DECIMAL", what + " " + quote(text) + " is not a decimal number (at most 18 significant digits)",
            path);
  return d;
}

// An amount in cents, checked once: not a number, or more than two decimals
// (`dec_rule`), is a finding and no value. Absent: no value, no finding.
std::optional<int64_t> money(const Amount& a, std::string_view dec_rule, const std::string& what,
                             const std::string& path, Sink& s) {
  if (!a.present) return std::nullopt;
  const std::optional<Decimal> d = number(a.value, what, path, s);
  if (!d) return std::nullopt;
  // As the rules count them: the digits written after the point, zeros too.
  const size_t point = a.value.find('.');
  if (point != std::string::npos && a.value.size() - point - 1 > 2) {
    s.fatal(dec_rule, what + " " + quote(a.value) + " has more than two decimals", path);
    return std::nullopt;
  }
  const std::optional<int64_t> c = cents(a.value);
  if (!c) s.fatal("EDIHUB-UBL-RANGE", what + " " + quote(a.value) + " is too large to compute with", path);
  return c;
}

// An amount the rules computed: a value; or none because an operand has none
// (whose own finding says why); or none because 64-bit cents overflowed
// (which the rule using it reports, never silently).
struct Computed {
  std::optional<int64_t> value;
  bool overflow = false;
};

Computed combine(const Computed& a, const Computed& b, bool subtract) {
  if (a.overflow || b.overflow) return {std::nullopt, true};
  if (!a.value || !b.value) return {};
  int64_t r = 0;
  if (subtract ? __builtin_sub_overflow(*a.value, *b.value, &r) : __builtin_add_overflow(*a.value, *b.value, &r))
    return {std::nullopt, true};
  return {r, false};
}

// A running sum of cents.
struct Sum {
  Computed total{int64_t{0}, false};
  void add(const std::optional<int64_t>& v) { total = combine(total, Computed{v, false}, false); }
  bool usable() const { return total.value.has_value(); }
};

// F001 / COMMON-R030: a date is YYYY-MM-DD and a real day. Empty: no finding.
void date(const std::string& value, std::string_view rule, const std::string& what, const std::string& path, Sink& s) {
  if (!value.empty() && !is_date(value)) s.fatal(rule, what + " " + quote(value) + " is not a date YYYY-MM-DD", path);
}

void unit_code(const std::string& unit, std::string_view rule, const std::string& path, Sink& s) {
  if (!is_unit_code_format(unit))
    s.fatal(rule, "unit code " + quote(unit) + " is not a UN/ECE Recommendation 20/21 code", path);
  else if (!is_common_unit_code(unit))
    s.warning("EDIHUB-UBL-UNIT-UNLISTED",
              "unit code " + quote(unit) + " is not among the common Recommendation 20/21 codes edihub lists", path);
}

bool all_digits(std::string_view v) {
  if (v.empty()) return false;
  for (char c : v)
    if (c < '0' || c > '9') return false;
  return true;
}

// GS1 check digit: weights 3, 1, 3 ... from the digit left of the check digit.
bool gln_check_digit(std::string_view v) {
  if (!all_digits(v) || v.size() < 2) return false;
  int sum = 0;
  for (size_t i = 0; i + 1 < v.size(); ++i) {
    const int digit = v[v.size() - 2 - i] - '0';
    sum += digit * (i % 2 == 0 ? 3 : 1);
  }
  return (10 - sum % 10) % 10 == v.back() - '0';
}

// Norwegian organisation number: nine digits, modulus 11 with weights 2..7 from the right.
bool norwegian_org_number(std::string_view v) {
  if (v.size() != 9 || !all_digits(v) || v == "000000000") return false;
  int sum = 0;
  for (size_t i = 0; i < 8; ++i) sum += (v[7 - i] - '0') * static_cast<int>(i % 6 + 2);
  return (11 - sum % 11) % 11 == v.back() - '0';
}

void scheme_identifier(const Identifier& id, const std::string& path, Sink& s) {
  if (id.scheme == "0088" && !gln_check_digit(id.value))
    s.fatal("PEPPOL-COMMON-R040", "GLN " + quote(id.value) + " has no valid GS1 check digit", path);
  if (id.scheme == "0192" && !norwegian_org_number(id.value))
    s.fatal("PEPPOL-COMMON-R041", "Norwegian organisation number " + quote(id.value) + " is not nine digits modulus 11",
            path);
}

void party_identifiers(const Party& p, const std::string& path, Sink& s) {
  if (!p.endpoint.value.empty()) scheme_identifier(p.endpoint, path + "/cbc:EndpointID", s);
  for (size_t i = 0; i < p.identifications.size(); ++i)
    scheme_identifier(p.identifications[i], path + "/cac:PartyIdentification[" + std::to_string(i + 1) + "]/cbc:ID", s);
  if (!p.legal_company_id.value.empty())
    scheme_identifier(p.legal_company_id, path + "/cac:PartyLegalEntity/cbc:CompanyID", s);
}

// ---- Invoice and credit note ------------------------------------------------

struct Context {
  const Invoice& inv;
  std::string root;       // "/Invoice" or "/CreditNote"
  std::string line_name;  // "cac:InvoiceLine" or "cac:CreditNoteLine"
  std::string noun;       // "invoice" or "credit note"
};

// For the rules that ask whether an element is there (an XPath `cbc:X`, not
// `normalize-space(cbc:X) != ''`): a value, or the element written empty,
// which PEPPOL-EN16931-R008 has refused already.
bool exists(const Invoice& inv, std::string_view value, const std::string& path) {
  if (!value.empty()) return true;
  for (const std::string& p : inv.empty_elements)
    if (p == path) return true;
  return false;
}

// "01" for urn:fdc:peppol.eu:2017:poacc:billing:01:1.0, else empty.
std::string peppol_process(std::string_view profile) {
  constexpr std::string_view kPrefix = "urn:fdc:peppol.eu:2017:poacc:billing:";
  if (!starts_with(profile, kPrefix) || profile.size() != kPrefix.size() + 6) return {};
  const std::string_view nn = profile.substr(kPrefix.size(), 2);
  if (!all_digits(nn) || profile.substr(kPrefix.size() + 2) != ":1.0") return {};
  return std::string(nn);
}

void check_specification(const Context& c, Sink& s) {
  const Invoice& inv = c.inv;
  if (inv.customization_id.empty())
    s.fatal("BR-01", "the " + c.noun + " has no specification identifier (cbc:CustomizationID)",
            c.root + "/cbc:CustomizationID");
  else if (!starts_with(inv.customization_id, kBillingCustomization))
    s.fatal("PEPPOL-EN16931-R004",
            "specification identifier " + quote(inv.customization_id) + " is not Peppol BIS Billing 3.0's",
            c.root + "/cbc:CustomizationID");
  if (!exists(inv, inv.profile_id, c.root + "/cbc:ProfileID"))
    s.fatal("PEPPOL-EN16931-R001", "the " + c.noun + " has no business process (cbc:ProfileID)",
            c.root + "/cbc:ProfileID");
  else if (!inv.profile_id.empty() && peppol_process(inv.profile_id).empty())
    s.fatal("PEPPOL-EN16931-R007",
            "business process " + quote(inv.profile_id) + " is not urn:fdc:peppol.eu:2017:poacc:billing:NN:1.0",
            c.root + "/cbc:ProfileID");
}

void check_type_code(const Context& c, Sink& s) {
  const Invoice& inv = c.inv;
  const std::string path = c.root + (inv.credit_note ? "/cbc:CreditNoteTypeCode" : "/cbc:InvoiceTypeCode");
  if (inv.type_code.empty()) {
    s.fatal("BR-04", "the " + c.noun + " has no type code", path);
    return;
  }
  const bool listed = inv.credit_note ? is_credit_note_type_code(inv.type_code) : is_invoice_type_code(inv.type_code);
  if (!listed) {
    s.fatal("BR-CL-01", "type code " + quote(inv.type_code) + " is not a UNCL1001 " + c.noun + " code", path);
    return;
  }
  // 326 (partial invoice) and 384 (corrected invoice) are German usage.
  if (!inv.credit_note && (inv.type_code == "326" || inv.type_code == "384") &&
      !(upper(inv.supplier.address.country) == "DE" && upper(inv.customer.address.country) == "DE"))
    s.fatal("PEPPOL-EN16931-P0112",
            "invoice type code " + quote(inv.type_code) + " is allowed only when the seller and the buyer are in DE",
            path);
  if (peppol_process(inv.profile_id) != "01") return;
  if (!inv.credit_note && !is_peppol_invoice_type_code(inv.type_code))
    s.fatal("PEPPOL-EN16931-P0100", "invoice type code " + quote(inv.type_code) + " is not allowed in process 01",
            path);
  if (inv.credit_note && !is_peppol_credit_note_type_code(inv.type_code))
    s.fatal("PEPPOL-EN16931-P0101", "credit note type code " + quote(inv.type_code) + " is not allowed in process 01",
            path);
}

void check_currency_codes(const Context& c, Sink& s) {
  const Invoice& inv = c.inv;
  if (inv.document_currency.empty())
    s.fatal("BR-05", "the " + c.noun + " has no currency (cbc:DocumentCurrencyCode)",
            c.root + "/cbc:DocumentCurrencyCode");
  else if (!is_currency_code(inv.document_currency))
    s.fatal("BR-CL-04", "currency " + quote(inv.document_currency) + " is not an ISO 4217 code",
            c.root + "/cbc:DocumentCurrencyCode");
  if (inv.tax_currency.empty()) return;
  if (!is_currency_code(inv.tax_currency))
    s.fatal("BR-CL-05", "VAT accounting currency " + quote(inv.tax_currency) + " is not an ISO 4217 code",
            c.root + "/cbc:TaxCurrencyCode");
  if (inv.tax_currency == inv.document_currency)
    s.fatal("PEPPOL-EN16931-R005", "the VAT accounting currency is the document currency; leave it out",
            c.root + "/cbc:TaxCurrencyCode");
}

void check_document(const Context& c, Sink& s) {
  const Invoice& inv = c.inv;
  check_specification(c, s);
  if (inv.id.empty()) s.fatal("BR-02", "the " + c.noun + " has no number (cbc:ID)", c.root + "/cbc:ID");
  if (inv.issue_date.empty())
    s.fatal("BR-03", "the " + c.noun + " has no issue date (cbc:IssueDate)", c.root + "/cbc:IssueDate");
  date(inv.issue_date, "PEPPOL-EN16931-F001", "issue date", c.root + "/cbc:IssueDate", s);
  date(inv.due_date, "PEPPOL-EN16931-F001", "due date", c.root + "/cbc:DueDate", s);
  date(inv.tax_point_date, "PEPPOL-EN16931-F001", "VAT point date", c.root + "/cbc:TaxPointDate", s);
  date(inv.delivery.actual_date, "PEPPOL-EN16931-F001", "delivery date",
       c.root + "/cac:Delivery/cbc:ActualDeliveryDate", s);
  check_type_code(c, s);
  check_currency_codes(c, s);
  if (!exists(inv, inv.buyer_reference, c.root + "/cbc:BuyerReference") &&
      !exists(inv, inv.order_reference, c.root + "/cac:OrderReference/cbc:ID"))
    s.fatal("PEPPOL-EN16931-R003", "the " + c.noun + " has neither a buyer reference nor an order reference",
            c.root + "/cbc:BuyerReference");
  for (size_t i = 0; i < inv.billing_references.size(); ++i) {
    const std::string path =
        c.root + "/cac:BillingReference[" + std::to_string(i + 1) + "]/cac:InvoiceDocumentReference";
    if (inv.billing_references[i].id.empty())
      s.fatal("BR-55", "a preceding invoice reference has no invoice number", path + "/cbc:ID");
    date(inv.billing_references[i].issue_date, "PEPPOL-EN16931-F001", "preceding invoice date", path + "/cbc:IssueDate",
         s);
  }
}

struct PartyRules {
  const char* who;  // "seller" / "buyer"
  const char* name_rule;
  const char* address_rule;
  const char* country_rule;
  const char* endpoint_rule;
};

void check_party(const Invoice& inv, const Party& p, const PartyRules& r, const std::string& role_path, Sink& s) {
  const std::string path = role_path + "/cac:Party";
  if (p.registration_name.empty())
    s.fatal(r.name_rule, std::string("the ") + r.who + "'s name (cac:PartyLegalEntity/cbc:RegistrationName) is missing",
            path + "/cac:PartyLegalEntity/cbc:RegistrationName");
  if (!p.address.present)
    s.fatal(r.address_rule, std::string("the ") + r.who + " has no postal address", path + "/cac:PostalAddress");
  else if (p.address.country.empty())
    s.fatal(r.country_rule, std::string("the ") + r.who + "'s postal address has no country code",
            path + "/cac:PostalAddress/cac:Country/cbc:IdentificationCode");
  if (!p.present) return;
  if (!exists(inv, p.endpoint.value, path + "/cbc:EndpointID"))
    s.fatal(r.endpoint_rule, std::string("the ") + r.who + " has no electronic address (cbc:EndpointID)",
            path + "/cbc:EndpointID");
  party_identifiers(p, path, s);
}

bool has_seller_identifier(const Party& p) {
  for (const Identifier& id : p.identifications)
    if (!id.value.empty()) return true;
  for (const std::string& id : p.tax_company_ids)
    if (!id.empty()) return true;
  return !p.legal_company_id.value.empty();
}

void check_parties(const Context& c, Sink& s) {
  const std::string seller = c.root + "/cac:AccountingSupplierParty";
  check_party(c.inv, c.inv.supplier, {"seller", "BR-06", "BR-08", "BR-09", "PEPPOL-EN16931-R020"}, seller, s);
  if (c.inv.supplier.present && !has_seller_identifier(c.inv.supplier))
    s.fatal("BR-CO-26", "the seller has no identifier, legal registration identifier or VAT identifier",
            seller + "/cac:Party/cac:PartyIdentification/cbc:ID");
  check_party(c.inv, c.inv.customer, {"buyer", "BR-07", "BR-10", "BR-11", "PEPPOL-EN16931-R010"},
              c.root + "/cac:AccountingCustomerParty", s);
}

void check_payment_means(const Context& c, Sink& s) {
  for (size_t i = 0; i < c.inv.payment_means.size(); ++i) {
    const PaymentMeans& pm = c.inv.payment_means[i];
    const std::string path = c.root + "/cac:PaymentMeans[" + std::to_string(i + 1) + "]";
    if (pm.code.empty())
      s.fatal("BR-49", "payment instructions without a payment means code", path + "/cbc:PaymentMeansCode");
    else if ((pm.code == "30" || pm.code == "58") && pm.account_id.empty())
      s.fatal("BR-61", "credit transfer (code " + pm.code + ") without the payee's account",
              path + "/cac:PayeeFinancialAccount/cbc:ID");
  }
}

// An allowance or charge's rule ids, by level and kind.
struct AllowanceRules {
  const char* amount;
  const char* reason;
  const char* decimals;
  const char* category;  // document level only
};

constexpr AllowanceRules kDocumentAllowance{"BR-31", "BR-33", "BR-DEC-01", "BR-32"};
constexpr AllowanceRules kDocumentCharge{"BR-36", "BR-38", "BR-DEC-05", "BR-37"};
constexpr AllowanceRules kLineAllowance{"BR-41", "BR-42", "BR-DEC-24", nullptr};
constexpr AllowanceRules kLineCharge{"BR-43", "BR-44", "BR-DEC-27", nullptr};

// Checks one allowance or charge; adds its amount to `allowances` or `charges`.
void check_allowance_charge(const AllowanceCharge& ac, bool line_level, const std::string& path, Sum* allowances,
                            Sum* charges, Sink& s) {
  if (ac.charge_indicator != "true" && ac.charge_indicator != "false") {
    s.fatal("PEPPOL-EN16931-R043", "charge indicator " + quote(ac.charge_indicator) + " is neither 'true' nor 'false'",
            path + "/cbc:ChargeIndicator");
    allowances->add(std::nullopt);
    charges->add(std::nullopt);
    return;
  }
  const bool charge = ac.charge_indicator == "true";
  const AllowanceRules& r =
      line_level ? (charge ? kLineCharge : kLineAllowance) : (charge ? kDocumentCharge : kDocumentAllowance);
  const std::string kind = charge ? "charge" : "allowance";
  std::optional<int64_t> amount;
  if (!ac.amount.present)
    s.fatal(r.amount, "the " + kind + " has no amount", path + "/cbc:Amount");
  else
    amount = money(ac.amount, r.decimals, kind + " amount", path + "/cbc:Amount", s);
  (charge ? charges : allowances)->add(amount);
  if (r.category != nullptr) {
    if (ac.tax_category.id.empty())
      s.fatal(r.category, "the " + kind + " has no VAT category", path + "/cac:TaxCategory/cbc:ID");
    else if (!is_vat_category(ac.tax_category.id))
      s.fatal("BR-CL-17", "VAT category " + quote(ac.tax_category.id) + " is not a UNCL5305 code",
              path + "/cac:TaxCategory/cbc:ID");
  }
  if (ac.reason.empty() && ac.reason_code.empty())
    s.fatal(r.reason, "the " + kind + " has neither a reason nor a reason code", path + "/cbc:AllowanceChargeReason");
}

// R120: line net = quantity x price / base quantity + charges - allowances,
// within 0.02. Multiplied out to integers: |(L - C) q p' b - 100 Q P b'|
// <= 2 q p' b, where q p' b are the scales' powers. False when it fails; no
// value when the numbers are too large to multiply in 128 bits.
std::optional<bool> line_net_agrees(int64_t line_cents, int64_t charges_minus_allowances, const Decimal& quantity,
                                    const Decimal& price, const Decimal& base) {
  const Wide scale = Wide{kPowers[quantity.scale]} * kPowers[price.scale];
  Wide left = 0, right = 0, slack = 0, diff = 0;
  if (__builtin_mul_overflow(Wide{line_cents} - charges_minus_allowances, scale, &left) ||
      __builtin_mul_overflow(left, Wide{base.units}, &left) ||
      __builtin_mul_overflow(Wide{quantity.units} * price.units, Wide{100} * kPowers[base.scale], &right) ||
      __builtin_mul_overflow(Wide{2} * base.units, scale, &slack) || __builtin_sub_overflow(left, right, &diff))
    return std::nullopt;
  if (diff < 0) diff = -diff;
  return diff <= slack;
}

void check_line_price(const InvoiceLine& line, const std::string& path, Sink& s, std::optional<Decimal>* price,
                      std::optional<Decimal>* base) {
  const std::string price_path = path + "/cac:Price/cbc:PriceAmount";
  if (!line.has_price || !line.price.present) {
    s.fatal("BR-26", "the line has no item net price (cac:Price/cbc:PriceAmount)", price_path);
  } else {
    *price = number(line.price.value, "item net price", price_path, s);
    if (*price && (*price)->units < 0)
      s.fatal("BR-27", "item net price " + quote(line.price.value) + " is negative", price_path);
  }
  if (!line.base_quantity.present) return;
  const std::string base_path = path + "/cac:Price/cbc:BaseQuantity";
  *base = number(line.base_quantity.value, "base quantity", base_path, s);
  if (*base && (*base)->units <= 0)
    s.fatal("PEPPOL-EN16931-R121", "base quantity " + quote(line.base_quantity.value) + " is not above zero",
            base_path);
  if (!line.base_quantity.unit.empty()) {
    unit_code(line.base_quantity.unit, "BR-CL-23", base_path, s);
    if (line.quantity.present && line.base_quantity.unit != line.quantity.unit)
      s.fatal("PEPPOL-EN16931-R130",
              "base quantity unit " + quote(line.base_quantity.unit) + " is not the quantity's " +
                  quote(line.quantity.unit),
              base_path);
  }
}

void check_line_item(const Item& item, const std::string& path, Sink& s) {
  if (item.name.empty()) s.fatal("BR-25", "the line's item has no name", path + "/cac:Item/cbc:Name");
  const std::string category = path + "/cac:Item/cac:ClassifiedTaxCategory";
  if (item.classified_tax_category.id.empty())
    s.fatal("BR-CO-04", "the line's item has no VAT category", category + "/cbc:ID");
  else if (!is_vat_category(item.classified_tax_category.id))
    s.fatal("BR-CL-18", "VAT category " + quote(item.classified_tax_category.id) + " is not a UNCL5305 code",
            category + "/cbc:ID");
  if (!item.classified_tax_category.percent.empty())
    number(item.classified_tax_category.percent, "VAT rate", category + "/cbc:Percent", s);
}

// Checks one line; returns its net amount in cents when usable.
std::optional<int64_t> check_line(const Context& c, const InvoiceLine& line, const std::string& path, Sink& s) {
  if (line.id.empty()) s.fatal("BR-21", "the line has no identifier", path + "/cbc:ID");
  const std::string quantity_path = path + (c.inv.credit_note ? "/cbc:CreditedQuantity" : "/cbc:InvoicedQuantity");
  std::optional<Decimal> quantity;
  if (!line.quantity.present) {
    s.fatal("BR-22", "the line has no quantity", quantity_path);
  } else {
    quantity = number(line.quantity.value, "quantity", quantity_path, s);
    if (line.quantity.unit.empty())
      s.fatal("BR-23", "the line's quantity has no unit code", quantity_path);
    else
      unit_code(line.quantity.unit, "BR-CL-23", quantity_path, s);
  }
  std::optional<int64_t> net;
  if (!line.line_extension.present)
    s.fatal("BR-24", "the line has no net amount", path + "/cbc:LineExtensionAmount");
  else
    net = money(line.line_extension, "BR-DEC-23", "line net amount", path + "/cbc:LineExtensionAmount", s);
  check_line_item(line.item, path, s);
  std::optional<Decimal> price, base;
  check_line_price(line, path, s, &price, &base);
  Sum allowances, charges;
  for (size_t i = 0; i < line.allowance_charges.size(); ++i)
    check_allowance_charge(line.allowance_charges[i], true,
                           path + "/cac:AllowanceCharge[" + std::to_string(i + 1) + "]", &allowances, &charges, s);
  const Computed adjust = combine(charges.total, allowances.total, true);
  if (!net || !quantity || !price || (!adjust.value && !adjust.overflow)) return net;
  if (line.base_quantity.present && (!base || base->units <= 0)) return net;
  const std::optional<bool> agrees =
      adjust.value ? line_net_agrees(*net, *adjust.value, *quantity, *price, base ? *base : Decimal{1, 0})
                   : std::nullopt;
  if (!agrees)
    s.warning("EDIHUB-UBL-RANGE", "the line's quantity and price are too large to check the net amount",
              path + "/cbc:LineExtensionAmount");
  else if (!*agrees)
    s.fatal("PEPPOL-EN16931-R120",
            "line net amount " + quote(line.line_extension.value) +
                " is not quantity x price / base quantity + charges - allowances (within 0.02)",
            path + "/cbc:LineExtensionAmount");
  return net;
}

Sum check_lines(const Context& c, Sink& s) {
  Sum sum;
  if (c.inv.lines.empty()) s.fatal("BR-16", "the " + c.noun + " has no lines", c.root + "/" + c.line_name);
  for (size_t i = 0; i < c.inv.lines.size(); ++i)
    sum.add(check_line(c, c.inv.lines[i], c.root + "/" + c.line_name + "[" + std::to_string(i + 1) + "]", s));
  return sum;
}

struct DocumentAllowances {
  Sum allowances, charges;
};

DocumentAllowances check_document_allowances(const Context& c, Sink& s) {
  DocumentAllowances d;
  for (size_t i = 0; i < c.inv.allowance_charges.size(); ++i)
    check_allowance_charge(c.inv.allowance_charges[i], false,
                           c.root + "/cac:AllowanceCharge[" + std::to_string(i + 1) + "]", &d.allowances, &d.charges,
                           s);
  return d;
}

// XPath round(): halves go up (towards positive infinity).
Wide round_half_up(Wide numerator, Wide denominator) {
  Wide twice = 2 * numerator + denominator, divisor = 2 * denominator;
  Wide q = twice / divisor;
  if (twice % divisor != 0 && (twice < 0) != (divisor < 0)) --q;  // floor
  return q;
}

// BR-CO-17: |tax| = round(|taxable| x rate / 100, 2 decimals), within one
// currency unit either way, as the rule states it (absolute values, so a
// negative amount rounds like its positive; the tolerance takes the cent an
// ERP's line-by-line rounding leaves); a zero rate (or none) wants no tax.
void check_subtotal_tax(const TaxSubtotal& st, int64_t taxable, int64_t tax, const std::optional<Decimal>& rate,
                        const std::string& path, Sink& s) {
  const bool rate_rounds_to_zero = !rate || round_half_up(Wide{rate->units}, Wide{kPowers[rate->scale]}) == 0;
  if (rate_rounds_to_zero) {
    if (tax < -50 || tax >= 50)
      s.fatal("BR-CO-17", "VAT amount " + quote(st.tax_amount.value) + " is not zero at a zero rate",
              path + "/cbc:TaxAmount");
    return;
  }
  const Wide magnitude =
      round_half_up((taxable < 0 ? -Wide{taxable} : Wide{taxable}) * rate->units, Wide{kPowers[rate->scale]} * 100);
  const Wide given = tax < 0 ? -Wide{tax} : Wide{tax};
  constexpr Wide kUnit = 100;  // cents
  if (given - kUnit >= magnitude || given + kUnit <= magnitude) {
    const Wide expected = taxable < 0 ? -magnitude : magnitude;
    s.fatal("BR-CO-17",
            "VAT amount " + quote(st.tax_amount.value) + " is not taxable amount " + quote(st.taxable_amount.value) +
                " x " + st.category.percent + "% = " + format_cents(static_cast<int64_t>(expected)) +
                " (within one currency unit)",
            path + "/cbc:TaxAmount");
  }
}

Sum check_subtotals(const TaxTotal& t, const std::string& path, Sink& s) {
  Sum sum;
  for (size_t j = 0; j < t.subtotals.size(); ++j) {
    const TaxSubtotal& st = t.subtotals[j];
    const std::string sp = path + "/cac:TaxSubtotal[" + std::to_string(j + 1) + "]";
    std::optional<int64_t> taxable, tax;
    if (!st.taxable_amount.present)
      s.fatal("BR-45", "the VAT breakdown has no taxable amount", sp + "/cbc:TaxableAmount");
    else
      taxable = money(st.taxable_amount, "BR-DEC-19", "taxable amount", sp + "/cbc:TaxableAmount", s);
    if (!st.tax_amount.present)
      s.fatal("BR-46", "the VAT breakdown has no VAT amount", sp + "/cbc:TaxAmount");
    else
      tax = money(st.tax_amount, "BR-DEC-20", "VAT amount", sp + "/cbc:TaxAmount", s);
    sum.add(tax);
    const std::string category = sp + "/cac:TaxCategory";
    if (st.category.id.empty())
      s.fatal("BR-47", "the VAT breakdown has no VAT category", category + "/cbc:ID");
    else if (!is_vat_category(st.category.id))
      s.fatal("BR-CL-17", "VAT category " + quote(st.category.id) + " is not a UNCL5305 code", category + "/cbc:ID");
    std::optional<Decimal> rate;
    bool rate_ok = true;
    if (st.category.percent.empty()) {
      if (st.category.id != "O") s.fatal("BR-48", "the VAT breakdown has no VAT rate", category + "/cbc:Percent");
    } else {
      rate = number(st.category.percent, "VAT rate", category + "/cbc:Percent", s);
      rate_ok = rate.has_value();
    }
    if (taxable && tax && rate_ok) check_subtotal_tax(st, *taxable, *tax, rate, sp, s);
  }
  return sum;
}

// The VAT total in the document currency (BT-110), for BR-CO-15.
struct VatTotal {
  bool found = false;
  std::optional<int64_t> cents;
};

VatTotal check_vat(const Context& c, Sink& s) {
  const Invoice& inv = c.inv;
  size_t with = 0, without = 0;
  for (const TaxTotal& t : inv.tax_totals) ++(t.subtotals.empty() ? without : with);
  if (with != 1)
    s.fatal("PEPPOL-EN16931-R053",
            "the " + c.noun + " has " + std::to_string(with) + " cac:TaxTotal with a VAT breakdown, not exactly one",
            c.root + "/cac:TaxTotal");
  if (with == 0)
    s.fatal("BR-CO-18", "the " + c.noun + " has no VAT breakdown (cac:TaxSubtotal)",
            c.root + "/cac:TaxTotal/cac:TaxSubtotal");
  const bool tax_currency = exists(inv, inv.tax_currency, c.root + "/cbc:TaxCurrencyCode");
  const size_t expected = tax_currency ? 1 : 0;
  if (without != expected)
    s.fatal(
        "PEPPOL-EN16931-R054",
        "the " + c.noun + " has " + std::to_string(without) + " cac:TaxTotal without a VAT breakdown, not " +
            std::to_string(expected) +
            (!tax_currency ? " (there is no VAT accounting currency)" : " (the total in the VAT accounting currency)"),
        c.root + "/cac:TaxTotal");
  VatTotal vat;
  bool tax_currency_total = false;
  for (size_t i = 0; i < inv.tax_totals.size(); ++i) {
    const TaxTotal& t = inv.tax_totals[i];
    const std::string path = c.root + "/cac:TaxTotal[" + std::to_string(i + 1) + "]";
    const bool in_tax_currency = !inv.tax_currency.empty() && t.tax_amount.currency == inv.tax_currency;
    tax_currency_total = tax_currency_total || in_tax_currency;
    std::optional<int64_t> amount;
    if (!t.tax_amount.present)
      s.fatal("EDIHUB-UBL-TAX-AMOUNT", "cac:TaxTotal has no cbc:TaxAmount", path + "/cbc:TaxAmount");
    else
      amount =
          money(t.tax_amount, in_tax_currency ? "BR-DEC-15" : "BR-DEC-13", "VAT total", path + "/cbc:TaxAmount", s);
    if (!vat.found && t.tax_amount.present && !inv.document_currency.empty() &&
        t.tax_amount.currency == inv.document_currency) {
      vat.found = true;
      vat.cents = amount;
    }
    const Sum sum = check_subtotals(t, path, s);
    if (!t.subtotals.empty() && amount && sum.total.overflow)
      s.fatal("EDIHUB-UBL-RANGE", "the VAT breakdown's amounts are too large to add up", path + "/cbc:TaxAmount");
    else if (!t.subtotals.empty() && amount && sum.usable() && *sum.total.value != *amount)
      s.fatal("BR-CO-14",
              "VAT total " + quote(t.tax_amount.value) + " is not the sum of the VAT breakdown, " +
                  format_cents(*sum.total.value),
              path + "/cbc:TaxAmount");
  }
  if (!inv.tax_currency.empty() && !tax_currency_total)
    s.fatal("BR-53", "no VAT total in the VAT accounting currency " + quote(inv.tax_currency),
            c.root + "/cac:TaxTotal/cbc:TaxAmount");
  return vat;
}

struct Totals {
  std::optional<int64_t> line, allowance, charge, exclusive, inclusive, prepaid, rounding, payable;
};

Totals read_totals(const Context& c, Sink& s) {
  const MonetaryTotal& t = c.inv.totals;
  const std::string p = c.root + "/cac:LegalMonetaryTotal";
  struct Field {
    const Amount& amount;
    const char* name;
    const char* required;  // BR-12..15, or null
    const char* decimals;
    const char* what;
    std::optional<int64_t>* out;
  };
  Totals out;
  const Field fields[] = {
      {t.line_extension, "LineExtensionAmount", "BR-12", "BR-DEC-09", "sum of line net amounts", &out.line},
      {t.tax_exclusive, "TaxExclusiveAmount", "BR-13", "BR-DEC-12", "total without VAT", &out.exclusive},
      {t.tax_inclusive, "TaxInclusiveAmount", "BR-14", "BR-DEC-14", "total with VAT", &out.inclusive},
      {t.allowance_total, "AllowanceTotalAmount", nullptr, "BR-DEC-10", "sum of allowances", &out.allowance},
      {t.charge_total, "ChargeTotalAmount", nullptr, "BR-DEC-11", "sum of charges", &out.charge},
      {t.prepaid, "PrepaidAmount", nullptr, "BR-DEC-16", "paid amount", &out.prepaid},
      {t.payable_rounding, "PayableRoundingAmount", nullptr, "BR-DEC-17", "rounding amount", &out.rounding},
      {t.payable, "PayableAmount", "BR-15", "BR-DEC-18", "amount due", &out.payable},
  };
  for (const Field& f : fields) {
    const std::string path = p + "/cbc:" + f.name;
    if (!f.amount.present && f.required != nullptr)
      s.fatal(f.required, std::string("the ") + f.what + " (cbc:" + f.name + ") is missing", path);
    else
      *f.out = money(f.amount, f.decimals, f.what, path, s);
  }
  return out;
}

// One BR-CO equation: `stated` must equal `computed` (when both have a value).
void equation(std::string_view rule, const char* what, const Amount& stated_text, const std::optional<int64_t>& stated,
              const Computed& computed, const std::string& how, const std::string& path, Sink& s) {
  if (!stated) return;
  if (computed.overflow) {
    s.fatal("EDIHUB-UBL-RANGE", std::string(what) + " cannot be checked: " + how + " is too large to compute", path);
    return;
  }
  if (!computed.value || *stated == *computed.value) return;
  s.fatal(rule,
          std::string(what) + " " + quote(stated_text.value) + " is not " + how + " = " + format_cents(*computed.value),
          path);
}

Computed plus(const Computed& a, const Computed& b) { return combine(a, b, false); }
Computed minus(const Computed& a, const Computed& b) { return combine(a, b, true); }
Computed of(const std::optional<int64_t>& v) { return {v, false}; }

void check_totals(const Context& c, const Sum& lines, const DocumentAllowances& d, const VatTotal& vat, Sink& s) {
  const MonetaryTotal& t = c.inv.totals;
  const std::string p = c.root + "/cac:LegalMonetaryTotal";
  const Totals v = read_totals(c, s);
  equation("BR-CO-10", "sum of line net amounts", t.line_extension, v.line, lines.total, "the sum of the lines",
           p + "/cbc:LineExtensionAmount", s);
  equation("BR-CO-11", "sum of allowances", t.allowance_total, v.allowance, d.allowances.total,
           "the sum of the document allowances", p + "/cbc:AllowanceTotalAmount", s);
  equation("BR-CO-12", "sum of charges", t.charge_total, v.charge, d.charges.total, "the sum of the document charges",
           p + "/cbc:ChargeTotalAmount", s);
  const Computed zero{int64_t{0}, false};
  const Computed allowance = t.allowance_total.present ? of(v.allowance) : zero;
  const Computed charge = t.charge_total.present ? of(v.charge) : zero;
  equation("BR-CO-13", "total without VAT", t.tax_exclusive, v.exclusive, plus(minus(of(v.line), allowance), charge),
           "line net amounts - allowances + charges", p + "/cbc:TaxExclusiveAmount", s);
  if (c.inv.document_currency.empty()) {
    // BR-CO-15 is stated per document currency: none, nothing to check (BR-05 says why).
  } else if (!vat.found && v.inclusive)
    s.fatal("BR-CO-15", "there is no VAT total in the document currency to add to the total without VAT",
            p + "/cbc:TaxInclusiveAmount");
  else
    equation("BR-CO-15", "total with VAT", t.tax_inclusive, v.inclusive, plus(of(v.exclusive), of(vat.cents)),
             "total without VAT + VAT total", p + "/cbc:TaxInclusiveAmount", s);
  const Computed prepaid = t.prepaid.present ? of(v.prepaid) : zero;
  const Computed rounding = t.payable_rounding.present ? of(v.rounding) : zero;
  equation("BR-CO-16", "amount due", t.payable, v.payable, plus(minus(of(v.inclusive), prepaid), rounding),
           "total with VAT - paid amount + rounding", p + "/cbc:PayableAmount", s);
  // The rule's context is the Invoice's amount due: a credit note's is no claim.
  if (!c.inv.credit_note && v.payable && *v.payable > 0 && c.inv.due_date.empty() && c.inv.payment_terms.empty())
    s.fatal("BR-CO-25", "an amount is due but there is neither a due date nor payment terms", c.root + "/cbc:DueDate");
}

// BR-CL-03 and R051: every amount's currencyID is ISO 4217 and, except the
// VAT total in the accounting currency and the breakdown's VAT amounts (which
// R051 does not name), the document currency.
void check_amount_currency(const Context& c, const Amount& a, bool document_currency, const std::string& path,
                           Sink& s) {
  if (!a.present) return;
  if (!a.currency.empty() && !is_currency_code(a.currency))
    s.fatal("BR-CL-03", "currencyID " + quote(a.currency) + " is not an ISO 4217 code", path);
  if (document_currency && !c.inv.document_currency.empty() && a.currency != c.inv.document_currency)
    s.fatal("PEPPOL-EN16931-R051",
            (a.currency.empty() ? std::string("the amount has no currencyID; the document currency is ")
                                : "currencyID " + quote(a.currency) + " is not the document currency ") +
                quote(c.inv.document_currency),
            path);
}

void check_currencies(const Context& c, Sink& s) {
  const Invoice& inv = c.inv;
  for (size_t i = 0; i < inv.allowance_charges.size(); ++i) {
    const std::string path = c.root + "/cac:AllowanceCharge[" + std::to_string(i + 1) + "]";
    check_amount_currency(c, inv.allowance_charges[i].amount, true, path + "/cbc:Amount", s);
    check_amount_currency(c, inv.allowance_charges[i].base_amount, true, path + "/cbc:BaseAmount", s);
  }
  for (size_t i = 0; i < inv.tax_totals.size(); ++i) {
    const TaxTotal& t = inv.tax_totals[i];
    const std::string path = c.root + "/cac:TaxTotal[" + std::to_string(i + 1) + "]";
    check_amount_currency(c, t.tax_amount, !t.subtotals.empty(), path + "/cbc:TaxAmount", s);
    for (size_t j = 0; j < t.subtotals.size(); ++j) {
      const std::string sp = path + "/cac:TaxSubtotal[" + std::to_string(j + 1) + "]";
      check_amount_currency(c, t.subtotals[j].taxable_amount, true, sp + "/cbc:TaxableAmount", s);
      check_amount_currency(c, t.subtotals[j].tax_amount, false, sp + "/cbc:TaxAmount", s);
    }
  }
  const MonetaryTotal& m = inv.totals;
  const std::string p = c.root + "/cac:LegalMonetaryTotal/cbc:";
  check_amount_currency(c, m.line_extension, true, p + "LineExtensionAmount", s);
  check_amount_currency(c, m.tax_exclusive, true, p + "TaxExclusiveAmount", s);
  check_amount_currency(c, m.tax_inclusive, true, p + "TaxInclusiveAmount", s);
  check_amount_currency(c, m.allowance_total, true, p + "AllowanceTotalAmount", s);
  check_amount_currency(c, m.charge_total, true, p + "ChargeTotalAmount", s);
  check_amount_currency(c, m.prepaid, true, p + "PrepaidAmount", s);
  check_amount_currency(c, m.payable_rounding, true, p + "PayableRoundingAmount", s);
  check_amount_currency(c, m.payable, true, p + "PayableAmount", s);
  for (size_t i = 0; i < inv.lines.size(); ++i) {
    const InvoiceLine& line = inv.lines[i];
    const std::string lp = c.root + "/" + c.line_name + "[" + std::to_string(i + 1) + "]";
    check_amount_currency(c, line.line_extension, true, lp + "/cbc:LineExtensionAmount", s);
    for (size_t j = 0; j < line.allowance_charges.size(); ++j) {
      const std::string ap = lp + "/cac:AllowanceCharge[" + std::to_string(j + 1) + "]";
      check_amount_currency(c, line.allowance_charges[j].amount, true, ap + "/cbc:Amount", s);
      check_amount_currency(c, line.allowance_charges[j].base_amount, true, ap + "/cbc:BaseAmount", s);
    }
    check_amount_currency(c, line.price, true, lp + "/cac:Price/cbc:PriceAmount", s);
  }
}

// ---- Despatch advice --------------------------------------------------------

void check_despatch_header(const DespatchAdvice& da, Sink& s) {
  const std::string r = "/DespatchAdvice";
  if (da.customization_id.empty())
    s.fatal("PEPPOL-T16-B00101", "the despatch advice has no cbc:CustomizationID", r + "/cbc:CustomizationID");
  else if (!starts_with(da.customization_id, kDespatchCustomization))
    s.fatal("PEPPOL-T16-B00201",
            "specification identifier " + quote(da.customization_id) + " is not Peppol BIS Despatch Advice 3's",
            r + "/cbc:CustomizationID");
  if (da.profile_id.empty())
    s.fatal("PEPPOL-T16-B00102", "the despatch advice has no cbc:ProfileID", r + "/cbc:ProfileID");
  else if (da.profile_id != kDespatchProfile)
    s.fatal("PEPPOL-T16-B00301", "business process " + quote(da.profile_id) + " is not " + quote(kDespatchProfile),
            r + "/cbc:ProfileID");
  if (da.id.empty()) s.fatal("PEPPOL-T16-B00103", "the despatch advice has no number (cbc:ID)", r + "/cbc:ID");
  if (da.issue_date.empty())
    s.fatal("PEPPOL-T16-B00104", "the despatch advice has no issue date (cbc:IssueDate)", r + "/cbc:IssueDate");
  date(da.issue_date, "PEPPOL-COMMON-R030", "issue date", r + "/cbc:IssueDate", s);
  if (!da.issue_time.empty() && !is_time(da.issue_time))
    s.fatal("EDIHUB-UBL-TIME", "issue time " + quote(da.issue_time) + " is not a time hh:mm:ss[.s][zone]",
            r + "/cbc:IssueTime");
}

struct DespatchPartyRules {
  const char* who;
  const char* missing;
  const char* endpoint;
  const char* scheme;
  const char* legal_entity;
  const char* name;
};

void check_despatch_party(const Party& p, const DespatchPartyRules& r, const std::string& role_path, Sink& s) {
  if (!p.present) {
    s.fatal(r.missing, std::string("the despatch advice has no ") + r.who, role_path);
    return;
  }
  const std::string path = role_path + "/cac:Party";
  if (p.endpoint.value.empty())
    s.fatal(r.endpoint, std::string("the ") + r.who + " has no electronic address (cbc:EndpointID)",
            path + "/cbc:EndpointID");
  else if (p.endpoint.scheme.empty())
    s.fatal(r.scheme, std::string("the ") + r.who + "'s electronic address has no schemeID", path + "/cbc:EndpointID");
  if (!p.legal_entity)
    s.fatal(r.legal_entity, std::string("the ") + r.who + " has no cac:PartyLegalEntity",
            path + "/cac:PartyLegalEntity");
  else if (p.registration_name.empty())
    s.fatal(r.name, std::string("the ") + r.who + "'s legal entity has no cbc:RegistrationName",
            path + "/cac:PartyLegalEntity/cbc:RegistrationName");
  party_identifiers(p, path, s);
}

void check_despatch_parties(const DespatchAdvice& da, Sink& s) {
  const std::string supplier = "/DespatchAdvice/cac:DespatchSupplierParty";
  const std::string customer = "/DespatchAdvice/cac:DeliveryCustomerParty";
  check_despatch_party(da.supplier,
                       {"despatch party", "PEPPOL-T16-B00105", "PEPPOL-T16-B01101", "PEPPOL-T16-B01201",
                        "PEPPOL-T16-B01102", "PEPPOL-T16-B02701"},
                       supplier, s);
  if (da.supplier.present && da.supplier.name.empty())
    s.warning("PEPPOL-T16-R008", "the despatch party has no name (cac:PartyName/cbc:Name)",
              supplier + "/cac:Party/cac:PartyName/cbc:Name");
  check_despatch_party(da.customer,
                       {"delivery party", "PEPPOL-T16-B00106", "PEPPOL-T16-B03401", "PEPPOL-T16-B03501",
                        "PEPPOL-T16-B03402", "PEPPOL-T16-B05001"},
                       customer, s);
  if (!da.customer.present) return;
  bool identified = !da.customer.name.empty();
  for (const Identifier& id : da.customer.identifications) identified = identified || !id.value.empty();
  if (!identified)
    s.warning("PEPPOL-T16-R001", "the delivery party has neither a name nor an identifier",
              customer + "/cac:Party/cac:PartyName/cbc:Name");
}

void check_shipment(const Shipment& sh, Sink& s) {
  const std::string p = "/DespatchAdvice/cac:Shipment";
  if (!sh.present) return;
  if (sh.id.empty()) s.fatal("PEPPOL-T16-B10701", "the shipment has no cbc:ID", p + "/cbc:ID");
  if (sh.gross_weight.present) {
    number(sh.gross_weight.value, "gross weight", p + "/cbc:GrossWeightMeasure", s);
    if (sh.gross_weight.unit.empty())
      s.fatal("PEPPOL-T16-B11001", "the gross weight has no unitCode", p + "/cbc:GrossWeightMeasure");
  }
  date(sh.actual_delivery_date, "PEPPOL-COMMON-R030", "delivery date", p + "/cac:Delivery/cbc:ActualDeliveryDate", s);
  const std::string period = p + "/cac:Delivery/cac:" + sh.period_element;
  date(sh.period_start, "PEPPOL-COMMON-R030", "delivery period start", period + "/cbc:StartDate", s);
  date(sh.period_end, "PEPPOL-COMMON-R030", "delivery period end", period + "/cbc:EndDate", s);
  // COMMON-R030 does not name the despatch date; edihub books it, so checks it alike.
  date(sh.actual_despatch_date, "EDIHUB-UBL-DATE", "despatch date",
       p + "/cac:Delivery/cac:Despatch/cbc:ActualDespatchDate", s);
  if (!sh.actual_despatch_time.empty() && !is_time(sh.actual_despatch_time))
    s.fatal("EDIHUB-UBL-TIME", "despatch time " + quote(sh.actual_despatch_time) + " is not a time hh:mm:ss[.s][zone]",
            p + "/cac:Delivery/cac:Despatch/cbc:ActualDespatchTime");
}

// A line quantity: a decimal with a unitCode (`missing_unit`) from Rec 20/21 (`bad_unit`).
std::optional<Decimal> check_despatch_quantity(const Quantity& q, const char* what, const char* missing_unit,
                                               const char* bad_unit, const std::string& path, Sink& s) {
  std::optional<Decimal> value = number(q.value, what, path, s);
  if (q.unit.empty())
    s.fatal(missing_unit, std::string("the ") + what + " has no unitCode", path);
  else
    unit_code(q.unit, bad_unit, path, s);
  return value;
}

void check_despatch_line(const DespatchLine& line, const std::string& path, Sink& s) {
  if (line.id.empty()) s.fatal("PEPPOL-T16-B14601", "the line has no cbc:ID", path + "/cbc:ID");
  if (!line.order_line_reference)
    s.fatal("PEPPOL-T16-B14602", "the line has no cac:OrderLineReference", path + "/cac:OrderLineReference");
  else if (line.order_line_id.empty())
    s.fatal("PEPPOL-T16-B15401", "the line's order line reference has no cbc:LineID",
            path + "/cac:OrderLineReference/cbc:LineID");
  const std::string delivered = path + "/cbc:DeliveredQuantity";
  if (!line.delivered.present) {
    // Peppol only recommends it (PEPPOL-T16-R005, a warning); the booking needs it.
    s.fatal("EDIHUB-UBL-DELIVERED-QUANTITY",
            "the line has no delivered quantity (Peppol recommends one; edihub books it)", delivered);
  } else {
    const std::optional<Decimal> q = check_despatch_quantity(line.delivered, "delivered quantity", "PEPPOL-T16-B14901",
                                                             "PEPPOL-T16-B14902", delivered, s);
    if (q && q->units < 0)
      s.fatal("PEPPOL-T16-R006", "delivered quantity " + quote(line.delivered.value) + " is negative", delivered);
  }
  if (line.outstanding.present) {
    check_despatch_quantity(line.outstanding, "outstanding quantity", "PEPPOL-T16-B15101", "PEPPOL-T16-B15102",
                            path + "/cbc:OutstandingQuantity", s);
    if (line.outstanding_reason.empty())
      s.warning("PEPPOL-T16-R007", "an outstanding quantity without a reason", path + "/cbc:OutstandingReason");
  }
  const std::string item = path + "/cac:Item";
  if (!line.item.present) {
    s.fatal("PEPPOL-T16-B14603", "the line has no cac:Item", item);
    return;
  }
  if (line.item.standard_item_id.value.empty() && line.item.sellers_item_id.empty())
    s.fatal("PEPPOL-T16-R003", "the item has neither a standard nor a seller's identifier",
            item + "/cac:SellersItemIdentification/cbc:ID");
  if (!line.item.standard_item_id.value.empty() && line.item.standard_item_id.scheme.empty())
    s.fatal("PEPPOL-T16-B16601", "the item's standard identifier has no schemeID",
            item + "/cac:StandardItemIdentification/cbc:ID");
  if (line.item.name.empty()) s.fatal("PEPPOL-T16-R004", "the item has no name", item + "/cbc:Name");
}

}  // namespace

std::optional<Decimal> parse_decimal(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  const size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  std::string_view fraction = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  if (whole.empty() && fraction.empty()) return std::nullopt;
  for (std::string_view part : {whole, fraction})
    for (char c : part)
      if (c < '0' || c > '9') return std::nullopt;
  while (!whole.empty() && whole.front() == '0') whole.remove_prefix(1);
  while (!fraction.empty() && fraction.back() == '0') fraction.remove_suffix(1);
  std::string_view digits_after = fraction;
  size_t significant = whole.size() + fraction.size();
  if (whole.empty())  // leading zeros of the fraction are not significant
    while (!digits_after.empty() && digits_after.front() == '0') {
      digits_after.remove_prefix(1);
      --significant;
    }
  if (significant > 18 || fraction.size() > 18) return std::nullopt;
  int64_t units = 0;
  for (char c : whole) units = units * 10 + (c - '0');
  for (char c : fraction) units = units * 10 + (c - '0');
  return Decimal{negative ? -units : units, static_cast<int>(fraction.size())};
}

std::optional<int64_t> cents(std::string_view text) {
  const std::optional<Decimal> d = parse_decimal(text);
  if (!d || d->scale > 2) return std::nullopt;
  int64_t out = 0;
  if (__builtin_mul_overflow(d->units, kPowers[2 - d->scale], &out)) return std::nullopt;
  return out;
}

bool is_date(std::string_view t) {
  if (t.size() != 10 || t[4] != '-' || t[7] != '-' || !all_digits(t.substr(0, 4)) || !all_digits(t.substr(5, 2)) ||
      !all_digits(t.substr(8, 2)))
    return false;
  const int year = (t[0] - '0') * 1000 + (t[1] - '0') * 100 + (t[2] - '0') * 10 + (t[3] - '0');
  const int month = (t[5] - '0') * 10 + (t[6] - '0');
  const int day = (t[8] - '0') * 10 + (t[9] - '0');
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1) return false;
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return day <= kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

bool is_time(std::string_view t) {
  if (t.size() < 8 || t[2] != ':' || t[5] != ':' || !all_digits(t.substr(0, 2)) || !all_digits(t.substr(3, 2)) ||
      !all_digits(t.substr(6, 2)))
    return false;
  if (t.substr(0, 2) > "23" || t.substr(3, 2) > "59" || t.substr(6, 2) > "59") return false;
  std::string_view rest = t.substr(8);
  if (!rest.empty() && rest.front() == '.') {
    size_t n = 1;
    while (n < rest.size() && rest[n] >= '0' && rest[n] <= '9') ++n;
    if (n == 1) return false;
    rest.remove_prefix(n);
  }
  if (rest.empty() || rest == "Z") return true;
  return rest.size() == 6 && (rest[0] == '+' || rest[0] == '-') && all_digits(rest.substr(1, 2)) && rest[3] == ':' &&
         all_digits(rest.substr(4, 2));
}

std::vector<Finding> validate(const Invoice& inv) {
  const Context c{inv, inv.credit_note ? "/CreditNote" : "/Invoice",
                  inv.credit_note ? "cac:CreditNoteLine" : "cac:InvoiceLine",
                  inv.credit_note ? "credit note" : "invoice"};
  Sink s;
  s.add(inv.structure);
  check_document(c, s);
  check_parties(c, s);
  check_payment_means(c, s);
  const Sum lines = check_lines(c, s);
  const DocumentAllowances allowances = check_document_allowances(c, s);
  const VatTotal vat = check_vat(c, s);
  check_totals(c, lines, allowances, vat, s);
  check_currencies(c, s);
  return s.take();
}

std::vector<Finding> validate(const DespatchAdvice& da) {
  Sink s;
  s.add(da.structure);
  check_despatch_header(da, s);
  check_despatch_parties(da, s);
  check_shipment(da.shipment, s);
  if (da.lines.empty())
    s.fatal("PEPPOL-T16-B00107", "the despatch advice has no lines (cac:DespatchLine)",
            "/DespatchAdvice/cac:DespatchLine");
  for (size_t i = 0; i < da.lines.size(); ++i)
    check_despatch_line(da.lines[i], "/DespatchAdvice/cac:DespatchLine[" + std::to_string(i + 1) + "]", s);
  return s.take();
}

}  // namespace edihub::ubl
