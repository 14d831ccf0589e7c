#include <doctest/doctest.h>

#include "parsers/mime/entity.h"

using namespace edihub::mime;

TEST_CASE("an entity: headers unfolded, body and raw bytes exact") {
  std::string in =
      "Content-Type: application/EDI-X12;\r\n"
      "\tname=order.edi\r\n"
      "Content-Transfer-Encoding: binary\r\n"
      "\r\n"
      "ISA*00*...~\r\n";
  Entity e;
  REQUIRE_FALSE(parse_entity(in, &e));
  REQUIRE(e.headers.size() == 2);
  CHECK(e.headers[0].name == "Content-Type");
  CHECK(e.headers[0].value == "application/EDI-X12; name=order.edi");
  CHECK(e.find("content-transfer-encoding")->value == "binary");
  CHECK(e.body == "ISA*00*...~\r\n");
  CHECK(e.raw == in);
  CHECK(e.header_block.size() + e.body.size() == in.size());
  ContentType ct = e.content_type();
  CHECK(ct.is("application/edi-x12"));
  CHECK(ct.param("name") == "order.edi");
}

TEST_CASE("entities with bare LF, without headers, and broken ones") {
  Entity e;
  REQUIRE_FALSE(parse_entity("Content-Type: text/plain\n\nhello", &e));
  CHECK(e.body == "hello");
  REQUIRE_FALSE(parse_entity("\r\nbody only", &e));
  CHECK(e.headers.empty());
  CHECK(e.body == "body only");
  CHECK(e.content_type().is("text/plain"));

  Error err = parse_entity("Content-Type: text/plain\r\nno blank line", &e);
  CHECK(err.code == Error::Code::NoHeaderEnd);
  err = parse_entity("not a header\r\n\r\n", &e);
  CHECK(err.code == Error::Code::BadHeader);
  CHECK(err.message == "MIME header line without a 'Name:' at byte 0");
  err = parse_entity(" folded\r\n\r\n", &e);
  CHECK(err.code == Error::Code::BadHeader);

  Limits small;
  small.max_headers = 2;
  err = parse_entity("A: 1\r\nB: 2\r\nC: 3\r\n\r\n", &e, small);
  CHECK(err.code == Error::Code::TooManyHeaders);
  small.max_header_bytes = 10;
  err = parse_entity("Subject: a very long subject line\r\n\r\n", &e, small);
  CHECK(err.code == Error::Code::HeaderTooLong);
}

TEST_CASE("Content-Type parameters: quoted, escaped, case-insensitive names") {
  ContentType ct;
  REQUIRE_FALSE(
      parse_content_type("multipart/signed; protocol=\"application/pkcs7-signature\"; MICALG=sha-256;\r\n"
                         " boundary=\"----=_Part_0_\\\"x\\\".1\";",
                         &ct));
  CHECK(ct.type == "multipart");
  CHECK(ct.subtype == "signed");
  CHECK(ct.param("protocol") == "application/pkcs7-signature");
  CHECK(ct.param("micalg") == "sha-256");
  CHECK(ct.param("boundary") == "----=_Part_0_\"x\".1");
  CHECK(ct.param("missing").empty());
  CHECK(parse_content_type("application", &ct).code == Error::Code::BadContentType);
  CHECK(parse_content_type("a/b; name", &ct).code == Error::Code::BadContentType);
  CHECK(parse_content_type("a/b; n=\"open", &ct).code == Error::Code::BadContentType);
}

TEST_CASE("multipart/signed: the signed part is byte-exact, preamble and epilogue ignored") {
  const std::string signed_part =
      "Content-Type: application/edi-x12\r\n"
      "\r\n"
      "ISA*00*...~\r\n";  // its own last CRLF is part of the content
  const std::string body =
      "This is an S/MIME signed message\r\n"
      "\r\n"
      "------=_Part_1\r\n" +
      signed_part +
      "\r\n"
      "------=_Part_1\r\n"
      "Content-Type: application/pkcs7-signature; name=smime.p7s\r\n"
      "Content-Transfer-Encoding: base64\r\n"
      "\r\n"
      "MIIGkwYJKoZIhvcNAQcCoIIGhDCCBoACAQEx\r\n"
      "------=_Part_1--\r\n"
      "epilogue\r\n";
  std::vector<std::string_view> parts;
  REQUIRE_FALSE(split_multipart(body, "----=_Part_1", &parts));
  REQUIRE(parts.size() == 2);
  CHECK(parts[0] == signed_part);
  Entity sig;
  REQUIRE_FALSE(parse_entity(parts[1], &sig));
  CHECK(sig.content_type().is("application/pkcs7-signature"));
  CHECK(sig.body == "MIIGkwYJKoZIhvcNAQcCoIIGhDCCBoACAQEx");
}

TEST_CASE("multipart boundaries: line starts only, longer boundaries, LF, padding, limits") {
  std::vector<std::string_view> parts;
  // "--b" inside content and "--bx" are not delimiters of boundary "b".
  std::string body = "--b\nA: 1\n\nx --b y\n--bx\nstill\n--b  \nB: 2\n\nz\n--b--";
  REQUIRE_FALSE(split_multipart(body, "b", &parts));
  REQUIRE(parts.size() == 2);
  CHECK(parts[0] == "A: 1\n\nx --b y\n--bx\nstill");
  CHECK(parts[1] == "B: 2\n\nz");

  CHECK(split_multipart("--b\r\nA: 1\r\n\r\nx\r\n", "b", &parts).code == Error::Code::NoClosingBoundary);
  CHECK(split_multipart("no delimiter here", "b", &parts).code == Error::Code::NoBoundary);
  CHECK(split_multipart("x", "", &parts).code == Error::Code::NoBoundary);
  Limits one;
  one.max_parts = 1;
  CHECK(split_multipart("--b\n\n1\n--b\n\n2\n--b--", "b", &parts, one).code == Error::Code::TooManyParts);
}

TEST_CASE("every truncated prefix of a multipart message fails cleanly or parses") {
  const std::string body = "--b\r\nA: 1\r\n\r\none\r\n--b\r\n\r\ntwo\r\n--b--\r\n";
  for (size_t n = 0; n <= body.size(); ++n) {
    std::vector<std::string_view> parts;
    Error e = split_multipart(std::string_view(body).substr(0, n), "b", &parts);
    if (!e) {
      CHECK(parts.size() == 2);
    }
    for (auto p : parts) {
      Entity ent;
      parse_entity(p, &ent);  // must not crash or read outside p
    }
  }
}

#include "parsers/mime/transfer.h"

TEST_CASE("base64 transfer decoding: line breaks skipped, anything else outside the alphabet refused") {
  std::string out;
  CHECK(base64_decode("SGVs\r\nbG8=", &out));
  CHECK(out == "Hello");
  CHECK(base64_decode("SGVsbG8", &out));  // unpadded, as some senders write
  CHECK(out == "Hello");
  CHECK(base64_decode("", &out));
  CHECK(out.empty());
  CHECK_FALSE(base64_decode("SGVs*bG8=", &out));
  CHECK_FALSE(base64_decode("SGVsbG8=QQ", &out));  // data after the padding
  CHECK_FALSE(base64_decode("Q===", &out));
  CHECK_FALSE(base64_decode("Q", &out));
  Entity e;
  REQUIRE_FALSE(parse_entity("Content-Transfer-Encoding: quoted-printable\r\n\r\nx", &e));
  Error err = decode_body(e, &out);
  CHECK(err.message == "Content-Transfer-Encoding 'quoted-printable' is not supported (binary or base64)");
}

TEST_CASE("one reading only: a deciding header or a Content-Type parameter given twice is refused") {
  Entity e;
  Error err = parse_entity("Content-Type: text/plain\r\nContent-Type: application/edi-x12\r\n\r\nbody", &e);
  CHECK(err.code == Error::Code::Ambiguous);
  CHECK(err.message == "MIME header 'Content-Type' given twice");
  CHECK(parse_entity("content-transfer-encoding: base64\r\nContent-Transfer-Encoding: binary\r\n\r\nx", &e).code ==
        Error::Code::Ambiguous);
  CHECK(parse_entity("Content-ID: <a>\r\nContent-ID: <b>\r\n\r\nx", &e).code == Error::Code::Ambiguous);
  CHECK_FALSE(parse_entity("X-Note: a\r\nX-Note: b\r\n\r\nx", &e));  // headers that decide nothing may repeat
  ContentType ct;
  err = parse_content_type("multipart/signed; boundary=a; micalg=sha-256; BOUNDARY=\"b\"", &ct);
  CHECK(err.code == Error::Code::Ambiguous);
  CHECK(err.message == "Content-Type parameter 'boundary' given twice");
  CHECK_FALSE(parse_content_type("multipart/signed; boundary=a; micalg=sha-256", &ct));
}
