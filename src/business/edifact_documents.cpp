// EDIFACT DESADV (despatch advice), INVOIC (invoice / credit note), ORDERS
// (purchase order) and ORDRSP (purchase order response).
#include <string>
#include <vector>

#include "src/business/extract_util.h"

namespace edihub::business::internal {

namespace {

// BGM 1225 message function code; absent means original.
std::optional<Purpose> edifact_purpose(std::string_view code) {
  if (code.empty() || code == "9") return Purpose::Original;
  if (code == "5") return Purpose::Replace;
  if (code == "1") return Purpose::Cancel;
  return std::nullopt;
}

// The date of a DTM (C507 2380 in format 2379), kept as digits; sets *error
// when it is not CCYYMMDD (102), CCYYMMDDHHMM (203) or CCYYMMDDHHMMSS (204).
std::string dtm_value(const MessageSegments& s, std::string* error) {
  std::string qualifier = s.comp(1, 0), value = s.comp(1, 1), format = s.comp(1, 2);
  const std::string name = "DTM+" + qualifier;
  size_t want = 0;
  if (format == "102")
    want = 8;
  else if (format == "203")
    want = 12;
  else if (format == "204")
    want = 14;
  else if (!format.empty()) {
    *error = s.where() + ": " + name + " date format " + quote(format) +
             " is not supported; expected 102 (CCYYMMDD), 203 (CCYYMMDDHHMM) or 204 (CCYYMMDDHHMMSS)";
    return {};
  }
  if (value.empty()) {
    *error = s.where() + ": " + name + " has no date (C507 2380)";
    return {};
  }
  bool ok = all_digits(value) &&
            (want != 0 ? value.size() == want : value.size() == 8 || value.size() == 12 || value.size() == 14);
  if (!ok) {
    *error = s.where() + ": " + name + " date " + quote(value) + " is not " +
             (want == 8    ? std::string("CCYYMMDD (format 102)")
              : want == 12 ? std::string("CCYYMMDDHHMM (format 203)")
              : want == 14 ? std::string("CCYYMMDDHHMMSS (format 204)")
                           : std::string("CCYYMMDD, CCYYMMDDHHMM or CCYYMMDDHHMMSS"));
    return {};
  }
  return value;
}

// A decimal in element i, component c, written with the interchange's mark;
// returned with '.' as the mark. `name` says what it is for messages.
std::optional<std::string> decimal_comp(const MessageSegments& s, size_t i, size_t c, const std::string& name,
                                        std::string* error) {
  return checked_decimal(s, s.comp(i, c), s.delimiters().decimal, name, true, error);
}

// The BGM common to both messages: 1001, 1004, 1225.
struct Bgm {
  bool seen = false;
  std::string name_code;
  std::string number;
  Purpose purpose = Purpose::Original;
};

// Reads a BGM; returns false with *error set when it is unusable.
bool read_bgm(const MessageSegments& s, Bgm* bgm, std::string* error) {
  bgm->seen = true;
  bgm->name_code = s.comp(1, 0);
  // 1004 is a simple element up to D.00B, then the first component of C106.
  bgm->number = s.comp(2, 0);
  if (bgm->number.empty()) {
    *error = s.where() + ": BGM has no document number (1004, element 2)";
    return false;
  }
  std::string function = s.comp(3, 0);
  auto p = edifact_purpose(function);
  if (!p) {
    *error = s.where() + ": BGM message function (1225) " + quote(function) +
             " is not 9 (original), 5 (replace) or 1 (cancellation)";
    return false;
  }
  bgm->purpose = *p;
  return true;
}

// Item id from LIN C212 (element 3): 7140 and 7143.
void lin_item(const MessageSegments& s, std::string* id, std::string* type) {
  *id = s.comp(3, 0);
  *type = s.comp(3, 1);
}

// A line's QTY (C186 6060 quantity, 6411 unit); the first one of its kind
// wins. Returns false with *error set when the quantity is not a decimal.
bool read_line_quantity(const MessageSegments& s, const std::string& what, std::string* quantity, std::string* unit,
                        std::string* error) {
  if (!quantity->empty()) return true;
  auto q = decimal_comp(s, 1, 1, what, error);
  if (!q) return false;
  *quantity = *q;
  *unit = s.comp(1, 2);
  return true;
}

// Amount of a MOA (C516 5004) in minor units.
std::optional<int64_t> moa_amount(const MessageSegments& s, std::string* error) {
  std::string qualifier = s.comp(1, 0), v = s.comp(1, 1);
  auto minor = to_minor(v, 2, s.delimiters().decimal);
  if (!minor) {
    *error = s.where() + ": MOA+" + qualifier + " amount " + quote(v) +
             (v.empty() ? " is empty" : " is not a decimal amount") + " (decimal mark '" +
             std::string(1, s.delimiters().decimal) + "')";
  }
  return minor;
}

}  // namespace

// Long on purpose: hand-written extractor; replaced by message definitions (issue 22).
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
Extracted extract_desadv(const edi::Interchange& ic, const edi::Message& m, std::string_view input) {
  Extracted out;
  ShipmentNotice doc;
  doc.lines.reserve(line_reserve(m));
  MessageSegments s(ic, m, input);
  std::string error;
  Bgm bgm;
  bool header = true;     // before the first CPS or LIN
  int current_line = -1;  // index in doc.lines
  std::vector<uint64_t> line_positions;
  std::vector<bool> line_has_order;
  int from_rank = 99, to_rank = 99;  // preference of the NAD that set ship_from / ship_to

  while (error.empty() && s.next()) {
    const std::string_view tag = s.tag();
    if (tag == "BGM") {
      if (!bgm.seen && !read_bgm(s, &bgm, &error)) break;
    } else if (tag == "DTM") {
      std::string qualifier = s.comp(1, 0);
      if (qualifier == "137" && doc.document_date.empty())
        doc.document_date = dtm_value(s, &error);
      else if (qualifier == "11" && doc.ship_date.empty())
        doc.ship_date = dtm_value(s, &error);
    } else if (tag == "RFF") {
      if (s.comp(1, 0) != "ON") continue;
      std::string order = s.comp(1, 1);
      if (order.empty()) continue;
      if (current_line >= 0) {
        if (!line_has_order[current_line]) {
          doc.lines[current_line].order_number = order;
          line_has_order[current_line] = true;
        }
      } else if (header && doc.order_number.empty()) {
        doc.order_number = order;
      }
    } else if (tag == "NAD") {
      if (!header) continue;
      std::string role = s.comp(1, 0);
      std::string party = s.comp(2, 0);
      if (party.empty()) party = s.comp(4, 0);  // C080 party name
      if (party.empty()) continue;
      int from = role == "SU" ? 0 : role == "CZ" ? 1 : role == "SE" ? 2 : 99;
      int to = role == "DP" ? 0 : role == "ST" ? 1 : 99;
      if (from < from_rank) {
        from_rank = from;
        doc.ship_from = party;
      }
      if (to < to_rank) {
        to_rank = to;
        doc.ship_to = party;
      }
    } else if (tag == "TDT") {
      if (doc.carrier.empty()) {
        doc.carrier = s.comp(5, 0);                           // C040 3127 carrier id
        if (doc.carrier.empty()) doc.carrier = s.comp(5, 3);  // C040 3128 carrier name
      }
    } else if (tag == "MEA") {
      // MEA+PD+G (or AAB)+KGM:1234.5: the first gross weight before the lines.
      std::string dimension = s.comp(2, 0);
      if (current_line < 0 && doc.gross_weight.empty() && (dimension == "G" || dimension == "AAB")) {
        auto w = decimal_comp(s, 3, 1, "MEA gross weight (C174 6314)", &error);
        if (w) doc.gross_weight = *w;
      }
    } else if (tag == "CPS") {
      header = false;
      current_line = -1;
    } else if (tag == "LIN") {
      header = false;
      ShipmentLine line;
      auto n = line_number(s.comp(1, 0));
      line.line_number = n ? *n : static_cast<int>(doc.lines.size()) + 1;
      lin_item(s, &line.item_id, &line.item_id_type);
      doc.lines.push_back(std::move(line));
      line_positions.push_back(s.position());
      line_has_order.push_back(false);
      current_line = static_cast<int>(doc.lines.size()) - 1;
    } else if (tag == "PIA") {
      if (current_line < 0) continue;
      ShipmentLine& line = doc.lines[current_line];
      std::string function = s.comp(1, 0);
      for (size_t i = 2; i <= 6 && i < s.count(); ++i) {
        std::string id = s.comp(i, 0), type = s.comp(i, 1);
        if (id.empty()) continue;
        if (function == "5" && line.item_id.empty()) {
          line.item_id = id;  // PIA+5: the main identification when LIN has none
          line.item_id_type = type;
        } else if (type == "SA" && line.supplier_item.empty()) {
          line.supplier_item = id;
        }
      }
      if (line.supplier_item.empty() && function == "1") line.supplier_item = s.comp(2, 0);
    } else if (tag == "QTY") {
      if (current_line < 0 || s.comp(1, 0) != "12") continue;
      ShipmentLine& line = doc.lines[current_line];
      if (!read_line_quantity(s, "QTY+12 despatch quantity (C186 6060)", &line.quantity, &line.unit, &error)) break;
    }
  }
  if (!s.error().empty()) error = s.error();
  if (error.empty() && !bgm.seen) error = s.where() + ": the DESADV has no BGM segment (document number)";
  if (error.empty() && doc.document_date.empty()) error = s.where() + ": the DESADV has no DTM+137 (document date)";
  if (error.empty()) {
    for (size_t i = 0; i < doc.lines.size(); ++i) {
      if (doc.lines[i].quantity.empty()) {
        error = where(line_positions[i], "LIN") + ": line " + std::to_string(doc.lines[i].line_number) +
                " has no QTY+12 (despatch quantity)";
        break;
      }
    }
  }
  if (!error.empty()) {
    out.error = error;
    return out;
  }
  doc.document_number = bgm.number;
  doc.purpose = bgm.purpose;
  // A header RFF+ON covers every line that names no order of its own.
  for (size_t i = 0; i < doc.lines.size(); ++i)
    if (!line_has_order[i]) doc.lines[i].order_number = doc.order_number;
  out.document = std::move(doc);
  return out;
}

// Long on purpose: hand-written extractor; replaced by message definitions (issue 22).
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
Extracted extract_invoic(const edi::Interchange& ic, const edi::Message& m, std::string_view input) {
  Extracted out;
  Invoice doc;
  doc.lines.reserve(line_reserve(m));
  MessageSegments s(ic, m, input);
  std::string error;
  Bgm bgm;
  bool summary = false;  // after UNS+S
  int current_line = -1;
  std::string invoice_date;  // DTM+3, used when there is no DTM+137
  bool currency_is_reference = false;

  struct LineFacts {
    uint64_t position = 0;
    std::optional<int64_t> moa203, moa66;
    int price_rank = 99;
  };
  std::vector<LineFacts> facts;

  // Summary amounts by MOA qualifier.
  std::optional<int64_t> total86, total77, total9, total39, total128, line_total79, tax176;
  std::optional<int64_t> tax124, tax150;  // summed over the tax groups

  auto first = [](std::optional<int64_t>* slot, int64_t v) {
    if (!*slot) *slot = v;
  };
  auto sum = [&](std::optional<int64_t>* slot, int64_t v) {
    auto total = add_minor(slot->value_or(0), v);
    if (!total)
      error = s.where() + ": the tax amounts add up beyond the supported range";
    else
      *slot = total;
  };

  while (error.empty() && s.next()) {
    const std::string_view tag = s.tag();
    if (tag == "BGM") {
      if (!bgm.seen && !read_bgm(s, &bgm, &error)) break;
    } else if (tag == "DTM") {
      if (current_line >= 0 || summary) continue;
      std::string qualifier = s.comp(1, 0);
      if (qualifier == "137" && doc.document_date.empty())
        doc.document_date = dtm_value(s, &error);
      else if (qualifier == "3" && invoice_date.empty())
        invoice_date = dtm_value(s, &error);
    } else if (tag == "RFF") {
      if (current_line >= 0 || summary || s.comp(1, 0) != "ON") continue;
      if (doc.order_number.empty()) doc.order_number = s.comp(1, 1);
    } else if (tag == "CUX") {
      // Up to two C504 6347:6345:6343; the reference currency (6347 = 2) wins.
      for (size_t i = 1; i <= 2 && !currency_is_reference; ++i) {
        std::string usage = s.comp(i, 0), currency = s.comp(i, 1);
        if (currency.empty()) continue;
        if (usage == "2") {
          currency_is_reference = true;
          doc.currency = currency;
        } else if (doc.currency.empty()) {
          doc.currency = currency;
        }
      }
    } else if (tag == "LIN") {
      if (summary) continue;
      InvoiceLine line;
      auto n = line_number(s.comp(1, 0));
      line.line_number = n ? *n : static_cast<int>(doc.lines.size()) + 1;
      lin_item(s, &line.item_id, &line.item_id_type);
      doc.lines.push_back(std::move(line));
      facts.push_back(LineFacts{s.position(), std::nullopt, std::nullopt, 99});
      current_line = static_cast<int>(doc.lines.size()) - 1;
    } else if (tag == "PIA") {
      if (current_line < 0 || s.comp(1, 0) != "5") continue;
      InvoiceLine& line = doc.lines[current_line];
      if (line.item_id.empty()) {
        line.item_id = s.comp(2, 0);
        line.item_id_type = s.comp(2, 1);
      }
    } else if (tag == "QTY") {
      if (current_line < 0 || s.comp(1, 0) != "47") continue;
      InvoiceLine& line = doc.lines[current_line];
      if (!read_line_quantity(s, "QTY+47 invoiced quantity (C186 6060)", &line.quantity, &line.unit, &error)) break;
    } else if (tag == "PRI") {
      if (current_line < 0) continue;
      std::string qualifier = s.comp(1, 0);
      int rank = qualifier == "AAA" ? 0 : qualifier == "AAB" ? 1 : qualifier == "INV" ? 2 : 99;
      if (rank >= facts[current_line].price_rank) continue;
      auto p = decimal_comp(s, 1, 1, "PRI+" + qualifier + " price (C509 5118)", &error);
      if (!p) break;
      doc.lines[current_line].unit_price = *p;
      facts[current_line].price_rank = rank;
    } else if (tag == "UNS") {
      if (s.comp(1, 0) == "S") {
        summary = true;
        current_line = -1;
      }
    } else if (tag == "MOA") {
      std::string qualifier = s.comp(1, 0);
      if (current_line >= 0) {
        if (qualifier != "203" && qualifier != "66") continue;
        auto v = moa_amount(s, &error);
        if (!v) break;
        first(qualifier == "203" ? &facts[current_line].moa203 : &facts[current_line].moa66, *v);
      } else if (summary) {
        static const char* const kUsed[] = {"86", "77", "9", "39", "128", "79", "176", "124", "150"};
        bool used = false;
        for (const char* q : kUsed) used = used || qualifier == q;
        if (!used) continue;
        auto v = moa_amount(s, &error);
        if (!v) break;
        if (qualifier == "86")
          first(&total86, *v);
        else if (qualifier == "77")
          first(&total77, *v);
        else if (qualifier == "9")
          first(&total9, *v);
        else if (qualifier == "39")
          first(&total39, *v);
        else if (qualifier == "128")
          first(&total128, *v);
        else if (qualifier == "79")
          first(&line_total79, *v);
        else if (qualifier == "176")
          first(&tax176, *v);
        else if (qualifier == "124")
          sum(&tax124, *v);
        else
          sum(&tax150, *v);
      }
    }
  }
  if (!s.error().empty()) error = s.error();
  const std::string at_end = s.where();
  if (error.empty() && !bgm.seen) error = at_end + ": the INVOIC has no BGM segment (invoice number)";
  if (error.empty()) {
    if (doc.document_date.empty()) doc.document_date = invoice_date;
    if (doc.document_date.empty())
      error = at_end + ": the INVOIC has no DTM+137 (document date) nor DTM+3 (invoice date)";
  }
  for (size_t i = 0; error.empty() && i < doc.lines.size(); ++i) {
    InvoiceLine& line = doc.lines[i];
    const std::string at = where(facts[i].position, "LIN") + ": line " + std::to_string(line.line_number);
    if (line.quantity.empty()) {
      error = at + " has no QTY+47 (invoiced quantity)";
    } else if (facts[i].moa203) {
      line.amount_minor = *facts[i].moa203;
    } else if (facts[i].moa66) {
      line.amount_minor = *facts[i].moa66;
    } else if (!line.unit_price.empty()) {
      auto amount = product_minor(line.quantity, line.unit_price, '.');
      if (!amount)
        error = at + ": quantity x price is beyond the supported range";
      else
        line.amount_minor = *amount;
    } else {
      error = at + " has no line amount (MOA+203) and no price (PRI+AAA) to compute it";
    }
  }
  if (error.empty()) {
    std::optional<int64_t> total = total86   ? total86
                                   : total77 ? total77
                                   : total9  ? total9
                                   : total39 ? total39
                                             : total128;
    if (!total) {
      error = at_end + ": the INVOIC has no total amount: expected MOA+86 (or 77, 9, 39, 128) after UNS+S";
    } else {
      doc.total_minor = *total;
    }
  }
  if (!error.empty()) {
    out.error = error;
    return out;
  }
  doc.invoice_number = bgm.number;
  doc.purpose = bgm.purpose;
  doc.credit_note = bgm.name_code == "381";
  doc.tax_minor = tax124 ? tax124 : tax176 ? tax176 : tax150;
  doc.line_total_minor = line_total79;
  out.document = std::move(doc);
  return out;
}

namespace {

// The party of a NAD: C082 3039, else the name (C080 3036).
std::string nad_party(const MessageSegments& s) { return s.comp(2, 0).empty() ? s.comp(4, 0) : s.comp(2, 0); }

}  // namespace

// Long on purpose: one pass over the ORDERS segments.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
ReadDocument read_orders(const edi::Interchange& ic, const edi::Message& m, std::string_view input) {
  ReadDocument out = new_document(order_type());
  Document& doc = out.document;
  MessageSegments s(ic, m, input);
  std::string error;
  Bgm bgm;
  bool summary = false;
  int price_rank = 99;
  while (error.empty() && s.next()) {
    const std::string_view tag = s.tag();
    const bool header = doc.lines.empty() && !summary;
    if (tag == "BGM") {
      if (!bgm.seen && !read_bgm(s, &bgm, &error)) break;
    } else if (tag == "DTM" && header) {
      const std::string qualifier = s.comp(1, 0);
      if (qualifier == "137" && doc.document_date.empty()) doc.document_date = dtm_value(s, &error);
      if (qualifier == "2" && doc.fields[kDeliveryDate].text.empty())
        doc.fields[kDeliveryDate] = Value::of(dtm_value(s, &error));
    } else if (tag == "CUX" && header) {
      if (doc.fields[kCurrency].text.empty()) doc.fields[kCurrency] = Value::of(s.comp(1, 1));
    } else if (tag == "NAD" && header) {
      const std::string q = s.comp(1, 0);
      const int f = q == "BY" ? kBuyer : q == "SU" ? kSeller : (q == "DP" || q == "ST") ? kShipTo : -1;
      if (f >= 0 && doc.fields[f].text.empty()) doc.fields[f] = Value::of(nad_party(s));
    } else if (tag == "LIN" && !summary) {
      std::vector<Value> line = empty_values(doc.type->line_fields);
      auto n = line_number(s.comp(1, 0));
      line[kLineNumber] = Value::of(int64_t{n ? *n : static_cast<int>(doc.lines.size()) + 1});
      line[kItemId] = Value::of(s.comp(3, 0));
      line[kItemIdType] = Value::of(s.comp(3, 1));
      doc.lines.push_back(std::move(line));
      price_rank = 99;
    } else if (tag == "PIA" && !doc.lines.empty() && !summary && s.comp(1, 0) == "5") {
      auto& line = doc.lines.back();
      if (line[kItemId].text.empty()) {
        line[kItemId] = Value::of(s.comp(2, 0));
        line[kItemIdType] = Value::of(s.comp(2, 1));
      }
    } else if (tag == "QTY" && !doc.lines.empty() && !summary && s.comp(1, 0) == "21") {
      auto& line = doc.lines.back();
      std::string quantity = line[kQuantity].text, unit = line[kUnit].text;
      if (!read_line_quantity(s, "QTY+21 ordered quantity (C186 6060)", &quantity, &unit, &error)) break;
      line[kQuantity] = Value::of(quantity);
      line[kUnit] = Value::of(unit);
    } else if (tag == "PRI" && !doc.lines.empty() && !summary) {
      const std::string qualifier = s.comp(1, 0);
      const int rank = qualifier == "AAA" ? 0 : qualifier == "AAB" ? 1 : 99;
      if (rank >= price_rank) continue;
      auto p = decimal_comp(s, 1, 1, "PRI+" + qualifier + " price (C509 5118)", &error);
      if (!p) break;
      doc.lines.back()[kUnitPrice] = Value::of(*p);
      price_rank = rank;
    } else if (tag == "UNS" && s.comp(1, 0) == "S") {
      summary = true;
    } else if (tag == "MOA" && summary) {
      const std::string qualifier = s.comp(1, 0);
      if ((qualifier == "86" || (qualifier == "79" && !doc.fields[kTotal].present))) {
        auto v = moa_amount(s, &error);
        if (!v) break;
        doc.fields[kTotal] = Value::of(*v);
      }
    }
  }
  if (!s.error().empty()) error = s.error();
  const std::string at_end = s.where();
  if (error.empty() && !bgm.seen) error = at_end + ": the ORDERS has no BGM segment (order number)";
  if (error.empty() && doc.document_date.empty()) error = at_end + ": the ORDERS has no DTM+137 (document date)";
  for (size_t i = 0; error.empty() && i < doc.lines.size(); ++i)
    if (doc.lines[i][kQuantity].text.empty())
      error =
          at_end + ": line " + std::to_string(doc.lines[i][kLineNumber].integer) + " has no QTY+21 (ordered quantity)";
  doc.number = bgm.number;
  doc.purpose = bgm.purpose;
  doc.fields[kOrderType] = Value::of(bgm.name_code);
  out.error = error;
  return out;
}

// Long on purpose: one pass over the ORDRSP segments.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
ReadDocument read_ordrsp(const edi::Interchange& ic, const edi::Message& m, std::string_view input) {
  ReadDocument out = new_document(order_response_type());
  Document& doc = out.document;
  MessageSegments s(ic, m, input);
  std::string error;
  bool have_bgm = false;
  while (error.empty() && s.next()) {
    const std::string_view tag = s.tag();
    const bool header = doc.lines.empty();
    if (tag == "BGM" && !have_bgm) {
      have_bgm = true;
      doc.number = s.comp(2, 0);
      if (doc.number.empty()) {
        error = s.where() + ": BGM has no document number (1004, element 2)";
        break;
      }
      // 1225 says what the response does (29 accepted, 27 not accepted, 4 change ...)
      // and only 5 and 1 replace or cancel an earlier response.
      const std::string function = s.comp(3, 0);
      doc.purpose = function == "5" ? Purpose::Replace : function == "1" ? Purpose::Cancel : Purpose::Original;
      const std::string response = s.comp(4, 0);
      doc.fields[kRespType] = Value::of(!response.empty() ? response : function);
    } else if (tag == "DTM" && header && s.comp(1, 0) == "137" && doc.document_date.empty()) {
      doc.document_date = dtm_value(s, &error);
    } else if (tag == "RFF" && header && s.comp(1, 0) == "ON" && doc.fields[kRespOrderNumber].text.empty()) {
      doc.fields[kRespOrderNumber] = Value::of(s.comp(1, 1));
    } else if (tag == "NAD" && header) {
      const std::string q = s.comp(1, 0);
      const int f = q == "BY" ? kRespBuyer : q == "SU" ? kRespSeller : -1;
      if (f >= 0 && doc.fields[f].text.empty()) doc.fields[f] = Value::of(nad_party(s));
    } else if (tag == "LIN") {
      std::vector<Value> line = empty_values(doc.type->line_fields);
      auto n = line_number(s.comp(1, 0));
      line[kRespLineNumber] = Value::of(int64_t{n ? *n : static_cast<int>(doc.lines.size()) + 1});
      line[kRespStatus] = Value::of(s.comp(2, 0));  // 1229 action: 3 changed, 5 accepted, 7 not accepted
      line[kRespItemId] = Value::of(s.comp(3, 0));
      line[kRespItemIdType] = Value::of(s.comp(3, 1));
      doc.lines.push_back(std::move(line));
    } else if (tag == "QTY" && !doc.lines.empty() && doc.lines.back()[kRespQuantity].text.empty()) {
      const std::string q = s.comp(1, 0);
      if (q != "21" && q != "113" && q != "12") continue;
      std::string quantity, unit;
      if (!read_line_quantity(s, "QTY+" + q + " quantity (C186 6060)", &quantity, &unit, &error)) break;
      doc.lines.back()[kRespQuantity] = Value::of(quantity);
      doc.lines.back()[kRespUnit] = Value::of(unit);
    }
  }
  if (!s.error().empty()) error = s.error();
  const std::string at_end = s.where();
  if (error.empty() && !have_bgm) error = at_end + ": the ORDRSP has no BGM segment (response number)";
  if (error.empty() && doc.document_date.empty()) error = at_end + ": the ORDRSP has no DTM+137 (document date)";
  if (error.empty() && doc.fields[kRespOrderNumber].text.empty())
    error = at_end + ": the ORDRSP has no RFF+ON (the order it answers)";
  out.error = error;
  return out;
}

}  // namespace edihub::business::internal
