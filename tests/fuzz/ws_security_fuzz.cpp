// libFuzzer target for the WS-Security check of an AS4 envelope
// (crypto/ws_security.h): input is the SOAP envelope; one attachment
// (cid:payload-1@acme.example) and acme's signing certificate are fixed.
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
    return out;
  }();
  return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view soap(reinterpret_cast<const char*>(data), size);
  static const std::vector<edihub::crypto::wss::Attachment> attachments = {
      {"payload-1@acme.example", "ISA*00*          *00*          *ZZ*ACMESUPPLY~"}};
  edihub::crypto::wss::Checked checked;
  edihub::crypto::wss::Failure f = edihub::crypto::wss::check(soap, attachments, policy(), &checked);
  if (f && (f.code.rfind("EBMS:0", 0) != 0 || f.detail.find_first_of("\r\n") != std::string::npos)) __builtin_trap();
  return 0;
}
