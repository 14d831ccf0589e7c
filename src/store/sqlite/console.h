// The operator console's tables and reads on SQLite (src/store/console.h).
#pragma once

#include <memory>

#include "src/store/console.h"
#include "src/store/sqlite/connection.h"

namespace edihub::store::sqlite {

std::unique_ptr<ConsoleStore> console_store(Connection& c);

}  // namespace edihub::store::sqlite
