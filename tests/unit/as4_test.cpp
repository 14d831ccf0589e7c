// The ebMS3 header parser on AS4 files written by another project (phase4,
// tests/corpus/phase4) and on hostile input.
#include <doctest/doctest.h>

#include "parsers/as4/signal.h"
#include "parsers/as4/user_message.h"
#include "tests/unit/test_util.h"

using namespace edihub;

namespace {
std::string corpus(const char* name) {
  return test::read_file(test::source_path(std::string("tests/corpus/phase4/") + name));
}
}  // namespace

TEST_CASE("phase4 SOAP 1.2 UserMessage: every header field") {
  as4::UserMessage m;
  as4::Error e = as4::parse_user_message(corpus("soap12test_UserMessage12.xml"), &m);
  REQUIRE_FALSE(e);
  CHECK(m.timestamp == "2011-04-03T14:49:28.886Z");
  CHECK(m.message_id == "2011-921@5209999001264.example.com");
  REQUIRE(m.from.size() == 1);
  CHECK(m.from[0].id == "5209999001264");
  CHECK(m.from[0].type == "urn:oasis:names:tc:ebcore:partyid-type:iso6523:0088");
  CHECK(m.from_role == "Seller");
  CHECK(m.to[0].id == "5209999001295");
  CHECK(m.to_role == "Buyer");
  CHECK(m.service == "http://docs.oasis-open.org/ebxml-msg/as4/200902/service");
  CHECK(m.action == "http://docs.oasis-open.org/ebxml-msg/as4/200902/action");
  CHECK(m.conversation_id == "2011-921");
  REQUIRE(m.parts.size() == 1);
  CHECK(m.parts[0].href == "#_f8aa8b55-b31c-4364-94d0-3615ca65aa40");
}

TEST_CASE("phase4 files AS4 must refuse, each with its EBMS error") {
  struct Case {
    const char* file;
    const char* code;
    const char* detail;
  };
  const Case cases[] = {
      {"soap11test_UserMessage.xml", "EBMS:0009", "SOAP 1.1 envelope: AS4 messages use SOAP 1.2"},
      {"soap11test_NoMessaging.xml", "EBMS:0009",
       "the root element is not a SOAP 1.2 Envelope"},  // a bare eb:Messaging
      {"soap12test_PullRequest12.xml", "EBMS:0006",
       "no messages are waiting to be pulled on MPC 'http://as4.bigco.example.com/queues/q_456'"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.file);
    as4::UserMessage m;
    as4::Error e = as4::parse_user_message(corpus(c.file), &m);
    CHECK(e.code == c.code);
    CHECK(e.detail == c.detail);
  }
  // The PullRequest's own MessageId is what the warning refers to.
  as4::UserMessage pull;
  as4::Error warning = as4::parse_user_message(corpus("soap12test_PullRequest12.xml"), &pull);
  CHECK(warning.severity == "warning");
  CHECK(pull.message_id == "msg123@smallco.example.com");
  // Malformed PartProperties (tags that do not match): not well-formed XML.
  as4::UserMessage m;
  as4::Error e = as4::parse_user_message(corpus("soap12test_UserMessageWithCompressedPayload12.xml"), &m);
  CHECK(e.code == "EBMS:0009");
  CHECK(e.short_description == "InvalidHeader");
  CHECK(e.detail.rfind("the SOAP envelope is not well-formed XML", 0) == 0);
}

TEST_CASE("header problems: no Messaging, no MessageId, no parties; DTDs and depth refused") {
  const std::string head =
      "<S:Envelope xmlns:S=\"http://www.w3.org/2003/05/soap-envelope\" "
      "xmlns:eb=\"http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/\"><S:Header>";
  const std::string info =
      "<eb:MessageInfo><eb:Timestamp>2024-01-01T00:00:00Z</eb:Timestamp>"
      "<eb:MessageId>m1@x</eb:MessageId></eb:MessageInfo>";
  const std::string parties =
      "<eb:PartyInfo><eb:From><eb:PartyId type=\"t\">A</eb:PartyId></eb:From>"
      "<eb:To><eb:PartyId>B</eb:PartyId></eb:To></eb:PartyInfo>";
  const std::string collab =
      "<eb:CollaborationInfo><eb:Service>s</eb:Service><eb:Action>a</eb:Action>"
      "</eb:CollaborationInfo>";
  const std::string payload =
      "<eb:PayloadInfo><eb:PartInfo href=\"cid:p1@x\"><eb:PartProperties>"
      "<eb:Property name=\"MimeType\">application/edi-x12</eb:Property>"
      "<eb:Property name=\"CompressionType\">application/gzip</eb:Property>"
      "</eb:PartProperties></eb:PartInfo></eb:PayloadInfo>";
  auto envelope = [&](const std::string& um) {
    return head + "<eb:Messaging>" + um + "</eb:Messaging></S:Header><S:Body/></S:Envelope>";
  };
  as4::UserMessage m;
  REQUIRE_FALSE(as4::parse_user_message(
      envelope("<eb:UserMessage>" + info + parties + collab + payload + "</eb:UserMessage>"), &m));
  CHECK(m.parts[0].href == "cid:p1@x");
  CHECK(m.parts[0].property("CompressionType") == "application/gzip");
  CHECK(m.to[0].type.empty());

  CHECK(as4::parse_user_message(head + "</S:Header><S:Body/></S:Envelope>", &m).detail == "no eb:Messaging header");
  std::string no_id =
      envelope("<eb:UserMessage><eb:MessageInfo></eb:MessageInfo>" + parties + collab + "</eb:UserMessage>");
  CHECK(as4::parse_user_message(no_id, &m).detail == "eb:MessageInfo has no eb:MessageId");
  std::string no_to = envelope("<eb:UserMessage>" + info +
                               "<eb:PartyInfo><eb:From><eb:PartyId>A</eb:PartyId></eb:From>"
                               "</eb:PartyInfo>" +
                               collab + "</eb:UserMessage>");
  CHECK(as4::parse_user_message(no_to, &m).detail == "eb:PartyInfo has no eb:To");

  std::string dtd = "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>" +
                    envelope("<eb:UserMessage>" + info + "</eb:UserMessage>");
  CHECK(as4::parse_user_message(dtd, &m).detail ==
        "the SOAP envelope is a document with a DTD or entity declarations (not accepted)");
  std::string nested;
  for (int i = 0; i < 100; ++i) nested += "<a>";
  for (int i = 0; i < 100; ++i) nested += "</a>";
  CHECK(as4::parse_user_message(head + nested + "</S:Header></S:Envelope>", &m).detail ==
        "the SOAP envelope is nested deeper than 32 elements");
}

TEST_CASE("signals: a Receipt carries a self-contained copy of the UserMessage; an Error its code") {
  // Another prefix than ours, declared on the Envelope only.
  const std::string in =
      "<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\" "
      "xmlns:ns2=\"http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/\"><s:Header><ns2:Messaging>"
      "<ns2:UserMessage><ns2:MessageInfo><ns2:Timestamp>2024-01-01T00:00:00Z</ns2:Timestamp>"
      "<ns2:MessageId>m1@x</ns2:MessageId></ns2:MessageInfo><ns2:PartyInfo><ns2:From><ns2:PartyId>A</ns2:PartyId>"
      "</ns2:From><ns2:To><ns2:PartyId>B</ns2:PartyId></ns2:To></ns2:PartyInfo><ns2:CollaborationInfo>"
      "<ns2:Service>s</ns2:Service><ns2:Action>a</ns2:Action></ns2:CollaborationInfo></ns2:UserMessage>"
      "</ns2:Messaging></s:Header><s:Body/></s:Envelope>";
  as4::UserMessage m;
  REQUIRE_FALSE(as4::parse_user_message(in, &m));
  as4::SignalInfo info{"r1@edihub", "2024-01-01T00:00:01Z", "m1@x"};
  const std::string receipt = as4::build_receipt(info, m);
  CHECK(receipt ==
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
        "<S12:Envelope xmlns:S12=\"http://www.w3.org/2003/05/soap-envelope\" "
        "xmlns:eb=\"http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/\"><S12:Header>"
        "<eb:Messaging S12:mustUnderstand=\"true\"><eb:SignalMessage><eb:MessageInfo>"
        "<eb:Timestamp>2024-01-01T00:00:01Z</eb:Timestamp><eb:MessageId>r1@edihub</eb:MessageId>"
        "<eb:RefToMessageId>m1@x</eb:RefToMessageId></eb:MessageInfo><eb:Receipt>"
        "<ns2:UserMessage xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\" "
        "xmlns:ns2=\"http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/\">"
        "<ns2:MessageInfo><ns2:Timestamp>2024-01-01T00:00:00Z</ns2:Timestamp><ns2:MessageId>m1@x</ns2:MessageId>"
        "</ns2:MessageInfo><ns2:PartyInfo><ns2:From><ns2:PartyId>A</ns2:PartyId></ns2:From><ns2:To>"
        "<ns2:PartyId>B</ns2:PartyId></ns2:To></ns2:PartyInfo><ns2:CollaborationInfo><ns2:Service>s</ns2:Service>"
        "<ns2:Action>a</ns2:Action></ns2:CollaborationInfo></ns2:UserMessage></eb:Receipt></eb:SignalMessage>"
        "</eb:Messaging></S12:Header><S12:Body/></S12:Envelope>");
  const std::string error = as4::build_error(info, as4::ebms_error("EBMS:0004", "a <conflict> & more"));
  CHECK(error.find("<eb:Error errorCode=\"EBMS:0004\" severity=\"failure\" category=\"Content\" "
                   "shortDescription=\"Other\" refToMessageInError=\"m1@x\">"
                   "<eb:Description xml:lang=\"en\">a &lt;conflict&gt; &amp; more</eb:Description></eb:Error>") !=
        std::string::npos);
}

TEST_CASE("the UserMessage we push: our own parser and the fields a partner's P-Mode matches on") {
  as4::OutgoingMessage out;
  out.message_id = "ack-997-x12-7.acme@edihub";
  out.timestamp = "2024-03-15T10:00:00Z";
  out.from = {"edihub", "urn:oasis:names:tc:ebcore:partyid-type:unregistered"};
  out.to = {"acme & sons", ""};  // escaped, never markup
  out.service = "urn:edihub:edi";
  out.action = "acknowledgment";
  out.conversation_id = "<m1@acme>";
  out.parts.push_back({"payload.ack-997-x12-7.acme@edihub", "application/edi-x12", true});
  const std::string xml = as4::build_user_message(out);
  CHECK(xml.find("<eb:PartyId>acme &amp; sons</eb:PartyId>") != std::string::npos);
  as4::UserMessage m;
  as4::Error e = as4::parse_user_message(xml, &m);
  REQUIRE_MESSAGE(!e, e.detail);
  CHECK(m.message_id == "ack-997-x12-7.acme@edihub");
  CHECK(m.timestamp == "2024-03-15T10:00:00Z");
  CHECK(m.from[0].id == "edihub");
  CHECK(m.from[0].type == "urn:oasis:names:tc:ebcore:partyid-type:unregistered");
  CHECK(m.to[0].id == "acme & sons");
  CHECK(m.from_role == "http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/initiator");
  CHECK(m.to_role == "http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/responder");
  CHECK(m.service == "urn:edihub:edi");
  CHECK(m.action == "acknowledgment");
  CHECK(m.conversation_id == "<m1@acme>");
  REQUIRE(m.parts.size() == 1);
  CHECK(m.parts[0].href == "cid:payload.ack-997-x12-7.acme@edihub");
  CHECK(m.parts[0].property("MimeType") == "application/edi-x12");
  CHECK(m.parts[0].property("CompressionType") == "application/gzip");
  CHECK(m.not_understood.empty());
}

TEST_CASE("a partner's answer: phase4's Receipt and Error signals, our own, and what is no signal") {
  as4::Signal s;
  REQUIRE(as4::parse_signal(corpus("soap11test_ReceiptMessage.xml"), &s).empty());
  CHECK(s.receipt);
  CHECK(s.ref_to_message_id == "uiopfdsmnf4898965563434@a.example.com");
  CHECK(s.failure() == nullptr);

  as4::Signal errors;
  REQUIRE(as4::parse_signal(corpus("soap11test_ErrorMessage.xml"), &errors).empty());
  CHECK_FALSE(errors.receipt);
  REQUIRE(errors.errors.size() == 2);
  REQUIRE(errors.failure() != nullptr);
  CHECK(errors.failure()->code == "EBMS:0001");
  CHECK(errors.failure()->description == "Value not recognized");
  CHECK(errors.ref_to_message_id == "UUID-1@sender.example.com");  // from refToMessageInError

  as4::SignalInfo info{"r1@edihub", "2024-01-01T00:00:01Z", "m1@x"};
  as4::Signal ours;
  REQUIRE(as4::parse_signal(as4::build_error(info, as4::ebms_error("EBMS:0004", "conflict")), &ours).empty());
  CHECK(ours.ref_to_message_id == "m1@x");
  CHECK(ours.failure()->short_description == "Other");

  as4::Signal none;
  CHECK(as4::parse_signal(corpus("soap12test_UserMessage12.xml"), &none) ==
        "the answer has no eb:Messaging/eb:SignalMessage");
  CHECK(as4::parse_signal("<html>503</html>", &none) == "the answer is not a SOAP envelope");
  CHECK(as4::parse_signal("Service Unavailable", &none).rfind("the answer is not well-formed XML", 0) == 0);
  CHECK(as4::parse_signal("<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e \"e\">]><x/>", &none) ==
        "the answer is a document with a DTD or entity declarations (not accepted)");
}

TEST_CASE("every dimension of the envelope a partner controls is bounded, each refusal named") {
  const std::string head =
      "<S:Envelope xmlns:S=\"http://www.w3.org/2003/05/soap-envelope\" "
      "xmlns:eb=\"http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/\"><S:Header>";
  auto with_body = [&](const std::string& body) {
    return head + "</S:Header><S:Body>" + body + "</S:Body></S:Envelope>";
  };
  auto attrs = [](int n, size_t width = 1) {
    std::string s;
    for (int i = 0; i < n; ++i) s += " a" + std::to_string(i) + "=\"" + std::string(width, 'v') + "\"";
    return s;
  };
  auto detail = [](const std::string& xml) {
    as4::UserMessage m;
    return as4::parse_user_message(xml, &m).detail;
  };
  // At each bound: refused only for the missing eb:Messaging, so every bound held.
  const std::string fine = "no eb:Messaging header";
  CHECK(detail(with_body("<x" + attrs(62) + "/>")) == fine);  // 64 on Envelope ... 62 here
  CHECK(detail(with_body("<x" + attrs(65) + "/>")) == "the SOAP envelope is an element with more than 64 attributes");
  std::string many;
  for (int i = 0; i < 313; ++i) many += "<x" + attrs(64) + "/>";
  CHECK(detail(with_body(many)) == "the SOAP envelope is more than 20000 attributes");
  std::string decls;
  for (int e = 0; e < 17; ++e) {
    decls += "<x";
    for (int i = 0; i < 60; ++i) decls += " xmlns:p" + std::to_string(i) + "=\"urn:" + std::to_string(i) + "\"";
    decls += "/>";
  }
  CHECK(detail(with_body(decls)) == "the SOAP envelope is more than 1000 namespace declarations");
  CHECK(detail(with_body("<x" + attrs(1, 16384) + "/>")) == fine);
  CHECK(detail(with_body("<x" + attrs(1, 16385) + "/>")) ==
        "the SOAP envelope is holding an attribute value longer than 16384 bytes");
  CHECK(detail(with_body("<t>" + std::string(512 * 1024, 'x') + "</t>")) == fine);
  CHECK(detail(with_body("<t>" + std::string(512 * 1024 + 1, 'x') + "</t>")) ==
        "the SOAP envelope is holding a text longer than 524288 bytes");
  CHECK(detail(with_body("<" + std::string(257, 'n') + "/>")) ==
        "the SOAP envelope is holding a name longer than 256 bytes");
  CHECK(detail(with_body("<x " + std::string(257, 'n') + "=\"1\"/>")) ==
        "the SOAP envelope is holding a name longer than 256 bytes");
  std::string elements;
  for (int i = 0; i < 5001; ++i) elements += "<x/>";
  CHECK(detail(with_body(elements)) == "the SOAP envelope is more than 5000 XML elements");
}
