// The console's pages, each one function from what the store says to HTML.
// Every value shown passes html() (src/console/html.h).
#pragma once

#include <cstdint>
#include <string>

#include "src/common/status.h"
#include "src/console/charts.h"
#include "src/console/console.h"

namespace edihub::console {

struct View {
  store::Store& store;
  const Context& context;
  const Session& session;
  const Form& query;
  int64_t now_ms;
  HourlyCache& hourly;  // the dashboard's counts of past hours
};

struct Rendered {
  int status = 200;
  std::string title, current;  // current: the navigation entry to mark
  std::string body;
};

Result<Rendered> dashboard_page(const View& v);
Result<Rendered> messages_page(const View& v);
Result<Rendered> message_page(const View& v, int64_t id);
Result<Rendered> keys_page(const View& v);
Result<Rendered> outbox_page(const View& v);
Result<Rendered> partners_page(const View& v);
Result<Rendered> audit_page(const View& v);
std::string login_page_body(const std::string& error);

// The notice above a page after an action: its audit row (?notice=ID).
std::string notice_of(const View& v);

}  // namespace edihub::console
