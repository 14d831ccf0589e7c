// Mutexes the compiler checks: clang's thread-safety analysis
// (-Wthread-safety, on in every clang build) proves that each member marked
// GUARDED_BY(mu_) is touched only with mu_ held, and that a function marked
// REQUIRES(mu_) is only called so. Outside clang the annotations are nothing.
//
//   Mutex mu_;
//   int64_t count_ GUARDED_BY(mu_) = 0;
//   void add() { MutexLock lock(mu_); ++count_; }
//
// A condition variable waits on UniqueLock::native(); its predicate, a lambda
// the analysis cannot see called under the lock, says so: [&]() REQUIRES(mu_) {...}.
#pragma once

#include <mutex>

#if defined(__clang__)
#define EDIHUB_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define EDIHUB_THREAD_ANNOTATION(x)
#endif

#define CAPABILITY(x) EDIHUB_THREAD_ANNOTATION(capability(x))
#define SCOPED_CAPABILITY EDIHUB_THREAD_ANNOTATION(scoped_lockable)
#define GUARDED_BY(x) EDIHUB_THREAD_ANNOTATION(guarded_by(x))
#define PT_GUARDED_BY(x) EDIHUB_THREAD_ANNOTATION(pt_guarded_by(x))
#define REQUIRES(...) EDIHUB_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define ACQUIRE(...) EDIHUB_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define RELEASE(...) EDIHUB_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define EXCLUDES(...) EDIHUB_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))

namespace edihub {

class CAPABILITY("mutex") Mutex {
 public:
  void lock() ACQUIRE() { m_.lock(); }
  void unlock() RELEASE() { m_.unlock(); }
  std::mutex& native() { return m_; }

 private:
  std::mutex m_;
};

// Holds a Mutex for its scope.
class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& m) ACQUIRE(m) : m_(m) { m_.lock(); }
  ~MutexLock() RELEASE() { m_.unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex& m_;
};

// Holds a Mutex for its scope, for a condition variable's wait (native())
// and for code that lets it go for a while (unlock(), then lock()).
class SCOPED_CAPABILITY UniqueLock {
 public:
  explicit UniqueLock(Mutex& m) ACQUIRE(m) : lock_(m.native()) {}
  ~UniqueLock() RELEASE() {}
  void lock() ACQUIRE() { lock_.lock(); }
  void unlock() RELEASE() { lock_.unlock(); }
  std::unique_lock<std::mutex>& native() { return lock_; }

 private:
  std::unique_lock<std::mutex> lock_;
};

}  // namespace edihub
