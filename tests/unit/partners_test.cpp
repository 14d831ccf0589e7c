// Partner profiles as an operator writes them, and the mistakes they make.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "parsers/edi/parser.h"
#include "src/config/gateway.h"
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
  CHECK(acme->retention.days == 30);
  CHECK(acme->as2.ids == std::vector<std::string>{"ACMESUPPLY"});
  REQUIRE(acme->certificates.signing.size() == 1);
  CHECK(std::filesystem::exists(acme->certificates.signing[0]));
  CHECK(acme->as2.require_signature);
  CHECK(acme->as2.require_encryption);
  CHECK(partners->as2_sender("ACMESUPPLY") == acme);
  CHECK(partners->as2_sender("acmesupply") == nullptr);  // AS2 ids are case-sensitive
  auto ic = edi::parse(test::read_file(test::source_path("samples/edi/x12-856-004010.edi"))).interchanges.at(0);
  CHECK(partners->sender_of(ic) == acme);
}

TEST_CASE("async MDN URLs: only under an allowed prefix, never a look-alike host") {
  config::Partner p;
  p.as2.async_mdn_prefixes = {"https://as2.acme.example/mdn", "https://mdn.acme.example", "http://127.0.0.1:"};
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
    CHECK(config::Partners::load(d.path).status().message() ==
          d.path + "/b.xml: AS2 id 'X' also belongs to partner 'a'");
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

// `openssl x509 -in partners/certs/NAME.crt -outform DER | sha256sum`
const char kAcmeSha256[] = "3358e24fe8b14c6c5f87fd3e5b0a3702166013f1c9754e95339409642b5af6ed";
const char kEdihubSha256[] = "4d2c03abc7662e63dfce212c54f1f96ea2c7a6ccae6672acdd6481eb656ac856";

TEST_CASE("<auth client-cert>: pinned TLS client certificates load as SHA-256 fingerprints, in order") {
  Dir d;
  std::filesystem::create_directory(d.path + "/certs");
  for (const char* name : {"acme.crt", "edihub.crt"})
    std::filesystem::copy_file(test::source_path("partners/certs/") + name, d.path + "/certs/" + name);
  SUBCASE("one, then a rollover's two, paths relative to the profile") {
    d.write("a.xml", "<partner id='a'><auth client-cert='certs/acme.crt'/></partner>");
    auto one = config::Partners::load(d.path);
    REQUIRE(one.is_ok());
    CHECK(one->find("a")->auth.client_cert_sha256 == std::vector<std::string>{kAcmeSha256});
    CHECK(one->find("a")->auth.client_certificates == std::vector<std::string>{d.path + "/certs/acme.crt"});
    d.write("a.xml",
            "<partner id='a'><auth client-cert='certs/acme.crt'/><auth client-cert='./certs/edihub.crt'/>"
            "<auth allow-ip='127.0.0.1'/></partner>");
    auto two = config::Partners::load(d.path);
    REQUIRE(two.is_ok());
    CHECK(two->find("a")->auth.client_cert_sha256 == std::vector<std::string>{kAcmeSha256, kEdihubSha256});
    CHECK(two->find("a")->auth.client_certificates[1] == d.path + "/certs/edihub.crt");
    CHECK(two->find("a")->auth.allow_ips == std::vector<std::string>{"127.0.0.1"});
  }
  SUBCASE("none: nothing pinned") {
    d.write("a.xml", "<partner id='a'><auth allow-ip='127.0.0.1'/></partner>");
    CHECK(config::Partners::load(d.path)->find("a")->auth.client_cert_sha256.empty());
  }
  SUBCASE("a file that does not load is named") {
    d.write("a.xml",
            "<partner id='a'><auth client-cert='certs/acme.crt'/><auth client-cert='certs/gone.crt'/></partner>");
    CHECK(config::Partners::load(d.path).status().message() ==
          d.path + "/a.xml: <auth client-cert>: " + d.path + "/certs/gone.crt: cannot be read");
    d.write("certs/not.crt", "-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n");
    d.write("a.xml", "<partner id='a'><auth client-cert='certs/not.crt'/></partner>");
    const std::string why = config::Partners::load(d.path).status().message();
    CHECK(why.rfind(d.path + "/a.xml: <auth client-cert>: " + d.path + "/certs/not.crt: not a PEM certificate", 0) ==
          0);
    d.write("a.xml", "<partner id='a'><auth client-cert=''/></partner>");
    CHECK(config::Partners::load(d.path).status().message() ==
          d.path + "/a.xml: <auth client-cert> needs a certificate file");
  }
}

TEST_CASE("async MDN URLs are compared after normalisation, on segment boundaries") {
  struct Case {
    const char* prefix;
    const char* url;
    bool allowed;
  };
  const Case cases[] = {
      // segment boundaries
      {"http://host/mdn", "http://host/mdn", true},
      {"http://host/mdn", "http://host/mdn/", true},
      {"http://host/mdn", "http://host/mdn/x", true},
      {"http://host/mdn", "http://host/mdn?x", true},
      {"http://host/mdn", "http://host/mdnx", false},
      {"http://host/mdn", "http://host/mdn-admin", false},
      {"http://host/mdn/", "http://host/mdn/x", true},
      {"http://host/mdn/", "http://host/mdn", false},
      {"http://host/mdn", "http://host/MDN/x", false},  // the path is case-sensitive
      // dot segments, plain and percent-encoded
      {"http://host/mdn/", "http://host/mdn/../admin", false},
      {"http://host/mdn/", "http://host/mdn/%2e%2e/admin", false},
      {"http://host/mdn/", "http://host/mdn/%2E%2E/admin", false},
      {"http://host/mdn/", "http://host/mdn/.%2e/admin", false},
      {"http://host/mdn/", "http://host/mdn/x/../y", true},
      {"http://host/mdn/", "http://host/mdn/./x", true},
      {"http://host/mdn/", "http://host/%6Ddn/x", true},  // %6D is 'm'
      {"http://host/mdn/", "http://host/mdn/x%2F..%2F..%2Fadmin", false},
      {"http://host/mdn/", "http://host/mdn/x\\..\\..\\admin", false},
      {"http://host/mdn/", "http://host/mdn/%zz", false},
      // scheme, host and port
      {"http://host/mdn", "HTTP://HOST/mdn/x", true},
      {"http://host/mdn", "http://host:80/mdn/x", true},
      {"http://host:80/mdn", "http://host/mdn/x", true},
      {"http://host/mdn", "http://host:8080/mdn/x", false},
      {"http://host/mdn", "https://host/mdn/x", false},
      {"https://host/mdn", "https://host:443/mdn", true},
      {"http://host/mdn", "http://host.evil/mdn", false},
      {"http://host/mdn", "http://host./mdn", false},
      {"http://host/mdn", "ftp://host/mdn", false},
      {"http://host/mdn", "http:/host/mdn", false},
      {"http://host/mdn", "http:///host/mdn", false},
      {"http://[::1]:8080/mdn", "http://[::1]:8080/mdn/x", true},
      // user info, fragments, control characters, spaces
      {"http://host/mdn", "http://host@evil/mdn", false},
      {"http://host/mdn", "http://user:pw@host/mdn", false},
      {"http://host/mdn", "http://evil/mdn#@host", false},
      {"http://host/mdn", "http://host/mdn#x", false},
      {"http://host/mdn", "http://host/mdn/x\r\nHost: evil", false},
      {"http://host/mdn", "http://host/mdn/\r\n", false},
      {"http://host/mdn", "http://host/mdn/a b", false},
      {"http://host/mdn", "http://host/mdn/\x7f", false},
      {"http://host/mdn", "", false},
      // a prefix without a path: any path on exactly that host and port
      {"https://host", "https://host", true},
      {"https://host", "https://host/anything?x=1", true},
      {"https://host/", "https://host/anything", true},
      {"https://host", "https://host:443/x", true},
      {"https://host", "https://host:8443/x", false},
      {"https://host", "https://host.evil/x", false},
      {"https://host", "https://host@evil/x", false},
      {"https://host:8443", "https://host:8443/x", true},
      {"https://host:8443", "https://host/x", false},
      // an empty port ("host:") allows any port on that host (the demo profile)
      {"http://127.0.0.1:", "http://127.0.0.1:8080/mdn", true},
      {"http://127.0.0.1:", "http://127.0.0.1/mdn", true},
      {"http://127.0.0.1:", "http://127.0.0.10:8080/mdn", false},
      {"http://127.0.0.1:", "http://127.0.0.1.evil:8080/mdn", false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.prefix);
    CAPTURE(c.url);
    config::Partner p;
    p.as2.async_mdn_prefixes = {c.prefix};
    CHECK(p.allows_async_mdn(c.url) == c.allowed);
  }
}

TEST_CASE("an async MDN prefix that is not a plain http(s) URL is a load error naming the file") {
  Dir d;
  const char* bad[] = {"ftp://host/mdn",
                       "http:/host/mdn",
                       "http://user@host/mdn",
                       "http://host/mdn#x",
                       "http://host/mdn?id=1",
                       "http://host/%zz",
                       "host/mdn",
                       "",
                       "http://host:99999/",
                       "http://host/x%2Fy"};
  for (const char* prefix : bad) {
    CAPTURE(prefix);
    d.write("a.xml", std::string("<partner id='a'><mdn async-url-allow='") + prefix + "'/></partner>");
    const std::string message = config::Partners::load(d.path).status().message();
    CHECK(message.rfind(d.path + "/a.xml: <mdn async-url-allow> must be an http(s) URL prefix", 0) == 0);
    CHECK(message.find(std::string("not '") + prefix + "': ") != std::string::npos);
  }
  d.write("a.xml", "<partner id='a'><mdn async-url-allow='HTTPS://Host:443/mdn/'/></partner>");
  CHECK(config::Partners::load(d.path).is_ok());
}

TEST_CASE("a partners directory that cannot be read is an error naming it, never an exception") {
  namespace fs = std::filesystem;
  Dir d;
  d.write("a.xml", "<partner id='a'/>");
  SUBCASE("a symlink loop as the directory") {
    fs::create_directory_symlink(d.path + "/loop2", d.path + "/loop1");
    fs::create_directory_symlink(d.path + "/loop1", d.path + "/loop2");
    CHECK(config::Partners::load(d.path + "/loop1").status().message() ==
          "partners directory '" + d.path + "/loop1': cannot access: Too many levels of symbolic links");
  }
  SUBCASE("a symlink to the directory itself inside it is not followed") {
    fs::create_directory_symlink(d.path, d.path + "/loop.xml");
    auto r = config::Partners::load(d.path);
    REQUIRE(r.is_ok());
    CHECK(r->all().size() == 1);
  }
  SUBCASE("a *.xml entry that is a symlink loop") {
    fs::create_symlink(d.path + "/b.xml", d.path + "/b.xml");
    CHECK(config::Partners::load(d.path).status().message() ==
          d.path + "/b.xml: cannot read: Too many levels of symbolic links");
  }
  SUBCASE("a dangling *.xml symlink") {
    fs::create_symlink(d.path + "/gone.xml", d.path + "/b.xml");
    CHECK(config::Partners::load(d.path).status().message() == d.path + "/b.xml: symbolic link to a missing file");
  }
  SUBCASE("a file, not a directory") {
    CHECK(config::Partners::load(d.path + "/a.xml").status().message() ==
          "partners directory '" + d.path + "/a.xml' is not a directory");
  }
  // Root reads and lists anything: these cases need an ordinary user.
  if (geteuid() != 0) {
    SUBCASE("an unreadable profile") {
      d.write("b.xml", "<partner id='b'/>");
      REQUIRE(chmod((d.path + "/b.xml").c_str(), 0) == 0);
      CHECK(config::Partners::load(d.path).status().message() == d.path + "/b.xml: cannot read: Permission denied");
    }
    SUBCASE("a directory that cannot be listed") {
      REQUIRE(chmod(d.path.c_str(), 0300) == 0);
      CHECK(config::Partners::load(d.path).status().message() ==
            "partners directory '" + d.path + "': cannot list directory: Permission denied");
      REQUIRE(chmod(d.path.c_str(), 0700) == 0);
    }
  }
}

TEST_CASE("where acknowledgments go: the partner's endpoints and <acknowledgments>, with defaults") {
  Dir d;
  d.write("a.xml",
          R"(<partner id="a"><x12 qualifier="ZZ" id="A"/><as2 id="A-AS2" url="https://a.example/as2"/></partner>)");
  d.write("b.xml",
          R"(<partner id="b"><x12 qualifier="ZZ" id="B"/><as4 party-id="B" type="t" url="https://b.example/as4"/>
                        <acknowledgments x12="999" ta1="requested" contrl="never" mdn="async"/></partner>)");
  d.write("c.xml", R"(<partner id="c"><x12 qualifier="ZZ" id="C"/><acknowledgments via="dir" dir="out"/></partner>)");
  d.write("e.xml", R"(<partner id="e"><x12 qualifier="ZZ" id="E"/></partner>)");
  d.write("f.xml",
          R"(<partner id="f"><x12 qualifier="ZZ" id="F"/><documents webhook="https://erp.example/edi"/></partner>)");
  d.write("g.xml", R"(<partner id="g"><x12 qualifier="ZZ" id="G"/><documents dir="to-erp"/></partner>)");
  auto p = config::Partners::load(d.path);
  REQUIRE_MESSAGE(p.is_ok(), p.status().message());
  using Acks = config::Partner::Acknowledgments;
  const config::Partner* a = p->find("a");
  CHECK(a->acknowledgments.via == Acks::Via::As2);  // the default, with an AS2 url
  CHECK(a->as2.url == "https://a.example/as2");
  CHECK(a->as2.send_id == "A-AS2");
  CHECK(a->as2.cipher == "aes-256-cbc");  // what every partner reads, with RSA PKCS#1 v1.5
  CHECK_FALSE(a->as2.rsa_oaep);
  CHECK(a->acknowledgments.x12 == Acks::X12::Auto);
  CHECK(a->acknowledgments.ta1 == Acks::Ta1::OnError);
  CHECK(a->acknowledgments.contrl == Acks::Contrl::Always);
  const config::Partner* b = p->find("b");
  CHECK(b->acknowledgments.via == Acks::Via::As4);  // no AS2 url, an AS4 one
  CHECK(b->as4.send_party == "B");
  CHECK(b->acknowledgments.x12 == Acks::X12::Ack999);
  CHECK(b->acknowledgments.ta1 == Acks::Ta1::Requested);
  CHECK(b->acknowledgments.contrl == Acks::Contrl::Never);
  CHECK(b->acknowledgments.mdn == Acks::Mdn::Async);
  CHECK(p->find("c")->acknowledgments.via == Acks::Via::Dir);
  CHECK(p->find("c")->acknowledgments.dir == d.path + "/out");
  CHECK(p->find("e")->acknowledgments.via == Acks::Via::None);  // nowhere to send
  using Docs = config::Partner::Documents;
  CHECK(p->find("e")->documents.via == Docs::Via::None);
  CHECK(p->find("f")->documents.via == Docs::Via::Webhook);
  CHECK(p->find("f")->documents.target == "https://erp.example/edi");
  CHECK(p->find("g")->documents.via == Docs::Via::Dir);
  CHECK(p->find("g")->documents.target == d.path + "/to-erp");

  Dir bad;
  bad.write("x.xml", R"(<partner id="x"><documents webhook="https://erp.example/" dir="out"/></partner>)");
  CHECK(config::Partners::load(bad.path).status().message() ==
        bad.path + "/x.xml: <documents> needs either a webhook URL or a dir (or none=\"true\")");
  bad.write("x.xml", R"(<partner id="x"><documents webhook="ftp://erp.example/"/></partner>)");
  CHECK(config::Partners::load(bad.path).status().message().find("<documents webhook> must be an http(s) URL") !=
        std::string::npos);
  bad.write("x.xml", R"(<partner id="x"><acknowledgments via="ftp"/></partner>)");
  CHECK(config::Partners::load(bad.path).status().message() ==
        bad.path + "/x.xml: <acknowledgments via> must be as2|as4|dir|none, not 'ftp'");
  bad.write("x.xml", R"(<partner id="x"><acknowledgments via="as2"/></partner>)");
  CHECK(config::Partners::load(bad.path).status().message() ==
        bad.path + "/x.xml: <acknowledgments via=\"as2\"> needs an <as2 id url> to send to");
  bad.write("x.xml", R"(<partner id="x"><as2 id="X" url="https://x.example/as2" cipher="rc2-40-cbc"/></partner>)");
  CHECK(config::Partners::load(bad.path).status().message() ==
        bad.path + "/x.xml: <as2 cipher> must be aes-128-cbc|aes-192-cbc|aes-256-cbc|des-ede3-cbc, not 'rc2-40-cbc'");
  bad.write("x.xml", R"(<partner id="x"><as2 id="X" url="https://x.example/as2" key-transport="oaep"/></partner>)");
  CHECK(config::Partners::load(bad.path).status().message() ==
        bad.path + "/x.xml: <as2 key-transport> must be rsa|rsa-oaep, not 'oaep'");
  bad.write("x.xml", R"(<partner id="x"><as2 id="X" url="https://x.example/as2" digest="md5"/></partner>)");
  CHECK(config::Partners::load(bad.path).status().message() ==
        bad.path + "/x.xml: <as2 digest> must be sha-256|sha-384|sha-512, not 'md5'");
  bad.write("x.xml", R"(<partner id="x"><as4 party-id="X" url="https://x.example/as4" compress="yes"/></partner>)");
  CHECK(config::Partners::load(bad.path).status().message() ==
        bad.path + "/x.xml: <as4 compress> must be true|false, not 'yes'");
  bad.write("x.xml", R"(<partner id="x"><as2 id="X" url="https://user@x.example/as2"/></partner>)");
  CHECK(config::Partners::load(bad.path).status().message().find("<as2 url> must be an http(s) URL") !=
        std::string::npos);
}

TEST_CASE("documents: a partner's own <documents>, none=\"true\", or the gateway's default") {
  Dir d;
  d.write("own.xml", R"(<partner id="own"><x12 qualifier="ZZ" id="O"/><documents dir="mine"/></partner>)");
  d.write("off.xml", R"(<partner id="off"><x12 qualifier="ZZ" id="N"/><documents none="true"/></partner>)");
  d.write("plain.xml", R"(<partner id="plain"><x12 qualifier="ZZ" id="P"/>
                            <as2 id="P" url="https://p.example/as2" digest="sha-512" compress="true"/>
                            <as4 party-id="P" url="https://p.example/as4" service="urn:s" action="ack"/></partner>)");
  auto p = config::Partners::load(d.path);
  REQUIRE_MESSAGE(p.is_ok(), p.status().message());
  using Docs = config::Partner::Documents;
  p->default_documents({Docs::Via::Webhook, "https://erp.example/all"});
  CHECK(p->find("own")->documents.target == d.path + "/mine");
  CHECK(p->find("off")->documents.via == Docs::Via::None);
  CHECK(p->find("plain")->documents.via == Docs::Via::Webhook);
  CHECK(p->find("plain")->documents.target == "https://erp.example/all");
  const config::Partner* plain = p->find("plain");
  CHECK(plain->as2.digest == "sha-512");
  CHECK(plain->as2.compress);
  CHECK(plain->as4.service == "urn:s");
  CHECK(plain->as4.action == "ack");
  CHECK_FALSE(plain->as4.compress);

  // The default as the gateway file gives it: a relative dir is the file's.
  d.write("edihub.conf", R"(<edihub><identity cert="e.crt" key="e.key"/><documents dir="erp-drop"/></edihub>)");
  auto gw = config::Gateway::load(d.path + "/edihub.conf");
  REQUIRE_MESSAGE(gw.is_ok(), gw.status().message());
  CHECK(gw->documents.via == Docs::Via::Dir);
  CHECK(gw->documents.target == d.path + "/erp-drop");
  d.write("edihub.conf",
          R"(<edihub><identity cert="e.crt" key="e.key"/><documents webhook="mailto:erp@example.com"/></edihub>)");
  CHECK(config::Gateway::load(d.path + "/edihub.conf")
            .status()
            .message()
            .rfind(d.path + "/edihub.conf: <documents webhook> must be an http(s) URL, not 'mailto:erp@example.com'",
                   0) == 0);
}

TEST_CASE("who may send an interchange: the partner's own ids, and those of the partners it sends for") {
  Dir d;
  d.write("acme.xml", R"(<partner id="acme"><x12 qualifier="ZZ" id="ACMESUPPLY"/></partner>)");
  d.write("van.xml", R"(<partner id="van"><x12 qualifier="ZZ" id="VANHUB"/><sends-for partner="acme"/></partner>)");
  d.write("widgetco.xml", R"(<partner id="widgetco"><x12 qualifier="ZZ" id="WIDGETCO"/></partner>)");
  auto partners = config::Partners::load(d.path);
  REQUIRE_MESSAGE(partners.is_ok(), partners.status().message());
  const config::Partner* acme = partners->find("acme");
  const config::Partner* van = partners->find("van");
  const config::Partner* widgetco = partners->find("widgetco");
  auto ic = edi::parse(test::read_file(test::source_path("samples/edi/x12-810-004010.edi"))).interchanges.at(0);
  CHECK(partners->owner_for(*acme, ic) == acme);
  CHECK(partners->owner_for(*van, ic) == acme);          // booked as acme's
  CHECK(partners->owner_for(*widgetco, ic) == nullptr);  // not widgetco's to send
  CHECK(widgetco->ids_text(edi::Standard::X12) == "ZZ:WIDGETCO");
  CHECK(widgetco->ids_text(edi::Standard::Edifact) == "none");
  ic.sender.qualifier = "01";  // the same id under another qualifier is another id
  CHECK(partners->owner_for(*acme, ic) == nullptr);
}

TEST_CASE("profiles that would let one partner be taken for another do not load") {
  SUBCASE("<sends-for> a partner that has no profile") {
    Dir d;
    d.write("van.xml", R"(<partner id="van"><sends-for partner="ghost"/></partner>)");
    CHECK(test::contains(config::Partners::load(d.path).status().message(),
                         "van.xml: <sends-for partner=\"ghost\"/> names no partner profile"));
  }
  SUBCASE("<sends-for> itself") {
    Dir d;
    d.write("van.xml", R"(<partner id="van"><sends-for partner="van"/></partner>)");
    CHECK(test::contains(config::Partners::load(d.path).status().message(), "needs the id of another partner"));
  }
  SUBCASE("one AS4 party id in two profiles (an empty type matches any)") {
    Dir d;
    d.write("a.xml", R"(<partner id="a"><as4 party-id="P1" type="t"/></partner>)");
    d.write("b.xml", R"(<partner id="b"><as4 party-id="P1"/></partner>)");
    CHECK(test::contains(config::Partners::load(d.path).status().message(),
                         "b.xml: AS4 party id 'P1' also belongs to partner 'a'"));
    Dir ok;
    ok.write("a.xml", R"(<partner id="a"><as4 party-id="P1" type="t"/></partner>)");
    ok.write("b.xml", R"(<partner id="b"><as4 party-id="P1" type="u"/></partner>)");
    CHECK(config::Partners::load(ok.path).is_ok());
  }
}

TEST_CASE("a partner whose only identity is a header is named at load") {
  Dir d;
  d.write("loose.xml", R"(<partner id="loose"><as2 id="LOOSE"/><security require-signature="false"/></partner>)");
  d.write("fenced.xml", R"(<partner id="fenced"><as2 id="FENCED"/><security require-signature="false"/>)"
                        R"(<auth allow-ip="192.0.2.0/24"/></partner>)");
  auto partners = config::Partners::load(d.path);
  REQUIRE(partners.is_ok());
  REQUIRE(partners->warnings().size() == 1);
  CHECK(test::contains(partners->warnings()[0],
                       "loose.xml: partner 'loose' requires no AS2 signature and has no "
                       "<auth>: anyone who sends its AS2-From header is taken for it"));
}

TEST_CASE("the gateway's own EDI ids: <edi>, or the demo's with a warning") {
  Dir d;
  d.write("gw.xml", R"(<edihub><identity cert="c" key="k"/><edi><x12 qualifier="01" id="123456789"/>)"
                    R"(<edifact id="4012345000009"/></edi></edihub>)");
  auto gw = config::Gateway::load(d.path + "/gw.xml");
  REQUIRE_MESSAGE(gw.is_ok(), gw.status().message());
  CHECK(gw->warnings.empty());
  auto ic = edi::parse(test::read_file(test::source_path("samples/edi/x12-810-004010.edi"))).interchanges.at(0);
  CHECK_FALSE(gw->edi_ids.ours(ic));  // addressed to ZZ:EDIHUB
  ic.receiver = {"123456789", "01"};
  CHECK(gw->edi_ids.ours(ic));
  d.write("demo.xml", R"(<edihub><identity cert="c" key="k"/></edihub>)");
  auto demo = config::Gateway::load(d.path + "/demo.xml");
  REQUIRE(demo.is_ok());
  REQUIRE(demo->warnings.size() == 1);
  CHECK(test::contains(demo->warnings[0], "no <edi> ids: interchanges must be addressed to the demo ids ZZ:EDIHUB"));
  d.write("empty.xml", R"(<edihub><identity cert="c" key="k"/><edi/></edihub>)");
  CHECK(test::contains(config::Gateway::load(d.path + "/empty.xml").status().message(),
                       "every interchange would be refused"));
}

TEST_CASE("<limits>: the message-log rows a client may cause, read and checked") {
  Dir d;
  d.write("gw.xml", R"(<edihub><identity cert="c" key="k"/>)"
                    R"(<limits max-log-rows-per-client="5" max-log-rows="8"/></edihub>)");
  auto gw = config::Gateway::load(d.path + "/gw.xml");
  REQUIRE_MESSAGE(gw.is_ok(), gw.status().message());
  CHECK(gw->max_log_rows_per_client == 5);
  CHECK(gw->max_log_rows == 8);
  d.write("none.xml", R"(<edihub><identity cert="c" key="k"/></edihub>)");
  CHECK(config::Gateway::load(d.path + "/none.xml")->max_log_rows_per_client == 60);
  for (const char* bad : {R"(max-log-rows-per-client="0")", R"(max-log-rows-per-client="9" max-log-rows="8")"}) {
    d.write("bad.xml", std::string(R"(<edihub><identity cert="c" key="k"/><limits )") + bad + "/></edihub>");
    CHECK_MESSAGE(test::contains(config::Gateway::load(d.path + "/bad.xml").status().message(),
                                 "max-log-rows >= max-log-rows-per-client >= 1"),
                  bad);
  }
}

TEST_CASE("<peppol>: our seat, the participants we receive for, the AP CAs and CRLs; mistakes named") {
  Dir d;
  d.write("gw.xml", R"(<edihub><identity cert="c" key="k"/><peppol seat="POP000999">)"
                    R"(<participant id="0088:5790000435951"/><participant id="0192:987654321"/>)"
                    R"(<ap-ca file="ca/ap.pem"/><ap-ca file="/etc/peppol/ap-2025.pem"/><crl file="ca/ap.crl"/>)"
                    R"(</peppol></edihub>)");
  auto gw = config::Gateway::load(d.path + "/gw.xml");
  REQUIRE_MESSAGE(gw.is_ok(), gw.status().message());
  CHECK(gw->peppol.enabled);
  CHECK(gw->peppol.seat == "POP000999");
  CHECK(gw->peppol.participants == std::vector<std::string>{"0088:5790000435951", "0192:987654321"});
  CHECK(gw->peppol.ap_cas == std::vector<std::string>{d.path + "/ca/ap.pem", "/etc/peppol/ap-2025.pem"});
  CHECK(gw->peppol.crls == std::vector<std::string>{d.path + "/ca/ap.crl"});
  CHECK(gw->warnings.size() == 1);  // no <edi> only
  d.write("none.xml", R"(<edihub><identity cert="c" key="k"/></edihub>)");
  CHECK_FALSE(config::Gateway::load(d.path + "/none.xml")->peppol.enabled);

  struct Case {
    const char* peppol;
    const char* error;
  };
  const Case cases[] = {
      {R"(<peppol><participant id="0088:1"/><ap-ca file="a"/></peppol>)", "<peppol> needs seat"},
      {R"(<peppol seat="P"><ap-ca file="a"/></peppol>)", "<peppol> lists no <participant id/>"},
      {R"(<peppol seat="P"><participant id="5790000435951"/><ap-ca file="a"/></peppol>)",
       "<peppol><participant id> must be a participant identifier SCHEME:VALUE"},
      {R"(<peppol seat="P"><participant id="0088:1"/></peppol>)", "<peppol> lists no <ap-ca file/>"},
      {R"(<peppol seat="P"><participant id="0088:1"/><ap-ca/></peppol>)", "<peppol><ap-ca> needs a file attribute"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.peppol);
    d.write("bad.xml", std::string(R"(<edihub><identity cert="c" key="k"/>)") + c.peppol + "</edihub>");
    CHECK(test::contains(config::Gateway::load(d.path + "/bad.xml").status().message(), c.error));
  }
  d.write("nocrl.xml", R"(<edihub><identity cert="c" key="k"/><edi><x12 qualifier="ZZ" id="X"/></edi>)"
                       R"(<peppol seat="P"><participant id="0088:1"/><ap-ca file="a"/></peppol></edihub>)");
  auto nocrl = config::Gateway::load(d.path + "/nocrl.xml");
  REQUIRE(nocrl.is_ok());
  REQUIRE(nocrl->warnings.size() == 1);
  CHECK(test::contains(nocrl->warnings[0], "a revoked access point certificate is not recognised as revoked"));
}

TEST_CASE("<peppol seat>: a sending access point's profile, or the one for every other; signed and encrypted") {
  Dir d;
  d.write("a.xml", R"(<partner id="ap-123"><peppol seat="POP000123"/><peppol seat="POP000124"/></partner>)");
  d.write("b.xml", R"(<partner id="peppol"><peppol seat="*"/><security require-signature="false"/></partner>)");
  auto partners = config::Partners::load(d.path);
  REQUIRE_MESSAGE(partners.is_ok(), partners.status().message());
  const config::Partner* ap = partners->find("ap-123");
  const config::Partner* any = partners->find("peppol");
  CHECK(partners->peppol_sender("POP000123") == ap);
  CHECK(partners->peppol_sender("POP000124") == ap);
  CHECK(partners->peppol_sender("POP000777") == any);
  CHECK(any->is_peppol());
  CHECK(any->as4.require_signature);  // whatever <security> says
  CHECK(any->as4.require_encryption);
  CHECK(partners->as4_sender("POP000123", "urn:fdc:peppol.eu:2017:identifiers:ap") == nullptr);

  d.write("c.xml", R"(<partner id="twice"><peppol seat="POP000124"/></partner>)");
  CHECK(test::contains(config::Partners::load(d.path).status().message(),
                       "Peppol seat 'POP000124' also belongs to partner 'ap-123'"));
  std::filesystem::remove(d.path + "/c.xml");
  d.write("c.xml", R"(<partner id="x"><peppol/></partner>)");
  CHECK(test::contains(config::Partners::load(d.path).status().message(), "<peppol> needs seat"));
  std::filesystem::remove(d.path + "/c.xml");
  d.write("c.xml", R"(<partner id="x"><peppol seat="A"/><peppol seat="A"/></partner>)");
  CHECK(test::contains(config::Partners::load(d.path).status().message(), "<peppol seat=\"A\"> is listed twice"));
}

TEST_CASE("the Peppol example configuration loads (samples/peppol/config)") {
  auto gw = config::Gateway::load(test::source_path("samples/peppol/config/edihub-peppol.xml"));
  REQUIRE_MESSAGE(gw.is_ok(), gw.status().message());
  CHECK(gw->peppol.seat == "POP000999");
  CHECK(gw->peppol.country == "NO");
  CHECK(gw->peppol.ap_cas.size() == 2);
  CHECK(gw->peppol.ocsp);
  auto partners = config::Partners::load(test::source_path("samples/peppol/config/partners"));
  REQUIRE_MESSAGE(partners.is_ok(), partners.status().message());
  const config::Partner* p = partners->find("peppol");
  REQUIRE(p != nullptr);
  CHECK(partners->peppol_sender("POP000777") == p);
  REQUIRE(p->peppol.mls.count("POP000123") == 1);
  CHECK(p->peppol.mls.at("POP000123").url == "https://ap.example.com/as4");
  CHECK(
      test::contains(p->peppol.mls.at("POP000123").certificate, "samples/peppol/config/partners/certs/pop000123.pem"));
}
