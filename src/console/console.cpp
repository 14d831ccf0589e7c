#include "src/console/console.h"

#include <Poco/Exception.h>
#include <Poco/Net/HTMLForm.h>
#include <Poco/Net/HTTPRequest.h>

#include <sstream>

#include "src/common/partner_text.h"
#include "src/console/html.h"
#include "src/console/pages.h"
#include "src/receivers/capture.h"

namespace edihub::console {

namespace {

using http::HttpAnswer;
using http::HttpRequest;

constexpr size_t kMaxFormBytes = size_t{16} * 1024;  // query and body each (the listener bounds the body too)

std::string path_of(const HttpRequest& r) { return r.target.substr(0, r.target.find('?')); }

// Every console answer: never cached, never framed, no script, no foreign form target.
HttpAnswer finish(HttpAnswer a) {
  a.headers.push_back({"Cache-Control", "no-store"});
  a.headers.push_back({"X-Content-Type-Options", "nosniff"});
  a.headers.push_back({"X-Frame-Options", "DENY"});
  a.headers.push_back({"Referrer-Policy", "same-origin"});
  a.headers.push_back({"Content-Security-Policy",
                       "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
                       "frame-ancestors 'none'; base-uri 'none'"});
  a.outcome = a.status < 400 ? Outcome::Processed : Outcome::Rejected;
  return a;
}

HttpAnswer html_answer(int status, const Frame& frame, const std::string& body) {
  HttpAnswer a;
  a.status = status;
  a.headers = {{"Content-Type", "text/html; charset=utf-8"}};
  a.body = page(frame, body);
  return finish(std::move(a));
}

HttpAnswer redirect(const std::string& to) {
  HttpAnswer a;
  a.status = 303;
  a.headers = {{"Location", to}, {"Content-Type", "text/plain; charset=utf-8"}};
  a.body = "see " + to + "\n";
  return finish(std::move(a));
}

HttpAnswer refusal(int status, const std::string& why) {
  return html_answer(status, {"Refused", "", "", "", ""}, "<p class=\"error-box\">" + html(why) + "</p>");
}

std::string with_notice(const std::string& to, int64_t audit_id) {
  return to + (to.find('?') == std::string::npos ? "?" : "&") + "notice=" + std::to_string(audit_id);
}

// A browser's POST says where its form came from: it must be this console
// (login CSRF, and a second line behind the token). Clients that send no
// Origin (curl, scripts) are judged by the token alone.
bool same_origin(const HttpRequest& r) {
  const std::string origin = r.header("Origin");
  if (origin.empty()) return true;
  const size_t scheme = origin.find("://");
  return scheme != std::string::npos && origin.substr(scheme + 3) == r.header("Host");
}

int64_t now_of(store::Store& store) {
  Result<int64_t> now = store.now_ms();
  return now.is_ok() ? now.value() : 0;
}

}  // namespace

std::string local_path(const std::string& to) {
  if (to.empty() || to[0] != '/' || (to.size() > 1 && (to[1] == '/' || to[1] == '\\')) || to.size() > 512 ||
      !is_printable(to, 512))
    return "/";
  return to;
}

Result<Form> parse_form(const HttpRequest& r) {
  if (r.body.size() > kMaxFormBytes) return Status::invalid("form too large");
  try {
    Poco::Net::HTTPRequest head(r.method, r.target, Poco::Net::HTTPMessage::HTTP_1_1);
    if (r.method == "POST") head.setContentType("application/x-www-form-urlencoded");
    std::istringstream body(r.body);
    Poco::Net::HTMLForm parsed;
    parsed.setFieldLimit(32);
    parsed.setValueLengthLimit(4096);
    parsed.load(head, body);
    // HTMLForm applies its limit to the query and to the body each: the whole form is bounded here.
    if (parsed.size() > 32) return Status::invalid("the form has more than 32 fields");
    Form out;
    for (const auto& [name, value] : parsed) out.emplace(name, value);
    return out;
  } catch (const std::exception&) {
    // In our words: POCO's text names its own internals, and may quote the body.
    return Status::invalid(
        "the form could not be read: a field name or value is too long, or it holds a "
        "malformed %-escape (up to 32 fields of 4096 bytes each)");
  }
}

std::string field(const Form& f, const std::string& name) {
  auto it = f.find(name);
  return it == f.end() ? std::string() : it->second;
}

int64_t positive_number(const std::string& text) {
  // Digits only: no sign, no spaces (strtoll would take " +5").
  if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos) return 0;
  const long long v = std::strtoll(text.c_str(), nullptr, 10);
  return v < 1 ? 0 : v;
}

Console::Console(Context context)
    : context_(std::move(context)),
      sessions_(context_.gateway->console_session_minutes, !context_.gateway->console_tls_cert.empty()) {}

std::optional<HttpAnswer> Console::on_head(const HttpRequest& head) const {
  const std::string path = path_of(head);
  if (head.method == "GET" && path == "/healthz") return http::text_answer(200, "ok", Outcome::Processed);
  if (head.method == "GET" && path == "/style.css") {
    HttpAnswer a;
    a.headers = {{"Content-Type", "text/css; charset=utf-8"}};
    a.body = stylesheet();
    HttpAnswer done = finish(std::move(a));
    for (auto& [name, value] : done.headers)
      if (name == "Cache-Control") value = "max-age=3600";
    return done;
  }
  if (head.method != "GET" && head.method != "POST")
    return finish(http::text_answer(405, "the console answers GET and POST only", Outcome::Rejected));
  return std::nullopt;
}

HttpAnswer Console::handle(const HttpRequest& request) {
  std::string error;
  store::Store* store = context_.store(&error);
  if (store == nullptr) return refusal(503, "the store is unavailable: " + error);
  Result<Form> form = parse_form(request);
  if (!form.is_ok()) return refusal(400, form.status().message());
  const std::string path = path_of(request);
  if (request.method == "POST" && !same_origin(request))
    return refusal(
        403, "a form posted from another site (Origin " + partner_text(request.header("Origin"), 100) + ") is refused");
  if (path == "/login") return login(request, *store, form.value());

  Result<std::optional<Session>> session = sessions_.current(store->console(), request);
  if (!session.is_ok()) return refusal(503, "the store is unavailable: " + session.status().message());
  if (!session.value()) {
    if (request.method == "GET") return redirect("/login");
    return refusal(403, "log in first: this session has ended");
  }
  const Session& s = *session.value();
  if (request.method == "POST") {
    if (!Sessions::csrf_ok(s, field(form.value(), "csrf"))) {
      store->console()
          .audit({0, 0, s.info.operator_name, "refused", partner_text(path, 200),
                  "the form's CSRF token was missing or wrong", partner_text(request.peer, 64)})
          .ignore();
      return refusal(403, "this form's CSRF token is missing or wrong: reload the page and try again");
    }
    if (path == "/logout") {
      sessions_.log_out(store->console(), s).ignore();  // the cookie is cleared either way
      HttpAnswer a = redirect("/login");
      a.headers.push_back({"Set-Cookie", sessions_.cleared_cookie()});
      return a;
    }
    return act(path, request, *store, s, form.value());
  }
  if (path.rfind("/captures/", 0) == 0) return download(positive_number(path.substr(10)), request, *store, s);

  View view{*store, context_, s, form.value(), now_of(*store), hourly_};
  Result<Rendered> r = Status::not_found("");
  if (path == "/")
    r = dashboard_page(view);
  else if (path == "/messages")
    r = messages_page(view);
  else if (path.rfind("/messages/", 0) == 0 && positive_number(path.substr(10)) > 0)
    r = message_page(view, positive_number(path.substr(10)));
  else if (path == "/keys")
    r = keys_page(view);
  else if (path == "/outbox")
    r = outbox_page(view);
  else if (path == "/partners")
    r = partners_page(view);
  else if (path == "/audit")
    r = audit_page(view);
  else
    r = Rendered{404, "Not found", "", "<p>No such page: " + html(path, 200) + "</p>"};
  const Frame frame{r.is_ok() ? r->title : "Unavailable", r.is_ok() ? r->current : "", s.info.operator_name,
                    s.info.role, s.info.csrf};
  if (!r.is_ok()) return html_answer(503, frame, "<p class=\"error-box\">" + html(r.status().message()) + "</p>");
  return html_answer(r->status, frame, r->body);
}

HttpAnswer Console::login(const HttpRequest& request, store::Store& store, const Form& form) {
  const Frame frame{"Log in", "", "", "", ""};
  if (request.method == "GET") return html_answer(200, frame, login_page_body(""));
  const std::string name = field(form, "name");
  int refused_in_window = 0;
  Result<std::string> token =
      sessions_.log_in(store.console(), now_of(store), name, field(form, "password"), request.peer, &refused_in_window);
  const std::string who = partner_text(name, 64), peer = partner_text(request.peer, 64);
  if (!token.is_ok()) {
    const bool throttled = token.status().kind() == Status::Kind::Transient;
    // A blocked address gets one audit row per window, not one per try: an
    // unauthenticated client cannot make the store write without bound.
    if (!throttled || refused_in_window == 1)
      store.console()
          .audit({0, 0, who, "log in", "console",
                  "refused: " + token.status().message() +
                      (throttled ? " (the address's further tries in this window are refused without a row)" : ""),
                  peer})
          .ignore();
    return html_answer(throttled ? 429 : 401, frame, login_page_body(token.status().message()));
  }
  store.console().audit({0, 0, who, "log in", "console", "ok", peer}).ignore();
  HttpAnswer a = redirect("/");
  a.headers.push_back({"Set-Cookie", sessions_.cookie(token.value())});
  return a;
}

HttpAnswer Console::act(const std::string& path, const HttpRequest& request, store::Store& store, const Session& s,
                        const Form& form) {
  const std::string peer = partner_text(request.peer, 64), back = local_path(field(form, "return"));
  std::string action, target, result;
  bool ok = false;
  if (!s.can_act()) {
    store.console()
        .audit({0, 0, s.info.operator_name, partner_text(path, 100), "-", "refused: the viewer role cannot act", peer})
        .ignore();
    return refusal(403, "your role (viewer) can look but not act: ask an operator");
  }
  const int64_t id = positive_number(field(form, "id"));
  if (path == "/actions/outbox-retry" || path == "/actions/outbox-cancel") {
    const bool retry = path == "/actions/outbox-retry";
    action = retry ? "retry outbox row" : "cancel outbox row";
    target = "outbox " + std::to_string(id);
    Result<bool> done = retry ? store.outbox_retry_now(id) : store.outbox_cancel(id);
    ok = done.is_ok() && done.value();
    result = !done.is_ok() ? "failed: " + done.status().message()
             : ok          ? (retry ? "due now" : "cancelled: it will not be sent")
                  : "not done: only pending and failed rows can be " + std::string(retry ? "retried" : "cancelled");
  } else if (path == "/actions/resend") {
    action = "resend";
    target = "outbox " + std::to_string(id);
    result = resend(store, id, &ok);
  } else if (path == "/actions/release-key") {
    const store::MessageKey key{field(form, "partner"), field(form, "message_id")};
    action = "release key";
    target = partner_text(key.partner_id, 100) + " " + partner_text(key.message_id, 300);
    result = release_key(store, key, &ok);
  } else {
    return refusal(404, "no such action: " + partner_text(path, 100));
  }
  Result<int64_t> audited = store.console().audit({0, 0, s.info.operator_name, action, target, result, peer});
  if (!audited.is_ok())
    return refusal(503, result + "; but the audit row was not written: " + audited.status().message());
  return redirect(with_notice(back, audited.value()));
}

std::string Console::resend(store::Store& store, int64_t id, bool* ok) {
  Result<std::optional<store::OutboxEntry>> row = store.outbox_entry(id);
  if (!row.is_ok()) return "failed: " + row.status().message();
  if (!row.value()) return "not done: no outbox row " + std::to_string(id);
  const store::OutboxEntry& e = *row.value();
  if (e.item.kind == "document") return "not done: documents to the back office are retried, not resent";
  if (e.state == "pending" || e.state == "failed") {
    Result<bool> due = store.outbox_retry_now(id);
    *ok = due.is_ok() && due.value();
    return *ok ? "not sent yet: made due now" : "not done: the row is being sent right now";
  }
  if (e.state == "in-flight") return "not done: the row is being sent right now";
  // Sent, delivered or cancelled: the same acknowledgment again, as a new row.
  // AS2 and AS4 messages need a Message-ID of their own; the EDI inside is unchanged.
  store::OutboxItem again = e.item;
  if (again.channel == "as2" || again.channel == "as4") {
    std::string base = again.message_id;
    if (base.size() > 2 && base.front() == '<' && base.back() == '>') base = base.substr(1, base.size() - 2);
    again.message_id = "<resend-" + std::to_string(now_of(store)) + "." + base + ">";
  }
  Status queued = store.enqueue(again);
  if (!queued.is_ok()) return "failed: " + queued.message();
  *ok = true;
  return "queued again as " + partner_text(again.message_id, 300);
}

std::string Console::release_key(store::Store& store, const store::MessageKey& key, bool* ok) {
  const int max_failures = context_.gate->options().max_failures;
  std::string result;
  // Through the gate, like every message: the key is read and changed in one
  // transaction, fenced by its attempt count.
  Status s = context_.gate->run(store, [&](store::Transaction& tx) -> Result<gate::Step> {
    ASSIGN_OR_RETURN(std::optional<store::KeyRecord> k, tx.read_key(key));
    if (!k) {
      result = "not done: no such key";
      return gate::Step::Rollback;
    }
    if (k->state != store::KeyState::Failed || k->failures < max_failures) {
      result = "not done: the key is " + std::string(store::state_name(k->state)) + " with " +
               std::to_string(k->failures) + " failures, not poison";
      return gate::Step::Rollback;
    }
    ASSIGN_OR_RETURN(bool forgiven, tx.forgive_key(key, k->attempts));
    *ok = forgiven;
    result = *ok ? "released: the partner's next retransmission is processed" : "not done: the key changed meanwhile";
    return *ok ? gate::Step::Commit : gate::Step::Rollback;
  });
  if (!s.is_ok()) {
    *ok = false;
    return "failed: " + s.message();
  }
  return result;
}

HttpAnswer Console::download(int64_t capture_id, const HttpRequest& request, store::Store& store, const Session& s) {
  const std::string peer = partner_text(request.peer, 64), target = "capture " + std::to_string(capture_id);
  if (!s.can_act()) {
    store.console().audit({0, 0, s.info.operator_name, "download", target, "refused: the viewer role", peer}).ignore();
    return refusal(403, "your role (viewer) cannot download captures: they hold the partner's payload");
  }
  Result<std::optional<store::Capture>> c = store.read_capture(capture_id);
  if (!c.is_ok()) return refusal(503, "the store is unavailable: " + c.status().message());
  if (!c.value()) return refusal(404, "no capture " + std::to_string(capture_id) + " (it may have been purged)");
  Result<int64_t> audited =
      store.console().audit({0, 0, s.info.operator_name, "download", target,
                             std::to_string(c.value()->head.size() + c.value()->body.size()) + " bytes", peer});
  if (!audited.is_ok())
    return refusal(503, "not downloaded: the audit row was not written: " + audited.status().message());
  HttpAnswer a;
  a.headers = {{"Content-Type", "application/octet-stream"},
               {"Content-Disposition", "attachment; filename=\"capture-" + std::to_string(capture_id) + ".http\""}};
  a.body = receivers::capture_file(*c.value());  // credentials redacted, the partner named
  return finish(std::move(a));
}

}  // namespace edihub::console
