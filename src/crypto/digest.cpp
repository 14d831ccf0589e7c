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
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(len * 2);
  for (unsigned int i = 0; i < len; ++i) {
    out.push_back(hex[md[i] >> 4]);
    out.push_back(hex[md[i] & 15]);
  }
  return out;
}

}  // namespace edihub::crypto
