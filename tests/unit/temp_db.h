// A fresh store per test, removed afterwards: SQLite in its own directory,
// or, when EDIHUB_TEST_PG names a server ("postgresql://user@host:port",
// tests/integration/pg_store_test.sh starts a private one), a database of
// its own on it. The contract tests run unchanged on both. And a message-log
// row to write in one.
#pragma once

#include <doctest/doctest.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "src/store/store.h"

namespace edihub::test {

// The PostgreSQL server the tests run on, or empty for SQLite.
inline std::string pg_server() {
  const char* v = std::getenv("EDIHUB_TEST_PG");
  return v == nullptr ? "" : v;
}
inline bool on_postgresql() { return !pg_server().empty(); }

struct TempDb {
  std::string dir, uri, database;
  TempDb() {
    char tmpl[] = "/tmp/edihub-test-XXXXXX";
    dir = mkdtemp(tmpl);
    if (!on_postgresql()) {
      uri = "sqlite:" + dir + "/test.db";
      return;
    }
    static std::atomic<int> counter{0};
    database = "edihub_test_" + std::to_string(getpid()) + "_" + std::to_string(++counter);
    admin("CREATE DATABASE " + database);
    uri = pg_server() + "/" + database;
  }
  ~TempDb() {
    if (!database.empty()) admin("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
    std::filesystem::remove_all(dir);
  }
  // A handle whose clock runs `skew_ms` ahead: time passes without sleeping.
  std::unique_ptr<store::Store> open(int64_t skew_ms = 0) const {
    store::StoreOptions o;
    o.clock_skew_ms = skew_ms;
    auto s = store::open_store(uri, o);
    REQUIRE_MESSAGE(s.is_ok(), s.status().message());
    return std::move(s.value());
  }

 private:
  static void admin(const std::string& sql) {
    PGconn* c = PQconnectdb((pg_server() + "/postgres").c_str());
    REQUIRE_MESSAGE(PQstatus(c) == CONNECTION_OK, PQerrorMessage(c));
    PGresult* r = PQexec(c, sql.c_str());
    const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    const std::string why = PQresultErrorMessage(r);
    PQclear(r);
    PQfinish(c);
    REQUIRE_MESSAGE(ok, why);
  }
};

// A message-log row from acme over HTTP.
inline store::MessageLog log_row(Outcome outcome, const std::string& transport_id = "",
                                 const std::string& protocol = "as2") {
  store::MessageLog row;
  row.partner_id = "acme";
  row.protocol = protocol;
  row.transport = "http";
  row.transport_id = transport_id;
  row.outcome = outcome;
  return row;
}

}  // namespace edihub::test
