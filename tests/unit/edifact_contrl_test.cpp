// Exact bytes of CONTRL for accepted, rejected and duplicate interchanges.
#include <doctest/doctest.h>

#include "parsers/edi/parser.h"
#include "parsers/edifact/contrl.h"
#include "tests/unit/test_util.h"

using namespace edihub;

namespace {

const edifact::ContrlEnvelope kEnv{"C0001", "1", "240103", "0915", "\n", std::nullopt, std::nullopt};

edi::Interchange sample(const char* name) {
  auto r = edi::parse(test::read_file(test::source_path(std::string("samples/edi/") + name)));
  REQUIRE(r.interchanges.size() == 1);
  return r.interchanges[0];
}

const char* kHead =
    "UNB+UNOA:3+5400000000009:14+5412345000013:14+240103:0915+C0001'\n"
    "UNH+1+CONTRL:D:3:UN'\n";

}  // namespace

TEST_CASE("CONTRL accepting an interchange: UCI 7 and a UCM per message") {
  CHECK(edifact::build_contrl(sample("edifact-desadv-d96a-una.edi"), kEnv) ==
        std::string(kHead) +
            "UCI+DES0000001+5412345000013:14+5400000000009:14+7'\n"
            "UCM+1+DESADV:D:96A:UN:EAN005+7'\n"
            "UNT+4+1'\n"
            "UNZ+1+C0001'\n");
}

TEST_CASE("CONTRL rejecting one message: UCI 7, UCM 4 with 0085 = 29 (count)") {
  CHECK(edifact::build_contrl(sample("broken-edifact-unt-count.edi"), kEnv) ==
        std::string(kHead) +
            "UCI+DES0009915+5412345000013:14+5400000000009:14+7'\n"
            "UCM+1+DESADV:D:96A:UN:EAN005+4+29'\n"
            "UNT+4+1'\n"
            "UNZ+1+C0001'\n");
}

TEST_CASE("CONTRL rejecting the interchange: UCI 4 with 0085 = 28 (references differ)") {
  CHECK(edifact::build_contrl(sample("broken-edifact-unz-ref.edi"), kEnv) ==
        std::string(kHead) +
            "UCI+DES0009916+5412345000013:14+5400000000009:14+4+28'\n"
            "UNT+3+1'\n"
            "UNZ+1+C0001'\n");
}

TEST_CASE("CONTRL for a duplicate: UCI 4 with 0085 = 26") {
  CHECK(edifact::build_contrl(sample("edifact-desadv-d96a-una.edi"), kEnv, true) ==
        std::string(kHead) +
            "UCI+DES0000001+5412345000013:14+5400000000009:14+4+26'\n"
            "UNT+3+1'\n"
            "UNZ+1+C0001'\n");
}

TEST_CASE("CONTRL with groups: a UCF per group before its UCMs") {
  CHECK(edifact::build_contrl(sample("edifact-desadv-d96a-groups.edi"), kEnv) ==
        std::string(kHead) +
            "UCI+DES0000002+5412345000013:14+5400000000009:14+7'\n"
            "UCF+GRP0002+5412345000013:14+5400000000009:14+7'\n"
            "UCM+1+DESADV:D:96A:UN:EAN005+7'\n"
            "UCM+2+DESADV:D:96A:UN:EAN005+7'\n"
            "UNT+6+1'\n"
            "UNZ+1+C0001'\n");
}

TEST_CASE("CONTRL keeps the partner's service characters and escapes values") {
  auto r = edi::parse("UNA=*.? ~UNB*UNOA=3*S?*1=14*R=14*240102=1230*R1~UNH*1*INVOIC=D=96A=UN~UNT*2*1~UNZ*1*R1~");
  REQUIRE(r.interchanges.size() == 1);
  std::string contrl = edifact::build_contrl(r.interchanges[0], kEnv);
  CHECK(contrl ==
        "UNA=*.? ~\n"
        "UNB*UNOA=3*R=14*S?*1=14*240103=0915*C0001~\n"
        "UNH*1*CONTRL=D=3=UN~\n"
        "UCI*R1*S?*1=14*R=14*7~\n"
        "UCM*1*INVOIC=D=96A=UN*7~\n"
        "UNT*4*1~\n"
        "UNZ*1*C0001~\n");
  auto back = edi::parse(contrl);
  CHECK(back.ok());
}

TEST_CASE("CONTRL refusing an interchange for who sent it or whom it is for, in the gateway's own name") {
  edi::Interchange ic = sample("edifact-desadv-d96a-una.edi");
  edi::EnvelopeError e;
  e.code = edi::ErrorCode::SenderNotAuthorized;
  ic.errors.push_back(e);
  edifact::ContrlEnvelope env = kEnv;
  env.recipient = edi::Party{"4000000000017", "14"};  // the partner that actually sent it
  CHECK(edifact::build_contrl(ic, env) ==
        "UNB+UNOA:3+5400000000009:14+4000000000017:14+240103:0915+C0001'\n"
        "UNH+1+CONTRL:D:3:UN'\n"
        "UCI+DES0000001+5412345000013:14+5400000000009:14+4+23'\n"  // unknown interchange sender
        "UNT+3+1'\n"
        "UNZ+1+C0001'\n");
  ic.errors[0].code = edi::ErrorCode::RecipientNotOurs;
  env.recipient.reset();
  env.sender = edi::Party{"5400000000009", "14"};
  CHECK(edifact::build_contrl(ic, env) ==
        std::string(kHead) +
            "UCI+DES0000001+5412345000013:14+5400000000009:14+4+7'\n"  // not the actual recipient
            "UNT+3+1'\n"
            "UNZ+1+C0001'\n");
}
