// Interchanges through the gate, as every receiver uses it: partner, key,
// documents, stored acknowledgment.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "parsers/edi/parser.h"
#include "src/documents/validator.h"
#include "src/gate/interchanges.h"
#include "tests/unit/temp_db.h"
#include "tests/unit/test_util.h"

using namespace edihub;

namespace {

struct Fixture {
  test::TempDb db;
  std::unique_ptr<store::Store> store = db.open();
  config::Partners partners = config::Partners::load(test::source_path("partners")).value();
  gate::Gate gate{gate::GateOptions{}};

  gate::InterchangeResult run(const std::string& bytes, const std::string& transport_id = "t1") {
    auto parsed = edi::parse(bytes);
    REQUIRE(parsed.interchanges.size() == 1);
    gate::Arrival a;
    a.transport = "test";
    a.transport_id = transport_id;
    gate::InterchangeWork w = gate::prepare_interchange(parsed.interchanges[0], bytes, partners, a);
    return gate::admit_interchange(gate, *store, w, a);
  }
  int64_t rows(const char* table) { return store->report()->business_rows.at(table); }
};

std::string sample(const char* name) { return test::read_file(test::source_path(std::string("samples/edi/") + name)); }

std::string with(std::string s, const std::string& from, const std::string& to) {
  auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("an interchange is booked once; a retransmission in a new transport gets the same ack") {
  Fixture f;
  auto first = f.run(sample("x12-810-004010.edi"), "as2:<first@acme>");
  CHECK(first.outcome == Outcome::Processed);
  CHECK(first.partner_id == "acme");
  CHECK(first.message_id == "x12:ACMESUPPLY:000000201");
  CHECK(first.documents == 1);
  // A 997 accepting the group, sent back from EDIHUB to ACMESUPPLY.
  CHECK(first.receipt.body.rfind("ISA*00*          *00*          *ZZ*EDIHUB         *ZZ*ACMESUPPLY     *", 0) == 0);
  CHECK(first.receipt.body.find("\nST*997*0001~\nAK1*IN*201~\nAK2*810*0001~\nAK5*A~\nAK9*A*1*1*1~\n") !=
        std::string::npos);

  auto again = f.run(sample("x12-810-004010.edi"), "as2:<second@acme>");
  CHECK(again.outcome == Outcome::Duplicate);
  CHECK(again.documents == 0);
  CHECK(again.receipt == first.receipt);  // byte for byte
  CHECK(f.rows("invoices") == 1);
  // Defect 7: an acknowledgment with nowhere to go is the key's receipt only,
  // never a pending outbox row that no deliverer takes.
  CHECK(f.rows("outbox") == 0);
}

// Defect 4: every control number the gateway writes comes from the
// sequences table, so two conflicts in the same second never repeat one.
TEST_CASE("conflict acknowledgments are numbered from the sequences table") {
  Fixture f;
  REQUIRE(f.run(sample("x12-810-004010.edi")).outcome == Outcome::Processed);  // its 997 is number 1
  auto c1 = f.run(with(sample("x12-810-004010.edi"), "INV-88301", "INV-99998"));
  auto c2 = f.run(with(sample("x12-810-004010.edi"), "INV-88301", "INV-99999"));
  REQUIRE(c1.outcome == Outcome::Conflict);
  REQUIRE(c2.outcome == Outcome::Conflict);
  // ISA13 of each TA1: the 13th element of its ISA.
  auto isa13 = [](const std::string& ack) { return ack.substr(90, 9); };
  CHECK(isa13(c1.receipt.body) == "000000002");
  CHECK(isa13(c2.receipt.body) == "000000003");
}

TEST_CASE("same control number, different bytes: conflict answered with TA1 025, nothing booked") {
  Fixture f;
  REQUIRE(f.run(sample("x12-810-004010.edi")).outcome == Outcome::Processed);
  auto c = f.run(with(sample("x12-810-004010.edi"), "INV-88301", "INV-99999"));
  CHECK(c.outcome == Outcome::Conflict);
  CHECK(c.receipt.body.find("TA1*000000201*240315*0800*R*025~") != std::string::npos);
  CHECK(f.rows("invoices") == 1);
}

TEST_CASE("EDIFACT: CONTRL as the stored receipt, duplicate conflict is CONTRL 26") {
  Fixture f;
  auto r = f.run(sample("edifact-invoic-d96a.edi"));
  CHECK(r.outcome == Outcome::Processed);
  CHECK(r.documents == 2);
  CHECK(r.receipt.body.find("UCI+INV0000042+5412345000013:14+5400000000009:14+7'") != std::string::npos);
  auto c = f.run(with(sample("edifact-invoic-d96a.edi"), "INV-77120", "INV-77199"));
  CHECK(c.outcome == Outcome::Conflict);
  CHECK(c.receipt.body.find("UCI+INV0000042+5412345000013:14+5400000000009:14+4+26'") != std::string::npos);
}

TEST_CASE("envelope errors: rejected with a stored negative ack, retried on retransmission") {
  Fixture f;
  auto r = f.run(sample("broken-x12-iea-control.edi"));
  CHECK(r.outcome == Outcome::Rejected);
  CHECK(r.detail.rfind("IEA02_CONTROL: IEA02 is '000000920'", 0) == 0);
  CHECK(r.receipt.body.find("TA1*000000902*") != std::string::npos);
  CHECK(r.receipt.body.find("*R*001~") != std::string::npos);
  auto key = f.store->lookup(store::MessageKey::x12("acme", "ACMESUPPLY", "000000902"));
  CHECK((*key.value()).state == store::KeyState::Failed);
  auto again = f.run(sample("broken-x12-iea-control.edi"));
  CHECK(again.outcome == Outcome::Rejected);
  CHECK((*f.store->lookup(store::MessageKey::x12("acme", "ACMESUPPLY", "000000902")).value()).failures == 2);
  CHECK(f.rows("invoices") == 0);
}

TEST_CASE("a message the business handler cannot read rejects the whole interchange") {
  Fixture f;
  // Two sets: the second invoice has no number (BIG02).
  std::string two = with(sample("x12-810-004010.edi"), "GE*1*201~", "");
  std::string second = sample("x12-810-004010.edi");
  second = second.substr(second.find("ST*810"), second.find("GE*1") - second.find("ST*810"));
  second = with(with(second, "ST*810*0001", "ST*810*0002"), "INV-88301", "");
  second = with(second, "*0001~", "*0002~");
  two = with(two, "IEA*1*", second + "GE*2*201~\nIEA*1*");
  auto r = f.run(two);
  CHECK(r.outcome == Outcome::Rejected);
  CHECK(r.detail.find("810 0002: segment") != std::string::npos);
  CHECK(r.detail.find("BIG02") != std::string::npos);
  CHECK(r.receipt.body.find("AK2*810*0001~\nAK5*A~\nAK2*810*0002~\nAK5*R*5~\nAK9*P*2*2*1~") != std::string::npos);
  CHECK(f.rows("invoices") == 0);  // all or nothing
}

TEST_CASE("unknown sender: rejected, the id named, no key") {
  Fixture f;
  auto r = f.run(with(sample("x12-856-004010.edi"), "ZZ*ACMESUPPLY     ", "ZZ*NOBODY         "));
  CHECK(r.outcome == Outcome::Rejected);
  CHECK(r.partner_id.empty());
  CHECK(r.detail.rfind("unknown sender ZZ:NOBODY (x12 interchange 000000101)", 0) == 0);
  CHECK(f.store->report()->keys.empty());
  CHECK(f.store->report()->business_rows.at("messages") == 1);  // the log keeps it
}

TEST_CASE("a late older version of a document is not booked over the newer one") {
  Fixture f;
  // 810 version A dated 2024-03-15, then B (replace, later), then A' (replace, earlier).
  std::string a = sample("x12-810-004010.edi");
  REQUIRE(f.run(a).outcome == Outcome::Processed);
  std::string b = with(with(with(a, "000000201", "000000211"), "000000201", "000000211"),
                       "BIG*20240315*INV-88301*20240305*PO45001234", "BIG*20240320*INV-88301*20240305*PO45001234***05");
  auto rb = f.run(b);
  CHECK(rb.outcome == Outcome::Processed);
  CHECK(rb.documents == 1);
  std::string late =
      with(with(with(a, "000000201", "000000212"), "000000201", "000000212"),
           "BIG*20240315*INV-88301*20240305*PO45001234", "BIG*20240318*INV-88301*20240305*PO45001234***05");
  auto rl = f.run(late);
  CHECK(rl.outcome == Outcome::Processed);
  CHECK(rl.documents == 0);
  CHECK(rl.detail == "INV-88301: an older version than the one booked, ignored");
  CHECK(f.rows("invoices") == 1);
}

namespace {

// The demo partners copied to `dir`, acme's profile given `<validation
// policy="...">` with `inside` in it, and `guide` as guides/acme-810.def.
Result<config::Partners> partners_with(const std::filesystem::path& dir, const std::string& policy,
                                       const std::string& inside = "", const std::string& guide = "") {
  namespace fs = std::filesystem;
  fs::remove_all(dir);
  fs::copy(test::source_path("partners"), dir, fs::copy_options::recursive);
  std::string acme = test::read_file((dir / "acme.xml").string());
  acme = with(acme, "</partner>", "  <validation policy=\"" + policy + "\">" + inside + "</validation>\n</partner>");
  std::ofstream(dir / "acme.xml", std::ios::trunc) << acme;
  if (!guide.empty()) {
    fs::create_directories(dir / "guides");
    std::ofstream(dir / "guides" / "acme-810.def") << guide;
  }
  return config::Partners::load(dir.string());
}

struct ValidatingFixture : Fixture {
  explicit ValidatingFixture(const std::string& policy, const std::string& inside = "", const std::string& guide = "") {
    auto loaded = partners_with(dir, policy, inside, guide);
    REQUIRE_MESSAGE(loaded.is_ok(), loaded.status().message());
    partners = std::move(loaded).value();
  }
  ~ValidatingFixture() { std::filesystem::remove_all(dir); }
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("edihub-validation-" + std::to_string(::getpid()));
};

// The sample 810 with a 30 February in its DTM and an unknown segment.
std::string invalid_invoice() {
  return with(with(with(sample("x12-810-004010.edi"), "DTM*011*20240312~", "DTM*011*20240230~"), "TDS*88308~",
                   "TDS*88308~\nZZZ*1~"),
              "SE*23*0001~", "SE*24*0001~");
}

const char* kFindings = "AK2*810*0001~\nAK3*DTM*14**8~\nAK4*2*373*8*20240230~\nAK3*ZZZ*22**1~\n";

}  // namespace

TEST_CASE("validation policy reject: nothing booked, the 997 names each error, the log the first") {
  ValidatingFixture f("reject");
  auto r = f.run(invalid_invoice());
  CHECK(r.outcome == Outcome::Rejected);
  CHECK(r.detail ==
        "does not pass its definition: 810 0001: DTM at segment 14: DTM02 (373) '20240230': invalid date (code 8) "
        "(and 1 more)");
  CHECK(r.receipt.body.find(std::string(kFindings) + "AK5*R*5~\nAK9*R*1*1*0~") != std::string::npos);
  CHECK(f.rows("invoices") == 0);
  // The valid sample passes and is booked, acknowledged as before.
  auto ok = f.run(sample("x12-810-004010.edi"), "t2");
  CHECK(ok.outcome == Outcome::Processed);
  CHECK(ok.detail.empty());
  CHECK(ok.receipt.body.find("AK2*810*0001~\nAK5*A~\nAK9*A*1*1*1~") != std::string::npos);
  CHECK(f.rows("invoices") == 1);
}

TEST_CASE("validation policy accept: booked, the 997 names each error with AK5 E") {
  ValidatingFixture f("accept");
  auto r = f.run(invalid_invoice());
  CHECK(r.outcome == Outcome::Processed);
  CHECK(r.detail.rfind("accepted with errors: 810 0001: DTM at segment 14: DTM02 (373) '20240230'", 0) == 0);
  CHECK(r.receipt.body.find(std::string(kFindings) + "AK5*E*5~\nAK9*E*1*1*1~") != std::string::npos);
  CHECK(f.rows("invoices") == 1);
}

TEST_CASE("validation policy flag: booked and acknowledged as accepted, the errors in the log") {
  ValidatingFixture f("flag");
  auto r = f.run(invalid_invoice());
  CHECK(r.outcome == Outcome::Processed);
  CHECK(r.detail.rfind("flagged: 810 0001: DTM at segment 14", 0) == 0);
  CHECK(r.receipt.body.find("AK2*810*0001~\nAK5*A~\nAK9*A*1*1*1~") != std::string::npos);
  CHECK(f.rows("invoices") == 1);
}

TEST_CASE("validation off (the default) and a bad policy word") {
  Fixture f;
  auto r = f.run(invalid_invoice());
  CHECK(r.outcome == Outcome::Processed);  // nothing checked: today's behaviour
  CHECK(r.receipt.body.find("AK2*810*0001~\nAK5*A~") != std::string::npos);
  const auto dir = std::filesystem::temp_directory_path() / ("edihub-validation-bad-" + std::to_string(::getpid()));
  auto bad = partners_with(dir, "strict");
  std::filesystem::remove_all(dir);
  REQUIRE(!bad.is_ok());
  CHECK(test::contains(bad.status().message(),
                       "acme.xml: <validation policy> must be off|reject|accept|flag, not 'strict'"));
}

TEST_CASE("a partner's guide: its 810s are checked against it, and a guide that cannot be read does not load") {
  const std::string reference = "<guide message=\"810\" file=\"guides/acme-810.def\"/>";
  ValidatingFixture f("reject", reference, "guide x12 004010 810 \"Acme 810\"\nsegment CUR M\nelement PID01 codes S\n");
  // The sample is valid against the standard: Acme's guide wants a currency and PID01 = S.
  auto r = f.run(sample("x12-810-004010.edi"));
  CHECK(r.outcome == Outcome::Rejected);
  CHECK(r.detail ==
        "does not pass its definition: 810 0001: CUR at segment 3: mandatory segment missing (code 3) (and 3 more)");
  // F is a code of the standard the guide does not use: a 999's I6, this 997's 7.
  CHECK(r.receipt.body.find("AK2*810*0001~\nAK3*CUR*3**3~\nAK3*PID*16*PID*8~\nAK4*1*349*7*F~\nAK3*PID*18*PID*8~\n"
                            "AK4*1*349*7*F~\nAK3*PID*20*PID*8~\nAK4*1*349*7*F~\nAK5*R*5~") != std::string::npos);
  CHECK(f.rows("invoices") == 0);

  auto refused = [](const std::string& policy, const std::string& inside, const std::string& guide) {
    const auto dir = std::filesystem::temp_directory_path() / ("edihub-guide-bad-" + std::to_string(::getpid()));
    auto loaded = partners_with(dir, policy, inside, guide);
    std::filesystem::remove_all(dir);
    return loaded.is_ok() ? std::string("loaded") : loaded.status().message();
  };
  CHECK(test::contains(refused("off", reference, "guide x12 004010 810\n"),
                       "acme.xml: <guide message=\"810\"> is never read with <validation policy=\"off\">"));
  CHECK(test::contains(refused("reject", "<guide message=\"810\" file=\"guides/nowhere.def\"/>", ""),
                       "guides/nowhere.def: cannot read: No such file or directory"));
  CHECK(test::contains(
      refused("reject", "<guide message=\"856\" file=\"guides/acme-810.def\"/>", "guide x12 004010 810\n"),
      "acme.xml: <guide message=\"856\"> names guides/acme-810.def, a guide for 810"));
  CHECK(test::contains(refused("reject", reference, "guide x12 004010 810\nsegment BIG O\n"),
                       "acme-810.def:2: segment BIG is mandatory in the standard: a guide cannot make it optional"));
  CHECK(test::contains(refused("reject", "<guide message=\"810\"/>", ""),
                       "acme.xml: <guide> needs message and file attributes"));
}

TEST_CASE("orders, a type added through the registry alone: an 850 and an ORDERS booked, replaced in date order") {
  Fixture f;
  // The sample under another interchange control number (ISA13 and IEA02).
  auto numbered = [](std::string s, const std::string& control) {
    return with(with(s, "*000000301*", "*" + control + "*"), "IEA*1*000000301", "IEA*1*" + control);
  };
  auto po = f.run(sample("x12-850-004010.edi"));
  CHECK(po.outcome == Outcome::Processed);
  CHECK(po.documents == 1);
  CHECK(po.receipt.body.find("AK2*850*0001~\nAK5*A~\nAK9*A*1*1*1~") != std::string::npos);
  CHECK(f.rows("orders") == 1);
  CHECK(f.rows("order_lines") == 2);
  // A change (BEG01 05) on a later date replaces it, its lines with it; an
  // older one arriving late changes nothing.
  std::string change = with(with(numbered(sample("x12-850-004010.edi"), "000000302"), "BEG*00*SA*PO-5001**20240320",
                                 "BEG*05*SA*PO-5001**20240322"),
                            "PO1*2*12*EA*39.99**UP*012345678912~\nPID*F****GADGET 200 STAINLESS~\n", "");
  change = with(with(change, "CTT*2~", "CTT*1~"), "SE*17*0001~", "SE*15*0001~");
  auto replaced = f.run(change, "t2");
  CHECK(replaced.outcome == Outcome::Processed);
  CHECK(f.rows("orders") == 1);
  CHECK(f.rows("order_lines") == 1);
  auto late = f.run(numbered(sample("x12-850-004010.edi"), "000000303"), "t3");
  CHECK(late.detail == "PO-5001: an older version than the one booked, ignored");
  CHECK(f.rows("order_lines") == 1);
  auto orders = f.run(sample("edifact-orders-d96a.edi"), "t4");
  CHECK(orders.outcome == Outcome::Processed);
  CHECK(orders.documents == 1);
  CHECK(f.rows("orders") == 2);
  CHECK(f.rows("order_lines") == 3);
  // An unusable order rejects the interchange, naming the segment.
  auto bad = f.run(with(numbered(sample("x12-850-004010.edi"), "000000304"), "*PO-5001*", "**"), "t5");
  CHECK(bad.outcome == Outcome::Rejected);
  CHECK(bad.detail == "850 0001: segment 4 (BEG): BEG03 (purchase order number) is empty");
}

TEST_CASE("validation of an EDIFACT interchange: rejected, its CONTRL names each error as UCS/UCD") {
  ValidatingFixture f("reject");
  // The sample INVOIC with a letter in a quantity (6060 is numeric).
  auto r = f.run(with(sample("edifact-invoic-d96a.edi"), "QTY+47:24:PCE", "QTY+47:2X:PCE"));
  CHECK(r.outcome == Outcome::Rejected);
  CHECK(test::contains(r.detail, "does not pass its definition: INVOIC 1: QTY at segment 16: QTY01-2 (6060) '2X'"));
  CHECK(test::contains(r.receipt.body, "UCM+1+INVOIC:D:96A:UN+4'\nUCS+16'\nUCD+37+2:2'\nUCM+2+INVOIC:D:96A:UN+7'\n"));
  CHECK(f.rows("invoices") == 0);
  // The CONTRL edihub wrote passes the CONTRL definition.
  documents::Validator validator(documents::standard_definitions());
  edi::ParseOptions options;
  options.observer = &validator;
  edi::ParseResult contrl = edi::parse(r.receipt.body, options);
  REQUIRE(contrl.interchanges.size() == 1);
  const edi::Message& m = contrl.interchanges[0].groups.at(0).messages.at(0);
  CHECK(m.validated);
  CHECK(m.segment_errors.empty());
}

TEST_CASE(
    "aperak=\"errors\": a message not booked gets an APERAK with the reason, its sibling one too, the CONTRL says 7") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("edihub-aperak-" + std::to_string(::getpid()));
  REQUIRE(partners_with(dir, "off").is_ok());
  std::string acme = test::read_file((dir / "acme.xml").string());
  acme = with(acme, "</partner>", "  <acknowledgments via=\"dir\" dir=\"acks\" aperak=\"errors\"/>\n</partner>");
  std::ofstream(dir / "acme.xml", std::ios::trunc) << acme;
  Fixture f;
  auto loaded = config::Partners::load(dir.string());
  REQUIRE_MESSAGE(loaded.is_ok(), loaded.status().message());
  f.partners = std::move(loaded).value();

  // The credit note (message 2) has no document number: nothing of the interchange is booked.
  auto r = f.run(with(sample("edifact-invoic-d96a.edi"), "BGM+381+CN-77121+9'", "BGM+381++9'"));
  CHECK(r.outcome == Outcome::Rejected);
  CHECK(f.rows("invoices") == 0);
  // The syntax was right: the CONTRL accepts both messages; the APERAK says what was not booked.
  CHECK(test::contains(r.receipt.body, "UCM+1+INVOIC:D:96A:UN+7'\nUCM+2+INVOIC:D:96A:UN+7'\n"));
  store::OutboxFilter filter;
  filter.partner_id = "acme";
  auto rows = f.store->list_outbox(filter);
  REQUIRE(rows.is_ok());
  std::string aperak;
  for (const auto& e : rows.value())
    if (e.item.kind == "aperak") aperak = e.item.body;
  REQUIRE(!aperak.empty());
  CHECK(aperak.rfind("UNB+UNOC:3+5400000000009:14+5412345000013:14+", 0) == 0);
  // Dates and times are the clock's: compared without them. Texts are cut into C108's
  // components of 70 characters after a space; the component separator in them released.
  const size_t unh = aperak.find("UNH+");
  REQUIRE(unh != std::string::npos);
  std::string body = aperak.substr(unh);
  for (size_t at = body.find("DTM+137:"); at != std::string::npos; at = body.find("DTM+137:", at + 1))
    body.replace(at + 8, 12, "CCYYMMDDHHMM");
  const std::string number = aperak.substr(aperak.rfind("UNZ+2+") + 6, aperak.size() - aperak.rfind("UNZ+2+") - 8);
  CHECK(body ==
        "UNH+1+APERAK:D:96A:UN'\nBGM+305+" + number +
            "-1+27'\nDTM+137:CCYYMMDDHHMM:203'\nRFF+ACW:1'\n"
            "ERC+EH02::ZZZ'\nFTX+AAO+++not booked?: message 2 (INVOIC) of the same interchange was rejected, "
            ":and an interchange is booked all or nothing'\nUNT+7+1'\n"
            "UNH+2+APERAK:D:96A:UN'\nBGM+305+" +
            number +
            "-2+27'\nDTM+137:CCYYMMDDHHMM:203'\nRFF+ACW:2'\n"
            "ERC+EH01::ZZZ'\nFTX+AAO+++INVOIC 2?: segment 38 (BGM)?: BGM has no document number (1004, element :2)'\n"
            "UNT+7+2'\nUNZ+2+" +
            number + "'\n");
  // The APERAK passes the D.96A APERAK definition.
  documents::Validator validator(documents::standard_definitions());
  edi::ParseOptions options;
  options.observer = &validator;
  edi::ParseResult parsed = edi::parse(aperak, options);
  REQUIRE(parsed.interchanges.size() == 1);
  REQUIRE(parsed.interchanges[0].ok());
  for (const edi::Message& m : parsed.interchanges[0].groups.at(0).messages) {
    CHECK(m.validated);
    CHECK_MESSAGE(m.segment_errors.empty(), aperak);
  }
  // Without aperak="errors" (the default) the CONTRL rejects the unreadable message (UCM 4, 0085 18).
  Fixture plain;
  auto p = plain.run(with(sample("edifact-invoic-d96a.edi"), "BGM+381+CN-77121+9'", "BGM+381++9'"));
  CHECK(test::contains(p.receipt.body, "UCM+2+INVOIC:D:96A:UN+4+18'"));
  fs::remove_all(dir);
}
