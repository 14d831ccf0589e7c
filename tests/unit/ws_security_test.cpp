// The WS-Security check (crypto/ws_security.h) on envelopes signed by the
// JDK's XML Signature (tests/interop/as4/WssPeer.java; the files are the fuzz
// seeds tests/fuzz/seeds/as4-wss-*.xml): what passes, and the exact EBMS
// error of what does not.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "parsers/as4/signal.h"
#include "src/crypto/ws_security.h"

using namespace edihub;
using crypto::wss::Attachment;
using crypto::wss::Checked;
using crypto::wss::Failure;
using crypto::wss::Policy;

namespace {

std::string read(const std::string& relative) {
  std::ifstream in(std::string(EDIHUB_SOURCE_DIR) + "/" + relative, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Policy acme() {
  Policy p;
  p.signers.push_back(
      crypto::Certificate::load_pem_file(std::string(EDIHUB_SOURCE_DIR) + "/partners/certs/acme.crt").value());
  return p;
}

const std::string kPayload = "ISA*00*          *00*          *ZZ*ACMESUPPLY~";  // what the seeds signed

Failure check(const std::string& soap, const std::string& payload = kPayload, const Policy& policy = acme(),
              Checked* out = nullptr) {
  Checked ignored;
  return crypto::wss::check(soap, {Attachment{"payload-1@acme.example", payload}}, policy, out ? out : &ignored);
}

}  // namespace

TEST_CASE("WS-Security: signed by the partner, its certificate named by BST, SKI or issuer/serial") {
  for (const char* file : {"as4-wss-signed.xml", "as4-wss-signed-ski.xml", "as4-wss-signed-issuer-serial.xml"}) {
    CAPTURE(file);
    Checked c;
    Failure f = check(read(std::string("tests/fuzz/seeds/") + file), kPayload, acme(), &c);
    CHECK_MESSAGE(!f, std::string(f.code + " " + f.detail));
    CHECK(c.is_signed);
    CHECK(c.signature_method == "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256");
    REQUIRE(c.references.size() == 3);
    CHECK(c.references[0].uri == "#body");
    CHECK(c.references[1].uri == "#messaging");
    CHECK(c.references[2].uri == "cid:payload-1@acme.example");
    CHECK(c.references[2].transforms ==
          std::vector<as4::SignedReference::Transform>{
              {"http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#Attachment-Content-Signature-Transform",
               std::nullopt}});
    CHECK(c.references[2].digest_method == "http://www.w3.org/2001/04/xmlenc#sha256");
  }
}

TEST_CASE("WS-Security: what fails, with its EBMS code and words") {
  const std::string signed_ = read("tests/fuzz/seeds/as4-wss-signed.xml");
  Failure f = check(signed_, kPayload + "X");
  CHECK(f.code == "EBMS:0101");
  CHECK(f.detail == "the digest of 'cid:payload-1@acme.example' does not match: that part changed after it was signed");

  f = check(signed_, kPayload, Policy{});
  CHECK(f.code == "EBMS:0101");
  CHECK(f.detail.rfind("signed by a certificate this partner does not list (BinarySecurityToken CN=ACMESUPPLY", 0) ==
        0);

  std::string changed = signed_;
  changed.replace(changed.find("<eb:ConversationId>c1<"), 22, "<eb:ConversationId>c2<");
  f = check(changed);
  CHECK(f.code == "EBMS:0101");
  CHECK(f.detail == "the digest of '#messaging' does not match: that part changed after it was signed");

  std::string value = signed_;
  const size_t at = value.find("<ds:SignatureValue>") + 19;
  value[at] = value[at] == 'A' ? 'B' : 'A';
  f = check(value);
  CHECK(f.code == "EBMS:0101");

  f = check("<!DOCTYPE x [<!ENTITY a 'b'>]>" + signed_);
  CHECK(f.code == "EBMS:0009");

  std::string no_attachment = signed_;
  Checked none;
  f = crypto::wss::check(no_attachment, {}, acme(), &none);
  CHECK(f.code == "EBMS:0101");
  CHECK(f.detail == "reference 'cid:payload-1@acme.example' points to no attachment of this message");

  std::string wrapped = signed_;
  wrapped.insert(wrapped.find("<S12:Body"), "<S12:Wrapper xmlns:x=\"urn:x\" wsu:Id=\"body\"/>");
  f = check(wrapped);
  CHECK(f.code == "EBMS:0101");
  CHECK(f.detail == "the Id 'body' occurs twice (signature wrapping)");

  std::string encrypted = signed_;
  encrypted.insert(encrypted.find("<ds:Signature"),
                   "<xenc:EncryptedKey xmlns:xenc=\"http://www.w3.org/2001/04/xmlenc#\" Id=\"ek\"/>");
  f = check(encrypted);
  CHECK(f.code == "EBMS:0103");
  CHECK(f.detail ==
        "key transport '' (digest '', MGF '') is not allowed by the policy (xmlenc11 RSA-OAEP with "
        "SHA-256 and MGF1-SHA256)");
}

TEST_CASE("WS-Security: unsigned messages pass only where the policy allows them") {
  const std::string unsigned_ = read("samples/as4/swa-856.as4");
  const std::string soap =
      unsigned_.substr(unsigned_.find("<?xml"), unsigned_.find("</S12:Envelope>") + 15 - unsigned_.find("<?xml"));
  Failure f = check(soap);
  CHECK(f.code == "EBMS:0103");
  CHECK(f.detail == "the partner profile requires a signed message; there is no wsse:Security header");
  Policy lenient = acme();
  lenient.require_signature = false;
  Checked c;
  CHECK(!check(soap, kPayload, lenient, &c));
  CHECK(!c.is_signed);
}

TEST_CASE("WS-Security: a signal we sign verifies with our certificate, and not once changed") {
  const std::string dir = std::string(EDIHUB_SOURCE_DIR) + "/partners/certs/";
  crypto::Identity us{crypto::Certificate::load_pem_file(dir + "edihub.crt").value(),
                      crypto::PrivateKey::load_pem_file(dir + "edihub.key").value()};
  const std::string receipt = as4::build_nr_receipt(
      {"r1@edihub", "2026-12-01T10:00:00Z", "m1@acme.example"},
      {{"cid:payload-1@acme.example", "", "http://www.w3.org/2001/04/xmlenc#sha256", "AAAA", {}}});
  Result<std::string> signed_ = crypto::wss::sign_envelope(receipt, us);
  REQUIRE(signed_.is_ok());
  Policy ours;
  ours.signers.push_back(us.certificate);
  Checked c;
  Failure f = crypto::wss::check(signed_.value(), {}, ours, &c);
  CHECK_MESSAGE(!f, std::string(f.code + " " + f.detail));
  REQUIRE(c.references.size() == 2);
  CHECK(c.references[0].uri == "#_edihub-messaging");
  CHECK(c.references[1].uri == "#_edihub-body");
  CHECK(c.signer == us.certificate);
  std::string changed = signed_.value();
  changed.replace(changed.find("<ds:DigestValue>AAAA<"), 21, "<ds:DigestValue>AAAB<");
  f = crypto::wss::check(changed, {}, ours, &c);
  CHECK(f.code == "EBMS:0101");
  CHECK(f.detail == "the digest of '#_edihub-messaging' does not match: that part changed after it was signed");
}

TEST_CASE("WS-Security: signed and encrypted by the JDK for us: decrypted, then verified over the plaintext") {
  const std::string seed = read("tests/fuzz/seeds/as4-wss-signed-encrypted.bin");
  const size_t at = seed.find("\n--attachment--\n");
  REQUIRE(at != std::string::npos);
  const std::string soap = seed.substr(0, at), ciphertext = seed.substr(at + 16);
  const std::string dir = std::string(EDIHUB_SOURCE_DIR) + "/partners/certs/";
  Policy p = acme();
  p.require_encryption = true;
  Checked c;
  Failure f = check(soap, ciphertext, p, &c);
  CHECK(f.code == "EBMS:0102");  // no identity: the key is for a certificate that is not ours
  CHECK(f.detail.rfind("encrypted for a certificate that is not ours (issuer CN=EDIHUB", 0) == 0);
  // Rollover: another identity of ours first; the key names the one it is for.
  p.identities.push_back({crypto::Certificate::load_pem_file(dir + "acme.crt").value(),
                          crypto::PrivateKey::load_pem_file(dir + "acme.key").value()});
  p.identities.push_back({crypto::Certificate::load_pem_file(dir + "edihub.crt").value(),
                          crypto::PrivateKey::load_pem_file(dir + "edihub.key").value()});
  f = check(soap, ciphertext, p, &c);
  CHECK_MESSAGE(!f, std::string(f.code + " " + f.detail));
  CHECK(c.is_signed);
  CHECK(c.decrypted.at("payload-1@acme.example") == kPayload);
  CHECK(c.mime_types.at("payload-1@acme.example") == "application/edi-x12");
  // Sent in the clear where encryption is required.
  f = check(read("tests/fuzz/seeds/as4-wss-signed.xml"), kPayload, p, &c);
  CHECK(f.code == "EBMS:0103");
  CHECK(f.detail ==
        "the partner profile requires encryption; the attachment cid:payload-1@acme.example is not encrypted");
}

TEST_CASE("WS-Security: a UserMessage we sign and encrypt is read back by the receiving check, and not once changed") {
  const std::string dir = std::string(EDIHUB_SOURCE_DIR) + "/partners/certs/";
  crypto::Identity us{crypto::Certificate::load_pem_file(dir + "edihub.crt").value(),
                      crypto::PrivateKey::load_pem_file(dir + "edihub.key").value()};
  as4::OutgoingMessage m;
  m.message_id = "out-1@edihub";
  m.timestamp = "2026-12-03T10:00:00Z";
  m.from = {"EDIHUB", ""};
  m.to = {"ACMESUPPLY", ""};
  m.agreement_ref = "urn:example:agreement";
  m.service = "urn:edihub:edi";
  m.action = "acknowledgment";
  m.conversation_id = "c1";
  m.message_properties = {{"originalSender", "0088:1", "iso6523-actorid-upis"}};
  m.parts = {{"payload.out-1@edihub", "application/edi-x12", false}, {"second.out-1@edihub", "text/plain", false}};
  const std::string soap = as4::build_user_message(m);
  std::vector<crypto::wss::OutgoingAttachment> parts = {{"payload.out-1@edihub", "application/edi-x12", kPayload},
                                                        {"second.out-1@edihub", "text/plain", "second part"}};
  // Encrypted for our own certificate, so that our receiving side (holding our key) reads it.
  Result<std::string> secured = crypto::wss::secure_user_message(soap, &parts, us, &us.certificate);
  REQUIRE_MESSAGE(secured.is_ok(), secured.status().message());
  CHECK(parts[0].bytes.size() == kPayload.size() + 12 + 16);  // IV + ciphertext + tag
  CHECK(parts[0].bytes.find("ISA") == std::string::npos);
  Policy policy;
  policy.signers.push_back(us.certificate);
  policy.identities.push_back(us);
  policy.require_encryption = true;
  std::vector<Attachment> wire = {{parts[0].content_id, parts[0].bytes}, {parts[1].content_id, parts[1].bytes}};
  Checked c;
  Failure f = crypto::wss::check(secured.value(), wire, policy, &c);
  CHECK_MESSAGE(!f, std::string(f.code + " " + f.detail));
  CHECK(c.is_signed);
  CHECK(c.decrypted["payload.out-1@edihub"] == kPayload);
  CHECK(c.decrypted["second.out-1@edihub"] == "second part");
  CHECK(c.mime_types["payload.out-1@edihub"] == "application/edi-x12");
  REQUIRE(c.references.size() == 4);
  CHECK(c.references[2].uri == "cid:payload.out-1@edihub");
  CHECK(secured->find("<eb:AgreementRef>urn:example:agreement</eb:AgreementRef>") != std::string::npos);
  CHECK(secured->find("<eb:Property name=\"originalSender\" type=\"iso6523-actorid-upis\">0088:1</eb:Property>") !=
        std::string::npos);

  // A changed ciphertext does not decrypt; a message signed but not encrypted verifies over the plaintext.
  std::string tampered = parts[1].bytes;
  tampered[14] ^= 1;
  wire[1].bytes = tampered;
  f = crypto::wss::check(secured.value(), wire, policy, &c);
  CHECK(f.code == "EBMS:0102");
  std::vector<crypto::wss::OutgoingAttachment> plain = {{"payload.out-1@edihub", "application/edi-x12", kPayload},
                                                        {"second.out-1@edihub", "text/plain", "second part"}};
  Result<std::string> signed_only = crypto::wss::secure_user_message(soap, &plain, us, nullptr);
  REQUIRE(signed_only.is_ok());
  CHECK(plain[0].bytes == kPayload);
  policy.require_encryption = false;
  Checked c2;
  f = crypto::wss::check(signed_only.value(), {{plain[0].content_id, kPayload}, {plain[1].content_id, "second part"}},
                         policy, &c2);
  CHECK_MESSAGE(!f, std::string(f.code + " " + f.detail));
  f = crypto::wss::check(signed_only.value(),
                         {{plain[0].content_id, kPayload + "!"}, {plain[1].content_id, "second part"}}, policy, &c2);
  CHECK(f.code == "EBMS:0101");
}
