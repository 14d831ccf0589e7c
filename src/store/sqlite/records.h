// The message log, the outbox and the archive of captures on SQLite: the
// rows a transaction adds besides keys and business documents.
#pragma once

#include "src/store/captures.h"
#include "src/store/exchanges.h"
#include "src/store/message_log.h"
#include "src/store/outbox.h"
#include "src/store/sqlite/connection.h"

namespace edihub::store::sqlite {

class Records {
 public:
  explicit Records(Connection& c);

  // Partner-controlled text passes partner_text() here, on the way into the log.
  Status log(const MessageLog& m, int64_t now_ms);
  Status enqueue(const OutboxItem& item, int64_t now_ms);
  Result<int64_t> archive(const CaptureRef& capture, int64_t now_ms);
  Status record_exchange(const PeppolExchange& e, int64_t now_ms);

 private:
  Connection& c_;
  Stmt log_, enqueue_, archive_, exchange_;
};

}  // namespace edihub::store::sqlite
