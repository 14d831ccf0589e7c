// libFuzzer target for the MDN a partner answers to what edihub sent (sync in
// the HTTP answer, async to /as2): input is the Content-Type value, a line
// feed, then the body. Any bytes: no crash, and no error or verdict edihub
// keeps (outbox last_error, the log) carries a line break the partner wrote.
#include <cstddef>
#include <cstdint>
#include <string>

#include "src/protocols/as2/partner_mdn.h"

namespace {

bool has_line_break(const std::string& s) { return s.find_first_of("\r\n") != std::string::npos; }

const std::vector<edihub::crypto::Certificate>& acme() {
  static const std::vector<edihub::crypto::Certificate> certs = [] {
    std::vector<edihub::crypto::Certificate> out;
    const char* dir = std::getenv("EDIHUB_SOURCE_DIR");
    auto c = edihub::crypto::Certificate::load_pem_file(std::string(dir ? dir : EDIHUB_SOURCE_DIR) +
                                                        "/partners/certs/acme.crt");
    if (c.is_ok()) out.push_back(c.value());
    return out;
  }();
  return certs;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const size_t nl = bytes.find('\n');
  if (nl == std::string_view::npos) return 0;
  const std::string_view content_type = bytes.substr(0, nl), body = bytes.substr(nl + 1);
  (void)edihub::as2::looks_like_mdn(content_type, body);
  edihub::Result<edihub::as2::PartnerMdn> mdn = edihub::as2::read_partner_mdn(content_type, body, acme());
  if (!mdn.is_ok()) {
    if (has_line_break(mdn.status().message())) __builtin_trap();
    return 0;
  }
  edihub::Status v = edihub::as2::verdict(mdn.value(), {"<ack-997-x12-1.acme@edihub>", "AAAA", "sha-256", false});
  if (has_line_break(v.message())) __builtin_trap();
  return 0;
}
