// libFuzzer target for AS2 unwrapping: MIME structure, CMS layers
// (enveloped, signed, compressed, in any nesting), base64, the MIC, with the
// demo identity and the demo partner's certificate. Any bytes: no crash, and
// a bounded budget always given back.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "src/protocols/as2/unwrap.h"

namespace {

using namespace edihub;

const as2::UnwrapOptions& options() {
  static const as2::UnwrapOptions o = [] {
    const char* dir = std::getenv("EDIHUB_SOURCE_DIR");
    const std::string certs = std::string(dir != nullptr ? dir : EDIHUB_SOURCE_DIR) + "/partners/certs/";
    as2::UnwrapOptions u;
    u.identities.push_back({crypto::Certificate::load_pem_file(certs + "edihub.crt").value(),
                            crypto::PrivateKey::load_pem_file(certs + "edihub.key").value()});
    u.signers.push_back(crypto::Certificate::load_pem_file(certs + "acme.crt").value());
    return u;
  }();
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  mime::Entity outer;
  if (mime::parse_entity(bytes, &outer)) return 0;
  Budget shared(8u << 20);
  {
    Lease lease(&shared, 4u << 20);
    Result<as2::Unwrapped> u = as2::unwrap(outer, options(), lease);
    if (u.is_ok() && !u->signed_ && !u->encrypted && u->mic.empty()) __builtin_trap();  // a MIC is always made
    if (!u.is_ok() && u.status().message().empty()) __builtin_trap();                   // and a reason otherwise
  }
  if (shared.used() != 0) __builtin_trap();
  return 0;
}
