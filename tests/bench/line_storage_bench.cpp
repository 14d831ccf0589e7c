// What a document's lines cost on SQLite as rows (the contract today: one row
// of `invoice_lines` per line, migration 8) against the same lines as one JSON
// value in the document's row, read through a view of the same name and
// columns. A design question (issue 23): the 300 line rows are the largest
// cost edihub adds to a new AS2 or AS4 message.
//
// Both forms start from edihub's own schema (a store opened on a fresh file:
// every migration); the JSON form then adds `invoices.lines` and replaces the
// table `invoice_lines` by a view. Per form, on its own file:
//   write         one invoice of LINES lines per transaction (the document
//                 row and its lines, 50 rows per INSERT as the store does, or
//                 one row with the JSON), CPU per document
//   read          each document's lines by its number, in position order (what
//                 a back office reading one invoice does), CPU per document
//   item search   every line of one item across all documents (no index on
//                 item_id in either form: a scan), CPU per search
// synchronous=OFF: the CPU of the work, not the disk (the COMMIT's fsync is the
// same for both). A benchmark program, not a test: it prints figures and never
// judges them; exit status 1 only when an operation failed.
//
//   line_storage_bench [--documents N=2000] [--lines N=300] [--dir DIR]
#include <sqlite3.h>
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>

#include "src/store/document_sql.h"
#include "src/store/store.h"

namespace {

using edihub::store::open_store;

[[noreturn]] void die(const std::string& why) {
  std::fprintf(stderr, "line_storage_bench: %s\n", why.c_str());
  std::exit(1);
}

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

void exec(sqlite3* db, const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string why = sql.substr(0, 60) + ": " + (error != nullptr ? error : "?");
    sqlite3_free(error);
    die(why);
  }
}

sqlite3_stmt* prepare(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* q = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &q, nullptr) != SQLITE_OK)
    die(sql.substr(0, 60) + ": " + sqlite3_errmsg(db));
  return q;
}

void step_done(sqlite3* db, sqlite3_stmt* q) {
  if (sqlite3_step(q) != SQLITE_DONE) die(std::string("step: ") + sqlite3_errmsg(db));
  sqlite3_reset(q);
}

// One line's values, as the benchmark's 810s carry them.
struct Line {
  int64_t line_number = 0;
  std::string item_id;
  const char* item_id_type = nullptr;
  std::string quantity;
  const char* unit = nullptr;
  std::string unit_price;
  int64_t amount_minor = 0;
};

Line line_of(int document, int position) {
  const int item = (document * 31 + position) % 5000;
  char id[32];
  std::snprintf(id, sizeof id, "WID-%06d", item);
  return {position,
          id,
          "VP",
          std::to_string(1 + position % 12),
          "EA",
          std::to_string(1 + item % 90) + "." + std::to_string(10 + item % 90),
          int64_t{1 + position % 12} * 100};
}

std::string number_of(int document) {
  char n[32];
  std::snprintf(n, sizeof n, "INV-2026-%06d", (document * 7919) % 1000003);
  return n;
}

void json_string(std::string& out, std::string_view s) {
  out.push_back('"');
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);  // the benchmark's values have no control characters
  }
  out.push_back('"');
}

struct Figures {
  double write_us = 0, read_us = 0, search_us = 0;
  int64_t rows_read = 0, rows_found = 0;
};

// A fresh file with every migration (the contract's tables), opened with the
// C API; in the JSON form `invoices.lines` and the view replace the line table.
sqlite3* fresh_store(const std::string& path, bool json) {
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
  {
    auto store = open_store("sqlite:" + path);
    if (!store.is_ok()) die("open_store " + path + ": " + store.status().message());
  }
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) die("open " + path);
  exec(db, "PRAGMA foreign_keys=ON; PRAGMA synchronous=OFF");
  if (json) {
    exec(db,
         "ALTER TABLE invoices ADD COLUMN lines TEXT; DROP TABLE invoice_lines;"
         "CREATE VIEW invoice_lines AS SELECT i.partner_id, i.invoice_number, j.key + 1 AS position,"
         " j.value ->> 0 AS line_number, j.value ->> 1 AS item_id, j.value ->> 2 AS item_id_type,"
         " j.value ->> 3 AS quantity, j.value ->> 4 AS unit, j.value ->> 5 AS unit_price, j.value ->> 6 AS amount_minor"
         " FROM invoices i, json_each(i.lines) j");
  }
  return db;
}

constexpr int kRows = static_cast<int>(edihub::store::kLineRows);  // the store's rows per INSERT

std::string lines_json(int document, int lines) {
  std::string text = "[";
  for (int p = 1; p <= lines; ++p) {
    const Line l = line_of(document, p);
    if (p > 1) text.push_back(',');
    text.push_back('[');
    text += std::to_string(l.line_number);
    text.push_back(',');
    json_string(text, l.item_id);
    text.push_back(',');
    json_string(text, l.item_id_type);
    text.push_back(',');
    json_string(text, l.quantity);
    text.push_back(',');
    json_string(text, l.unit);
    text.push_back(',');
    json_string(text, l.unit_price);
    text.push_back(',');
    text += std::to_string(l.amount_minor);
    text.push_back(']');
  }
  text.push_back(']');
  return text;
}

// Lines first..first+kRows-1 of `document` bound to the batch INSERT.
void bind_rows(sqlite3_stmt* rows, const std::string& number, int document, int first, Line (&held)[kRows]) {
  sqlite3_bind_text(rows, 1, "ACME", -1, SQLITE_STATIC);
  sqlite3_bind_text(rows, 2, number.c_str(), -1, SQLITE_STATIC);
  for (int r = 0; r < kRows; ++r) {
    const int b = 3 + r * 8, position = first + r;  // --lines is a multiple of kRows
    held[r] = line_of(document, position);
    const Line& l = held[r];
    sqlite3_bind_int64(rows, b, position);
    sqlite3_bind_int64(rows, b + 1, l.line_number);
    sqlite3_bind_text(rows, b + 2, l.item_id.c_str(), -1, SQLITE_STATIC);
    sqlite3_bind_text(rows, b + 3, l.item_id_type, -1, SQLITE_STATIC);
    sqlite3_bind_text(rows, b + 4, l.quantity.c_str(), -1, SQLITE_STATIC);
    sqlite3_bind_text(rows, b + 5, l.unit, -1, SQLITE_STATIC);
    sqlite3_bind_text(rows, b + 6, l.unit_price.c_str(), -1, SQLITE_STATIC);
    sqlite3_bind_int64(rows, b + 7, l.amount_minor);
  }
}

// CPU us per document: its row and its lines in one transaction.
double write_documents(sqlite3* db, bool json, int documents, int lines) {
  const std::string columns =
      "partner_id, invoice_number, purpose, status, document_date, total_minor, source, created_at, updated_at";
  sqlite3_stmt* document =
      prepare(db, "INSERT INTO invoices (" + columns + (json ? ", lines" : "") +
                      ") VALUES (?1, ?2, 'original', 'active', '20261203', 0, 'x12', 0, 0" + (json ? ", ?3)" : ")"));
  // The store's own batch INSERT; bind_rows() binds a Line's seven values in its order.
  const edihub::business::DocumentType& invoice = edihub::business::invoice_type();
  if (invoice.line_fields.size() != 7)
    die("invoice lines have " + std::to_string(invoice.line_fields.size()) + " fields, not the 7 this benchmark binds");
  sqlite3_stmt* rows = json ? nullptr : prepare(db, edihub::store::document_sql(invoice, '?').lines);
  const double t0 = cpu_seconds();
  for (int d = 0; d < documents; ++d) {
    exec(db, "BEGIN");
    const std::string number = number_of(d);
    sqlite3_bind_text(document, 1, "ACME", -1, SQLITE_STATIC);
    sqlite3_bind_text(document, 2, number.c_str(), -1, SQLITE_STATIC);
    std::string text;
    if (json) {
      text = lines_json(d, lines);
      sqlite3_bind_text(document, 3, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
    }
    step_done(db, document);
    for (int p = 1; !json && p <= lines; p += kRows) {
      Line held[kRows];
      bind_rows(rows, number, d, p, held);
      step_done(db, rows);
    }
    exec(db, "COMMIT");
  }
  const double us = (cpu_seconds() - t0) * 1e6 / documents;
  sqlite3_finalize(document);
  sqlite3_finalize(rows);
  return us;
}

// CPU us per document: its lines by number, in position order.
double read_by_number(sqlite3* db, int documents, int64_t* lines_read) {
  sqlite3_stmt* read = prepare(db,
                               "SELECT position, line_number, item_id, quantity, unit_price, amount_minor"
                               " FROM invoice_lines WHERE partner_id = ?1 AND invoice_number = ?2 ORDER BY position");
  const double t0 = cpu_seconds();
  for (int d = 0; d < documents; ++d) {
    const std::string number = number_of(d);
    sqlite3_bind_text(read, 1, "ACME", -1, SQLITE_STATIC);
    sqlite3_bind_text(read, 2, number.c_str(), -1, SQLITE_STATIC);
    while (sqlite3_step(read) == SQLITE_ROW) {
      *lines_read += sqlite3_column_int64(read, 5) > 0;
      (void)sqlite3_column_text(read, 2);
    }
    sqlite3_reset(read);
  }
  const double us = (cpu_seconds() - t0) * 1e6 / documents;
  sqlite3_finalize(read);
  return us;
}

// CPU us per search: every line of one item, across all documents.
double search_by_item(sqlite3* db, int64_t* found) {
  sqlite3_stmt* search = prepare(db, "SELECT invoice_number, position, quantity FROM invoice_lines WHERE item_id = ?1");
  constexpr int kSearches = 5;
  const double t0 = cpu_seconds();
  for (int s = 0; s < kSearches; ++s) {
    char id[32];
    std::snprintf(id, sizeof id, "WID-%06d", 17 + s * 101);
    sqlite3_bind_text(search, 1, id, -1, SQLITE_TRANSIENT);
    while (sqlite3_step(search) == SQLITE_ROW) ++*found;
    sqlite3_reset(search);
  }
  const double us = (cpu_seconds() - t0) * 1e6 / kSearches;
  sqlite3_finalize(search);
  return us;
}

Figures run(const std::string& path, bool json, int documents, int lines) {
  sqlite3* db = fresh_store(path, json);
  Figures f;
  f.write_us = write_documents(db, json, documents, lines);
  f.read_us = read_by_number(db, documents, &f.rows_read);
  f.search_us = search_by_item(db, &f.rows_found);
  sqlite3_close(db);
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  int documents = 2000, lines = 300;
  std::string dir = std::filesystem::temp_directory_path().string();
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--documents") {
      documents = std::atoi(argv[i + 1]);
    } else if (flag == "--lines") {
      lines = std::atoi(argv[i + 1]);
    } else if (flag == "--dir") {
      dir = argv[i + 1];
    } else {
      die("unknown option " + flag + " (--documents N, --lines N, --dir DIR)");
    }
  }
  if (documents < 1 || lines < 1 || lines % kRows != 0)
    die("--documents >= 1, --lines a multiple of " + std::to_string(kRows));
  std::printf("document lines on SQLite %s, %d invoices of %d lines, CPU (synchronous=OFF)\n", sqlite3_libversion(),
              documents, lines);
  std::printf("  %-36s %12s %14s %16s\n", "form", "write/doc", "read by number", "search by item");
  const Figures rows = run(dir + "/edihub-line-rows.db", false, documents, lines);
  const Figures json = run(dir + "/edihub-line-json.db", true, documents, lines);
  if (rows.rows_read != json.rows_read || rows.rows_found != json.rows_found)
    die("the two forms read different rows (" + std::to_string(rows.rows_read) + "/" + std::to_string(json.rows_read) +
        ", " + std::to_string(rows.rows_found) + "/" + std::to_string(json.rows_found) + ")");
  auto row = [](const char* name, const Figures& f) {
    std::printf("  %-36s %9.0f us %11.0f us %13.0f us\n", name, f.write_us, f.read_us, f.search_us);
  };
  row("rows (invoice_lines, today)", rows);
  row("one JSON value + view invoice_lines", json);
  std::printf("  JSON / rows: write %.2fx, read %.2fx, search %.2fx (%lld lines read, %lld found per form)\n",
              json.write_us / rows.write_us, json.read_us / rows.read_us, json.search_us / rows.search_us,
              static_cast<long long>(rows.rows_read), static_cast<long long>(rows.rows_found));
  std::printf(
      "{\"documents\":%d,\"lines\":%d,\"rows_write_us\":%.1f,\"json_write_us\":%.1f,\"rows_read_us\":%.1f,"
      "\"json_read_us\":%.1f,\"rows_search_us\":%.1f,\"json_search_us\":%.1f}\n",
      documents, lines, rows.write_us, json.write_us, rows.read_us, json.read_us, rows.search_us, json.search_us);
  for (const char* name : {"/edihub-line-rows.db", "/edihub-line-json.db"})
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(dir + name + suffix);
  return 0;
}
