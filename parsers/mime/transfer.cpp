#include "parsers/mime/transfer.h"

#include <cctype>
#include <cstdint>

namespace edihub::mime {

namespace {

// Each byte's base64 value (0-63), or what else it is.
constexpr uint8_t kSkip = 64;  // CR, LF, space, tab: line breaks between data
constexpr uint8_t kPad = 65;   // '='
constexpr uint8_t kBad = 255;

struct Base64Table {
  uint8_t value[256];
  constexpr Base64Table() : value() {
    for (int i = 0; i < 256; ++i) value[i] = kBad;
    for (int i = 0; i < 26; ++i) {
      value['A' + i] = static_cast<uint8_t>(i);
      value['a' + i] = static_cast<uint8_t>(26 + i);
    }
    for (int i = 0; i < 10; ++i) value['0' + i] = static_cast<uint8_t>(52 + i);
    value[static_cast<unsigned char>('+')] = 62;
    value[static_cast<unsigned char>('/')] = 63;
    for (char c : {'\r', '\n', ' ', '\t'}) value[static_cast<unsigned char>(c)] = kSkip;
    value[static_cast<unsigned char>('=')] = kPad;
  }
};
constexpr Base64Table kBase64;

}  // namespace

bool base64_decode(std::string_view in, std::string* out) {
  out->resize(in.size() / 4 * 3 + 3);
  char* o = out->data();
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const auto* const end = p + in.size();
  unsigned buffer = 0;
  int bits = 0, quantum = 0, padding = 0;
  while (p < end) {
    // Four data characters at a group's start, the common case: three bytes at once.
    if (quantum == 0 && padding == 0 && end - p >= 4) {
      const uint32_t a = kBase64.value[p[0]], b = kBase64.value[p[1]], c = kBase64.value[p[2]], d = kBase64.value[p[3]];
      if ((a | b | c | d) < 64) {
        const uint32_t n = (a << 18) | (b << 12) | (c << 6) | d;
        *o++ = static_cast<char>(n >> 16);
        *o++ = static_cast<char>((n >> 8) & 0xff);
        *o++ = static_cast<char>(n & 0xff);
        p += 4;
        continue;
      }
    }
    const uint8_t v = kBase64.value[*p++];
    if (v == kSkip) continue;
    if (v == kPad) {
      if (quantum < 2) return false;  // "=" can only end a group of at least two
      ++padding;
      if (++quantum == 4) quantum = 0;
      continue;
    }
    if (padding > 0 || v == kBad) return false;  // data after the padding, or not base64
    buffer = (buffer << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      *o++ = static_cast<char>((buffer >> bits) & 0xff);
    }
    if (++quantum == 4) quantum = 0;
  }
  out->resize(static_cast<size_t>(o - out->data()));
  // A group must be complete (padded) or at least two characters long.
  return quantum == 0 || (padding == 0 && quantum >= 2);
}

std::string base64_encode(std::string_view data) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  for (size_t i = 0; i < data.size(); i += 3) {
    const uint32_t n = (static_cast<uint32_t>(static_cast<unsigned char>(data[i])) << 16) |
                       (i + 1 < data.size() ? static_cast<uint32_t>(static_cast<unsigned char>(data[i + 1])) << 8 : 0) |
                       (i + 2 < data.size() ? static_cast<unsigned char>(data[i + 2]) : 0);
    out.push_back(k[(n >> 18) & 63]);
    out.push_back(k[(n >> 12) & 63]);
    out.push_back(i + 1 < data.size() ? k[(n >> 6) & 63] : '=');
    out.push_back(i + 2 < data.size() ? k[n & 63] : '=');
  }
  return out;
}

std::string base64_encode_lines(std::string_view data) {
  const std::string flat = base64_encode(data);
  std::string out;
  out.reserve(flat.size() + flat.size() / 76 * 2 + 2);
  for (size_t i = 0; i < flat.size(); i += 76) out.append(flat, i, 76).append("\r\n");
  return out;
}

Error decode_body(const Entity& e, std::string* out) {
  const Header* cte = e.find("Content-Transfer-Encoding");
  std::string encoding = cte == nullptr ? "binary" : cte->value;
  for (char& c : encoding) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  Error err;
  if (encoding == "binary" || encoding == "8bit" || encoding == "7bit") {
    out->assign(e.body);
    return err;
  }
  err.code = Error::Code::BadHeader;
  if (encoding != "base64") {
    err.message = "Content-Transfer-Encoding '" + encoding.substr(0, 40) + "' is not supported (binary or base64)";
    return err;
  }
  if (!base64_decode(e.body, out)) {
    err.message = "the base64 body is malformed";
    return err;
  }
  return Error{};
}

}  // namespace edihub::mime
