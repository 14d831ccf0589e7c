#include <doctest/doctest.h>

#include "src/receivers/as2/mdn.h"

using namespace edihub;

TEST_CASE("Disposition-Notification-Options: signed receipts and the first supported micalg") {
  auto r = as2::parse_disposition_options(
      "signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, sha-256, sha1");
  CHECK(r.signed_receipt);
  CHECK(r.micalg == "sha-256");
  r = as2::parse_disposition_options("signed-receipt-protocol=required,PKCS7-SIGNATURE;signed-receipt-micalg=required,rsa-sha3,SHA1");
  CHECK(r.signed_receipt);
  CHECK(r.micalg == "sha1");  // an unknown algorithm is skipped, not fatal
  r = as2::parse_disposition_options("");
  CHECK_FALSE(r.signed_receipt);
  CHECK(r.micalg == "sha-256");
  r = as2::parse_disposition_options("future-option=required, x; garbage");
  CHECK_FALSE(r.signed_receipt);
}

TEST_CASE("an unsigned MDN, byte for byte") {
  as2::MdnContent c;
  c.our_as2_id = "EDIHUB";
  c.partner_as2_id = "ACMESUPPLY";
  c.original_message_id = "<m1@acme>";
  c.mic = "AAAA";
  c.mic_algorithm = "sha-256";
  c.text = "Received.";
  c.message_id = "<mdn1@edihub>";
  c.boundary = "b1";
  auto mdn = as2::build_mdn(c, as2::ReceiptRequest{}, nullptr);
  REQUIRE(mdn.is_ok());
  CHECK(mdn->headers ==
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
