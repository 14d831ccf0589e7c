// The operator console in-process: escaping, charts, and the request flow
// (login, pages, CSRF, roles) on a real SQLite store.
#include <doctest/doctest.h>

#include "src/console/charts.h"
#include "src/console/console.h"
#include "src/console/findings.h"
#include "src/console/html.h"
#include "src/crypto/password.h"
#include "tests/unit/temp_db.h"

using namespace edihub;
using http::HttpAnswer;
using http::HttpRequest;

namespace {

std::string header(const HttpAnswer& a, const std::string& name) {
  for (const auto& [n, v] : a.headers)
    if (n == name) return v;
  return "";
}

struct Fixture {
  test::TempDb db;
  std::unique_ptr<store::Store> store = db.open();
  config::Gateway gateway = config::Gateway::defaults();
  config::Partners partners;
  gate::Gate gate{gate::GateOptions{}};
  console::Console app{context()};

  console::Context context() {
    gateway.console_port = 0;
    console::Context c;
    c.gateway = &gateway;
    c.partners = &partners;
    c.gate = &gate;
    c.store = [this](std::string*) { return store.get(); };
    return c;
  }
  HttpAnswer request(const std::string& method, const std::string& target, const std::string& body = "",
                     const std::string& cookie = "", const std::string& origin = "") {
    HttpRequest r;
    r.method = method;
    r.target = target;
    r.body = body;
    r.peer = "127.0.0.1";
    r.headers.push_back({"Host", "127.0.0.1:8443"});
    if (!cookie.empty()) r.headers.push_back({"Cookie", cookie});
    if (!origin.empty()) r.headers.push_back({"Origin", origin});
    return app.handle(r);
  }
  // Logs in: the cookie to send.
  std::string log_in(const std::string& name, const std::string& role) {
    REQUIRE(store->console().put_operator({name, crypto::hash_password("secret-pass", 1000), role, 0}).is_ok());
    HttpAnswer a = request("POST", "/login", "name=" + name + "&password=secret-pass");
    REQUIRE(a.status == 303);
    const std::string set = header(a, "Set-Cookie");
    return set.substr(0, set.find(';'));
  }
  std::string csrf(const std::string& cookie) {
    const std::string page = request("GET", "/", "", cookie).body;
    const size_t at = page.find("name=\"csrf\" value=\"");
    REQUIRE(at != std::string::npos);
    return page.substr(at + 19, 32);
  }
};

// A processed AS2 message's row in the message log, from acme.
store::MessageLog as2_row(const std::string& message_id) {
  store::MessageLog row = test::log_row(Outcome::Processed, message_id);
  row.message_id = "as2:" + message_id;
  return row;
}

}  // namespace

TEST_CASE("console html: markup, quotes and control bytes from a partner are text") {
  CHECK(console::html("<script>alert('x')</script>") == "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
  CHECK(console::html("a\"b&c") == "a&quot;b&amp;c");
  CHECK(console::html("line\r\nbreak\xff") == "line\\x0D\\x0Abreak\\xFF");
  CHECK(console::html(std::string(5000, 'x'), 10).size() <= 13);
  CHECK(console::url("<a b>&c=d") == "%3Ca%20b%3E%26c%3Dd");
  CHECK(console::link("/messages?q=" + console::url("\"><x"), "\"><x") ==
        "<a href=\"/messages?q=%22%3E%3Cx\">&quot;&gt;&lt;x</a>");
}

TEST_CASE("console charts: one chart per partner, the name escaped, bars per outcome") {
  const int64_t now_hour = 500000;
  std::vector<store::HourCount> counts = {{"<b>evil</b>", "processed", now_hour, 3},
                                          {"<b>evil</b>", "rejected", now_hour, 1},
                                          {"acme", "processed", now_hour - 1000, 9}};  // outside the window
  const std::string svg = console::hourly_charts(counts, now_hour, 168);
  CHECK(svg.find("<b>") == std::string::npos);
  CHECK(svg.find("&lt;b&gt;evil&lt;/b&gt; - 4 messages") != std::string::npos);
  CHECK(svg.find("acme") == std::string::npos);
  CHECK(svg.find("rejected: 1") != std::string::npos);
  CHECK(console::outcome_mix(counts).find("processed 12 (92.3%)") != std::string::npos);
  CHECK(console::hourly_charts({}, now_hour, 168).find("No messages") != std::string::npos);
}

TEST_CASE("console flow: login, pages behind it, CSRF on every POST, viewers cannot act") {
  Fixture f;
  CHECK(f.request("GET", "/").status == 303);  // to the login page
  CHECK(header(f.request("GET", "/messages"), "Location") == "/login");
  CHECK(f.request("POST", "/actions/resend", "id=1").status == 403);
  HttpAnswer wrong = f.request("POST", "/login", "name=nobody&password=x");
  CHECK(wrong.status == 401);
  CHECK(wrong.body.find("wrong name or password") != std::string::npos);
  CHECK(header(wrong, "Set-Cookie").empty());
  // A form posted from another site is refused before anything else, the login form included.
  HttpAnswer cross = f.request("POST", "/login", "name=alice&password=secret-pass", "", "https://evil.example");
  CHECK(cross.status == 403);
  CHECK(cross.body.find("Origin https://evil.example") != std::string::npos);

  const std::string cookie = f.log_in("alice", "operator");
  HttpAnswer dash = f.request("GET", "/", "", cookie);
  CHECK(dash.status == 200);
  CHECK(header(dash, "Content-Security-Policy").find("default-src 'none'") == 0);
  for (const char* page : {"/messages", "/keys?state=poison", "/outbox", "/partners", "/audit"})
    CHECK_MESSAGE(f.request("GET", page, "", cookie).status == 200, page);
  CHECK(f.request("GET", "/messages/999", "", cookie).status == 404);
  CHECK(f.request("GET", "/nowhere", "", cookie).status == 404);

  // Actions: a wrong token is refused; the right one acts (here: no such row) and is audited.
  CHECK(f.request("POST", "/actions/resend", "id=1&csrf=" + std::string(32, '0'), cookie).status == 403);
  const std::string token = f.csrf(cookie);
  CHECK(f.request("POST", "/actions/resend", "id=1&csrf=" + token, cookie, "https://127.0.0.1:8443").status == 303);
  HttpAnswer acted = f.request("POST", "/actions/resend", "id=1&return=//evil.example/&csrf=" + token, cookie);
  CHECK(acted.status == 303);
  CHECK(header(acted, "Location").rfind("/?notice=", 0) == 0);  // never another site
  auto trail = f.store->console().audit_trail(10).value();
  REQUIRE(trail.size() >= 3);
  CHECK(trail[0].action == "resend");
  CHECK(trail[0].result == "not done: no outbox row 1");
  CHECK(trail[2].action == "refused");

  // Logging out ends the session in the store.
  CHECK(f.request("POST", "/logout", "csrf=" + token, cookie).status == 303);
  CHECK(f.request("GET", "/", "", cookie).status == 303);

  const std::string viewer = f.log_in("bob", "viewer");
  HttpAnswer refused = f.request("POST", "/actions/outbox-cancel", "id=1&csrf=" + f.csrf(viewer), viewer);
  CHECK(refused.status == 403);
  CHECK(refused.body.find("viewer") != std::string::npos);
  CHECK(f.request("GET", "/captures/1", "", viewer).status == 403);
}

TEST_CASE("console hourly cache: past hours are counted once, the last two hours every time") {
  test::TempDb db;
  auto now_store = db.open();
  auto past_store = db.open(-5 * 3600 * 1000);  // its clock 5 hours behind: rows of a past hour
  // Interchanges: what the dashboard counts.
  const store::MessageLog row = test::log_row(Outcome::Processed, "", "x12");
  REQUIRE(past_store->log({row, row}).is_ok());
  const int64_t now_hour = now_store->now_ms().value() / 3600000;
  auto total = [](const std::vector<store::HourCount>& counts) {
    int64_t n = 0;
    for (const auto& c : counts) n += c.messages;
    return n;
  };
  console::HourlyCache cache;
  CHECK(total(cache.counts(now_store->console(), now_hour - 10, now_hour).value()) == 2);
  REQUIRE(past_store->log({row}).is_ok());      // a past hour changing (it does not, but by purge): not seen
  REQUIRE(now_store->log({row, row}).is_ok());  // this hour: seen
  CHECK(total(cache.counts(now_store->console(), now_hour - 10, now_hour).value()) == 4);
  CHECK(total(console::HourlyCache().counts(now_store->console(), now_hour - 10, now_hour).value()) == 5);
  CHECK(cache.counts(now_store->console(), now_hour - 3, now_hour).value().size() == 1);  // a shorter window
}

TEST_CASE("console: a partner's credentials in a capture are never shown nor downloaded") {
  Fixture f;
  const std::string head =
      "POST /as2 HTTP/1.1\r\nAS2-From: ACMESUPPLY\r\nAuthorization: Basic YWNtZTpzM2NyZXQ=\r\n\r\n";
  int64_t capture = 0;
  // As a store written before redaction would hold it.
  REQUIRE(
      f.store
          ->transact(
              [&](store::Transaction& tx) -> Status {
                Result<int64_t> id = tx.archive({"acme", "as2", "as2:<c@x>", crypto::RawDigest::of("x"), head, "body"});
                if (!id.is_ok()) return id.status();
                capture = id.value();
                store::MessageLog row = as2_row("<c@x>");
                row.capture_id = capture;
                return tx.log({row});
              },
              1000)
          .is_ok());
  for (const char* role : {"viewer", "operator"}) {
    const std::string cookie = f.log_in(std::string("u-") + role, role);
    HttpAnswer page = f.request("GET", "/messages/1", "", cookie);
    REQUIRE(page.status == 200);
    CHECK(page.body.find("Transport headers") != std::string::npos);
    CHECK(page.body.find("Authorization: Basic [redacted]") != std::string::npos);
    CHECK(page.body.find("YWNtZTpzM2NyZXQ") == std::string::npos);
  }
  const std::string op = f.log_in("u-op2", "operator");
  HttpAnswer file = f.request("GET", "/captures/" + std::to_string(capture), "", op);
  REQUIRE(file.status == 200);
  CHECK(file.body.rfind("EDIHUB-CAPTURE partner=acme\r\nPOST /as2", 0) == 0);
  CHECK(file.body.find("YWNtZTpzM2NyZXQ") == std::string::npos);
}

TEST_CASE("console truths: interchanges counted, bad dates refused, search text trimmed, forms in our words") {
  Fixture f;
  const store::MessageLog transport = as2_row("<t1@acme>");
  std::vector<store::MessageLog> rows{transport};
  for (int i = 0; i < 5; ++i) {
    store::MessageLog ic = transport;
    ic.protocol = "x12";
    ic.message_id = "x12:ACMESUPPLY:00000000" + std::to_string(i);
    ic.outcome = Outcome::Rejected;
    rows.push_back(ic);
  }
  REQUIRE(f.store->log(rows).is_ok());
  const std::string cookie = f.log_in("carol", "viewer");
  const std::string dash = f.request("GET", "/", "", cookie).body;
  CHECK(dash.find("rejected 5 (100.0%)") != std::string::npos);  // five rejected interchanges, not one green message
  CHECK(dash.find("Each interchange counts once") != std::string::npos);

  for (const char* bad : {"abc", "2026-13-45", "2026-02-30", "2026-1-5"}) {
    HttpAnswer a = f.request("GET", std::string("/messages?from=") + bad, "", cookie);
    CHECK_MESSAGE(a.status == 400, bad);
    CHECK(a.body.find(std::string("From '") + bad + "' is not a date (YYYY-MM-DD)") != std::string::npos);
    CHECK(a.body.find("Nothing was searched") != std::string::npos);
  }
  CHECK(f.request("GET", "/messages?to=2026-12-31", "", cookie).status == 200);

  auto found = [&](const std::string& q) {
    const HttpAnswer page = f.request("GET", "/messages?q=" + console::url(q), "", cookie);
    return page.status == 200 && page.body.find("No message matches.") == std::string::npos;
  };
  CHECK(found("<t1@acme>"));
  CHECK(found("  <t1@acme>  "));  // trimmed: the same search

  HttpAnswer malformed = f.request("POST", "/login", "name=%zz&password=x");
  CHECK(malformed.status == 400);
  CHECK(malformed.body.find("the form could not be read") != std::string::npos);
  CHECK(malformed.body.find("Poco") == std::string::npos);
  CHECK(malformed.body.find("Exception") == std::string::npos);
}

TEST_CASE("console: each error an acknowledgment names, at its segment, in inspect's words") {
  // The 997 edihub stored for the 810 with a 30 February and an unknown segment (intake_test).
  const std::string ack997 =
      "ISA*00*          *00*          *ZZ*EDIHUB         *ZZ*ACMESUPPLY     *240103*0915*U*00401*000000017*0*P*>~\n"
      "GS*FA*EDIHUB*ACMESUPPLY*20240103*0915*17*X*004010~\nST*997*0001~\nAK1*IN*201~\nAK2*810*0001~\n"
      "AK3*DTM*14**8~\nAK4*2*373*8*20240230~\nAK3*ZZZ*22**1~\nAK3*PID*16*PID*8~\nAK4*1>2*349*7*Q~\n"
      "AK5*R*5~\nAK9*R*1*1*0~\nSE*10*0001~\nGE*1*17~\nIEA*1*000000017~\n";
  const auto rows = console::acknowledged_findings({0, "", ack997});
  REQUIRE(rows.size() == 5);
  CHECK(rows[0].segment == "DTM at segment 14");
  CHECK(rows[0].what == "segment has data element errors (code 8)");
  CHECK(rows[1].element == "DTM02 (373) '20240230'");
  CHECK(rows[1].what == "invalid date (code 8)");
  CHECK(rows[2].what == "unrecognized segment ID (code 1)");
  CHECK(rows[3].loop == "PID");
  CHECK(rows[4].element == "PID01-2 (349) 'Q'");
  const std::string contrl =
      "UNB+UNOA:3+5400000000009:14+5412345000013:14+240103:0915+C0001'UNH+1+CONTRL:D:3:UN'"
      "UCI+INV0001+5412345000013:14+5400000000009:14+7'UCM+1+INVOIC:D:96A:UN+4'UCS+2+13'UCS+6'UCD+21+1:2'"
      "UNT+7+1'UNZ+1+C0001'";
  const auto c = console::acknowledged_findings({0, "", contrl});
  REQUIRE(c.size() == 2);
  CHECK(c[0].segment == "segment 2");
  CHECK(c[0].what == "0085 13");
  CHECK(c[1].element == "element 1:2");
  CHECK(c[1].what == "0085 21");
  // A 999's CTX: the element whose presence made the missing one required.
  const std::string ack999 =
      "ISA*00*          *00*          *ZZ*EDIHUB         *ZZ*ACMESUPPLY     *240103*0915*^*00501*000000018*0*P*>~\n"
      "GS*FA*EDIHUB*ACMESUPPLY*20240103*0915*18*X*005010X231~\nST*999*0001*005010X231~\nAK1*IN*202*005010~\n"
      "AK2*810*0001~\nIK3*N1*4*N1*8~\nIK4*4*67*2~\nCTX*SITUATIONAL TRIGGER*N1*4*N1*3*66~\nIK5*R*5~\n"
      "AK9*R*1*1*0~\nSE*9*0001~\nGE*1*18~\nIEA*1*000000018~\n";
  const auto t = console::acknowledged_findings({0, "", ack999});
  REQUIRE(t.size() == 2);
  CHECK(t[1].element == "N104 (67)");
  CHECK(t[1].what == "conditional required data element missing (code 2), because N103 (66) is present");
  CHECK(console::acknowledged_findings({0, "", "ISA*00*...~AK5*A~"}).empty());
}
