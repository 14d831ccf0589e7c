// libFuzzer target for the WS-Security check of an AS4 envelope
// (crypto/ws_security.h): input is the SOAP envelope, optionally followed by
// "\n--attachment--\n" and the bytes of its one attachment
// (cid:payload-1@acme.example; a fixed X12 fragment without it). acme's
// signing certificate and our demo identity (to decrypt) are fixed.
// Any bytes: no crash, no leak, and a failure always names an EBMS code and
// carries no line break the sender wrote (it goes into eb:Description and the log).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "src/crypto/ws_security.h"

namespace {

const edihub::crypto::wss::Policy& policy() {
  static const edihub::crypto::wss::Policy p = [] {
    edihub::crypto::wss::Policy out;
    const char* dir = std::getenv("EDIHUB_SOURCE_DIR");
    auto c = edihub::crypto::Certificate::load_pem_file(std::string(dir ? dir : EDIHUB_SOURCE_DIR) +
                                                        "/partners/certs/acme.crt");
    if (c.is_ok()) out.signers.push_back(c.value());
    const std::string certs = std::string(dir ? dir : EDIHUB_SOURCE_DIR) + "/partners/certs/";
    auto cert = edihub::crypto::Certificate::load_pem_file(certs + "edihub.crt");
    auto key = edihub::crypto::PrivateKey::load_pem_file(certs + "edihub.key");
    if (cert.is_ok() && key.is_ok()) out.identities.push_back({cert.value(), key.value()});
    return out;
  }();
  return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view soap(reinterpret_cast<const char*>(data), size),
      attachment = "ISA*00*          *00*          *ZZ*ACMESUPPLY~";
  constexpr std::string_view kSeparator = "\n--attachment--\n";
  if (size_t at = soap.find(kSeparator); at != std::string_view::npos) {
    attachment = soap.substr(at + kSeparator.size());
    soap = soap.substr(0, at);
  }
  const std::vector<edihub::crypto::wss::Attachment> attachments = {{"payload-1@acme.example", attachment}};
  edihub::crypto::wss::Checked checked;
  edihub::crypto::wss::Failure f = edihub::crypto::wss::check(soap, attachments, policy(), &checked);
  if (f && (f.code.rfind("EBMS:0", 0) != 0 || f.detail.find_first_of("\r\n") != std::string::npos)) __builtin_trap();
  return 0;
}
