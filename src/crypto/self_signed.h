// A new identity for a gateway that has none: an RSA key and a self-signed
// certificate for it (AS2 and AS4 partners pin certificates; they do not
// chain them to a CA), made with OpenSSL. The .deb's postinst makes one per
// machine (`edihub new-identity`), so no installation ever serves with a key
// that ships in a package.
#pragma once

#include <string>

#include "src/common/status.h"

namespace edihub::crypto {

struct NewIdentity {
  std::string key_pem, certificate_pem;
  std::string sha256;  // of the certificate's DER, lower-case hex (what partners compare)
};

// RSA of `bits` (2048 to 8192), the certificate valid for `days` from now,
// subject CN=`common_name`, signed with SHA-256, for signing and key encipherment.
Result<NewIdentity> make_self_signed(const std::string& common_name, int bits, int days);

}  // namespace edihub::crypto
