#include "src/receivers/edge.h"

#include <iterator>

#include "parsers/mime/entity.h"
#include "src/common/partner_text.h"

namespace edihub::receivers {

namespace {

// Headers whose value decides something: two copies would let two readers
// see different requests (one reading the first, one the last).
constexpr std::string_view kSingle[] = {"AS2-From",
                                        "AS2-To",
                                        "AS2-Version",
                                        "Message-ID",
                                        "Content-Type",
                                        "Content-Transfer-Encoding",
                                        "Content-Length",
                                        "Transfer-Encoding",
                                        "Disposition-Notification-To",
                                        "Disposition-Notification-Options",
                                        "Receipt-Delivery-Option",
                                        "Host",
                                        "Expect",
                                        "EDIINT-Features",
                                        "SOAPAction"};

// The offset of the first byte that is a control character (HTAB aside) or
// not part of well-formed UTF-8, or npos.
size_t bad_byte(std::string_view v) {
  for (size_t i = 0; i < v.size();) {
    const unsigned char c = static_cast<unsigned char>(v[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t') || c == 0x7f) return i;
      ++i;
      continue;
    }
    size_t len = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (len == 0 || c == 0xc0 || c == 0xc1 || c > 0xf4 || i + len > v.size()) return i;
    for (size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(v[i + k]) & 0xc0) != 0x80) return i;
    i += len;
  }
  return std::string_view::npos;
}

char hex(unsigned n) { return "0123456789ABCDEF"[n & 15]; }

}  // namespace

std::optional<std::string> header_problem(const http::HttpRequest& r, const EdgeLimits& limits) {
  if (r.headers.size() > limits.max_headers) return "more than " + std::to_string(limits.max_headers) + " headers";
  for (const auto& [name, value] : r.headers) {
    // The name made safe to show, on the error path only (every request passes here).
    auto shown = [&name = name] { return partner_text(name, 64); };
    if (value.size() > limits.max_value_bytes)
      return "header " + shown() + " is longer than " + std::to_string(limits.max_value_bytes) + " bytes";
    if (size_t at = bad_byte(value); at != std::string_view::npos) {
      const unsigned char c = static_cast<unsigned char>(value[at]);
      return "header " + shown() + " has byte 0x" + hex(c >> 4) + hex(c) + " at position " + std::to_string(at + 1) +
             ": control characters and invalid UTF-8 are not allowed in header values";
    }
  }
  // One pass: how often each header the gateway uses appears.
  int seen[std::size(kSingle)] = {};
  for (const auto& [name, value] : r.headers)
    for (size_t i = 0; i < std::size(kSingle); ++i)
      if (name.size() == kSingle[i].size() && mime::iequals(name, kSingle[i])) ++seen[i];
  for (size_t i = 0; i < std::size(kSingle); ++i)
    if (seen[i] > 1)
      return "header " + std::string(kSingle[i]) + " appears " + std::to_string(seen[i]) +
             " times: it must appear once";
  return std::nullopt;
}

std::optional<std::string> as2_id(std::string_view v) {
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') {
    std::string id;
    for (size_t i = 1; i + 1 < v.size(); ++i) {
      char c = v[i];
      if (c == '\\' && i + 2 < v.size())
        c = v[++i];
      else if (c == '"' || c == '\\')
        return std::nullopt;
      if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) return std::nullopt;
      id.push_back(c);
    }
    if (id.empty() || id.size() > 128) return std::nullopt;
    return id;
  }
  if (v.empty() || v.size() > 128) return std::nullopt;
  static const std::string_view kSeparators = "\"(),:;<>@[\\]";
  for (char c : v)
    if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) > 0x7e ||
        kSeparators.find(c) != std::string_view::npos)
      return std::nullopt;
  return std::string(v);
}

std::optional<std::string> receipt_value_problem(std::string_view name, std::string_view value, size_t max) {
  const std::string n(name);
  if (value.empty()) return "header " + n + " is empty";
  if (value.size() > max) return "header " + n + " is longer than " + std::to_string(max) + " characters";
  for (unsigned char c : value)
    if (c < 0x20 || c > 0x7e) return "header " + n + " must be printable ASCII";
  if (value.find("=?") != std::string_view::npos && value.find("?=") != std::string_view::npos)
    return "header " + n + " holds an RFC 2047 encoded word: not allowed in AS2 headers";
  return std::nullopt;
}

}  // namespace edihub::receivers
