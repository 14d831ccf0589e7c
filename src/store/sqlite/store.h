// The SQLite implementation of Store.
#pragma once

#include <memory>
#include <string>

#include "src/store/store.h"

namespace edihub::store::sqlite {

// Opens (creating it and its directory if needed) the database at `path` and
// applies pending migrations. One Store is used by one thread at a time;
// open one per thread or process.
Result<std::unique_ptr<Store>> open_sqlite_store(const std::string& path, const StoreOptions& options);

}  // namespace edihub::store::sqlite
