#include "src/store/sqlite/business.h"

#include <string>

#include "src/store/document_sql.h"

namespace edihub::store::sqlite {

namespace {

Status ran(const Result<int64_t>& r) { return r.is_ok() ? Status::ok() : r.status(); }

using business::DocumentType;
using business::Field;
using business::FieldKind;

// The document outlives the statement's run (a Using resets it first): its texts are bound without a copy.
void bind_value(Stmt& q, int i, const Field& f, const business::Value& v) {
  switch (f.kind) {
    case FieldKind::Text:
    case FieldKind::OptionalText:
      q.bind_static(i, v.text);
      break;
    case FieldKind::Integer:
    case FieldKind::Flag:
      q.bind(i, v.integer);
      break;
    case FieldKind::OptionalInteger:
      if (v.present) {
        q.bind(i, v.integer);
      } else {
        q.bind_null(i);
      }
      break;
  }
}

// The document's key: partner (1), number (2) and, for a type with a
// variant, its flag at `variant_at` (document_sql.h says where).
void bind_key(Stmt& q, const std::string& partner, const business::Document& doc, int variant_at) {
  q.bind(1, partner).bind(2, doc.number);
  const size_t v = doc.type->variant_index();
  if (v != std::string_view::npos) q.bind(variant_at, doc.fields.at(v).integer);
}

}  // namespace

Business::Statements::Statements(Connection& c, const DocumentSql& sql)
    : select(c, sql.select.c_str()),
      insert(c, sql.insert.c_str()),
      replace(c, sql.replace.c_str()),
      cancel(c, sql.cancel.c_str()),
      delete_lines(c, sql.delete_lines.c_str()),
      line(c, sql.line.c_str()),
      lines(c, sql.lines.c_str()) {}

Business::Business(Connection& c)
    : c_(c),
      sequence_(c,
                "INSERT INTO sequences (name, value) VALUES (?1, 1)"
                " ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value") {}

Business::Statements& Business::statements(const DocumentType& t) {
  auto& slot = by_type_[&t];
  if (!slot) slot = std::make_unique<Statements>(c_, document_sql(t, '?'));
  return *slot;
}

Result<Applied> Business::put_document(const std::string& partner, const business::Document& doc,
                                       const std::string& source, int64_t now_ms) {
  const DocumentType& t = *doc.type;
  Statements& st = statements(t);
  StoredVersion stored;
  {
    Using q(st.select);
    bind_key(*q, partner, doc, 3);
    ASSIGN_OR_RETURN(bool row, q->step());
    if (row) stored = {true, q->text(0), q->text(1)};
  }
  const Applied applied = decide_version(stored, doc.document_date, doc.purpose);
  const std::string purpose(business::purpose_name(doc.purpose));
  if (applied == Applied::IgnoredOlder) return applied;
  if (applied == Applied::Cancelled && stored.exists) {
    Using q(st.cancel);
    bind_key(*q, partner, doc, 7);
    q->bind(3, purpose).bind(4, doc.document_date).bind(5, source).bind(6, now_ms);
    RETURN_IF_ERROR(ran(q->run()));
    return applied;
  }
  {
    Using q(applied == Applied::Replaced ? st.replace : st.insert);
    q->bind(1, partner).bind(2, doc.number).bind(3, purpose);
    q->bind(4, applied == Applied::Cancelled ? "cancelled" : "active").bind(5, doc.document_date);
    int i = 6;
    for (size_t f = 0; f < t.fields.size(); ++f) bind_value(*q, i++, t.fields[f], doc.fields.at(f));
    q->bind(i, source).bind(i + 1, now_ms);
    RETURN_IF_ERROR(ran(q->run()));
  }
  if (applied == Applied::Cancelled) return applied;
  if (applied == Applied::Replaced) {
    Using q(st.delete_lines);
    bind_key(*q, partner, doc, 3);
    RETURN_IF_ERROR(ran(q->run()));
  }
  // kLineRows lines per statement, the rest one by one.
  const size_t per_row = 1 + t.line_fields.size();
  const int first = first_line_parameter(t);
  size_t k = 0;
  auto bind_line = [&](Stmt& q, int at) {
    q.bind(at, static_cast<int64_t>(k + 1));  // position, 1-based
    for (size_t f = 0; f < t.line_fields.size(); ++f)
      bind_value(q, at + 1 + static_cast<int>(f), t.line_fields[f], doc.lines[k].at(f));
  };
  while (doc.lines.size() - k >= kLineRows) {
    Using q(st.lines);
    bind_key(*q, partner, doc, 3);
    for (size_t r = 0; r < kLineRows; ++r, ++k) bind_line(*q, first + static_cast<int>(r * per_row));
    RETURN_IF_ERROR(ran(q->run()));
  }
  for (; k < doc.lines.size(); ++k) {
    Using q(st.line);
    bind_key(*q, partner, doc, 3);
    bind_line(*q, first);
    RETURN_IF_ERROR(ran(q->run()));
  }
  return applied;
}

Result<int64_t> Business::next_sequence(const std::string& name) {
  Using q(sequence_);
  q->bind(1, name);
  ASSIGN_OR_RETURN(bool row, q->step());
  if (!row) return Status::transient("sequence " + name + ": no value returned");
  return q->int64(0);
}

}  // namespace edihub::store::sqlite
