// Passwords kept as PBKDF2-HMAC-SHA256 hashes (OpenSSL): partner HTTP Basic
// credentials in the profile, never the password itself.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace edihub::crypto {

// "pbkdf2-sha256$ITERATIONS$SALT$HASH" (salt and hash base64) of `password`, with a fresh salt.
std::string hash_password(std::string_view password, int iterations = 100000);
// True when `password` matches `stored` (as hash_password writes it); constant-time compare.
bool verify_password(std::string_view password, std::string_view stored);
// Whether a stored hash has the form hash_password writes (for the profile loader).
bool is_password_hash(std::string_view stored);

}  // namespace edihub::crypto
