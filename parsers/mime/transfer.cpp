#include "parsers/mime/transfer.h"

#include <cctype>

namespace edihub::mime {

namespace {

int value_of(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

bool base64_decode(std::string_view in, std::string* out) {
  out->clear();
  out->reserve(in.size() / 4 * 3);
  unsigned buffer = 0;
  int bits = 0, quantum = 0, padding = 0;
  for (unsigned char c : in) {
    if (c == '\r' || c == '\n' || c == ' ' || c == '\t') continue;
    if (c == '=') {
      if (quantum < 2) return false;  // "=" can only end a group of at least two
      ++padding;
      if (++quantum == 4) quantum = 0;
      continue;
    }
    if (padding > 0) return false;  // data after the padding
    const int v = value_of(c);
    if (v < 0) return false;
    buffer = (buffer << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((buffer >> bits) & 0xff));
    }
    if (++quantum == 4) quantum = 0;
  }
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
