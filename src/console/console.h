// The operator console: a web application on a listener of its own
// (<console>), server-rendered HTML. Pages read the store (messages,
// one message with its receipts, keys, outbox, partners, audit, a
// dashboard); actions (resend an acknowledgment, retry or cancel an outbox
// row, release a poison key, download a capture) need the operator role,
// a CSRF token, and are written to the audit table. A key is released
// through the gate, and no action books a document: the partner's next
// retransmission is what the gate processes.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/config/gateway.h"
#include "src/config/partners.h"
#include "src/console/charts.h"
#include "src/console/session.h"
#include "src/gate/gate.h"
#include "src/http/message.h"
#include "src/identity/credentials.h"
#include "src/store/store.h"

namespace edihub::console {

struct Context {
  const config::Gateway* gateway = nullptr;
  const config::Partners* partners = nullptr;
  gate::Gate* gate = nullptr;
  std::vector<identity::CertificateInUse> certificates;
  // The calling thread's store connection, or null with the reason.
  std::function<store::Store*(std::string* error)> store;
};

// A request's form fields (the query of a GET, the url-encoded body of a
// POST), first value of each name.
using Form = std::map<std::string, std::string>;
// The request's form: POCO's HTMLForm decodes it (+ as space, %XX), bounded
// in size, fields and lengths; Invalid when it cannot be read.
Result<Form> parse_form(const http::HttpRequest& request);
// A local path to go back to after an action ("/" for anything that could
// leave this site: another host, a scheme, a control byte).
std::string local_path(const std::string& to);
// The field called `name`, or empty.
std::string field(const Form& form, const std::string& name);
// `text` as a number above 0 (an id, a page cursor), or 0.
int64_t positive_number(const std::string& text);

class Console {
 public:
  explicit Console(Context context);

  // On the I/O thread, from the head alone: the style sheet, /healthz, a
  // refusal (unknown path, wrong method, a body where none belongs); nullopt
  // to hand the request to a worker.
  std::optional<http::HttpAnswer> on_head(const http::HttpRequest& head) const;
  // On a worker: the page or the action.
  http::HttpAnswer handle(const http::HttpRequest& request);

 private:
  http::HttpAnswer login(const http::HttpRequest& request, store::Store& store, const Form& form);
  http::HttpAnswer act(const std::string& path, const http::HttpRequest& request, store::Store& store,
                       const Session& session, const Form& form);
  http::HttpAnswer download(int64_t capture_id, const http::HttpRequest& request, store::Store& store,
                            const Session& session);
  // What an action did, for the audit row and the page after it.
  std::string resend(store::Store& store, int64_t outbox_id, bool* ok);
  std::string release_key(store::Store& store, const store::MessageKey& key, bool* ok);

  Context context_;
  Sessions sessions_;
  HourlyCache hourly_;
};

}  // namespace edihub::console
