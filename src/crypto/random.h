// Random identifiers from OpenSSL's CSPRNG: session and CSRF tokens, the
// Message-IDs of the receipts edihub writes.
#pragma once

#include <cstddef>
#include <string>

namespace edihub::crypto {

// `bytes` random bytes as lower-case hex; empty when the generator fails.
std::string random_hex(size_t bytes);

// A version-4 UUID, lower case ("2f1c...-4...-a..."), as RFC 9562 section 5.4
// lays out its 122 random bits. No file is opened (POCO's generator reads
// /dev/urandom anew for each one, a system call or three per receipt). Throws
// std::runtime_error when the generator fails, as POCO's did: that is a broken
// process, not an answer a partner could act on.
std::string random_uuid();

}  // namespace edihub::crypto
