// Partner authentication on the wire, from the profile's <auth>: an IP
// allow-list, TLS client certificates pinned by fingerprint (mutual TLS) and
// HTTP Basic credentials (the password kept as a PBKDF2 hash), checked in that
// order. The pipeline checks it as soon as the envelope names the partner,
// before a stored receipt is returned and before any decryption: a request
// that fails gets 403 (address not allowed; no client certificate, or not a
// pinned one) or 401 (credentials missing or wrong). An address whose Basic
// credentials failed 5 times within 15 minutes gets 429 for the rest of the
// window without a PBKDF2; a wrong user costs the same PBKDF2 as a wrong
// password, so the timing tells nothing.
// Replays from the command line are not checked (nothing came over the wire).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/config/partners.h"
#include "src/http/message.h"

namespace edihub::identity {

// The refusal for `request` from `partner`, or nullopt when it passes (or
// the profile asks for nothing). May run PBKDF2: a worker's call.
std::optional<http::HttpAnswer> check_partner_auth(const config::Partner& partner, const http::HttpRequest& request);

// The same without the costly step, for the I/O threads: Passed, Refused
// (`refusal` says why), or NeedsHash: Basic credentials not verified before,
// which only check_partner_auth() (on a worker) can decide.
struct QuickAuth {
  enum class Kind { Passed, Refused, NeedsHash };
  Kind kind = Kind::Passed;
  http::HttpAnswer refusal;
};
QuickAuth check_partner_auth_quick(const config::Partner& partner, const http::HttpRequest& request);

// Refused authentications since the start, by partner id and reason
// ("address", "client-cert", "basic", "throttled"): for /metrics.
std::map<std::pair<std::string, std::string>, int64_t> partner_auth_failures();

}  // namespace edihub::identity
