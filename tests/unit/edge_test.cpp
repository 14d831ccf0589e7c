// The edge: header checks, the HTTP request reader (whole and byte by byte,
// with a table of malformed requests), captures read back as the server read them,
// the partner's <auth> decisions (pinned TLS client certificates).
#include <doctest/doctest.h>

#include "src/http/reader.h"
#include "src/identity/partner_auth.h"
#include "src/receivers/capture.h"
#include "src/receivers/edge.h"

using namespace edihub;
using namespace edihub::receivers;
using namespace edihub::http;
using namespace edihub::identity;

namespace {

HttpRequest with_headers(HeaderList h) {
  HttpRequest r;
  r.headers = std::move(h);
  return r;
}

// Feeds `bytes` in pieces of `step`; the state at the end and the request.
struct Read {
  RequestReader::State state = RequestReader::State::NeedMore;
  HttpRequest request;
  HttpAnswer failure;
  size_t used = 0;
};
Read read(std::string_view bytes, size_t step, ReaderLimits limits = {}) {
  RequestReader reader(limits);
  Read out;
  size_t offered = 0;
  std::string pending;
  while (true) {
    const size_t n = std::min(step, bytes.size() - offered);
    pending.append(bytes.substr(offered, n));
    offered += n;
    const size_t used = reader.feed(pending, &out.state);
    pending.erase(0, used);
    out.used += used;
    if (out.state == RequestReader::State::Failed) {
      out.failure = reader.failure();
      return out;
    }
    if (out.state == RequestReader::State::Done) {
      out.request = reader.request();
      return out;
    }
    if (out.state == RequestReader::State::Head) continue;  // on to the body
    if (offered == bytes.size() && n == 0) return out;      // needs more than there is
  }
}

}  // namespace

TEST_CASE("header values: control characters and bytes that are not UTF-8 are named") {
  CHECK_FALSE(header_problem(with_headers({{"AS2-From", "ACME"}, {"Subject", "caf\xc3\xa9 \t tab"}})));
  CHECK(header_problem(with_headers({{"Message-ID", std::string("<a\x01"
                                                                "b>")}}))
            .value() ==
        "header Message-ID has byte 0x01 at position 3: control characters and invalid UTF-8 are not allowed in "
        "header values");
  CHECK(header_problem(with_headers({{"X-Note", "a\xff"}}))
            .value()
            .rfind("header X-Note has byte 0xFF at position 2", 0) == 0);
  CHECK(header_problem(with_headers({{"X-Note", "\xc3"}})).has_value());      // a truncated sequence
  CHECK(header_problem(with_headers({{"X-Note", "\xc0\xaf"}})).has_value());  // an overlong one
  CHECK(header_problem(with_headers({{"AS2-From", "A"}, {"as2-from", "B"}})).value() ==
        "header AS2-From appears 2 times: it must appear once");
  CHECK(header_problem(with_headers({{"X", std::string(9000, 'a')}})).value() == "header X is longer than 8192 bytes");
}

TEST_CASE("AS2 ids: atoms or quoted strings of 1-128 printable characters (RFC 4130 6.2)") {
  CHECK(as2_id("ACMESUPPLY").value() == "ACMESUPPLY");
  CHECK(as2_id("acme.example-01").value() == "acme.example-01");
  CHECK(as2_id("\"ACME Supply\"").value() == "ACME Supply");
  CHECK(as2_id("\"a\\\"b\"").value() == "a\"b");
  CHECK_FALSE(as2_id(""));
  CHECK_FALSE(as2_id("two words"));
  CHECK_FALSE(as2_id("a@b"));
  CHECK_FALSE(as2_id(std::string(129, 'a')));
  CHECK_FALSE(as2_id("\"\""));
}

TEST_CASE("values copied into receipts: printable, bounded, no encoded words") {
  CHECK_FALSE(receipt_value_problem("Message-ID", "<m1@acme.example>", 998));
  CHECK(receipt_value_problem("Message-ID", "<=?UTF-8?Q?a=0D=0A?=@x>", 998).value() ==
        "header Message-ID holds an RFC 2047 encoded word: not allowed in AS2 headers");
  CHECK(receipt_value_problem("Message-ID", std::string(999, 'a'), 998).value() ==
        "header Message-ID is longer than 998 characters");
  CHECK(receipt_value_problem("Message-ID", "caf\xc3\xa9", 998).value() == "header Message-ID must be printable ASCII");
}

TEST_CASE("a request reads the same whole and byte by byte; the head is kept as received") {
  const std::string req =
      "POST /as2 HTTP/1.1\r\nHost: gw\r\nAS2-From: ACME\r\nX-Folded: a\r\n b\r\nContent-Length: 5\r\n\r\nhello";
  for (size_t step : {req.size(), size_t{1}, size_t{7}}) {
    Read r = read(req, step);
    REQUIRE(r.state == RequestReader::State::Done);
    CHECK(r.request.method == "POST");
    CHECK(r.request.target == "/as2");
    CHECK(r.request.header("as2-from") == "ACME");
    CHECK(r.request.header("X-Folded") == "a b");  // obs-fold unfolded
    CHECK(r.request.body == "hello");
    CHECK(r.request.head == req.substr(0, req.size() - 5));
    CHECK(r.used == req.size());
  }
  // Chunked: the body without its coding.
  Read c =
      read("POST /as4 HTTP/1.1\r\nHost: gw\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n", 3);
  REQUIRE(c.state == RequestReader::State::Done);
  CHECK(c.request.body == "abcde");
  // The bytes after one request belong to the next.
  Read two = read("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\n", 1000);
  CHECK(two.state == RequestReader::State::Done);
  CHECK(two.used == 34);
}

TEST_CASE("malformed requests: the status and what the sender reads") {
  const std::string framing =
      "malformed Content-Length: one decimal length, not negative, not two that differ, not together with "
      "Transfer-Encoding";
  struct Case {
    std::string bytes;
    int status;
    std::string text;
  };
  const Case cases[] = {
      {"POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\n", 400, framing},
      {"POST / HTTP/1.1\r\nContent-Length: 1e3\r\n\r\n", 400, framing},
      {"POST / HTTP/1.1\r\nContent-Length: 5, 10\r\n\r\n", 400, framing},
      {"POST / HTTP/1.1\r\nContent-Length: 12345678901234567890123\r\n\r\n", 400, framing},
      {"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400, framing},
      {"POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", 400, framing},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n", 400, framing},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 400,
       "Transfer-Encoding 'gzip' is not supported (only chunked)"},
      {"POST / HTTP/1.1\r\nBad Name: x\r\n\r\n", 400, "malformed request: bad field"},
      {"POST / HTTP/1.1\r\nX: a\x01b\r\n\r\n", 400, "malformed request: bad value"},
      {"POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\n", 413, "body larger than the limit"},
      {"POST / HTTP/1.1\r\nX: " + std::string(70000, 'a') + "\r\n\r\n", 431,
       "request line and headers larger than the limit"},
  };
  ReaderLimits limits;
  limits.max_body_bytes = 50;
  for (const Case& c : cases) {
    for (size_t step : {c.bytes.size(), size_t{1}}) {
      CAPTURE(c.bytes.substr(0, 60));
      CAPTURE(step);
      Read r = read(c.bytes, step, limits);
      REQUIRE(r.state == RequestReader::State::Failed);
      CHECK(r.failure.status == c.status);
      CHECK(r.failure.detail == c.text);
      CHECK(r.failure.close);
    }
  }
  // Bare LF line ends: refused as soon as the line is complete; fed byte by
  // byte the reader waits for a CRLF that never comes (the head deadline ends it).
  CHECK(read("POST / HTTP/1.1\nHost: x\n\n", 100).failure.detail == "malformed request: bad version");
  CHECK(read("POST / HTTP/1.1\nHost: x\n\n", 1).state == RequestReader::State::NeedMore);
  CHECK(reason_phrase(413) == "Payload Too Large");
  CHECK(reason_phrase(408) == "Request Timeout");
}

TEST_CASE("captures: the request line and head as received, then the body; older captures too") {
  const std::string head =
      "POST /as2 HTTP/1.1\r\nHost: gw\r\nAS2-From: ACMESUPPLY\r\nTransfer-Encoding: chunked\r\n\r\n";
  CHECK(capture_kind(head + "body") == CaptureKind::As2);
  Result<HttpRequest> r = read_capture(head + "de-chunked body");
  REQUIRE(r.is_ok());
  CHECK(r->header("AS2-From") == "ACMESUPPLY");
  CHECK(r->body == "de-chunked body");
  CHECK(r->head == head);
  CHECK(capture_kind("POST /as4 HTTP/1.1\r\n\r\n") == CaptureKind::As4);
  // The format before captures moved into the store: header lines, a blank line, the body.
  Result<HttpRequest> old = read_capture("AS2-From: ACMESUPPLY\r\nMessage-ID: <m@x>\r\n\r\nbody bytes");
  REQUIRE(old.is_ok());
  CHECK(old->header("Message-ID") == "<m@x>");
  CHECK(old->body == "body bytes");
  CHECK(capture_kind("ISA*00*...") == CaptureKind::None);
  // A header block with a line break inside a value cannot smuggle a second header.
  Result<HttpRequest> smuggled = read_capture("POST /as2 HTTP/1.1\r\nMessage-ID: <a\rAS2-From: EVIL>\r\n\r\nx");
  CHECK_FALSE(smuggled.is_ok());
}

TEST_CASE("captures as stored and exported: credentials redacted, the partner named on a first line") {
  const std::string head =
      "POST /as2 HTTP/1.1\r\nAS2-From: ACMESUPPLY\r\nauthorization:  Basic YWNtZTpzM2NyZXQ=\r\n"
      "Proxy-Authorization: Bearer abc.def\r\nCookie: s=1; t=2\r\nX-Authorization-Note: kept\r\n\r\n";
  CHECK(redacted_head(head) ==
        "POST /as2 HTTP/1.1\r\nAS2-From: ACMESUPPLY\r\nauthorization: Basic [redacted]\r\n"
        "Proxy-Authorization: Bearer [redacted]\r\nCookie: [redacted]\r\nX-Authorization-Note: kept\r\n\r\n");
  store::Capture c;
  c.partner_id = "acme";
  c.head = head;
  c.body = "the body";
  const std::string file = capture_file(c);
  CHECK(file.rfind("EDIHUB-CAPTURE partner=acme\r\nPOST /as2 HTTP/1.1\r\n", 0) == 0);
  CHECK(file.find("YWNtZTpzM2NyZXQ=") == std::string::npos);
  CHECK(capture_kind(file) == CaptureKind::As2);
  std::string partner = "stale";
  Result<HttpRequest> r = read_capture(file, &partner);
  REQUIRE(r.is_ok());
  CHECK(partner == "acme");
  CHECK(r->header("AS2-From") == "ACMESUPPLY");
  CHECK(r->body == "the body");
  REQUIRE(read_capture(head + "x", &partner).is_ok());
  CHECK(partner.empty());  // a capture without the line names no partner
}

TEST_CASE("partner auth: a pinned TLS client certificate, by its SHA-256, or 403 saying what to present") {
  const std::string a(64, 'a'), b(64, 'b'), c(64, 'c');
  config::Partner p;
  p.id = "acme";
  HttpRequest r;
  r.peer = "127.0.0.1";
  SUBCASE("no pin: any certificate or none") {
    CHECK_FALSE(check_partner_auth(p, r));
    r.client_cert_sha256 = c;
    CHECK_FALSE(check_partner_auth(p, r));
  }
  SUBCASE("pinned, none presented (or plain HTTP); a header does not count") {
    p.auth.client_cert_sha256 = {a};
    r.headers = {{"X-Client-Cert-SHA256", a}, {"X-SSL-Client-Cert", "-----BEGIN CERTIFICATE-----"}};
    std::optional<HttpAnswer> refused = check_partner_auth(p, r);
    REQUIRE(refused);
    CHECK(refused->status == 403);
    CHECK(refused->body == "partner acme must present its pinned TLS client certificate\n");
    CHECK(refused->outcome == Outcome::Rejected);
  }
  SUBCASE("pinned, another presented: its fingerprint named") {
    p.auth.client_cert_sha256 = {a};
    r.client_cert_sha256 = c;
    std::optional<HttpAnswer> refused = check_partner_auth(p, r);
    REQUIRE(refused);
    CHECK(refused->status == 403);
    CHECK(refused->body ==
          "the TLS client certificate presented is not the one pinned for partner acme (sha256 " + c + ")\n");
    r.client_cert_sha256 = std::string(63, 'a');  // exact match only
    CHECK(check_partner_auth(p, r)->status == 403);
  }
  SUBCASE("rollover: either pin passes") {
    p.auth.client_cert_sha256 = {a, b};
    r.client_cert_sha256 = b;
    CHECK_FALSE(check_partner_auth(p, r));
    r.client_cert_sha256 = a;
    CHECK_FALSE(check_partner_auth(p, r));
  }
  SUBCASE("the address is checked first, HTTP Basic after the certificate") {
    p.auth.client_cert_sha256 = {a};
    p.auth.allow_ips = {"192.0.2.0/24"};
    CHECK(check_partner_auth(p, r)->body == "this address may not send for partner acme\n");
    p.auth.allow_ips = {"127.0.0.0/8"};
    p.auth.basic_user = "acme";
    p.auth.basic_password_hash = "pbkdf2-sha256$1$c2FsdA==$aGFzaA==";
    CHECK(check_partner_auth(p, r)->status == 403);  // no certificate: Basic not even looked at
    r.client_cert_sha256 = a;
    std::optional<HttpAnswer> basic = check_partner_auth(p, r);
    REQUIRE(basic);
    CHECK(basic->status == 401);
    CHECK(basic->body == "partner acme must authenticate (HTTP Basic)\n");
  }
}
