// A fresh SQLite store per test, in its own directory, removed afterwards.
#pragma once

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "src/store/store.h"

namespace edihub::test {

struct TempDb {
  std::string dir, uri;
  TempDb() {
    char tmpl[] = "/tmp/edihub-test-XXXXXX";
    dir = mkdtemp(tmpl);
    uri = "sqlite:" + dir + "/test.db";
  }
  ~TempDb() { std::filesystem::remove_all(dir); }
  // A handle whose clock runs `skew_ms` ahead: time passes without sleeping.
  std::unique_ptr<store::Store> open(int64_t skew_ms = 0) const {
    store::StoreOptions o;
    o.clock_skew_ms = skew_ms;
    auto s = store::open_store(uri, o);
    REQUIRE_MESSAGE(s.is_ok(), s.status().message());
    return std::move(s.value());
  }
};

}  // namespace edihub::test
