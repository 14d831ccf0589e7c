// open_store(): the backend named by the URI's scheme.
#include <cctype>
#include <sstream>

#include "src/store/postgresql/store.h"
#include "src/store/sqlite/store.h"
#include "src/store/store.h"
#include "src/store/transaction.h"

namespace edihub::store {

std::string_view applied_name(Applied a) {
  switch (a) {
    case Applied::Inserted:
      return "inserted";
    case Applied::Replaced:
      return "replaced";
    case Applied::Cancelled:
      return "cancelled";
    case Applied::IgnoredOlder:
      return "ignored-older";
  }
  return "inserted";
}

Result<std::unique_ptr<Store>> open_store(const std::string& uri, StoreOptions options) {
  if (uri.rfind("postgresql://", 0) == 0 || uri.rfind("postgres://", 0) == 0)
    return postgresql::open_postgresql_store(uri, options);
  const std::string scheme = "sqlite:";
  if (uri.rfind(scheme, 0) != 0)
    return Status::invalid("unsupported store URI '" + uri +
                           "': expected sqlite:PATH[?synchronous=full|normal] or postgresql://USER@HOST:PORT/DB");
  std::string path = uri.substr(scheme.size());
  if (auto q = path.find('?'); q != std::string::npos) {
    std::istringstream params(path.substr(q + 1));
    path = path.substr(0, q);
    std::string kv;
    while (std::getline(params, kv, '&')) {
      auto eq = kv.find('=');
      std::string k = kv.substr(0, eq), v = eq == std::string::npos ? "" : kv.substr(eq + 1);
      if (k == "synchronous") {
        for (auto& ch : v) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        options.synchronous = v;
      } else if (k == "group_commit") {
        options.group_commit = v == "on" || v == "1" || v == "true";
      } else if (k == "busy_timeout_ms") {
        options.busy_timeout_ms = std::atoi(v.c_str());
      } else {
        return Status::invalid("unknown store option '" + k + "' in '" + uri + "'");
      }
    }
  }
  if (path.empty()) return Status::invalid("store URI '" + uri + "' has no path");
  return sqlite::open_sqlite_store(path, options);
}

}  // namespace edihub::store
