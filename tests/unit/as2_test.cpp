#include <doctest/doctest.h>
#include <openssl/cms.h>
#include <openssl/objects.h>

#include "parsers/mime/transfer.h"
#include "src/common/budget.h"
#include "src/crypto/cms.h"
#include "src/protocols/as2/inbound.h"
#include "src/protocols/as2/mdn.h"
#include "src/protocols/as2/unwrap.h"
#include "src/protocols/as4/inbound.h"
#include "tests/unit/test_util.h"

using namespace edihub;

namespace {

// The MDN for acme's message <m1@acme>, processed, with a SHA-256 MIC.
as2::MdnContent acme_mdn() {
  as2::MdnContent c;
  c.our_as2_id = "EDIHUB";
  c.partner_as2_id = "ACMESUPPLY";
  c.original_message_id = "<m1@acme>";
  c.mic = "AAAA";
  c.mic_algorithm = "sha-256";
  c.text = "Received.";
  c.message_id = "<mdn1@edihub>";
  c.boundary = "b1";
  return c;
}

}  // namespace

TEST_CASE("Disposition-Notification-Options: signed receipts and the first supported micalg") {
  auto r = as2::parse_disposition_options(
      "signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, sha-256, sha1");
  CHECK(r.signed_receipt);
  CHECK(r.micalg == "sha-256");
  r = as2::parse_disposition_options(
      "signed-receipt-protocol=required,PKCS7-SIGNATURE;signed-receipt-micalg=required,rsa-sha3,SHA1");
  CHECK(r.signed_receipt);
  CHECK(r.micalg == "sha1");  // an unknown algorithm is skipped, not fatal
  r = as2::parse_disposition_options("");
  CHECK_FALSE(r.signed_receipt);
  CHECK(r.micalg == "sha-256");
  r = as2::parse_disposition_options("future-option=required, x; garbage");
  CHECK_FALSE(r.signed_receipt);
}

TEST_CASE("an unsigned MDN, byte for byte") {
  as2::MdnContent c = acme_mdn();
  auto mdn = as2::build_mdn(c, as2::ReceiptRequest{}, nullptr);
  REQUIRE(mdn.is_ok());
  CHECK(
      mdn->headers ==
      "AS2-Version: 1.2\r\nAS2-From: \"EDIHUB\"\r\nAS2-To: \"ACMESUPPLY\"\r\nMessage-ID: <mdn1@edihub>\r\n"
      "MIME-Version: 1.0\r\n"
      "Content-Type: multipart/report; report-type=disposition-notification; boundary=\"----=_edihub_report_b1\"\r\n");
  CHECK(mdn->body ==
        "------=_edihub_report_b1\r\n"
        "Content-Type: text/plain; charset=us-ascii\r\n"
        "Content-Transfer-Encoding: 7bit\r\n"
        "\r\n"
        "Received.\r\n"
        "------=_edihub_report_b1\r\n"
        "Content-Type: message/disposition-notification\r\n"
        "Content-Transfer-Encoding: 7bit\r\n"
        "\r\n"
        "Reporting-UA: edihub\r\n"
        "Original-Recipient: rfc822; EDIHUB\r\n"
        "Final-Recipient: rfc822; EDIHUB\r\n"
        "Original-Message-ID: <m1@acme>\r\n"
        "Received-Content-MIC: AAAA, sha-256\r\n"
        "Disposition: automatic-action/MDN-sent-automatically; processed\r\n"
        "\r\n"
        "------=_edihub_report_b1--\r\n");
  c.modifier = "authentication-failed";
  c.mic.clear();
  auto error = as2::build_mdn(c, as2::ReceiptRequest{}, nullptr);
  CHECK(error->body.find("Received-Content-MIC") == std::string::npos);
  CHECK(error->body.find("Disposition: automatic-action/MDN-sent-automatically; processed/error: "
                         "authentication-failed\r\n") != std::string::npos);
  as2::ReceiptRequest signed_request;
  signed_request.signed_receipt = true;
  CHECK(as2::build_mdn(c, signed_request, nullptr).status().message() ==
        "a signed receipt was requested but no identity can sign");
}

TEST_CASE("Disposition-Notification-Options without an importance read as the partner meant them") {
  // A common partner mistake: no "optional"/"required" before the values.
  auto r = as2::parse_disposition_options("signed-receipt-protocol=pkcs7-signature; signed-receipt-micalg=sha-256");
  CHECK(r.signed_receipt);
  CHECK_FALSE(r.signature_required);
  CHECK(r.micalg == "sha-256");
  r = as2::parse_disposition_options("signed-receipt-protocol=required, pkcs7-signature");
  CHECK(r.signature_required);
}

TEST_CASE("md5 as the MDN signing digest only where the partner profile allows it") {
  auto r = as2::parse_disposition_options(
      "signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, md5");
  CHECK(r.micalg == "sha-256");  // refused: the default instead
  CHECK(r.refused_micalg == "md5");
  r = as2::parse_disposition_options(
      "signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, md5, sha1");
  CHECK(r.micalg == "sha1");
  r = as2::parse_disposition_options(
      "signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, md5", true);
  CHECK(r.micalg == "md5");
  CHECK(r.refused_micalg.empty());
}

TEST_CASE("an MDN cannot carry a line break a partner wrote") {
  as2::MdnContent c;
  c.our_as2_id = "EDIHUB";
  c.partner_as2_id = "ACME\r\nAS2-From: EVIL";
  c.original_message_id = "<m1@acme>\r\nDisposition: forged";
  c.text = "quoting partner bytes:\r\nDisposition: forged";
  c.message_id = "<mdn1@edihub>";
  c.boundary = "b1";
  auto mdn = as2::build_mdn(c, as2::ReceiptRequest{}, nullptr);
  REQUIRE(mdn.is_ok());
  CHECK(mdn->headers.find("AS2-To: \"ACME\\x0D\\x0AAS2-From: EVIL\"\r\n") != std::string::npos);
  CHECK(mdn->body.find("Original-Message-ID: <m1@acme>\\x0D\\x0ADisposition: forged\r\n") != std::string::npos);
  CHECK(mdn->body.find("\r\nDisposition: forged") == std::string::npos);
  CHECK(mdn->headers.find("\r\nAS2-From: EVIL") == std::string::npos);
}

TEST_CASE("the disposition comes from the error's code, never from its words") {
  CHECK(as2::as2_modifier(gate::failure_of(Code::DecryptionFailed)) == "decryption-failed");
  CHECK(as2::as2_modifier(gate::failure_of(Code::IntegrityCheckFailed)) == "integrity-check-failed");
  CHECK(as2::as2_modifier(gate::failure_of(Code::AuthenticationFailed)) == "authentication-failed");
  CHECK(as2::as2_modifier(gate::failure_of(Code::DecompressionFailed)) == "decompression-failed");
  CHECK(as2::as2_modifier(gate::failure_of(Code::None)) == "unexpected-processing-error");
  // A message that merely starts with a modifier's words decides nothing.
  Status worded = Status::invalid("decryption-failed: only words");
  CHECK(gate::failure_of(worded.code()) == gate::Failure::Malformed);
  CHECK(as4::ebms_code(gate::Failure::SenderNotAuthorized) == "EBMS:0003");
  CHECK(as4::ebms_code(gate::Failure::DecryptionFailed) == "EBMS:0102");
}

namespace {

// Whether the first SignerInfo of DER `signature` carries SMIMECapabilities.
bool lists_capabilities(const std::string& signature) {
  const auto* p = reinterpret_cast<const unsigned char*>(signature.data());
  CMS_ContentInfo* cms = d2i_CMS_ContentInfo(nullptr, &p, static_cast<long>(signature.size()));
  REQUIRE(cms != nullptr);
  STACK_OF(CMS_SignerInfo)* signers = CMS_get0_SignerInfos(cms);
  REQUIRE(sk_CMS_SignerInfo_num(signers) == 1);
  const bool listed = CMS_signed_get_attr_by_NID(sk_CMS_SignerInfo_value(signers, 0), NID_SMIMECapabilities, -1) >= 0;
  CMS_ContentInfo_free(cms);
  return listed;
}

}  // namespace

TEST_CASE("a signed MDN's signature omits SMIMECapabilities; a signed message lists them") {
  auto cert = crypto::Certificate::load_pem_file(test::source_path("partners/certs/edihub.crt"));
  auto key = crypto::PrivateKey::load_pem_file(test::source_path("partners/certs/edihub.key"));
  REQUIRE(cert.is_ok());
  REQUIRE(key.is_ok());
  const crypto::Identity us{cert.value(), key.value()};
  as2::MdnContent c = acme_mdn();
  as2::ReceiptRequest request;
  request.signed_receipt = true;
  request.micalg = "sha-256";
  auto mdn = as2::build_mdn(c, request, &us);
  REQUIRE_MESSAGE(mdn.is_ok(), mdn.status().message());
  // The signature is the base64 part after the pkcs7-signature header.
  const size_t at = mdn->body.find("application/pkcs7-signature");
  REQUIRE(at != std::string::npos);
  const size_t from = mdn->body.find("\r\n\r\n", at) + 4;
  const std::string b64 = mdn->body.substr(from, mdn->body.find("\r\n--", from) - from);
  std::string der;
  REQUIRE(mime::base64_decode(b64, &der));
  CHECK_FALSE(lists_capabilities(der));
  auto message = crypto::sign_detached("Content-Type: application/edi-x12\r\n\r\nISA~", us, "sha256");
  REQUIRE(message.is_ok());
  CHECK(lists_capabilities(message.value()));
}

TEST_CASE("the MIC covers the signed part when signed, the decrypted entity when only encrypted") {
  auto load = [](const std::string& name) {
    auto cert = crypto::Certificate::load_pem_file(test::source_path("partners/certs/" + name + ".crt"));
    auto key = crypto::PrivateKey::load_pem_file(test::source_path("partners/certs/" + name + ".key"));
    REQUIRE(cert.is_ok());
    REQUIRE(key.is_ok());
    return crypto::Identity{cert.value(), key.value()};
  };
  const crypto::Identity us = load("edihub"), acme = load("acme");
  const std::string entity = "Content-Type: application/edi-x12\r\n\r\nISA*00~IEA*1*000000001~";
  auto sig = crypto::sign_detached(entity, acme, "sha256");
  REQUIRE(sig.is_ok());
  const std::string signed_entity =
      "Content-Type: multipart/signed; protocol=\"application/pkcs7-signature\"; micalg=sha-256; boundary=\"b1\"\r\n"
      "\r\n--b1\r\n" +
      entity + "\r\n--b1\r\nContent-Type: application/pkcs7-signature\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
      mime::base64_encode_lines(sig.value()) + "--b1--\r\n";
  as2::UnwrapOptions options;
  options.identities = {us};
  options.signers = {acme.certificate};
  const std::string mic_of_entity = crypto::mic(entity, "sha-256").value();
  Budget budget(1 << 24);
  // `inner` encrypted to us, as an AS2 body with its headers, unwrapped.
  auto unwrapped = [&](const std::string& inner) {
    auto der = crypto::encrypt(inner, us.certificate);
    REQUIRE(der.is_ok());
    mime::Entity outer;
    outer.headers.push_back({"Content-Type", "application/pkcs7-mime; smime-type=enveloped-data"});
    outer.headers.push_back({"Content-Transfer-Encoding", "binary"});
    outer.body = der.value();
    outer.raw = der.value();
    Lease lease(&budget, 1 << 20);
    Result<as2::Unwrapped> u = as2::unwrap(outer, options, lease);
    REQUIRE_MESSAGE(u.is_ok(), u.status().message());
    return std::move(u.value());
  };

  SUBCASE("signed and encrypted: the signed part, headers included") {
    const as2::Unwrapped u = unwrapped(signed_entity);
    CHECK(u.signed_);
    CHECK(u.encrypted);
    CHECK(u.mic == mic_of_entity);
    CHECK(u.mic_algorithm == "sha-256");
  }
  SUBCASE("signed and encrypted, another algorithm asked: the signed part hashed with it") {
    options.mic_algorithm = "sha-512";
    const as2::Unwrapped u = unwrapped(signed_entity);
    CHECK(u.mic == crypto::mic(entity, "sha-512").value());
    CHECK(u.mic_algorithm == "sha-512");
  }
  SUBCASE("the signature's digest serves as the MIC, checked by the verification") {
    auto v = crypto::verify_detached(entity, sig.value(), {acme.certificate});
    REQUIRE(v.is_ok());
    CHECK(mime::base64_encode(v->content_digest) == mic_of_entity);
    // Taken from the signature, not hashed again (the content is not read).
    CHECK(crypto::mic("", v.value(), "sha-256").value() == mic_of_entity);
    CHECK(crypto::mic(entity, v.value(), "sha1").value() == crypto::mic(entity, "sha1").value());
  }
  SUBCASE("encrypted only: the decrypted entity") {
    const as2::Unwrapped u = unwrapped(entity);
    CHECK_FALSE(u.signed_);
    CHECK(u.mic == mic_of_entity);
  }
  SUBCASE("encrypted twice: the innermost decrypted entity") {
    auto inner = crypto::encrypt(entity, us.certificate);
    REQUIRE(inner.is_ok());
    const as2::Unwrapped u = unwrapped(
        "Content-Type: application/pkcs7-mime; smime-type=enveloped-data\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
        inner.value());
    CHECK(u.mic == mic_of_entity);
  }
}

// Every key stores its copy's raw digest: a retransmission after an upgrade is
// a duplicate only if the form below never changes. The expected values are
// sha256sum of the same bytes, written out by hand.
TEST_CASE("the raw digest of a copy as received: its form for AS2 and AS4 is fixed") {
  http::HttpRequest encrypted;
  encrypted.headers = {{"Content-Type", "application/pkcs7-mime; smime-type=enveloped-data"},
                       {"Content-Transfer-Encoding", "base64"}};
  encrypted.body = "MIAGCSqG";
  http::HttpRequest plain;
  plain.headers = {{"Content-Type", "application/edi-x12"}};
  plain.body = "ISA*00";
  const as2::Settings as2_settings;
  as2::As2Protocol as2(as2_settings);
  // "Content-Type: ...\r\nContent-Transfer-Encoding: base64\r\n\r\n" then the body.
  CHECK(as2.raw_digest(encrypted).hex() == "78305116d2d9b73cc2c73cf5daeb98cb9ff730c1bdcb858b7797d1ed767dded7");
  // Without a transfer encoding, no line for it.
  CHECK(as2.raw_digest(plain).hex() == "656f08ce29c93729b98973ee035766a8c4f782f4d7477ca99c33cb832638002d");

  http::HttpRequest soap;
  soap.headers = {{"Content-Type", R"(multipart/related; type="application/soap+xml"; boundary=b)"}};
  soap.body = "--b--";
  const as4::Settings as4_settings;
  as4::As4Protocol as4(as4_settings);
  // The Content-Type's value, a blank line, the body.
  CHECK(as4.raw_digest(soap).hex() == "ab82d931a7d4dc3073e8acfacb32a6023497470a8ea44e1fbb4243fa3958f799");
}
