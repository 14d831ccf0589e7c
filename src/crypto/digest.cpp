#include "src/crypto/digest.h"

#include <openssl/evp.h>

namespace edihub::crypto {

std::string sha256_hex(std::string_view data) { return sha256_hex({data}); }

std::string sha256_hex(std::initializer_list<std::string_view> parts) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
  for (std::string_view p : parts) EVP_DigestUpdate(ctx, p.data(), p.size());
  EVP_DigestFinal_ex(ctx, md, &len);
  EVP_MD_CTX_free(ctx);
  return hex(std::string_view(reinterpret_cast<const char*>(md), len));
}

std::string hex(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

}  // namespace edihub::crypto
