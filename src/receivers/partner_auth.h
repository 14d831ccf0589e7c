// Partner authentication on the wire, from the profile's <auth>: an IP
// allow-list, TLS client certificates pinned by fingerprint (mutual TLS) and
// HTTP Basic credentials (the password kept as a PBKDF2 hash), checked in that
// order. The pipeline checks it as soon as the envelope names the partner,
// before a stored receipt is returned and before any decryption: a request
// that fails gets 403 (address not allowed; no client certificate, or not a
// pinned one) or 401 (credentials missing or wrong).
// Replays from the command line are not checked (nothing came over the wire).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/config/partners.h"
#include "src/receivers/http.h"

namespace edihub::receivers {

// The refusal for `request` from `partner`, or nullopt when it passes (or
// the profile asks for nothing).
std::optional<HttpAnswer> check_partner_auth(const config::Partner& partner, const HttpRequest& request);

}  // namespace edihub::receivers
