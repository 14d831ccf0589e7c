// The SQL both backends book a registry document with (src/business/
// registry.h), built from its type: table and column names come from the
// registry, never from a partner; every value is a bound parameter.
//
// Parameters, numbered from 1 (`?N` on SQLite, `$N` on PostgreSQL); a type
// with a variant (registry.h: an invoice's credit_note) has it in its key:
//   select, delete_lines: partner, number[, variant]
//   insert, replace: partner, number, purpose, status, document date, the
//     type's fields in order (the variant among them), source, now
//   cancel: partner, number, purpose, document date, source, now[, variant]
//   line (one row): partner, number[, variant], position, the line fields in order
//   lines (kLineRows rows): partner, number[, variant], then per row its
//     position and line fields in order (row r's position is
//     first_line_parameter + r * (1 + line fields))
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "src/business/registry.h"

namespace edihub::store {

// Lines per multi-row INSERT: one statement's fixed cost (its transaction
// begin, halt and foreign key check) paid once per 50 lines, not per line.
inline constexpr size_t kLineRows = 50;

struct DocumentSql {
  std::string select, insert, replace, cancel, delete_lines, line, lines;
};

// The parameter of the first line's position: 3, or 4 after a variant.
int first_line_parameter(const business::DocumentType& t);

// `placeholder` is '?' (SQLite) or '$' (PostgreSQL).
DocumentSql document_sql(const business::DocumentType& t, char placeholder);

// The documents of every type booked from one interchange (parameters:
// partner, source), as (kind, number, purpose, status, document_date,
// versions, updated_at) rows, at most 1,000.
std::string documents_from_sql(char placeholder);

// The sources (interchange keys) of the documents numbered `number_sql` (an
// SQL literal the caller quoted) of every type, for the partners in
// `partners_sql` (an SQL list the caller quoted; empty: any partner).
std::string sources_of_number_sql(const std::string& number_sql, const std::string& partners_sql);

// Each type's table and line table, for the store report's row counts.
std::vector<std::string> document_tables();

}  // namespace edihub::store
