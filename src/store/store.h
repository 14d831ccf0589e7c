// The store, split by concern: keys (key_store.h), the message log, the
// outbox, archived captures, retention and reports, each a small interface a
// test fake can implement alone. A Store is one connection offering them all;
// one SQL implementation per backend (src/store/sqlite/). The gate knows
// nothing of SQLite or PostgreSQL.
#pragma once

#include <memory>
#include <string>

#include "src/common/status.h"
#include "src/store/captures.h"
#include "src/store/console.h"
#include "src/store/key_store.h"
#include "src/store/message_log.h"
#include "src/store/outbox.h"
#include "src/store/reports.h"
#include "src/store/retention.h"

namespace edihub::store {

// One connection. Not thread-safe: one Store per thread or process.
class Store : public KeyStore,
              public MessageLogStore,
              public OutboxStore,
              public CaptureStore,
              public Retention,
              public Reports {
 public:
  // The operator console's reads and its own tables, on this connection.
  virtual ConsoleStore& console() = 0;
};

struct StoreOptions {
  // SQLite: FULL makes every commit durable before a positive receipt; NORMAL
  // (WAL) may lose the last commits on power loss, never corrupts.
  std::string synchronous = "full";
  // Waits for the write lock outside the gate (purge, outbox, log batches).
  int busy_timeout_ms = 30000;
  // Added to the store's clock: lets tests move time forward without sleeping.
  int64_t clock_skew_ms = 0;
  // The gate's transactions of every thread of this process on one writer
  // connection, several per COMMIT (sqlite/group_commit.h). The server's.
  bool group_commit = false;
};

// Opens "sqlite:PATH[?synchronous=normal|full]" or "postgresql://..." (a
// libpq URI: user, host, port, database, libpq's parameters) and brings its
// schema up to date. Unavailable (with the reason) when it cannot; Invalid
// for a bad URI.
Result<std::unique_ptr<Store>> open_store(const std::string& uri, StoreOptions options = {});

}  // namespace edihub::store
