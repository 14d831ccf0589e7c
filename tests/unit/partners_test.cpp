// Partner profiles as an operator writes them, and the mistakes they make.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "parsers/edi/parser.h"
#include "src/config/partners.h"
#include "tests/unit/test_util.h"

using namespace edihub;

namespace {

struct Dir {
  std::string path;
  Dir() {
    char tmpl[] = "/tmp/edihub-partners-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~Dir() { std::filesystem::remove_all(path); }
  void write(const std::string& name, const std::string& xml) const { std::ofstream(path + "/" + name) << xml; }
};

}  // namespace

TEST_CASE("the demo profiles load, with AS2 settings and resolved certificate paths") {
  auto partners = config::Partners::load(test::source_path("partners"));
  REQUIRE(partners.is_ok());
  const config::Partner* acme = partners->find("acme");
  REQUIRE(acme != nullptr);
  CHECK(acme->name == "ACME Supply (demo)");
  CHECK(acme->retention_days == 30);
  CHECK(acme->as2_ids == std::vector<std::string>{"ACMESUPPLY"});
  REQUIRE(acme->signing_certificates.size() == 1);
  CHECK(std::filesystem::exists(acme->signing_certificates[0]));
  CHECK(acme->require_signature);
  CHECK(acme->require_encryption);
  CHECK(partners->as2_sender("ACMESUPPLY") == acme);
  CHECK(partners->as2_sender("acmesupply") == nullptr);  // AS2 ids are case-sensitive
  auto ic = edi::parse(test::read_file(test::source_path("samples/edi/x12-856-004010.edi"))).interchanges.at(0);
  CHECK(partners->sender_of(ic) == acme);
}

TEST_CASE("async MDN URLs: only under an allowed prefix, never a look-alike host") {
  config::Partner p;
  p.async_mdn_prefixes = {"https://as2.acme.example/mdn", "https://mdn.acme.example", "http://127.0.0.1:"};
  CHECK(p.allows_async_mdn("https://as2.acme.example/mdn/receive?id=1"));
  CHECK(p.allows_async_mdn("HTTPS://AS2.ACME.EXAMPLE/mdn"));
  CHECK_FALSE(p.allows_async_mdn("https://as2.acme.example/other"));
  CHECK(p.allows_async_mdn("https://mdn.acme.example/anything"));
  CHECK(p.allows_async_mdn("https://mdn.acme.example"));
  CHECK_FALSE(p.allows_async_mdn("https://mdn.acme.example.evil.com/x"));
  CHECK_FALSE(p.allows_async_mdn("https://mdn.acme.example@evil.com/x"));
  CHECK(p.allows_async_mdn("http://127.0.0.1:8080/mdn"));
  CHECK_FALSE(p.allows_async_mdn("http://127.0.0.1.evil.com/mdn"));
  CHECK_FALSE(p.allows_async_mdn("http://10.0.0.1:8080/mdn"));
}

TEST_CASE("configuration mistakes are errors naming the file and what is wrong") {
  Dir d;
  SUBCASE("missing id") {
    d.write("a.xml", "<partner><name>x</name></partner>");
    auto r = config::Partners::load(d.path);
    CHECK(r.status().message() == d.path + "/a.xml: <partner> needs an id attribute");
  }
  SUBCASE("malformed XML") {
    d.write("a.xml", "<partner id='a'><name>x</partner>");
    CHECK(config::Partners::load(d.path).status().message().find("a.xml: XML error at byte") != std::string::npos);
  }
  SUBCASE("one X12 id, two partners") {
    d.write("a.xml", "<partner id='a'><x12 qualifier='ZZ' id='SAME'/></partner>");
    d.write("b.xml", "<partner id='b'><x12 qualifier='ZZ' id='SAME'/></partner>");
    CHECK(config::Partners::load(d.path).status().message() ==
          d.path + "/b.xml: X12 id ZZ:SAME also belongs to partner 'a'");
  }
  SUBCASE("one AS2 id, two partners") {
    d.write("a.xml", "<partner id='a'><as2 id='X'/></partner>");
    d.write("b.xml", "<partner id='b'><as2 id='X'/></partner>");
    CHECK(config::Partners::load(d.path).status().message() == d.path + "/b.xml: AS2 id 'X' also belongs to partner 'a'");
  }
  SUBCASE("bad certificate use and MDN URL") {
    d.write("a.xml", "<partner id='a'><certificate use='both' file='x.crt'/></partner>");
    CHECK(config::Partners::load(d.path).status().message().find("must be signing or encryption, not 'both'") !=
          std::string::npos);
    d.write("a.xml", "<partner id='a'><mdn async-url-allow='ftp://x'/></partner>");
    CHECK(config::Partners::load(d.path).status().message().find("must be an http(s) URL prefix") != std::string::npos);
  }
  SUBCASE("no directory") {
    CHECK(config::Partners::load(d.path + "/nope").status().message() ==
          "partners directory '" + d.path + "/nope' does not exist");
  }
}
