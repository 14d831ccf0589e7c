#include "src/crypto/password.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <vector>

#include "parsers/mime/transfer.h"

namespace edihub::crypto {

namespace {

constexpr std::string_view kScheme = "pbkdf2-sha256";
constexpr size_t kSaltBytes = 16, kHashBytes = 32;

bool pbkdf2(std::string_view password, const std::string& salt, int iterations, std::string* out) {
  out->assign(kHashBytes, '\0');
  return PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()),
                           reinterpret_cast<const unsigned char*>(salt.data()), static_cast<int>(salt.size()),
                           iterations, EVP_sha256(), static_cast<int>(kHashBytes),
                           reinterpret_cast<unsigned char*>(out->data())) == 1;
}

struct Parsed {
  int iterations = 0;
  std::string salt, hash;
};

bool parse_hash(std::string_view stored, Parsed* p) {
  std::vector<std::string> f;
  size_t start = 0;
  while (f.size() < 5) {
    const size_t end = stored.find('$', start);
    f.emplace_back(stored.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  if (f.size() != 4 || f[0] != kScheme || f[1].empty() || f[1].size() > 8 ||
      f[1].find_first_not_of("0123456789") != std::string::npos)
    return false;
  p->iterations = std::stoi(f[1]);
  // Salt and hash in plain base64: no line breaks or spaces inside a stored hash.
  constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";
  if (f[2].find_first_not_of(kAlphabet) != std::string::npos || f[3].find_first_not_of(kAlphabet) != std::string::npos)
    return false;
  return p->iterations >= 1000 && mime::base64_decode(f[2], &p->salt) && mime::base64_decode(f[3], &p->hash) &&
         p->hash.size() == kHashBytes && !p->salt.empty();
}

}  // namespace

std::string hash_password(std::string_view password, int iterations) {
  std::string salt(kSaltBytes, '\0'), hash;
  RAND_bytes(reinterpret_cast<unsigned char*>(salt.data()), static_cast<int>(salt.size()));
  pbkdf2(password, salt, iterations, &hash);
  return std::string(kScheme) + "$" + std::to_string(iterations) + "$" + mime::base64_encode(salt) + "$" +
         mime::base64_encode(hash);
}

bool is_password_hash(std::string_view stored) {
  Parsed p;
  return parse_hash(stored, &p);
}

bool verify_password(std::string_view password, std::string_view stored) {
  Parsed p;
  std::string hash;
  if (!parse_hash(stored, &p) || !pbkdf2(password, p.salt, p.iterations, &hash)) return false;
  return CRYPTO_memcmp(hash.data(), p.hash.data(), kHashBytes) == 0;
}

}  // namespace edihub::crypto
