#include "src/store/document_sql.h"

namespace edihub::store {

namespace {

using business::Field;

class Builder {
 public:
  explicit Builder(char placeholder) : p_(placeholder) {}
  std::string at(int i) const { return std::string(1, p_) + std::to_string(i); }
  // "?6, ?7" for n parameters from `first`.
  std::string list(int first, size_t n) const {
    std::string out;
    for (size_t i = 0; i < n; ++i) out += (i == 0 ? "" : ", ") + at(first + static_cast<int>(i));
    return out;
  }

 private:
  char p_;
};

std::string names(const std::vector<Field>& fields) {
  std::string out;
  for (const Field& f : fields) out += ", " + std::string(f.name);
  return out;
}

bool has_variant(const business::DocumentType& t) { return !t.variant.empty(); }

// The document's key: partner (1), number (2), and the variant's flag at
// parameter `variant_at` for a type that has one.
std::string key_of(const business::DocumentType& t, const Builder& b, int variant_at) {
  std::string key = " WHERE partner_id = " + b.at(1) + " AND " + std::string(t.number_column) + " = " + b.at(2);
  if (has_variant(t)) key += " AND " + std::string(t.variant) + " = " + b.at(variant_at);
  return key;
}

// INSERT of `rows` lines sharing partner (1), number (2) and the variant (3).
std::string line_rows(const business::DocumentType& t, const Builder& b, size_t rows) {
  const std::string number(t.number_column), lines(t.line_table);
  const std::string variant = has_variant(t) ? ", " + std::string(t.variant) : std::string();
  std::string sql =
      "INSERT INTO " + lines + " (partner_id, " + number + variant + ", position" + names(t.line_fields) + ") VALUES ";
  const int first = first_line_parameter(t);
  const size_t per_row = 1 + t.line_fields.size();
  for (size_t r = 0; r < rows; ++r)
    sql += std::string(r == 0 ? "" : ", ") + "(" + b.list(1, static_cast<size_t>(first - 1)) + ", " +
           b.list(first + static_cast<int>(r * per_row), per_row) + ")";
  return sql;
}

}  // namespace

int first_line_parameter(const business::DocumentType& t) { return has_variant(t) ? 4 : 3; }

DocumentSql document_sql(const business::DocumentType& t, char placeholder) {
  const Builder b(placeholder);
  const std::string table(t.table), number(t.number_column), lines(t.line_table);
  const std::string key = key_of(t, b, 3);
  const int source = 6 + static_cast<int>(t.fields.size());
  DocumentSql sql;
  sql.select = "SELECT document_date, purpose FROM " + table + key;
  sql.insert = "INSERT INTO " + table + " (partner_id, " + number + ", purpose, status, document_date" +
               names(t.fields) + ", source, versions, created_at, updated_at) VALUES (" + b.list(1, 5) +
               (t.fields.empty() ? "" : ", " + b.list(6, t.fields.size())) + ", " + b.at(source) + ", 1, " +
               b.at(source + 1) + ", " + b.at(source + 1) + ")";
  std::string set = "purpose = " + b.at(3) + ", status = " + b.at(4) + ", document_date = " + b.at(5);
  int i = 6;
  for (const Field& f : t.fields) set += ", " + std::string(f.name) + " = " + b.at(i++);
  sql.replace = "UPDATE " + table + " SET " + set + ", source = " + b.at(i) +
                ", versions = versions + 1, updated_at = " + b.at(i + 1) +
                key_of(t, b, has_variant(t) ? 6 + static_cast<int>(t.variant_index()) : 0);
  sql.cancel = "UPDATE " + table + " SET purpose = " + b.at(3) + ", status = 'cancelled', document_date = " + b.at(4) +
               ", source = " + b.at(5) + ", versions = versions + 1, updated_at = " + b.at(6) + key_of(t, b, 7);
  sql.delete_lines = "DELETE FROM " + lines + key;
  sql.line = line_rows(t, b, 1);
  sql.lines = line_rows(t, b, kLineRows);
  return sql;
}

std::string documents_from_sql(char placeholder) {
  const Builder b(placeholder);
  std::string sql;
  for (const business::DocumentType* t : business::document_types()) {
    std::string kind = "'" + std::string(t->kind) + "'";
    if (!t->variant.empty())
      kind = "CASE WHEN " + std::string(t->variant) + " <> 0 THEN '" + std::string(t->variant_kind) + "' ELSE " + kind +
             " END";
    sql += (sql.empty() ? "SELECT " : " UNION ALL SELECT ") + kind + ", " + std::string(t->number_column) +
           ", purpose, status, document_date, versions, updated_at FROM " + std::string(t->table) +
           " WHERE partner_id = " + b.at(1) + " AND source = " + b.at(2);
  }
  return sql + " LIMIT 1000";
}

std::string sources_of_number_sql(const std::string& number_sql, const std::string& partners_sql) {
  std::string sql;
  for (const business::DocumentType* t : business::document_types()) {
    sql += (sql.empty() ? "SELECT source FROM " : " UNION SELECT source FROM ") + std::string(t->table) + " WHERE " +
           (partners_sql.empty() ? std::string() : "partner_id IN (" + partners_sql + ") AND ") +
           std::string(t->number_column) + " = " + number_sql;
  }
  return sql;
}

std::vector<std::string> document_tables() {
  std::vector<std::string> out;
  for (const business::DocumentType* t : business::document_types()) {
    out.emplace_back(t->table);
    out.emplace_back(t->line_table);
  }
  return out;
}

}  // namespace edihub::store
