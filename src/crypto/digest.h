// Message digests (OpenSSL EVP).
#pragma once

#include <string>
#include <string_view>

namespace edihub::crypto {

// Lower-case hex SHA-256 of `data`.
std::string sha256_hex(std::string_view data);

}  // namespace edihub::crypto
