#include "src/crypto/random.h"

#include <openssl/rand.h>

#include <stdexcept>

#include "src/crypto/digest.h"

namespace edihub::crypto {

std::string random_hex(size_t bytes) {
  std::string raw(bytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(raw.data()), static_cast<int>(raw.size())) != 1) return {};
  return hex(raw);
}

std::string random_uuid() {
  unsigned char b[16];
  if (RAND_bytes(b, sizeof b) != 1) throw std::runtime_error("OpenSSL's random generator failed");
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);  // version 4
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);  // the RFC's variant
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += kDigits[b[i] >> 4];
    out += kDigits[b[i] & 0x0f];
  }
  return out;
}

}  // namespace edihub::crypto
