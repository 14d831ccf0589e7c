// The PostgreSQL implementation of Store (libpq): several gateways on one
// database. Keys are claimed with INSERT ... ON CONFLICT DO NOTHING and the
// same fenced primitives as on SQLite; a transaction waits for another's row
// at most its lock bound (lock_timeout), then "store busy"; leases and every
// time come from the database's clock; the outbox is taken with FOR UPDATE
// SKIP LOCKED, so two nodes never send one row at once.
#pragma once

#include <memory>
#include <string>

#include "src/store/store.h"

namespace edihub::store::postgresql {

// Opens "postgresql://..." (a libpq URI) and applies pending migrations.
Result<std::unique_ptr<Store>> open_postgresql_store(const std::string& uri, const StoreOptions& options);

}  // namespace edihub::store::postgresql
