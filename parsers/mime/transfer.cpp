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
