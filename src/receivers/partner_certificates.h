// The partners' signing certificates, loaded once at start: AS2 (CMS) and AS4
// (WS-Security) check a signer against them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "src/common/status.h"
#include "src/config/partners.h"
#include "src/crypto/cms.h"

namespace edihub::receivers {

using SigningCertificates = std::map<std::string, std::vector<crypto::Certificate>>;  // by partner id

// Every <certificate use="signing"> of every partner; Invalid names the partner and file.
Result<SigningCertificates> load_signing_certificates(const config::Partners& partners);

}  // namespace edihub::receivers
