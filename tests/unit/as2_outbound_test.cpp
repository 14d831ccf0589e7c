// What edihub sends a partner over AS2 (src/protocols/as2/outbound.h)
// and how it reads the partner's MDN (src/protocols/as2/partner_mdn.h), with
// the demo certificates: acme is the partner, edihub is us.
#include <doctest/doctest.h>

#include "parsers/as4/user_message.h"
#include "parsers/mime/transfer.h"
#include "src/crypto/inflate.h"
#include "src/protocols/as2/outbound.h"
#include "src/protocols/as2/partner_mdn.h"
#include "src/protocols/as4/outbound.h"
#include "tests/unit/test_util.h"

using namespace edihub;

namespace {

crypto::Identity load_identity(const std::string& name) {
  auto cert = crypto::Certificate::load_pem_file(test::source_path("partners/certs/" + name + ".crt"));
  auto key = crypto::PrivateKey::load_pem_file(test::source_path("partners/certs/" + name + ".key"));
  REQUIRE(cert.is_ok());
  REQUIRE(key.is_ok());
  return {cert.value(), key.value()};
}

store::OutboxEntry ack() {
  store::OutboxEntry e;
  e.id = 7;
  e.item.partner_id = "acme";
  e.item.kind = "997";
  e.item.channel = "as2";
  e.item.message_id = "<ack-997-x12-7.acme@edihub>";
  e.item.body = "ISA*00*...~\nST*997*0001~\nSE*2*0001~\n";
  return e;
}

using test::contains;

// The parts of a multipart/signed entity with this boundary.
std::vector<std::string_view> signed_parts(const std::string& entity, const std::string& boundary) {
  std::vector<std::string_view> parts;
  std::string_view body(entity);
  body.remove_prefix(entity.find("\r\n\r\n") + 4);
  REQUIRE_FALSE(mime::split_multipart(body, boundary, &parts));
  return parts;
}

// A signed MDN from acme: the report signed, with `tail` appended after signing.
std::string signed_mdn(const std::string& report, const std::string& tail = "") {
  auto sig = crypto::sign_detached(report, load_identity("acme"), "sha256");
  REQUIRE(sig.is_ok());
  return "--b1\r\n" + report + tail +
         "\r\n--b1\r\nContent-Type: application/pkcs7-signature\r\n"
         "Content-Transfer-Encoding: base64\r\n\r\n" +
         mime::base64_encode_lines(sig.value()) + "--b1--\r\n";
}

const char* kSignedType = "multipart/signed; protocol=\"application/pkcs7-signature\"; micalg=sha-256; boundary=b1";

std::string report(const std::string& mic,
                   const std::string& disposition = "automatic-action/MDN-sent-automatically; processed") {
  return "Content-Type: multipart/report; report-type=disposition-notification; boundary=b2\r\n\r\n"
         "--b2\r\nContent-Type: text/plain\r\n\r\nreceived\r\n--b2\r\n"
         "Content-Type: message/disposition-notification\r\n\r\n"
         "Original-Message-ID: <ack-997-x12-7.acme@edihub>\r\nDisposition: " +
         disposition + "\r\nReceived-content-MIC: " + mic + ", sha256\r\n\r\n--b2--\r\n";
}

}  // namespace

TEST_CASE(
    "an acknowledgment to a partner: signed by us over the entity, encrypted to the partner as its profile says") {
  config::Partner partner;
  partner.id = "acme";
  partner.as2.send_id = "ACME SUPPLY";  // a space: quoted in AS2-To
  partner.certificates.encryption = test::source_path("partners/certs/acme.crt");
  as2::Settings settings;
  settings.our_as2_id = "EDIHUB";
  settings.identities.push_back(load_identity("edihub"));
  as2::As2Outbound out;
  out.settings = &settings;
  const store::OutboxEntry e = ack();
  for (bool oaep : {false, true}) {
    CAPTURE(oaep);
    partner.as2.rsa_oaep = oaep;
    auto built = as2::build_as2(e, partner, out);
    REQUIRE_MESSAGE(built.is_ok(), built.status().message());
    const std::string& headers = built->headers;
    CHECK(contains(headers, "Message-ID: <ack-997-x12-7.acme@edihub>\r\n"));
    CHECK(contains(headers, "AS2-To: \"ACME SUPPLY\"\r\n"));
    CHECK(contains(headers, "AS2-From: EDIHUB\r\n"));
    CHECK_FALSE(contains(headers, "Receipt-Delivery-Option"));  // sync by default
    // The key transport OID in the DER: rsaEncryption or id-RSAES-OAEP.
    const std::string rsa("\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01", 11);
    const std::string rsaes_oaep("\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x07", 11);
    CHECK(contains(built->body, oaep ? rsaes_oaep : rsa));
    CHECK_FALSE(contains(built->body, oaep ? rsa : rsaes_oaep));
    // The partner decrypts it; the first part is the entity whose MIC it returns, signed by us.
    auto plain = crypto::decrypt(built->body, {load_identity("acme")});
    REQUIRE_MESSAGE(plain.is_ok(), plain.status().message());
    auto parts = signed_parts(plain.value(), "----=_edihub_ack_7");
    REQUIRE(parts.size() == 2);
    CHECK(parts[0] == as2::as2_entity(e));
    CHECK(as2::as2_entity(e) ==
          "Content-Type: application/edi-x12\r\nContent-Transfer-Encoding: binary\r\n\r\n" + e.item.body);
    mime::Entity sig;
    REQUIRE_FALSE(mime::parse_entity(parts[1], &sig));
    std::string der;
    REQUIRE_FALSE(mime::decode_body(sig, &der));
    auto v = crypto::verify_detached(parts[0], der, {load_identity("edihub").certificate});
    CHECK_MESSAGE(v.is_ok(), v.status().message());
  }
  partner.certificates.encryption.clear();
  CHECK(as2::build_as2(e, partner, out).status().message() ==
        "partner 'acme' has no <certificate use=\"encryption\"> to encrypt to");
  partner.certificates.encryption = test::source_path("partners/certs/acme.crt");
  partner.acknowledgments.mdn = config::Partner::Acknowledgments::Mdn::Async;
  CHECK(contains(as2::build_as2(e, partner, out).status().message(), "no <listen public-url>"));
  out.receipt_url = "https://gw.example/as2";
  auto async = as2::build_as2(e, partner, out);
  REQUIRE(async.is_ok());
  CHECK(contains(async->headers, "Receipt-Delivery-Option: https://gw.example/as2\r\n"));
}

TEST_CASE("an acknowledgment compressed before signing, with the digest the profile names") {
  config::Partner partner;
  partner.id = "acme";
  partner.as2.send_id = "ACME";
  partner.certificates.encryption = test::source_path("partners/certs/acme.crt");
  partner.as2.compress = true;
  partner.as2.digest = "sha-512";
  as2::Settings settings;
  settings.our_as2_id = "EDIHUB";
  settings.identities.push_back(load_identity("edihub"));
  as2::As2Outbound out;
  out.settings = &settings;
  const store::OutboxEntry e = ack();
  auto built = as2::build_as2(e, partner, out);
  REQUIRE_MESSAGE(built.is_ok(), built.status().message());
  CHECK(contains(built->headers, "signed-receipt-micalg=optional, sha-512\r\n"));
  auto plain = crypto::decrypt(built->body, {load_identity("acme")});
  REQUIRE_MESSAGE(plain.is_ok(), plain.status().message());
  CHECK(contains(plain.value(), "micalg=sha-512;"));
  auto parts = signed_parts(plain.value(), "----=_edihub_ack_7");
  REQUIRE(parts.size() == 2);
  CHECK(parts[0] == as2::as2_signed_entity(e, partner));
  // The signed part is compressed-data that OpenSSL reads and zlib inflates
  // back to the acknowledgment's entity.
  mime::Entity compressed;
  REQUIRE_FALSE(mime::parse_entity(parts[0], &compressed));
  CHECK(compressed.find("Content-Type")->value ==
        "application/pkcs7-mime; smime-type=compressed-data; name=\"smime.p7z\"");
  Budget budget(1 << 20);
  Lease lease(&budget, 1 << 20);
  auto inflated = crypto::decompress(compressed.body, lease);
  REQUIRE_MESSAGE(inflated.is_ok(), inflated.status().message());
  CHECK(inflated.value() == as2::as2_entity(e));
  mime::Entity sig;
  REQUIRE_FALSE(mime::parse_entity(parts[1], &sig));
  std::string der;
  REQUIRE_FALSE(mime::decode_body(sig, &der));
  auto v = crypto::verify_detached(parts[0], der, {load_identity("edihub").certificate});
  REQUIRE_MESSAGE(v.is_ok(), v.status().message());
  CHECK(v->digest == "sha512");
  // The MIC the partner must return: SHA-512 over the compressed entity.
  const as2::Mic mic = as2::as2_expected_mic(e, partner);
  CHECK(mic.algorithm == "sha-512");
  CHECK(mic.value == crypto::mic(parts[0], "sha-512").value());
}

TEST_CASE("a partner's signed MDN: verified, read, and its verdict on our message") {
  const std::vector<crypto::Certificate> acme{load_identity("acme").certificate};
  const std::string mic = as2::as2_expected_mic(ack(), config::Partner{}).value;
  auto mdn = as2::read_partner_mdn(kSignedType, signed_mdn(report(mic)), acme);
  REQUIRE_MESSAGE(mdn.is_ok(), mdn.status().message());
  CHECK(mdn->signed_);
  CHECK(mdn->original_message_id == "<ack-997-x12-7.acme@edihub>");
  CHECK(as2::verdict(mdn.value(), {"<ack-997-x12-7.acme@edihub>", mic}).is_ok());
  CHECK(contains(as2::verdict(mdn.value(), {"<ack-997-x12-7.acme@edihub>", "AAAA"}).message(), "Received-Content-MIC"));
  CHECK(
      contains(as2::verdict(mdn.value(), {"<another@edihub>", mic}).message(), "answers <ack-997-x12-7.acme@edihub>"));

  SUBCASE("the same report unsigned: refused where MDNs must be signed, read where they need not be") {
    const std::string whole = report(mic);
    auto plain = as2::read_partner_mdn("multipart/report; report-type=disposition-notification; boundary=b2",
                                       whole.substr(whole.find("\r\n\r\n") + 4), acme);
    REQUIRE_MESSAGE(plain.is_ok(), plain.status().message());
    CHECK_FALSE(plain->signed_);
    CHECK(contains(as2::verdict(plain.value(), {"<ack-997-x12-7.acme@edihub>", mic}).message(), "is not signed"));
    CHECK(as2::verdict(plain.value(), {"<ack-997-x12-7.acme@edihub>", mic, "sha-256", false}).is_ok());
    config::Partner p;
    p.as2.require_signature = false;
    CHECK_FALSE(as2::signature_required_of(p, 0));
    CHECK(as2::signature_required_of(p, 1));  // it lists a certificate: its MDNs are checked against it
    p.as2.require_signature = true;
    CHECK(as2::signature_required_of(p, 0));
  }
  SUBCASE("duplicate-document settles only with our MIC") {
    auto dup = as2::read_partner_mdn(
        kSignedType,
        signed_mdn(report("AAAA", "automatic-action/MDN-sent-automatically; processed/warning: duplicate-document")),
        acme);
    REQUIRE(dup.is_ok());
    CHECK(contains(as2::verdict(dup.value(), {"<ack-997-x12-7.acme@edihub>", mic}).message(), "Received-Content-MIC"));
    auto dup_ours = as2::read_partner_mdn(
        kSignedType,
        signed_mdn(report(mic, "automatic-action/MDN-sent-automatically; processed/warning: duplicate-document")),
        acme);
    REQUIRE(dup_ours.is_ok());
    CHECK(as2::verdict(dup_ours.value(), {"<ack-997-x12-7.acme@edihub>", mic}).is_ok());
  }

  SUBCASE("a CRLF sent after the signed report (libas2) is not part of what was signed") {
    CHECK(as2::read_partner_mdn(kSignedType, signed_mdn(report(mic), "\r\n"), acme).is_ok());
  }
  SUBCASE("anything else after signing is a bad signature") {
    CHECK(contains(as2::read_partner_mdn(kSignedType, signed_mdn(report(mic), "x\r\n"), acme).status().message(),
                   "the MDN's signature"));
    std::string altered = signed_mdn(report(mic));
    altered.replace(altered.find("processed"), 9, "PROCESSED");
    CHECK(contains(as2::read_partner_mdn(kSignedType, altered, acme).status().message(), "the MDN's signature"));
  }
  SUBCASE("signed by someone else") {
    CHECK(contains(as2::read_partner_mdn(kSignedType, signed_mdn(report(mic)), {load_identity("edihub").certificate})
                       .status()
                       .message(),
                   "the MDN's signature"));
  }
  SUBCASE("an error disposition fails with its words") {
    auto failed = as2::read_partner_mdn(
        kSignedType,
        signed_mdn(report(mic, "automatic-action/MDN-sent-automatically; processed/error: decryption-failed")), acme);
    REQUIRE(failed.is_ok());
    CHECK(contains(as2::verdict(failed.value(), {"<ack-997-x12-7.acme@edihub>", mic}).message(), "decryption-failed"));
  }
}

TEST_CASE("an acknowledgment over AS4: one UserMessage, its MessageId the row's, the ack as a gzip attachment") {
  config::Partner partner;
  partner.id = "acme";
  partner.as4.send_party = "acme-party";
  partner.as4.send_party_type = "urn:acme";
  partner.as4.compress = true;
  as4::As4Outbound out;
  out.our_party_id = "edihub";
  store::OutboxEntry e = ack();
  e.item.channel = "as4";
  e.item.reference = "<m1@acme>";
  e.created_at_ms = 1710496800000;  // 2024-03-15T10:00:00Z
  CHECK(as4::as4_message_id(e) == "ack-997-x12-7.acme@edihub");
  auto built = as4::build_as4(e, partner, out);
  REQUIRE_MESSAGE(built.is_ok(), built.status().message());
  // The same bytes when built again (a restart before the first send rebuilds nothing, but could).
  CHECK(as4::build_as4(e, partner, out)->body == built->body);
  mime::ContentType ct;
  const std::string type_line = built->headers.substr(0, built->headers.find("\r\n"));
  REQUIRE_FALSE(mime::parse_content_type(type_line.substr(std::string("Content-Type: ").size()), &ct));
  CHECK(ct.is("multipart/related"));
  CHECK(ct.param("type") == "application/soap+xml");
  std::vector<std::string_view> parts;
  REQUIRE_FALSE(mime::split_multipart(built->body, ct.param("boundary"), &parts));
  REQUIRE(parts.size() == 2);
  mime::Entity root, payload;
  REQUIRE_FALSE(mime::parse_entity(parts[0], &root));
  REQUIRE_FALSE(mime::parse_entity(parts[1], &payload));
  CHECK("<" + root.find("Content-ID")->value.substr(1) == ct.param("start"));
  as4::UserMessage m;
  as4::Error error = as4::parse_user_message(root.body, &m);
  REQUIRE_MESSAGE(!error, error.detail);
  CHECK(m.message_id == "ack-997-x12-7.acme@edihub");
  CHECK(m.timestamp == "2024-03-15T10:00:00Z");
  CHECK(m.to[0].id == "acme-party");
  CHECK(m.to[0].type == "urn:acme");
  CHECK(m.from[0].id == "edihub");
  CHECK(m.conversation_id == "<m1@acme>");
  REQUIRE(m.parts.size() == 1);
  const std::string& content_id = payload.find("Content-ID")->value;  // <...>
  CHECK(m.parts[0].href == "cid:" + content_id.substr(1, content_id.size() - 2));
  CHECK(payload.find("Content-Type")->value == "application/gzip");
  Budget budget(1 << 20);
  Lease lease(&budget, 1 << 20);
  auto inflated = crypto::inflate(payload.body, crypto::Wrapping::Gzip, lease);
  REQUIRE(inflated.is_ok());
  CHECK(inflated.value() == e.item.body);

  partner.as4.send_party.clear();
  CHECK(as4::build_as4(e, partner, out).status().message() == "partner 'acme' has no <as4 party-id url> to send to");
}
