// The SQLite implementation of Store (POCO Data, SQLite connector): WAL,
// busy timeout, foreign keys; every write in a BEGIN IMMEDIATE transaction.
#pragma once

#include <memory>
#include <string>

#include "src/store/store.h"

namespace edihub::store {

// Opens (creating it and its directory if needed) the database at `path` and
// applies pending migrations. One SqliteStore is used by one thread at a time;
// open one per thread or process.
Result<std::unique_ptr<Store>> open_sqlite_store(const std::string& path, const StoreOptions& options);

// The migrations in schema/sqlite.sql, compiled in.
const char* sqlite_schema();

}  // namespace edihub::store
