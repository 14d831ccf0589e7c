// IP allow-lists: addresses and CIDR networks, IPv4 and IPv6 (inet_pton).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace edihub {

// Whether `address` (IPv4 or IPv6 text) is inside one of `cidrs` ("10.0.0.0/8", "::1/128", "192.0.2.7").
bool ip_allowed(std::string_view address, const std::vector<std::string>& cidrs);
// Whether `cidr` is an address or address/prefix ip_allowed() reads.
bool is_cidr(std::string_view cidr);

}  // namespace edihub
