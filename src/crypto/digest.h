// Message digests (OpenSSL EVP), and the two kinds the gate compares: the
// digest of the bytes as received and the digest of the verified content.
// Distinct types, so one is never stored or compared as the other.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace edihub::crypto {

// `bytes` as lower-case hex.
std::string hex(std::string_view bytes);
// Lower-case hex SHA-256 of `data`.
std::string sha256_hex(std::string_view data);
// The same over the concatenation of `parts`, without building it.
std::string sha256_hex(std::initializer_list<std::string_view> parts);

template <typename Tag>
class Digest {
 public:
  Digest() = default;
  // From stored hex (the store hands back what it was given).
  static Digest from_hex(const std::string& hex) {
    Digest d;
    d.hex_ = hex;
    return d;
  }
  static Digest of(std::string_view bytes) { return from_hex(sha256_hex(bytes)); }
  static Digest of(std::initializer_list<std::string_view> parts) { return from_hex(sha256_hex(parts)); }
  const std::string& hex() const { return hex_; }
  bool empty() const { return hex_.empty(); }
  bool operator==(const Digest& o) const { return hex_ == o.hex_; }
  bool operator!=(const Digest& o) const { return hex_ != o.hex_; }

 private:
  std::string hex_;
};

struct RawTag;
struct PayloadTag;
// The bytes as received: what tells a byte-identical retransmission.
using RawDigest = Digest<RawTag>;
// The decrypted, verified content (or an interchange's bytes): what tells a
// duplicate from a conflict.
using PayloadDigest = Digest<PayloadTag>;

}  // namespace edihub::crypto
