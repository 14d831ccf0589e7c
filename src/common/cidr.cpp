#include "src/common/cidr.h"

#include <arpa/inet.h>

#include <cstring>

namespace edihub {

namespace {

bool parse_address(std::string_view text, unsigned char* bytes, int* family) {
  const std::string s(text);
  if (inet_pton(AF_INET, s.c_str(), bytes) == 1) {
    *family = AF_INET;
    return true;
  }
  if (inet_pton(AF_INET6, s.c_str(), bytes) == 1) {
    *family = AF_INET6;
    return true;
  }
  return false;
}

// `cidr` split and read: the network's bytes, family and prefix length.
bool parse_cidr(std::string_view cidr, unsigned char* net, int* family, int* prefix) {
  const size_t slash = cidr.find('/');
  if (!parse_address(cidr.substr(0, slash), net, family)) return false;
  const int max = *family == AF_INET ? 32 : 128;
  *prefix = max;
  if (slash == std::string_view::npos) return true;
  const std::string_view p = cidr.substr(slash + 1);
  if (p.empty() || p.size() > 3 || p.find_first_not_of("0123456789") != std::string_view::npos) return false;
  *prefix = std::stoi(std::string(p));
  return *prefix <= max;
}

}  // namespace

bool is_cidr(std::string_view cidr) {
  unsigned char net[16];
  int family = 0, prefix = 0;
  return parse_cidr(cidr, net, &family, &prefix);
}

bool ip_allowed(std::string_view address, const std::vector<std::string>& cidrs) {
  unsigned char a[16];
  int family = 0;
  if (!parse_address(address, a, &family)) return false;
  for (const std::string& cidr : cidrs) {
    unsigned char net[16];
    int net_family = 0, prefix = 0;
    if (!parse_cidr(cidr, net, &net_family, &prefix) || net_family != family) continue;
    const int full = prefix / 8, rest = prefix % 8;
    if (std::memcmp(a, net, static_cast<size_t>(full)) != 0) continue;
    if (rest != 0) {
      const unsigned char mask = static_cast<unsigned char>(0xFF << (8 - rest));
      if ((a[full] & mask) != (net[full] & mask)) continue;
    }
    return true;
  }
  return false;
}

}  // namespace edihub
