// The shared vocabulary: partner_text(), budgets, outcome words, Result.
#include <doctest/doctest.h>

#include "src/common/budget.h"
#include "src/common/outcome.h"
#include "src/common/partner_text.h"
#include "src/common/status.h"
#include "src/crypto/inflate.h"

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
    a.give_back(40);  // the layer is released ...
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
  Result<int> odd = Status::ok();  // an ok status without a value is not a value
  CHECK_FALSE(odd.is_ok());
}
