// The receive pipeline in-process, stage by stage, on captures made by
// independent software (samples/as2: openssl; samples/as4: hand-written after
// the phase4 project's): what each stage answers, and what one commit leaves.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "src/protocols/as2/inbound.h"
#include "src/protocols/as4/inbound.h"
#include "src/receivers/capture.h"
#include "src/receivers/pipeline.h"
#include "tests/unit/temp_db.h"
#include "tests/unit/test_util.h"

using namespace edihub;
using namespace edihub::receivers;
using namespace edihub::http;
using namespace edihub::identity;

namespace {

// Keeps the rows the pipeline logs outside its commits: a fake that
// implements only the sink.
struct Rows : LogSink {
  std::vector<store::MessageLog> rows;
  void record(store::MessageLog row, std::string_view /*client*/) override { rows.push_back(std::move(row)); }
};

struct Fixture {
  test::TempDb db;
  std::unique_ptr<store::Store> store = db.open();
  config::Partners partners = config::Partners::load(test::source_path("partners")).value();
  gate::Gate gate{gate::GateOptions{}};
  Rows log;
  Context context;
  as2::Settings as2_settings;
  as4::Settings as4_settings{"EDIHUB", "", nullptr, {}, {}};

  Fixture() {
    context.partners = &partners;
    context.gate = &gate;
    context.log = &log;
    config::Gateway gw = config::Gateway::defaults();
    gw.identities = {{test::source_path("partners/certs/edihub.crt"), test::source_path("partners/certs/edihub.key")}};
    as2_settings = as2::Settings::from_config(gw, partners).value();
    as4_settings.partners = &partners;
  }
  HttpRequest capture(const std::string& sample) {
    Result<HttpRequest> r = read_capture(test::read_file(test::source_path(sample)));
    REQUIRE_MESSAGE(r.is_ok(), r.status().message());
    return r.value();
  }
  HttpAnswer as2(const HttpRequest& r) {
    as2::As2Protocol p(as2_settings);
    return Pipeline(context, *store, p).receive(r);
  }
  HttpAnswer as4(const HttpRequest& r) {
    as4::As4Protocol p(as4_settings);
    return Pipeline(context, *store, p).receive(r);
  }
  int64_t rows(const char* table) { return store->report()->business_rows.at(table); }
  std::optional<store::KeyRecord> key(const std::string& message_id) {
    return store->lookup({"acme", message_id}).value();
  }
};

}  // namespace

TEST_CASE("AS2: a new message commits once: keys, invoice, log rows, stored MDN and capture together") {
  Fixture f;
  HttpAnswer a = f.as2(f.capture("samples/as2/810-signed-encrypted.as2"));
  CHECK(a.status == 200);
  CHECK(a.outcome == Outcome::Processed);
  CHECK(a.partner == "acme");
  CHECK(a.transport_id == "<sample-810-701@acme.example>");
  CHECK(a.body.find("processed") != std::string::npos);
  auto transport = f.key("as2:<sample-810-701@acme.example>");
  REQUIRE(transport);
  CHECK(transport->state == store::KeyState::Completed);
  CHECK(transport->receipt.body == a.body);  // the stored receipt is the answer
  CHECK(f.key("x12:ACMESUPPLY:000000701")->state == store::KeyState::Completed);
  CHECK(f.rows("invoices") == 1);
  CHECK(f.rows("messages") == 2);  // the interchange's and the transport's, in the commit
  CHECK(f.rows("captures") == 1);
  CHECK(f.log.rows.empty());  // nothing outside the commit
}

TEST_CASE("AS2: a byte-identical retransmission is answered from the stored MDN, its row off the path") {
  Fixture f;
  const HttpRequest r = f.capture("samples/as2/810-signed-encrypted.as2");
  HttpAnswer first = f.as2(r);
  HttpAnswer again = f.as2(r);
  CHECK(again.outcome == Outcome::Duplicate);
  CHECK(again.body == first.body);
  CHECK(again.headers == first.headers);
  REQUIRE(f.log.rows.size() == 1);
  CHECK(f.log.rows[0].outcome == Outcome::Duplicate);
  CHECK(f.log.rows[0].message_id == "as2:<sample-810-701@acme.example>");
  CHECK(f.rows("captures") == 1);  // the bytes are archived once
}

TEST_CASE("the outbox is woken when a commit gave it something to send, not for every settled message") {
  Fixture f;
  int wakes = 0;
  f.context.queued = [&] { ++wakes; };
  const HttpRequest r = f.capture("samples/as2/810-signed-encrypted.as2");
  SUBCASE("acme asks for no acknowledgment: booked, nothing queued, nobody woken") {
    CHECK(f.as2(r).outcome == Outcome::Processed);
    CHECK(f.rows("invoices") == 1);
    CHECK(f.rows("outbox") == 0);
    CHECK(wakes == 0);
  }
  SUBCASE("acme asks for its 997 in a directory: queued in the commit, the outbox woken once") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("edihub-wake-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::copy(test::source_path("partners"), dir, fs::copy_options::recursive);
    std::string acme = test::read_file((dir / "acme.xml").string());
    acme.replace(acme.rfind("</partner>"), 10, "<acknowledgments via=\"dir\" dir=\"acks\"/></partner>");
    std::ofstream(dir / "acme.xml", std::ios::trunc) << acme;
    auto loaded = config::Partners::load(dir.string());
    REQUIRE_MESSAGE(loaded.is_ok(), loaded.status().message());
    f.partners = std::move(loaded).value();
    CHECK(f.as2(r).outcome == Outcome::Processed);
    CHECK(f.rows("outbox") == 1);
    CHECK(wakes == 1);
    CHECK(f.as2(r).outcome == Outcome::Duplicate);  // answered from the store: nothing new to send
    CHECK(wakes == 1);
    fs::remove_all(dir);
  }
}

TEST_CASE("AS2 envelope: refusals from the headers, before anything is stored") {
  Fixture f;
  HttpRequest r = f.capture("samples/as2/810-signed-encrypted.as2");
  HttpAnswer wrong = f.as2(f.capture("samples/as2/wrong-recipient.as2"));
  CHECK(wrong.status == 403);
  CHECK(wrong.detail == "AS2-To 'SOMEONE-ELSE' is not this gateway ('EDIHUB')");
  HttpRequest no_id = r;
  no_id.headers.erase(
      std::remove_if(no_id.headers.begin(), no_id.headers.end(), [](const auto& h) { return h.first == "Message-ID"; }),
      no_id.headers.end());
  CHECK(f.as2(no_id).detail == "missing Message-ID header");
  HttpRequest evil = r;
  for (auto& h : evil.headers)
    if (h.first == "Message-ID") h.second = "<=?UTF-8?Q?a=0D=0A?=@x>";
  HttpAnswer encoded = f.as2(evil);
  CHECK(encoded.status == 400);
  CHECK(encoded.detail == "header Message-ID holds an RFC 2047 encoded word: not allowed in AS2 headers");
  CHECK(f.store->report()->keys.empty());
  CHECK(f.rows("captures") == 0);
  CHECK(f.log.rows.size() == 3);  // each refusal has its row
}

TEST_CASE("AS2 screen: an unknown sender is refused from the head alone") {
  Fixture f;
  as2::As2Protocol p(f.as2_settings);
  HttpRequest head = f.capture("samples/as2/810-signed-encrypted.as2");
  head.body.clear();
  bool needs_hash = true;
  CHECK_FALSE(Pipeline::screen(f.context, p, head, false, &needs_hash).has_value());
  CHECK_FALSE(needs_hash);  // acme asks for no password: nothing for a worker
  for (auto& h : head.headers)
    if (h.first == "AS2-From") h.second = "STRANGER";
  std::optional<HttpAnswer> refused = Pipeline::screen(f.context, p, head, false, &needs_hash);
  REQUIRE(refused);
  CHECK(refused->status == 403);
  CHECK(refused->close);
  CHECK(refused->detail == "unknown AS2-From 'STRANGER': no partner profile lists it");
}

TEST_CASE("AS2 unwrap: a failed security policy is a stored negative MDN, retried when sent again") {
  Fixture f;
  const HttpRequest r = f.capture("samples/as2/810-signed-only.as2");
  HttpAnswer a = f.as2(r);
  CHECK(a.outcome == Outcome::Rejected);
  CHECK(a.body.find("processed/error: insufficient-message-security") != std::string::npos);
  auto k = f.key("as2:<sample-810-signed-only@acme.example>");
  REQUIRE(k);
  CHECK(k->state == store::KeyState::Failed);
  CHECK(f.rows("captures") == 1);
  HttpAnswer again = f.as2(r);  // the cause may have been fixed: it runs again
  CHECK(again.outcome == Outcome::Rejected);
  CHECK(f.key("as2:<sample-810-signed-only@acme.example>")->failures == 2);
}

TEST_CASE("AS2 unwrap: over the gateway-wide unwrap budget, retry later; nothing stored") {
  Fixture f;
  Budget tiny(100);
  f.context.unwrap_budget = &tiny;
  HttpAnswer a = f.as2(f.capture("samples/as2/810-signed-encrypted.as2"));
  CHECK(a.status == 503);
  CHECK(a.outcome == Outcome::Error);
  CHECK(a.detail == "the gateway is unwrapping too much at once: retry later");
  CHECK(f.store->report()->keys.empty());
  CHECK(tiny.used() == 0);
}

TEST_CASE("AS4: SwA with gzip is receipted and booked; its retransmission gets the stored Receipt") {
  Fixture f;
  const HttpRequest r = f.capture("samples/as4/swa-gzip-810.as4");
  HttpAnswer a = f.as4(r);
  CHECK(a.status == 200);
  CHECK(a.outcome == Outcome::Processed);
  CHECK(a.body.find("<eb:Receipt>") != std::string::npos);
  CHECK(f.rows("invoices") == 1);
  HttpAnswer again = f.as4(r);
  CHECK(again.outcome == Outcome::Duplicate);
  CHECK(again.body == a.body);
}

TEST_CASE("AS4: early EBMS errors, failures stored, and nothing receipted that was not processed") {
  Fixture f;
  HttpAnswer unknown = f.as4(f.capture("samples/as4/broken-unknown-party.as4"));
  CHECK(unknown.status == 500);
  CHECK(unknown.body.find("errorCode=\"EBMS:0001\"") != std::string::npos);
  HttpAnswer gzip = f.as4(f.capture("samples/as4/broken-bad-gzip.as4"));
  CHECK(gzip.outcome == Outcome::Rejected);
  CHECK(gzip.body.find("errorCode=\"EBMS:0303\"") != std::string::npos);
  HttpAnswer empty = f.as4(f.capture("samples/as4/single-part-no-payload.as4"));
  CHECK(empty.outcome == Outcome::Rejected);
  CHECK(empty.body.find("errorCode=\"EBMS:0004\"") != std::string::npos);
  CHECK(empty.body.find("the message carries no payload") != std::string::npos);
  // A header block marked mustUnderstand that the gateway does not process.
  HttpRequest secured = f.capture("samples/as4/swa-856.as4");
  const std::string marker = "<eb:Messaging S12:mustUnderstand=\"true\">";
  size_t at = secured.body.find(marker);
  REQUIRE(at != std::string::npos);
  secured.body.insert(at,
                      "<wsa:Action xmlns:wsa=\"http://www.w3.org/2005/08/addressing\" "
                      "S12:mustUnderstand=\"true\">urn:example:deliver</wsa:Action>");
  HttpAnswer fault = f.as4(secured);
  CHECK(fault.status == 500);
  CHECK(fault.outcome == Outcome::Rejected);
  CHECK(fault.body.find("<env:Value>env:MustUnderstand</env:Value>") != std::string::npos);
  CHECK(f.rows("shipment_notices") == 0);
}

TEST_CASE("AS4: a payload that is not EDI is archived and receipted as archived, after its commit") {
  Fixture f;
  HttpRequest r = f.capture("samples/as4/swa-856.as4");
  // The attachment declared and sent as XML, not EDI.
  std::string& body = r.body;
  const std::string edi = "ISA*";
  size_t at = body.find(edi);
  REQUIRE(at != std::string::npos);
  body.replace(at, body.find("\r\n--", at) - at, "<order>not EDI</order>");
  for (std::string from : {"application/edi-x12"}) {
    for (size_t p = body.find(from); p != std::string::npos; p = body.find(from))
      body.replace(p, from.size(), "application/xml");
  }
  HttpAnswer a = f.as4(r);
  CHECK(a.status == 200);
  CHECK(a.outcome == Outcome::Archived);
  CHECK(f.key("as4:as4-sample-856-802@acme.example")->outcome == "archived");
  CHECK(f.rows("captures") == 1);
  CHECK(f.rows("shipment_notices") == 0);
}

TEST_CASE("a large message is handled under a lease, one interchange per commit, with the same answers") {
  Fixture f;
  gate::GateOptions leased;
  leased.single_commit_max_bytes = 0;  // every payload counts as large here
  gate::Gate gate(leased);
  f.context.gate = &gate;
  const HttpRequest r = f.capture("samples/as2/810-signed-encrypted.as2");
  HttpAnswer a = f.as2(r);
  CHECK(a.outcome == Outcome::Processed);
  auto transport = f.key("as2:<sample-810-701@acme.example>");
  REQUIRE(transport);
  CHECK(transport->state == store::KeyState::Completed);
  CHECK(transport->receipt.body == a.body);
  CHECK(f.rows("invoices") == 1);
  CHECK(f.rows("captures") == 1);
  HttpRequest copy = r;
  copy.body += "\r\n";  // another copy of the same content: not byte-identical
  HttpAnswer again = f.as2(copy);
  CHECK(again.outcome == Outcome::Duplicate);
  CHECK(again.body == a.body);
  CHECK(f.rows("invoices") == 1);
}
