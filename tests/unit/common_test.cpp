// The shared vocabulary: partner_text(), budgets, outcome words, Result, log lines.
#include <doctest/doctest.h>

#include "src/common/budget.h"
#include "src/common/cidr.h"
#include "src/common/event_log.h"
#include "src/common/outcome.h"
#include "src/common/partner_text.h"
#include "src/common/status.h"
#include "src/crypto/inflate.h"
#include "src/crypto/password.h"
#include "src/crypto/random.h"

#include <zlib.h>

using namespace edihub;

TEST_CASE("partner_text: printable ASCII passes, everything else is escaped, never a line break") {
  CHECK(partner_text("<m1@acme.example>") == "<m1@acme.example>");
  CHECK(partner_text("a\r\nb") == "a\\x0D\\x0Ab");
  CHECK(partner_text(std::string("\0\x7f\xff", 3)) == "\\x00\\x7F\\xFF");
  CHECK(partner_text("caf\xc3\xa9") == "caf\\xC3\\xA9");
  // Bounded, and the cut is visible.
  CHECK(partner_text(std::string(300, 'x'), 10) == "xxxxxxx...");
  CHECK(partner_text("ab\ncd", 6) == "ab...");  // an escape is never split
  CHECK(is_printable("AS2 ID", 10));
  CHECK_FALSE(is_printable("a\tb", 10));
  CHECK_FALSE(is_printable("", 10));
  CHECK_FALSE(is_printable("abc", 2));
}

TEST_CASE("outcome words are the ones operators see, both ways") {
  for (Outcome o : {Outcome::Processed, Outcome::Duplicate, Outcome::Conflict, Outcome::Rejected, Outcome::Poison,
                    Outcome::InFlight, Outcome::Error, Outcome::Archived})
    CHECK(outcome_from(outcome_name(o)) == o);
  CHECK(outcome_name(Outcome::InFlight) == "in-flight");
  CHECK_FALSE(outcome_from("failed").has_value());
}

TEST_CASE("a Lease counts every layer against the message cap and the shared one") {
  Budget shared(100);
  {
    Lease a(&shared, 60);
    CHECK(a.take(40) == Lease::Refusal::None);
    a.give_back(40);                                      // the layer is released ...
    CHECK(a.take(30) == Lease::Refusal::OverMessageCap);  // ... but still counts for the message
    CHECK(a.take(20) == Lease::Refusal::None);
    Lease b(&shared, 100);
    CHECK(b.take(90) == Lease::Refusal::OverGatewayCap);  // 20 held by a
    CHECK(b.take(80) == Lease::Refusal::None);
    CHECK(shared.used() == 100);
  }
  CHECK(shared.used() == 0);  // both leases gave everything back
}

TEST_CASE("inflate is bounded per message, and says which cap refused") {
  std::string plain(200000, 'x'), packed(compressBound(plain.size()), '\0');
  uLongf n = packed.size();
  REQUIRE(compress(reinterpret_cast<Bytef*>(packed.data()), &n, reinterpret_cast<const Bytef*>(plain.data()),
                   plain.size()) == Z_OK);
  packed.resize(n);
  Budget shared(1 << 20);
  {
    Lease enough(&shared, 1 << 20);
    CHECK(crypto::inflate(packed, crypto::Wrapping::Zlib, enough).value() == plain);
  }
  Lease small(&shared, 100000);
  Result<std::string> over = crypto::inflate(packed, crypto::Wrapping::Zlib, small);
  CHECK(over.status().kind() == Status::Kind::Invalid);
  CHECK(over.status().message() == "content larger than 100000 bytes for the whole message (all layers together)");
  Budget tight(1000);
  Lease busy(&tight, 1 << 20);
  CHECK(crypto::inflate(packed, crypto::Wrapping::Zlib, busy).status().kind() == Status::Kind::Transient);
  Lease truncated(&shared, 1 << 20);
  CHECK(crypto::inflate(packed.substr(0, packed.size() / 2), crypto::Wrapping::Zlib, truncated).status().message() ==
        "the compressed stream is corrupt or truncated");
}

TEST_CASE("Result: a value or the status, never both") {
  Result<int> ok = 3;
  CHECK(ok.is_ok());
  CHECK(ok.value() == 3);
  Result<int> bad = Status::transient("busy");
  CHECK_FALSE(bad.is_ok());
  CHECK(bad.status().message() == "busy");
#ifndef EDIHUB_ABORT_ON_MISUSE     // where tests run under sanitizers, it aborts instead
  Result<int> odd = Status::ok();  // an ok status without a value is not a value
  CHECK_FALSE(odd.is_ok());
#endif
}

TEST_CASE("IP allow-lists: IPv4 and IPv6 networks, exact addresses, malformed entries") {
  CHECK(edihub::ip_allowed("192.0.2.7", {"192.0.2.0/24"}));
  CHECK(!edihub::ip_allowed("192.0.3.7", {"192.0.2.0/24"}));
  CHECK(edihub::ip_allowed("10.1.2.3", {"10.0.0.0/9"}));
  CHECK(!edihub::ip_allowed("10.128.0.1", {"10.0.0.0/9"}));
  CHECK(edihub::ip_allowed("192.0.2.7", {"192.0.2.7"}));
  CHECK(!edihub::ip_allowed("192.0.2.8", {"192.0.2.7/32"}));
  CHECK(edihub::ip_allowed("2001:db8::1", {"2001:db8::/32"}));
  CHECK(!edihub::ip_allowed("2001:db9::1", {"2001:db8::/32"}));
  CHECK(!edihub::ip_allowed("::ffff:192.0.2.7", {"192.0.2.0/24"}));  // another family: not matched
  CHECK(edihub::ip_allowed("1.2.3.4", {"0.0.0.0/0"}));
  CHECK(!edihub::ip_allowed("replay", {"0.0.0.0/0"}));
  CHECK(!edihub::is_cidr("10.0.0.0/33"));
  CHECK(!edihub::is_cidr("10.0.0/8"));
  CHECK(!edihub::is_cidr("10.0.0.0/"));
  CHECK(!edihub::is_cidr("::1/129"));
  CHECK(edihub::is_cidr("::1/128"));
}

TEST_CASE("Passwords: PBKDF2 hashes verify the password and nothing else") {
  const std::string h = edihub::crypto::hash_password("s3cret", 1000);
  CHECK(h.rfind("pbkdf2-sha256$1000$", 0) == 0);
  CHECK(edihub::crypto::is_password_hash(h));
  CHECK(edihub::crypto::verify_password("s3cret", h));
  CHECK(!edihub::crypto::verify_password("s3cret ", h));
  CHECK(!edihub::crypto::verify_password("", h));
  CHECK(edihub::crypto::hash_password("s3cret", 1000) != h);  // a fresh salt each time
  CHECK(!edihub::crypto::is_password_hash("s3cret"));
  CHECK(!edihub::crypto::is_password_hash("pbkdf2-sha256$10$AAAA$AAAA"));  // too few iterations, short hash
  CHECK(!edihub::crypto::verify_password("s3cret", "pbkdf2-sha256$1000$$"));
}

TEST_CASE("random identifiers: version-4 UUIDs in the RFC's layout, tokens as hex, never the same twice") {
  const std::string a = edihub::crypto::random_uuid(), b = edihub::crypto::random_uuid();
  REQUIRE(a.size() == 36);
  CHECK(a != b);
  for (size_t dash : {8, 13, 18, 23}) CHECK(a[dash] == '-');
  CHECK(a[14] == '4');                                          // the version
  CHECK(std::string("89ab").find(a[19]) != std::string::npos);  // the variant
  CHECK(a.find_first_not_of("0123456789abcdef-") == std::string::npos);
  const std::string t = edihub::crypto::random_hex(16);
  CHECK(t.size() == 32);
  CHECK(t.find_first_not_of("0123456789abcdef") == std::string::npos);
}

namespace {

Result<int> half(int n) {
  if (n % 2 != 0) return Status::invalid(Code::Malformed, std::to_string(n) + " is odd");
  return n / 2;
}

Result<int> quarter(int n) {
  ASSIGN_OR_RETURN(const int h, half(n));
  ASSIGN_OR_RETURN(int q, half(h));
  return q;
}

Status check_even(int n) {
  RETURN_IF_ERROR(half(n));
  RETURN_IF_ERROR(Status::ok());
  return Status::ok();
}

}  // namespace

TEST_CASE("errors carry a code chosen where they arise; the macros return them unchanged") {
  CHECK(quarter(8).value() == 2);
  Result<int> odd = quarter(6);  // 6 / 2 = 3: odd
  REQUIRE_FALSE(odd.is_ok());
  CHECK(odd.status().code() == Code::Malformed);
  CHECK(odd.status().kind() == Status::Kind::Invalid);
  CHECK(odd.status().message() == "3 is odd");
  CHECK(check_even(4).is_ok());
  CHECK(check_even(5).code() == Code::Malformed);
  CHECK(Status::transient(Code::StoreBusy, "busy").code() == Code::StoreBusy);
  CHECK(Status::invalid("plain").code() == Code::None);
#ifndef EDIHUB_ABORT_ON_MISUSE
  // A Result built from an ok Status is a programming error: never an error that passes for a real one.
  Result<int> misused = Status::ok();
  CHECK(misused.status().code() == Code::Internal);
#endif
}

TEST_CASE("log lines: the same fields as logfmt or JSON, partner bytes bounded and never structure") {
  LogLine line("protocol", "as2");
  line.add("partner", "acme")
      .add("message_id", "<1@acme.example>")
      .add("status", 200)
      .add("peer", "")
      .add_nonempty("detail", "")
      .add("note", "a \"b\"=c\\d");
  CHECK(line.render(LogFormat::Text) ==
        R"(protocol=as2 partner=acme message_id=<1@acme.example> status=200 peer="" note="a \"b\"=c\\d")");
  CHECK(
      line.render(LogFormat::Json) ==
      R"({"protocol":"as2","partner":"acme","message_id":"<1@acme.example>","status":200,"peer":"","note":"a \"b\"=c\\d"})");

  // A forged line break, a control byte and an overlong value: escaped and cut, one line, one field.
  LogLine hostile("problem", "x\r\n[error] forged\x01" + std::string(500, 'a'), 40);
  CHECK(hostile.render(LogFormat::Text) == R"(problem="x\\x0D\\x0A[error] forged\\x01aaaaaaaaaa...")");
  CHECK(hostile.render(LogFormat::Json) == R"({"problem":"x\\x0D\\x0A[error] forged\\x01aaaaaaaaaa..."})");
}
