// Exact bytes of TA1, 997 and 999 for accepted and rejected interchanges.
#include <doctest/doctest.h>

#include "parsers/edi/parser.h"
#include "parsers/x12/acks.h"
#include "tests/unit/test_util.h"

using namespace edihub;

namespace {

const x12::AckEnvelope kEnv{"17", "1701", "20240103", "0915", "\n", std::nullopt, std::nullopt};
const char* kIsa997 =
    "ISA*00*          *00*          *ZZ*RECEIVER       *ZZ*SENDER         *240103*0915*U*00401*000000017*0*P*>~\n";
const char* kIsa999 =
    "ISA*00*          *00*          *ZZ*RECEIVER       *ZZ*SENDER         *240103*0915*^*00501*000000017*0*P*>~\n";

edi::Interchange parse_one(const std::string& in) {
  auto r = edi::parse(in);
  REQUIRE(r.interchanges.size() == 1);
  return r.interchanges[0];
}

std::string with(std::string s, const std::string& from, const std::string& to) {
  auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("TA1 accepting an interchange") {
  auto ic = parse_one(test::x12());
  auto ta1 = x12::ta1_for(ic);
  CHECK(ta1.status == 'A');
  CHECK(ta1.note_code == "000");
  CHECK(x12::build_ta1(ic, ta1, kEnv) == std::string(kIsa997) + "TA1*000000001*240102*1230*A*000~\nIEA*0*000000017~\n");
}

TEST_CASE("TA1 rejecting: note codes from the envelope errors") {
  SUBCASE("IEA02 mismatch -> 001") {
    auto ic = parse_one(with(test::x12(), "IEA*1*000000001", "IEA*1*000000009"));
    auto ta1 = x12::ta1_for(ic);
    CHECK(x12::build_ta1(ic, ta1, kEnv) ==
          std::string(kIsa997) + "TA1*000000001*240102*1230*R*001~\nIEA*0*000000017~\n");
  }
  SUBCASE("IEA01 mismatch -> 021") {
    CHECK(x12::ta1_for(parse_one(with(test::x12(), "IEA*1*", "IEA*2*"))).note_code == "021");
  }
  SUBCASE("truncated -> 023") {
    std::string in = test::x12();
    CHECK(x12::ta1_for(parse_one(in.substr(0, in.find("SE*")))).note_code == "023");
  }
  SUBCASE("ISA13 not numeric -> 018") {
    auto ic =
        parse_one(with(with(test::x12(), "*000000001*0*P", "*00000000X*0*P"), "IEA*1*000000001", "IEA*1*00000000X"));
    CHECK(x12::ta1_for(ic).note_code == "018");
  }
  SUBCASE("ISA15 not P/T -> 020") {
    CHECK(x12::ta1_for(parse_one(with(test::x12(), "*0*P*>", "*0*X*>"))).note_code == "020");
  }
  SUBCASE("duplicate -> 025") {
    auto ic = parse_one(test::x12());
    CHECK(x12::build_ta1(ic, x12::ta1_duplicate(), kEnv) ==
          std::string(kIsa997) + "TA1*000000001*240102*1230*R*025~\nIEA*0*000000017~\n");
  }
  SUBCASE("group-level errors leave the TA1 accepting (the 997 reports them)") {
    CHECK(x12::ta1_for(parse_one(with(test::x12(), "GE*1*7", "GE*1*8"))).status == 'A');
  }
}

TEST_CASE("997 accepting a group") {
  auto ic = parse_one(test::x12());
  CHECK(x12::build_997(ic, kEnv) == std::string(kIsa997) +
                                        "GS*FA*RECEIVER*SENDER*20240103*0915*1701*X*004010~\n"
                                        "ST*997*0001~\n"
                                        "AK1*SH*7~\n"
                                        "AK2*856*0001~\n"
                                        "AK5*A~\n"
                                        "AK9*A*1*1*1~\n"
                                        "SE*6*0001~\n"
                                        "GE*1*1701~\n"
                                        "IEA*1*000000017~\n");
}

TEST_CASE("997 rejecting a transaction set whose SE01 is wrong") {
  auto ic = parse_one(with(test::x12(), "SE*4*", "SE*5*"));
  CHECK(x12::build_997(ic, kEnv) == std::string(kIsa997) +
                                        "GS*FA*RECEIVER*SENDER*20240103*0915*1701*X*004010~\n"
                                        "ST*997*0001~\n"
                                        "AK1*SH*7~\n"
                                        "AK2*856*0001~\n"
                                        "AK5*R*4~\n"
                                        "AK9*R*1*1*0~\n"
                                        "SE*6*0001~\n"
                                        "GE*1*1701~\n"
                                        "IEA*1*000000017~\n");
}

TEST_CASE("997: partially accepted group, group trailer errors, AK3 for a bad segment") {
  std::string two = with(test::x12(), "GE*1*7", "ST*856*0002~\nREF*ZZ*A~\nSE*3*0002~\nGE*2*7");
  SUBCASE("one set accepted, one with SE02 mismatch -> P") {
    auto ic = parse_one(with(two, "SE*3*0002", "SE*3*0003"));
    std::string ack = x12::build_997(ic, kEnv);
    CHECK(ack.find("AK2*856*0001~\nAK5*A~\nAK2*856*0002~\nAK5*R*3~\nAK9*P*2*2*1~\n") != std::string::npos);
  }
  SUBCASE("GE02 mismatch -> AK9 R with code 4") {
    auto ic = parse_one(with(two, "GE*2*7", "GE*2*8"));
    CHECK(x12::build_997(ic, kEnv).find("AK9*R*2*2*2*4~\n") != std::string::npos);
  }
  SUBCASE("unrecognized segment ID -> AK3 code 1, AK5 code 5") {
    auto ic = parse_one(with(test::x12(), "REF*ZZ*0", "r3F*ZZ*0"));
    CHECK(x12::build_997(ic, kEnv).find("AK2*856*0001~\nAK3*r3F*2**1~\nAK5*R*5~\nAK9*R*1*1*0~\n") != std::string::npos);
  }
}

TEST_CASE("999 accepting and rejecting") {
  SUBCASE("accepted") {
    auto ic = parse_one(test::x12());
    CHECK(x12::build_999(ic, kEnv) == std::string(kIsa999) +
                                          "GS*FA*RECEIVER*SENDER*20240103*0915*1701*X*005010X231~\n"
                                          "ST*999*0001*005010X231~\n"
                                          "AK1*SH*7*004010~\n"
                                          "AK2*856*0001~\n"
                                          "IK5*A~\n"
                                          "AK9*A*1*1*1~\n"
                                          "SE*6*0001~\n"
                                          "GE*1*1701~\n"
                                          "IEA*1*000000017~\n");
  }
  SUBCASE("rejected: IK3 for an unrecognized segment, element errors as IK4") {
    auto ic = parse_one(with(test::x12(), "REF*ZZ*0", "r3F*ZZ*0"));
    // A business validator adds element errors the same way.
    edi::ElementError ee;
    ee.position = 2;
    ee.component = 1;
    ee.reference = "128";
    ee.code = "7";
    ee.value = "ZZ";
    ic.groups[0].messages[0].segment_errors[0].elements.push_back(ee);
    CHECK(x12::build_999(ic, kEnv) == std::string(kIsa999) +
                                          "GS*FA*RECEIVER*SENDER*20240103*0915*1701*X*005010X231~\n"
                                          "ST*999*0001*005010X231~\n"
                                          "AK1*SH*7*004010~\n"
                                          "AK2*856*0001~\n"
                                          "IK3*r3F*2**1~\n"
                                          "IK4*2>1*128*7*ZZ~\n"
                                          "IK5*R*5~\n"
                                          "AK9*R*1*1*0~\n"
                                          "SE*8*0001~\n"
                                          "GE*1*1701~\n"
                                          "IEA*1*000000017~\n");
  }
}

TEST_CASE("acknowledgments parse back without envelope errors") {
  auto ic = parse_one(test::x12());
  for (const std::string& ack :
       {x12::build_ta1(ic, x12::ta1_for(ic), kEnv), x12::build_997(ic, kEnv), x12::build_999(ic, kEnv)}) {
    auto r = edi::parse(ack);
    CHECK(r.ok());
    REQUIRE(r.interchanges.size() == 1);
    CHECK(r.interchanges[0].sender.id == "RECEIVER");
    CHECK(r.interchanges[0].control_number == "000000017");
  }
}

TEST_CASE("a TA1 never echoes a delimiter from a broken ISA") {
  // ISA13 read by separator count holds the terminator: the TA1 must stay one interchange.
  std::string in = test::x12(test::isa('*', "U", "00401", "0000~0001"), 1, "0000~0001");
  auto r = edi::parse(in);
  REQUIRE_FALSE(r.interchanges.empty());
  const auto& ic = r.interchanges[0];
  CHECK(x12::ta1_for(ic).note_code == "018");
  std::string ta1 = x12::build_ta1(ic, x12::ta1_for(ic), kEnv);
  CHECK(ta1.find("TA1*0000?0001*240102*1230*R*018~") != std::string::npos);
  auto back = edi::parse(ta1);
  REQUIRE(back.interchanges.size() == 1);
  CHECK(back.ok());
}

TEST_CASE("TA1 refusing an interchange for who sent it (006) or whom it is for (009), in the gateway's own name") {
  auto ic = parse_one(test::x12());
  edi::EnvelopeError e;
  e.code = edi::ErrorCode::SenderNotAuthorized;
  ic.errors.push_back(e);
  x12::AckEnvelope env = kEnv;
  env.sender = edi::Party{"EDIHUB", "ZZ"};
  env.recipient = edi::Party{"WIDGETCO", "ZZ"};
  CHECK(x12::build_ta1(ic, x12::ta1_for(ic), env) ==
        "ISA*00*          *00*          *ZZ*EDIHUB         *ZZ*WIDGETCO       *240103*0915*U*00401*000000017*0*P*>~\n"
        "TA1*000000001*240102*1230*R*006~\nIEA*0*000000017~\n");
  ic.errors[0].code = edi::ErrorCode::RecipientNotOurs;
  CHECK(x12::ta1_for(ic).note_code == "009");
}

TEST_CASE("a partner whose segment terminator is a newline gets exactly its delimiters: no empty segments") {
  std::string in = test::x12(test::isa('*', "U", "00401", "000000001", '>', "\n"), 2, "000000001", "");
  for (size_t at = in.find('~'); at != std::string::npos; at = in.find('~', at)) in[at] = '\n';
  auto ic = parse_one(in);
  REQUIRE(ic.errors.empty());
  REQUIRE(ic.delimiters.terminator.is_line_break());
  for (const std::string& ack : {x12::build_997(ic, kEnv), x12::build_ta1(ic, x12::ta1_for(ic), kEnv)}) {
    CHECK(ack.find("\n\n") == std::string::npos);
    CHECK(ack.find("~") == std::string::npos);
    CHECK(edi::parse(ack).errors.empty());
    CHECK(edi::parse(ack).interchanges.at(0).errors.empty());
  }
  CHECK(x12::build_997(ic, kEnv).find("\nAK1*SH*7\n") != std::string::npos);
}
