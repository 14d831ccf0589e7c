// Group commit: the transactions of every thread of a process on one database
// run on one writer connection, several to a COMMIT. Each keeps its own
// atomicity (a savepoint: its failure rolls back only its own writes) and
// waits for the durable COMMIT before it returns, so a positive receipt still
// follows a commit that covers it; with many messages in flight, one fsync
// serves many, and workers stop queueing on SQLite's write lock.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>

#include "src/common/mutex.h"
#include <string>
#include <thread>

#include "src/store/key_store.h"
#include "src/store/sqlite/connection.h"

namespace edihub::store::sqlite {

class GroupCommitter {
 public:
  // The committer for `path` shared by this process's stores, created with
  // its own connection on first use. Unavailable when it cannot be opened.
  static Result<std::shared_ptr<GroupCommitter>> for_path(const std::string& path, const StoreOptions& options);

  explicit GroupCommitter(std::unique_ptr<Connection> c);
  ~GroupCommitter();
  GroupCommitter(const GroupCommitter&) = delete;
  GroupCommitter& operator=(const GroupCommitter&) = delete;

  // Runs `work` in the next group and returns once that group has committed
  // (or `work`'s own error, or the commit's). Waits for the write lock at
  // most `lock_wait_ms` (then Transient "store busy").
  Status submit(const TransactionWork& work, int64_t lock_wait_ms);

  // Transactions committed and commits made so far (for benchmarks).
  int64_t transactions() const;
  int64_t commits() const;

 private:
  struct Item;
  void run();
  void commit_group(std::deque<Item*>& group);

  std::unique_ptr<Connection> c_;
  struct Parts;
  std::unique_ptr<Parts> parts_;  // the writer connection's statements
  mutable Mutex mu_;
  std::condition_variable wake_, done_;
  std::deque<Item*> queue_ GUARDED_BY(mu_);
  bool stopping_ GUARDED_BY(mu_) = false;
  int64_t transactions_ GUARDED_BY(mu_) = 0, commits_ GUARDED_BY(mu_) = 0;
  std::thread thread_;
};

}  // namespace edihub::store::sqlite
