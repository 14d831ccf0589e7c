#include "src/store/sqlite/group_commit.h"

#include <map>

#include "src/store/sqlite/transaction.h"
#include "src/common/mutex.h"

namespace edihub::store::sqlite {

namespace {
// At most this many transactions in one COMMIT: the lock is held long enough
// for a group, never for a flood.
constexpr size_t kMaxGroup = 64;
}  // namespace

struct GroupCommitter::Item {
  const TransactionWork* work;
  int64_t lock_wait_ms;
  Status result;
  bool done = false;
};

struct GroupCommitter::Parts {
  explicit Parts(Connection& c) : keys(c), business(c), records(c) {}
  Keys keys;
  Business business;
  Records records;
};

Result<std::shared_ptr<GroupCommitter>> GroupCommitter::for_path(const std::string& path, const StoreOptions& options) {
  static Mutex registry_mu;
  static std::map<std::string, std::weak_ptr<GroupCommitter>> registry;
  MutexLock lock(registry_mu);
  if (auto existing = registry[path].lock()) return existing;
  ASSIGN_OR_RETURN(std::unique_ptr<Connection> c, open_connection(path, options));
  auto committer = std::make_shared<GroupCommitter>(std::move(c));
  registry[path] = committer;
  return committer;
}

GroupCommitter::GroupCommitter(std::unique_ptr<Connection> c)
    : c_(std::move(c)), parts_(std::make_unique<Parts>(*c_)), thread_([this] { run(); }) {}

GroupCommitter::~GroupCommitter() {
  {
    MutexLock lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

Status GroupCommitter::submit(const TransactionWork& work, int64_t lock_wait_ms) {
  Item item{&work, lock_wait_ms, Status::ok()};
  UniqueLock lock(mu_);
  queue_.push_back(&item);
  wake_.notify_one();
  done_.wait(lock.native(), [&]() REQUIRES(mu_) { return item.done; });
  return item.result;
}

int64_t GroupCommitter::transactions() const {
  MutexLock lock(mu_);
  return transactions_;
}

int64_t GroupCommitter::commits() const {
  MutexLock lock(mu_);
  return commits_;
}

void GroupCommitter::run() {
  while (true) {
    std::deque<Item*> group;
    {
      UniqueLock lock(mu_);
      wake_.wait(lock.native(), [&]() REQUIRES(mu_) { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left
      while (!queue_.empty() && group.size() < kMaxGroup) {
        group.push_back(queue_.front());
        queue_.pop_front();
      }
    }
    commit_group(group);
    {
      MutexLock lock(mu_);
      for (Item* i : group) i->done = true;
    }
    done_.notify_all();
  }
}

void GroupCommitter::commit_group(std::deque<Item*>& group) {
  int64_t wait = 0;
  for (Item* i : group) wait = std::max(wait, i->lock_wait_ms);
  Status begun = c_->begin(wait);
  if (!begun.is_ok()) {
    for (Item* i : group) i->result = begun;
    return;
  }
  int kept = 0;
  for (Item* i : group) {
    // Each its own savepoint: a failure undoes its writes only.
    Status s = c_->exec("SAVEPOINT message", "savepoint");
    if (s.is_ok()) {
      SqliteTransaction tx(parts_->keys, parts_->business, parts_->records, c_->clock_ms());
      try {
        s = (*i->work)(tx);
      } catch (const std::exception& e) {  // work returns values; this is the last line, not the path
        s = Status::transient(std::string("transaction failed: ") + e.what());
      }
      if (!s.is_ok()) (void)c_->exec("ROLLBACK TO message", "rollback to savepoint").is_ok();
      Status released = c_->exec("RELEASE message", "release savepoint");
      if (s.is_ok() && !released.is_ok()) s = released;
    }
    i->result = s;
    if (s.is_ok()) ++kept;
    if (sqlite3_get_autocommit(c_->db())) {
      // SQLite rolled the whole transaction back (disk full, I/O error):
      // nothing of this group stands, and nothing more may run outside it.
      for (Item* j : group)
        if (j->result.is_ok() || j == i)
          j->result = Status::transient("the group's transaction was rolled back: " + s.message());
      return;
    }
  }
  Status committed = c_->commit();
  if (!committed.is_ok()) {
    c_->rollback();
    // Nothing of this group is durable: no one may answer positively.
    for (Item* i : group)
      if (i->result.is_ok()) i->result = committed;
    return;
  }
  MutexLock lock(mu_);
  transactions_ += kept;
  ++commits_;
}

}  // namespace edihub::store::sqlite
