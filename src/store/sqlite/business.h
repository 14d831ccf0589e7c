// The business tables on SQLite: every document type of the registry
// (src/business/registry.h) booked through one path in document-date order,
// with its lines; and the sequences counters.
#pragma once

#include <map>
#include <memory>

#include "src/business/registry.h"
#include "src/store/document_sql.h"
#include "src/store/sqlite/connection.h"
#include "src/store/transaction.h"
#include "src/store/versions.h"

namespace edihub::store::sqlite {

class Business {
 public:
  explicit Business(Connection& c);

  Result<Applied> put_document(const std::string& partner, const business::Document& doc, const std::string& source,
                               int64_t now_ms);
  Result<int64_t> next_sequence(const std::string& name);

 private:
  // One type's statements, prepared the first time the type is booked.
  struct Statements {
    Statements(Connection& c, const DocumentSql& sql);
    Stmt select, insert, replace, cancel, delete_lines, line, lines;
  };
  Statements& statements(const business::DocumentType& t);

  Connection& c_;
  std::map<const business::DocumentType*, std::unique_ptr<Statements>> by_type_;
  Stmt sequence_;
};

}  // namespace edihub::store::sqlite
