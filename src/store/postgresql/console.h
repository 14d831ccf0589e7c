// The operator console's tables and reads on PostgreSQL (src/store/console.h).
#pragma once

#include <memory>

#include "src/store/console.h"
#include "src/store/postgresql/connection.h"

namespace edihub::store::postgresql {

std::unique_ptr<ConsoleStore> console_store(Connection& c);

}  // namespace edihub::store::postgresql
