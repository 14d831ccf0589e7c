#include "parsers/ubl/ubl.h"

#include <pugixml.hpp>

#include <functional>
#include <initializer_list>
#include <utility>

namespace edihub::ubl {

namespace xml = as4::xml;

namespace {

// Reads the cbc/cac elements of one document. An element UBL allows once
// that appears more often is a structure finding (the first is read); a
// repeated group beyond the limits stops the reading with an error.
class Reader {
 public:
  Reader(const Limits& limits, std::vector<Finding>* structure, std::vector<std::string>* empty = nullptr)
      : limits_(limits), structure_(structure), empty_(empty) {}

  // The element `prefix:local` UBL allows at most once under `parent`.
  pugi::xml_node one(const pugi::xml_node& parent, bool aggregate, std::string_view local,
                     const std::string& parent_path) {
    const std::string_view ns = aggregate ? kCacNs : kCbcNs;
    pugi::xml_node first;
    size_t count = 0;
    for (pugi::xml_node c : parent.children()) {
      if (!xml::is(c, ns, local)) continue;
      if (++count == 1) first = c;
    }
    if (count > 1)
      structure_->push_back({"EDIHUB-UBL-REPEATED", Severity::Fatal,
                             std::string(aggregate ? "cac:" : "cbc:") + std::string(local) + " appears " +
                                 std::to_string(count) + " times; UBL 2.1 allows it once here",
                             parent_path + "/" + (aggregate ? "cac:" : "cbc:") + std::string(local)});
    return first;
  }
  pugi::xml_node cac(const pugi::xml_node& parent, std::string_view local, const std::string& path) {
    return one(parent, true, local, path);
  }
  std::string cbc(const pugi::xml_node& parent, std::string_view local, const std::string& path) {
    const pugi::xml_node n = one(parent, false, local, path);
    std::string value = xml::text(n);
    if (n && value.empty() && empty_ && empty_->size() < limits_.max_repeats)
      empty_->push_back(path + "/cbc:" + std::string(local));
    return value;
  }

  // The first of an element UBL allows several times (the model keeps one).
  static pugi::xml_node first(const pugi::xml_node& parent, bool aggregate, std::string_view local) {
    return xml::child(parent, aggregate ? kCacNs : kCbcNs, local);
  }

  // Calls `read(element, its path)` for each `prefix:local` under `parent`,
  // at most `limit` of them (more is an error, reported once).
  void each(const pugi::xml_node& parent, bool aggregate, std::string_view local, const std::string& parent_path,
            size_t limit, const std::function<void(const pugi::xml_node&, const std::string&)>& read) {
    const std::string_view ns = aggregate ? kCacNs : kCbcNs;
    const std::string name = std::string(aggregate ? "cac:" : "cbc:") + std::string(local);
    size_t index = 0;
    for (pugi::xml_node c : parent.children()) {
      if (!error_.empty()) return;
      if (!xml::is(c, ns, local)) continue;
      if (++index > limit) {
        error_ = parent_path + " holds more than " + std::to_string(limit) + " " + name;
        return;
      }
      read(c, parent_path + "/" + name + "[" + std::to_string(index) + "]");
    }
  }

  Amount amount(const pugi::xml_node& parent, std::string_view local, const std::string& path) {
    Amount a;
    if (pugi::xml_node n = one(parent, false, local, path)) {
      a.present = true;
      a.value = xml::text(n);
      a.currency = n.attribute("currencyID").value();
    }
    return a;
  }

  Quantity quantity(const pugi::xml_node& parent, std::string_view local, const std::string& path) {
    Quantity q;
    if (pugi::xml_node n = one(parent, false, local, path)) {
      q.present = true;
      q.value = xml::text(n);
      q.unit = n.attribute("unitCode").value();
    }
    return q;
  }

  Identifier identifier(const pugi::xml_node& parent, std::string_view local, const std::string& path) {
    Identifier id;
    if (pugi::xml_node n = one(parent, false, local, path)) {
      id.value = xml::text(n);
      if (id.value.empty() && empty_ && empty_->size() < limits_.max_repeats)
        empty_->push_back(path + "/cbc:" + std::string(local));
      id.scheme = n.attribute("schemeID").value();
    }
    return id;
  }

  Address address(const pugi::xml_node& n, const std::string& path) {
    Address a;
    if (!n) return a;
    a.present = true;
    a.street = cbc(n, "StreetName", path);
    a.city = cbc(n, "CityName", path);
    a.postal_zone = cbc(n, "PostalZone", path);
    if (pugi::xml_node country = cac(n, "Country", path))
      a.country = cbc(country, "IdentificationCode", path + "/cac:Country");
    return a;
  }

  Party party(const pugi::xml_node& role, const std::string& role_path) {
    Party p;
    const std::string path = role_path + "/cac:Party";
    const pugi::xml_node n = cac(role, "Party", role_path);
    if (!n) return p;
    p.present = true;
    p.endpoint = identifier(n, "EndpointID", path);
    each(n, true, "PartyIdentification", path, limits_.max_repeats,
         [&](const pugi::xml_node& pi, const std::string& at) {
           p.identifications.push_back(identifier(pi, "ID", at));
         });
    p.name = xml::text(first(first(n, true, "PartyName"), false, "Name"));
    p.address = address(cac(n, "PostalAddress", path), path + "/cac:PostalAddress");
    each(n, true, "PartyTaxScheme", path, limits_.max_repeats, [&](const pugi::xml_node& ts, const std::string& at) {
      p.tax_company_ids.push_back(cbc(ts, "CompanyID", at));
    });
    if (pugi::xml_node le = first(n, true, "PartyLegalEntity")) {
      const std::string at = path + "/cac:PartyLegalEntity";
      p.legal_entity = true;
      p.registration_name = cbc(le, "RegistrationName", at);
      p.legal_company_id = identifier(le, "CompanyID", at);
    }
    return p;
  }

  // ClassifiedTaxCategory / TaxCategory (the first: UBL allows several).
  TaxCategory tax_category(const pugi::xml_node& parent, std::string_view local, const std::string& parent_path) {
    TaxCategory t;
    const pugi::xml_node n = first(parent, true, local);
    if (!n) return t;
    const std::string path = parent_path + "/cac:" + std::string(local);
    t.present = true;
    t.id = cbc(n, "ID", path);
    t.percent = cbc(n, "Percent", path);
    t.exemption_reason = xml::text(first(n, false, "TaxExemptionReason"));
    return t;
  }

  AllowanceCharge allowance_charge(const pugi::xml_node& n, const std::string& path) {
    AllowanceCharge ac;
    ac.charge_indicator = cbc(n, "ChargeIndicator", path);
    ac.reason_code = cbc(n, "AllowanceChargeReasonCode", path);
    ac.reason = xml::text(first(n, false, "AllowanceChargeReason"));
    ac.amount = amount(n, "Amount", path);
    ac.base_amount = amount(n, "BaseAmount", path);
    ac.tax_category = tax_category(n, "TaxCategory", path);
    return ac;
  }

  Item item(const pugi::xml_node& n, const std::string& path) {
    Item it;
    if (!n) return it;
    it.present = true;
    it.name = cbc(n, "Name", path);
    it.description = xml::text(first(n, false, "Description"));
    if (pugi::xml_node b = cac(n, "BuyersItemIdentification", path))
      it.buyers_item_id = cbc(b, "ID", path + "/cac:BuyersItemIdentification");
    if (pugi::xml_node s = cac(n, "SellersItemIdentification", path))
      it.sellers_item_id = cbc(s, "ID", path + "/cac:SellersItemIdentification");
    if (pugi::xml_node s = cac(n, "StandardItemIdentification", path))
      it.standard_item_id = identifier(s, "ID", path + "/cac:StandardItemIdentification");
    it.classified_tax_category = tax_category(n, "ClassifiedTaxCategory", path);
    return it;
  }

  const Limits& limits() const { return limits_; }
  const std::string& error() const { return error_; }

 private:
  const Limits& limits_;
  std::vector<Finding>* structure_;
  std::vector<std::string>* empty_;
  std::string error_;
};

bool blank(const pugi::xml_node& n) {
  for (pugi::xml_node c : n.children()) {
    if (c.type() == pugi::node_element) return false;
    if (c.type() != pugi::node_pcdata && c.type() != pugi::node_cdata) continue;
    for (const char* p = c.value(); *p != '\0'; ++p)
      if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') return false;
  }
  return true;
}

// The path of `n` as findings write it: cbc:/cac: whatever the sender's
// prefixes, an index where the parent has several of the name.
std::string path_of(const pugi::xml_node& n) {
  std::string path;
  for (pugi::xml_node at = n; at && at.type() == pugi::node_element; at = at.parent()) {
    const std::string_view ns = xml::namespace_of(at);
    const std::string_view local = xml::local_name(at);
    std::string step = ns == kCbcNs                                ? "cbc:" + std::string(local)
                       : ns == kCacNs                              ? "cac:" + std::string(local)
                       : at.parent().type() == pugi::node_document ? std::string(local)
                                                                   : std::string(at.name());
    size_t index = 0, same = 0;
    for (pugi::xml_node sib : at.parent().children(at.name())) {
      ++same;
      if (sib == at) index = same;
    }
    if (same > 1) step += "[" + std::to_string(index) + "]";
    path.insert(0, "/" + step);
  }
  return path;
}

// PEPPOL-EN16931-R008: no element is empty (no child element, no text but
// white space). The first kShown are reported, then how many more.
void find_empty_elements(const pugi::xml_node& root, std::vector<Finding>* structure) {
  constexpr size_t kShown = 20;
  size_t found = 0;
  // Depth-first without recursion: the loader bounds the depth, not the stack.
  pugi::xml_node n = root;
  while (n) {
    if (n.type() == pugi::node_element && blank(n) && ++found <= kShown)
      structure->push_back({"PEPPOL-EN16931-R008", Severity::Fatal,
                            "the element is empty; a Peppol document has no empty elements", path_of(n)});
    if (pugi::xml_node c = n.first_child()) {
      n = c;
      continue;
    }
    while (n && n != root && !n.next_sibling()) n = n.parent();
    if (!n || n == root) break;
    n = n.next_sibling();
  }
  if (found > kShown)
    structure->push_back({"PEPPOL-EN16931-R008", Severity::Fatal,
                          std::to_string(found - kShown) + " more elements are empty", path_of(root)});
}

Error fail(ErrorCode code, std::string text) { return Error{code, std::move(text)}; }

std::string quoted(std::string_view v) {
  constexpr size_t kShown = 80;
  return "'" + std::string(v.substr(0, kShown)) + (v.size() > kShown ? "...'" : "'");
}

// Loads `bytes` and returns the root when it is one of `wanted`.
Error load_root(std::string_view bytes, const Limits& limits, std::initializer_list<DocumentType> wanted,
                pugi::xml_document* doc, DocumentType* type) {
  if (std::string why = xml::load(bytes, limits.xml, doc); !why.empty())
    return fail(ErrorCode::Xml, "the UBL document is " + why);
  const pugi::xml_node root = doc->document_element();
  *type = document_type(xml::namespace_of(root), xml::local_name(root));
  if (*type == DocumentType::Unknown)
    return fail(ErrorCode::NotUbl, "the root element " + quoted(root.name()) + " in namespace " +
                                       quoted(xml::namespace_of(root)) +
                                       " is not a UBL 2.1 Invoice, CreditNote or DespatchAdvice");
  for (DocumentType w : wanted)
    if (w == *type) return {};
  return fail(ErrorCode::WrongDocument, "the document is " + std::string(xml::local_name(root)) + "; expected " +
                                            (wanted.size() == 2 ? "Invoice or CreditNote" : "DespatchAdvice"));
}

void read_invoice_line(Reader& r, const pugi::xml_node& n, const std::string& path, bool credit_note,
                       InvoiceLine* line) {
  line->id = r.cbc(n, "ID", path);
  line->quantity = r.quantity(n, credit_note ? "CreditedQuantity" : "InvoicedQuantity", path);
  line->line_extension = r.amount(n, "LineExtensionAmount", path);
  line->order_line_id = xml::text(Reader::first(Reader::first(n, true, "OrderLineReference"), false, "LineID"));
  r.each(n, true, "AllowanceCharge", path, r.limits().max_repeats,
         [&](const pugi::xml_node& ac, const std::string& at) {
           line->allowance_charges.push_back(r.allowance_charge(ac, at));
         });
  line->item = r.item(r.cac(n, "Item", path), path + "/cac:Item");
  if (pugi::xml_node price = r.cac(n, "Price", path)) {
    line->has_price = true;
    line->price = r.amount(price, "PriceAmount", path + "/cac:Price");
    line->base_quantity = r.quantity(price, "BaseQuantity", path + "/cac:Price");
  }
}

void read_tax_total(Reader& r, const pugi::xml_node& n, const std::string& path, TaxTotal* total) {
  total->tax_amount = r.amount(n, "TaxAmount", path);
  r.each(n, true, "TaxSubtotal", path, r.limits().max_repeats, [&](const pugi::xml_node& st, const std::string& at) {
    TaxSubtotal s;
    s.taxable_amount = r.amount(st, "TaxableAmount", at);
    s.tax_amount = r.amount(st, "TaxAmount", at);
    s.category = r.tax_category(st, "TaxCategory", at);
    total->subtotals.push_back(std::move(s));
  });
}

void read_totals(Reader& r, const pugi::xml_node& n, const std::string& path, MonetaryTotal* t) {
  if (!n) return;
  t->present = true;
  t->line_extension = r.amount(n, "LineExtensionAmount", path);
  t->tax_exclusive = r.amount(n, "TaxExclusiveAmount", path);
  t->tax_inclusive = r.amount(n, "TaxInclusiveAmount", path);
  t->allowance_total = r.amount(n, "AllowanceTotalAmount", path);
  t->charge_total = r.amount(n, "ChargeTotalAmount", path);
  t->prepaid = r.amount(n, "PrepaidAmount", path);
  t->payable_rounding = r.amount(n, "PayableRoundingAmount", path);
  t->payable = r.amount(n, "PayableAmount", path);
}

void read_delivery(Reader& r, const pugi::xml_node& n, const std::string& path, Delivery* d) {
  if (!n) return;
  d->present = true;
  d->actual_date = r.cbc(n, "ActualDeliveryDate", path);
  if (pugi::xml_node loc = r.cac(n, "DeliveryLocation", path)) {
    const std::string at = path + "/cac:DeliveryLocation";
    d->location_id = r.identifier(loc, "ID", at);
    d->address = r.address(r.cac(loc, "Address", at), at + "/cac:Address");
  }
}

// The invoice's header groups, in UBL order.
void read_invoice_header(Reader& r, const pugi::xml_node& root, const std::string& path, Invoice* inv) {
  inv->customization_id = r.cbc(root, "CustomizationID", path);
  inv->profile_id = r.cbc(root, "ProfileID", path);
  inv->id = r.cbc(root, "ID", path);
  inv->issue_date = r.cbc(root, "IssueDate", path);
  inv->due_date = r.cbc(root, "DueDate", path);
  inv->type_code = r.cbc(root, inv->credit_note ? "CreditNoteTypeCode" : "InvoiceTypeCode", path);
  r.each(root, false, "Note", path, r.limits().max_repeats,
         [&](const pugi::xml_node& n, const std::string&) { inv->notes.push_back(xml::text(n)); });
  inv->tax_point_date = r.cbc(root, "TaxPointDate", path);
  inv->document_currency = r.cbc(root, "DocumentCurrencyCode", path);
  inv->tax_currency = r.cbc(root, "TaxCurrencyCode", path);
  inv->buyer_reference = r.cbc(root, "BuyerReference", path);
  if (pugi::xml_node order = r.cac(root, "OrderReference", path))
    inv->order_reference = r.cbc(order, "ID", path + "/cac:OrderReference");
  r.each(root, true, "BillingReference", path, r.limits().max_repeats,
         [&](const pugi::xml_node& n, const std::string& at) {
           BillingReference b;
           if (pugi::xml_node ref = r.cac(n, "InvoiceDocumentReference", at)) {
             const std::string ref_path = at + "/cac:InvoiceDocumentReference";
             b.id = r.cbc(ref, "ID", ref_path);
             b.issue_date = r.cbc(ref, "IssueDate", ref_path);
           }
           inv->billing_references.push_back(std::move(b));
         });
}

void read_invoice_body(Reader& r, const pugi::xml_node& root, const std::string& path, Invoice* inv) {
  inv->supplier = r.party(r.cac(root, "AccountingSupplierParty", path), path + "/cac:AccountingSupplierParty");
  inv->customer = r.party(r.cac(root, "AccountingCustomerParty", path), path + "/cac:AccountingCustomerParty");
  read_delivery(r, Reader::first(root, true, "Delivery"), path + "/cac:Delivery", &inv->delivery);
  r.each(root, true, "PaymentMeans", path, r.limits().max_repeats, [&](const pugi::xml_node& n, const std::string& at) {
    PaymentMeans pm;
    pm.code = r.cbc(n, "PaymentMeansCode", at);
    if (pugi::xml_node account = r.cac(n, "PayeeFinancialAccount", at))
      pm.account_id = r.cbc(account, "ID", at + "/cac:PayeeFinancialAccount");
    // A UBL 2.1 credit note has no cbc:DueDate; its due date is the payment means'.
    if (inv->credit_note && inv->due_date.empty()) inv->due_date = r.cbc(n, "PaymentDueDate", at);
    inv->payment_means.push_back(std::move(pm));
  });
  inv->payment_terms = xml::text(Reader::first(Reader::first(root, true, "PaymentTerms"), false, "Note"));
  r.each(root, true, "AllowanceCharge", path, r.limits().max_repeats,
         [&](const pugi::xml_node& n, const std::string& at) {
           inv->allowance_charges.push_back(r.allowance_charge(n, at));
         });
  r.each(root, true, "TaxTotal", path, r.limits().max_repeats, [&](const pugi::xml_node& n, const std::string& at) {
    TaxTotal t;
    read_tax_total(r, n, at, &t);
    inv->tax_totals.push_back(std::move(t));
  });
  read_totals(r, r.cac(root, "LegalMonetaryTotal", path), path + "/cac:LegalMonetaryTotal", &inv->totals);
  r.each(root, true, inv->credit_note ? "CreditNoteLine" : "InvoiceLine", path, r.limits().max_lines,
         [&](const pugi::xml_node& n, const std::string& at) {
           InvoiceLine line;
           read_invoice_line(r, n, at, inv->credit_note, &line);
           inv->lines.push_back(std::move(line));
         });
}

void read_shipment(Reader& r, const pugi::xml_node& n, const std::string& path, Shipment* s) {
  if (!n) return;
  s->present = true;
  s->id = r.cbc(n, "ID", path);
  s->gross_weight = r.quantity(n, "GrossWeightMeasure", path);
  const pugi::xml_node carrier = Reader::first(Reader::first(n, true, "Consignment"), true, "CarrierParty");
  s->carrier_name = xml::text(Reader::first(Reader::first(carrier, true, "PartyName"), false, "Name"));
  const pugi::xml_node d = r.cac(n, "Delivery", path);
  if (!d) return;
  const std::string at = path + "/cac:Delivery";
  s->tracking_id = r.cbc(d, "TrackingID", at);
  s->actual_delivery_date = r.cbc(d, "ActualDeliveryDate", at);
  s->period_element = "EstimatedDeliveryPeriod";
  pugi::xml_node period = r.cac(d, "EstimatedDeliveryPeriod", at);
  if (!period) {
    s->period_element = "RequestedDeliveryPeriod";
    period = r.cac(d, "RequestedDeliveryPeriod", at);
  }
  const std::string period_path = at + "/cac:" + s->period_element;
  if (!period) {
    s->period_element.clear();
  } else {
    s->period_start = r.cbc(period, "StartDate", period_path);
    s->period_end = r.cbc(period, "EndDate", period_path);
  }
  s->delivery_address = r.address(r.cac(d, "DeliveryAddress", at), at + "/cac:DeliveryAddress");
  if (pugi::xml_node despatch = r.cac(d, "Despatch", at)) {
    s->actual_despatch_date = r.cbc(despatch, "ActualDespatchDate", at + "/cac:Despatch");
    s->actual_despatch_time = r.cbc(despatch, "ActualDespatchTime", at + "/cac:Despatch");
  }
}

void read_despatch_line(Reader& r, const pugi::xml_node& n, const std::string& path, DespatchLine* line) {
  line->id = r.cbc(n, "ID", path);
  line->delivered = r.quantity(n, "DeliveredQuantity", path);
  line->outstanding = r.quantity(n, "OutstandingQuantity", path);
  line->outstanding_reason = xml::text(Reader::first(n, false, "OutstandingReason"));
  if (pugi::xml_node ref = Reader::first(n, true, "OrderLineReference")) {
    const std::string at = path + "/cac:OrderLineReference";
    line->order_line_reference = true;
    line->order_line_id = r.cbc(ref, "LineID", at);
    if (pugi::xml_node order = r.cac(ref, "OrderReference", at))
      line->order_id = r.cbc(order, "ID", at + "/cac:OrderReference");
  }
  line->item = r.item(r.cac(n, "Item", path), path + "/cac:Item");
}

}  // namespace

as4::xml::Bounds document_bounds() { return as4::xml::business_document_bounds(); }

DocumentType document_type(std::string_view namespace_uri, std::string_view local_name) {
  if (namespace_uri == kInvoiceNs && local_name == "Invoice") return DocumentType::Invoice;
  if (namespace_uri == kCreditNoteNs && local_name == "CreditNote") return DocumentType::CreditNote;
  if (namespace_uri == kDespatchAdviceNs && local_name == "DespatchAdvice") return DocumentType::DespatchAdvice;
  return DocumentType::Unknown;
}

std::string_view code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::None:
      return "";
    case ErrorCode::Xml:
      return "UBL_XML";
    case ErrorCode::NotUbl:
      return "UBL_NOT_UBL";
    case ErrorCode::WrongDocument:
      return "UBL_WRONG_DOCUMENT";
    case ErrorCode::TooMany:
      return "UBL_TOO_MANY";
  }
  return "UBL_UNKNOWN";
}

Error parse_invoice(std::string_view bytes, Invoice* out, const Limits& limits) {
  pugi::xml_document doc;
  DocumentType type = DocumentType::Unknown;
  if (Error e = load_root(bytes, limits, {DocumentType::Invoice, DocumentType::CreditNote}, &doc, &type)) return e;
  Invoice inv;
  inv.credit_note = type == DocumentType::CreditNote;
  Reader r(limits, &inv.structure, &inv.empty_elements);
  const pugi::xml_node root = doc.document_element();
  const std::string path = inv.credit_note ? "/CreditNote" : "/Invoice";
  find_empty_elements(root, &inv.structure);
  read_invoice_header(r, root, path, &inv);
  read_invoice_body(r, root, path, &inv);
  if (!r.error().empty()) return fail(ErrorCode::TooMany, r.error());
  *out = std::move(inv);
  return {};
}

Error parse_despatch_advice(std::string_view bytes, DespatchAdvice* out, const Limits& limits) {
  pugi::xml_document doc;
  DocumentType type = DocumentType::Unknown;
  if (Error e = load_root(bytes, limits, {DocumentType::DespatchAdvice}, &doc, &type)) return e;
  DespatchAdvice da;
  Reader r(limits, &da.structure);
  const pugi::xml_node root = doc.document_element();
  const std::string path = "/DespatchAdvice";
  da.customization_id = r.cbc(root, "CustomizationID", path);
  da.profile_id = r.cbc(root, "ProfileID", path);
  da.id = r.cbc(root, "ID", path);
  da.issue_date = r.cbc(root, "IssueDate", path);
  da.issue_time = r.cbc(root, "IssueTime", path);
  r.each(root, false, "Note", path, limits.max_repeats,
         [&](const pugi::xml_node& n, const std::string&) { da.notes.push_back(xml::text(n)); });
  da.order_reference = xml::text(Reader::first(Reader::first(root, true, "OrderReference"), false, "ID"));
  da.supplier = r.party(r.cac(root, "DespatchSupplierParty", path), path + "/cac:DespatchSupplierParty");
  da.customer = r.party(r.cac(root, "DeliveryCustomerParty", path), path + "/cac:DeliveryCustomerParty");
  read_shipment(r, r.cac(root, "Shipment", path), path + "/cac:Shipment", &da.shipment);
  r.each(root, true, "DespatchLine", path, limits.max_lines, [&](const pugi::xml_node& n, const std::string& at) {
    DespatchLine line;
    read_despatch_line(r, n, at, &line);
    da.lines.push_back(std::move(line));
  });
  if (!r.error().empty()) return fail(ErrorCode::TooMany, r.error());
  *out = std::move(da);
  return {};
}

bool rejects(const std::vector<Finding>& findings) {
  for (const Finding& f : findings)
    if (f.severity == Severity::Fatal) return true;
  return false;
}

}  // namespace edihub::ubl
