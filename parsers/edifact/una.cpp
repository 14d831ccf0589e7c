#include "parsers/edifact/una.h"

#include <cctype>

namespace edihub::edifact {

edi::Delimiters default_delimiters() {
  edi::Delimiters d;
  d.component = ':';
  d.element = '+';
  d.decimal = '.';
  d.release = '?';
  d.repetition = 0;
  d.terminator.bytes[0] = '\'';
  d.terminator.size = 1;
  return d;
}

UnaStatus read_una(std::string_view buf, size_t pos, bool eof, Una* out, std::string* why) {
  char chars[6];
  size_t n = 0;
  size_t i = pos + 3;
  while (n < 6) {
    if (i >= buf.size()) {
      if (!eof) return UnaStatus::NeedMore;
      *why = "input ends inside UNA: expected 6 service characters after 'UNA'";
      return UnaStatus::Invalid;
    }
    char c = buf[i++];
    if (n < 5 && (c == '\n' || c == '\r')) continue;
    chars[n++] = c;
  }
  Una u;
  edi::Delimiters& d = u.delimiters;
  d.component = chars[0];
  d.element = chars[1];
  d.decimal = chars[2];
  d.release = chars[3] == ' ' ? 0 : chars[3];
  u.repetition_or_reserved = chars[4];
  d.terminator.bytes[0] = chars[5];
  d.terminator.size = 1;
  u.raw_length = i - pos;

  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  const char service[] = {d.component, d.element, d.release, chars[5]};
  for (char c : service) {
    if (c != 0 && (alnum(c) || c == ' ')) {
      *why = std::string("UNA service character '") + c + "' is a letter, digit or space";
      return UnaStatus::Invalid;
    }
  }
  if (d.component == d.element || d.component == chars[5] || d.element == chars[5] ||
      (d.release != 0 && (d.release == d.component || d.release == d.element || d.release == chars[5]))) {
    *why = "UNA component separator, element separator, release character and segment terminator are not all different";
    return UnaStatus::Invalid;
  }
  if (d.decimal != '.' && d.decimal != ',') {
    *why = std::string("UNA decimal mark '") + d.decimal + "' is neither '.' nor ','";
    return UnaStatus::Invalid;
  }
  *out = u;
  return UnaStatus::Ok;
}

}  // namespace edihub::edifact
