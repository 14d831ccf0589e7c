// X12 856 (ship notice/manifest), 810 (invoice), 850 (purchase order) and
// 855 (purchase order acknowledgment).
#include <string>
#include <vector>

#include "src/business/extract_util.h"
#include "src/business/registry.h"

namespace edihub::business::internal {

namespace {

// BSN01 / BIG08 transaction set purpose code.
std::optional<Purpose> x12_purpose(std::string_view code) {
  if (code == "00") return Purpose::Original;
  if (code == "05") return Purpose::Replace;
  if (code == "01") return Purpose::Cancel;
  return std::nullopt;
}

constexpr const char* kPurposes = "00 (original), 05 (replace) or 01 (cancellation)";

bool is_date(std::string_view s) { return s.size() == 8 && all_digits(s); }

// HHMM, HHMMSS, or HHMMSSD[D] (decimal seconds dropped).
std::optional<std::string> x12_time(std::string_view s) {
  if (!all_digits(s)) return std::nullopt;
  if (s.size() == 4 || s.size() == 6) return std::string(s);
  if (s.size() == 7 || s.size() == 8) return std::string(s.substr(0, 6));
  return std::nullopt;
}

// Reads "date[time]" from two elements; sets *error on a bad value.
std::string date_time(const MessageSegments& s, size_t date_el, size_t time_el, const std::string& what,
                      std::string* error) {
  std::string date = s.text(date_el), time = s.text(time_el);
  std::string tag(s.tag());
  auto name = [&](size_t i) { return tag + (i < 10 ? "0" : "") + std::to_string(i); };
  if (date.empty()) {
    *error = s.where() + ": " + name(date_el) + " (" + what + ") is empty";
    return {};
  }
  if (!is_date(date)) {
    *error = s.where() + ": " + name(date_el) + " (" + what + ") " + quote(date) + " is not a date CCYYMMDD";
    return {};
  }
  if (time.empty()) return date;
  auto t = x12_time(time);
  if (!t) {
    *error = s.where() + ": " + name(time_el) + " (time) " + quote(time) + " is not a time HHMM or HHMMSS";
    return {};
  }
  return date + *t;
}

// Checks a decimal element; on success returns it with '.' as the mark.
std::optional<std::string> decimal_element(const MessageSegments& s, size_t i, const char* name, std::string* error) {
  return checked_decimal(s, s.text(i), '.', name, false, error);
}

struct Hl {
  std::string id;
  int parent = -1;  // index in the HL list
  std::string level;
  std::string order;  // PRF01 read in this level
};

struct PendingLine {
  uint64_t position = 0;  // of the LIN (or SN1) that opened the line
  std::string tag;
};

}  // namespace

// Long on purpose: hand-written extractor; replaced by message definitions (issue 22).
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
Extracted extract_x12_856(const edi::Interchange& ic, const edi::Message& m, std::string_view input) {
  Extracted out;
  ShipmentNotice doc;
  doc.lines.reserve(line_reserve(m));
  MessageSegments s(ic, m, input);
  std::string error;
  bool have_bsn = false;
  std::vector<Hl> hls;
  int current_hl = -1;
  int last_order_hl = -1;  // the latest HL of level O
  int current_line = -1;   // index in doc.lines, within the current HL
  std::vector<PendingLine> opened;

  // The order number of the HL chain from `hl` up.
  auto order_of = [&](int hl) {
    for (int guard = 0; hl >= 0 && guard < 1000; ++guard) {
      if (!hls[hl].order.empty()) return hls[hl].order;
      hl = hls[hl].parent;
    }
    return std::string();
  };

  while (error.empty() && s.next()) {
    const std::string_view tag = s.tag();
    if (tag == "BSN") {
      if (have_bsn) continue;
      have_bsn = true;
      std::string purpose = s.text(1);
      auto p = x12_purpose(purpose);
      if (!p) {
        error = s.where() + ": BSN01 (purpose) " +
                (purpose.empty() ? std::string("is empty") : quote(purpose) + " is not") +
                (purpose.empty() ? "; expected " : " ") + kPurposes;
        break;
      }
      doc.purpose = *p;
      doc.document_number = s.text(2);
      if (doc.document_number.empty()) {
        error = s.where() + ": BSN02 (shipment identification) is empty";
        break;
      }
      doc.document_date = date_time(s, 3, 4, "date", &error);
    } else if (tag == "DTM") {
      if (s.text(1) == "011" && doc.ship_date.empty()) doc.ship_date = date_time(s, 2, 3, "ship date", &error);
    } else if (tag == "HL") {
      Hl h;
      h.id = s.text(1);
      h.level = s.text(3);
      std::string parent = s.text(2);
      if (!parent.empty()) {
        for (int i = static_cast<int>(hls.size()) - 1; i >= 0; --i) {
          if (hls[i].id == parent) {
            h.parent = i;
            break;
          }
        }
      }
      // Without a (known) parent an item belongs to the latest order level.
      if (h.parent < 0 && h.level != "S" && h.level != "O") h.parent = last_order_hl;
      hls.push_back(std::move(h));
      current_hl = static_cast<int>(hls.size()) - 1;
      if (hls.back().level == "O") last_order_hl = current_hl;
      current_line = -1;
    } else if (tag == "PRF") {
      std::string order = s.text(1);
      if (order.empty()) continue;
      if (current_hl >= 0 && hls[current_hl].order.empty()) hls[current_hl].order = order;
      if (doc.order_number.empty()) doc.order_number = order;
    } else if (tag == "TD1") {
      std::string qualifier = s.text(6);
      if (doc.gross_weight.empty() && !s.text(7).empty() && (qualifier.empty() || qualifier == "G")) {
        auto w = decimal_element(s, 7, "TD107 (weight)", &error);
        if (w) doc.gross_weight = *w;
      }
    } else if (tag == "TD5") {
      if (doc.carrier.empty()) doc.carrier = !s.text(3).empty() ? s.text(3) : s.text(5);
    } else if (tag == "N1") {
      std::string who = s.text(1);
      std::string party = !s.text(4).empty() ? s.text(4) : s.text(2);
      if (who == "SF" && doc.ship_from.empty()) doc.ship_from = party;
      if (who == "ST" && doc.ship_to.empty()) doc.ship_to = party;
    } else if (tag == "LIN") {
      ShipmentLine line;
      auto n = line_number(s.text(1));
      line.line_number = n ? *n : static_cast<int>(doc.lines.size()) + 1;
      line.item_id_type = s.text(2);
      line.item_id = s.text(3);
      line.supplier_item = s.text(5);
      line.order_number = order_of(current_hl);
      doc.lines.push_back(std::move(line));
      opened.push_back({s.position(), "LIN"});
      current_line = static_cast<int>(doc.lines.size()) - 1;
    } else if (tag == "SN1") {
      if (current_line < 0 || !doc.lines[current_line].quantity.empty()) {
        // An SN1 without its own LIN: a line without item identification.
        ShipmentLine line;
        auto n = line_number(s.text(1));
        line.line_number = n ? *n : static_cast<int>(doc.lines.size()) + 1;
        line.order_number = order_of(current_hl);
        doc.lines.push_back(std::move(line));
        opened.push_back({s.position(), "SN1"});
        current_line = static_cast<int>(doc.lines.size()) - 1;
      }
      auto q = decimal_element(s, 2, "SN102 (number of units shipped)", &error);
      if (!q) break;
      doc.lines[current_line].quantity = *q;
      doc.lines[current_line].unit = s.text(3);
    }
  }
  if (!s.error().empty()) error = s.error();
  if (error.empty() && !have_bsn) error = s.where() + ": the 856 has no BSN segment (shipment identification)";
  if (error.empty()) {
    for (size_t i = 0; i < doc.lines.size(); ++i) {
      if (doc.lines[i].quantity.empty()) {
        error = where(opened[i].position, opened[i].tag) + ": item line " + std::to_string(doc.lines[i].line_number) +
                " has no SN1 (quantity shipped)";
        break;
      }
    }
  }
  if (!error.empty()) {
    out.error = error;
    return out;
  }
  out.document = std::move(doc);
  return out;
}

// Long on purpose: hand-written extractor; replaced by message definitions (issue 22).
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
Extracted extract_x12_810(const edi::Interchange& ic, const edi::Message& m, std::string_view input) {
  Extracted out;
  Invoice doc;
  doc.lines.reserve(line_reserve(m));
  MessageSegments s(ic, m, input);
  std::string error;
  bool have_big = false, have_tds = false, have_cur = false;
  std::optional<int64_t> line_tax, summary_tax;

  auto add_tax = [&](std::optional<int64_t>* sum, int64_t v) {
    auto total = add_minor(sum->value_or(0), v);
    if (!total)
      error = s.where() + ": the tax amounts add up beyond the supported range";
    else
      *sum = total;
  };

  while (error.empty() && s.next()) {
    const std::string_view tag = s.tag();
    if (tag == "BIG") {
      if (have_big) continue;
      have_big = true;
      doc.document_date = s.text(1);
      if (doc.document_date.empty()) {
        error = s.where() + ": BIG01 (invoice date) is empty";
        break;
      }
      if (!is_date(doc.document_date)) {
        error = s.where() + ": BIG01 (invoice date) " + quote(doc.document_date) + " is not a date CCYYMMDD";
        break;
      }
      doc.invoice_number = s.text(2);
      if (doc.invoice_number.empty()) {
        error = s.where() + ": BIG02 (invoice number) is empty";
        break;
      }
      doc.order_number = s.text(4);
      doc.credit_note = s.text(7) == "CR";
      std::string purpose = s.text(8);
      if (!purpose.empty()) {
        auto p = x12_purpose(purpose);
        if (!p) {
          error = s.where() + ": BIG08 (purpose) " + quote(purpose) + " is not " + kPurposes;
          break;
        }
        doc.purpose = *p;
      }
    } else if (tag == "CUR") {
      if (!have_cur && !s.text(2).empty()) {
        have_cur = true;
        doc.currency = s.text(2);
      }
    } else if (tag == "IT1") {
      InvoiceLine line;
      auto n = line_number(s.text(1));
      line.line_number = n ? *n : static_cast<int>(doc.lines.size()) + 1;
      auto q = decimal_element(s, 2, "IT102 (quantity invoiced)", &error);
      if (!q) break;
      line.quantity = *q;
      line.unit = s.text(3);
      auto p = decimal_element(s, 4, "IT104 (unit price)", &error);
      if (!p) break;
      line.unit_price = *p;
      line.item_id_type = s.text(6);
      line.item_id = s.text(7);
      auto amount = product_minor(line.quantity, line.unit_price, '.');
      if (!amount) {
        error = s.where() + ": IT102 x IT104 (" + line.quantity + " x " + line.unit_price +
                ") is beyond the supported range";
        break;
      }
      line.amount_minor = *amount;
      doc.lines.push_back(std::move(line));
    } else if (tag == "TDS") {
      if (have_tds) continue;
      have_tds = true;
      std::string total = s.text(1);
      if (total.empty()) {
        error = s.where() + ": TDS01 (total invoice amount) is empty";
        break;
      }
      // N2: two implied decimals ("88308" = 883.08). A partner writing an
      // explicit decimal point ("883.08") means the same amount.
      std::optional<int64_t> v = total.find('.') == std::string::npos ? to_minor(total, 0) : to_minor(total, 2);
      if (!v) {
        error = s.where() + ": TDS01 (total invoice amount) " + quote(total) +
                " is not an amount with two implied decimals (\"88308\" = 883.08)";
        break;
      }
      doc.total_minor = *v;
    } else if (tag == "TXI") {
      std::string amount = s.text(2);
      if (amount.empty()) continue;
      auto v = to_minor(amount, 2);
      if (!v) {
        error = s.where() + ": TXI02 (tax amount) " + quote(amount) + " is not a decimal amount";
        break;
      }
      add_tax(have_tds ? &summary_tax : &line_tax, *v);
    }
  }
  if (!s.error().empty()) error = s.error();
  if (error.empty() && !have_big) error = s.where() + ": the 810 has no BIG segment (invoice date and number)";
  if (error.empty() && !have_tds)
    error = s.where() + ": the 810 has no TDS segment (total invoice amount); expected TDS after the IT1 lines";
  if (error.empty() && !doc.lines.empty()) {
    int64_t sum = 0;
    for (const auto& line : doc.lines) {
      auto next = add_minor(sum, line.amount_minor);
      if (!next) {
        error = s.where() + ": the line amounts add up beyond the supported range";
        break;
      }
      sum = *next;
    }
    doc.line_total_minor = sum;
  }
  if (!error.empty()) {
    out.error = error;
    return out;
  }
  doc.tax_minor = summary_tax ? summary_tax : line_tax;
  out.document = std::move(doc);
  return out;
}

namespace {

// The party id of an N1: N104 (with its qualifier N103), else the name N102.
std::string n1_party(const MessageSegments& s) { return s.text(4).empty() ? s.text(2) : s.text(4); }

// The N1 qualifiers of the header's parties.
int party_field(std::string_view qualifier) {
  if (qualifier == "BY") return kBuyer;
  if (qualifier == "SE" || qualifier == "SU" || qualifier == "VN") return kSeller;
  if (qualifier == "ST") return kShipTo;
  return -1;
}

// A PO1 line (850 and 855 share it): PO101 number, PO102 quantity, PO103
// unit, PO104 price, PO106/PO107 the first product id.
bool read_po1(const MessageSegments& s, size_t lines, std::vector<Value>* line, bool price_field, std::string* error) {
  auto n = line_number(s.text(1));
  (*line)[kLineNumber] = Value::of(int64_t{n ? *n : static_cast<int>(lines) + 1});
  auto q = decimal_element(s, 2, "PO102 (quantity ordered)", error);
  if (!q) return false;
  (*line)[kQuantity] = Value::of(*q);
  (*line)[kUnit] = Value::of(s.text(3));
  if (price_field && !s.text(4).empty()) {
    auto p = decimal_element(s, 4, "PO104 (unit price)", error);
    if (!p) return false;
    (*line)[kUnitPrice] = Value::of(*p);
  }
  (*line)[kItemIdType] = Value::of(s.text(6));
  (*line)[kItemId] = Value::of(s.text(7));
  return true;
}

}  // namespace

// Long on purpose: one pass over the 850's segments.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
ReadDocument read_x12_850(const edi::Interchange& ic, const edi::Message& m, std::string_view input) {
  ReadDocument out = new_document(order_type());
  Document& doc = out.document;
  MessageSegments s(ic, m, input);
  std::string error;
  bool have_beg = false, in_lines = false;
  while (error.empty() && s.next()) {
    const std::string_view tag = s.tag();
    if (tag == "BEG" && !have_beg) {
      have_beg = true;
      std::string purpose = s.text(1);
      auto p = x12_purpose(purpose);
      if (!p) {
        error = s.where() + ": BEG01 (purpose) " +
                (purpose.empty() ? std::string("is empty; expected ") : quote(purpose) + " is not ") + kPurposes;
        break;
      }
      doc.purpose = *p;
      doc.fields[kOrderType] = Value::of(s.text(2));
      doc.number = s.text(3);
      if (doc.number.empty()) {
        error = s.where() + ": BEG03 (purchase order number) is empty";
        break;
      }
      doc.document_date = date_time(s, 5, 99, "purchase order date", &error);
    } else if (tag == "CUR" && !in_lines) {
      if (doc.fields[kCurrency].text.empty()) doc.fields[kCurrency] = Value::of(s.text(2));
    } else if (tag == "N1" && !in_lines) {
      const int f = party_field(s.text(1));
      if (f >= 0 && doc.fields[f].text.empty()) doc.fields[f] = Value::of(n1_party(s));
    } else if (tag == "DTM" && !in_lines && s.text(1) == "002") {
      doc.fields[kDeliveryDate] = Value::of(s.text(2));
    } else if (tag == "PO1") {
      in_lines = true;
      std::vector<Value> line = empty_values(doc.type->line_fields);
      if (!read_po1(s, doc.lines.size(), &line, true, &error)) break;
      doc.lines.push_back(std::move(line));
    } else if (tag == "AMT" && s.text(1) == "TT") {
      auto v = to_minor(s.text(2), 2);
      if (!v) {
        error = s.where() + ": AMT02 (total amount) " + quote(s.text(2)) + " is not a decimal amount";
        break;
      }
      doc.fields[kTotal] = Value::of(*v);
    }
  }
  if (!s.error().empty()) error = s.error();
  if (error.empty() && !have_beg) error = s.where() + ": the 850 has no BEG segment (order number and date)";
  out.error = error;
  return out;
}

// Long on purpose: one pass over the 855's segments.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
ReadDocument read_x12_855(const edi::Interchange& ic, const edi::Message& m, std::string_view input) {
  ReadDocument out = new_document(order_response_type());
  Document& doc = out.document;
  MessageSegments s(ic, m, input);
  std::string error;
  bool have_bak = false, in_lines = false;
  while (error.empty() && s.next()) {
    const std::string_view tag = s.tag();
    if (tag == "BAK" && !have_bak) {
      have_bak = true;
      std::string purpose = s.text(1);
      auto p = x12_purpose(purpose);
      if (!p) {
        error = s.where() + ": BAK01 (purpose) " +
                (purpose.empty() ? std::string("is empty; expected ") : quote(purpose) + " is not ") + kPurposes;
        break;
      }
      doc.purpose = *p;
      doc.fields[kRespType] = Value::of(s.text(2));
      doc.fields[kRespOrderNumber] = Value::of(s.text(3));
      if (s.text(3).empty()) {
        error = s.where() + ": BAK03 (purchase order number) is empty";
        break;
      }
      // The response's own number: the seller's order number (BAK08), else the order's.
      doc.number = s.text(8).empty() ? s.text(3) : s.text(8);
      // Its date: the acknowledgment's (BAK09), else the order's (BAK04).
      doc.document_date = date_time(s, s.text(9).empty() ? 4 : 9, 99, "date", &error);
    } else if (tag == "N1" && !in_lines) {
      const std::string q = s.text(1);
      const int f = q == "BY" ? kRespBuyer : (q == "SE" || q == "SU" || q == "VN") ? kRespSeller : -1;
      if (f >= 0 && doc.fields[f].text.empty()) doc.fields[f] = Value::of(n1_party(s));
    } else if (tag == "PO1") {
      in_lines = true;
      std::vector<Value> line = empty_values(doc.type->line_fields);
      if (!read_po1(s, doc.lines.size(), &line, false, &error)) break;
      doc.lines.push_back(std::move(line));
    } else if (tag == "ACK" && !doc.lines.empty()) {
      // The line item status (ACK01: IA accepted, IR rejected, IC changed ...), the first per line.
      auto& status = doc.lines.back()[kRespStatus];
      if (status.text.empty()) status = Value::of(s.text(1));
    }
  }
  if (!s.error().empty()) error = s.error();
  if (error.empty() && !have_bak) error = s.where() + ": the 855 has no BAK segment (order number and date)";
  out.error = error;
  return out;
}

}  // namespace edihub::business::internal
