// Helpers for parser tests: well-formed envelopes to vary one thing at a time.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "parsers/edi/parser.h"

namespace edihub::test {

// An ISA of exactly 106 characters with the given service characters.
inline std::string isa(char el = '*', std::string isa11 = "U", std::string version = "00401",
                       std::string control = "000000001", char comp = '>', std::string term = "~") {
  std::string e(1, el);
  return "ISA" + e + "00" + e + "          " + e + "00" + e + "          " + e + "ZZ" + e + "SENDER         " + e +
         "ZZ" + e + "RECEIVER       " + e + "240102" + e + "1230" + e + isa11 + e + version + e + control + e + "0" +
         e + "P" + e + std::string(1, comp) + term;
}

// A one-group, one-set X12 interchange; `body` segments go between ST and SE.
inline std::string x12(const std::string& header = isa(), int body = 2, const std::string& control = "000000001",
                       const std::string& sep = "\n") {
  std::string s = header + sep + "GS*SH*SENDER*RECEIVER*20240102*1230*7*X*004010~" + sep + "ST*856*0001~" + sep;
  for (int i = 0; i < body; ++i) s += "REF*ZZ*" + std::to_string(i) + "~" + sep;
  s += "SE*" + std::to_string(body + 2) + "*0001~" + sep + "GE*1*7~" + sep + "IEA*1*" + control + "~" + sep;
  return s;
}

inline bool contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string source_path(const std::string& rel) { return std::string(EDIHUB_SOURCE_DIR) + "/" + rel; }

// Codes of all errors of the first interchange, "A,B".
inline std::string codes(const edi::ParseResult& r) {
  std::string out;
  for (const auto& e : r.errors) out += (out.empty() ? "" : ",") + std::string(edi::code_name(e.code));
  for (const auto& ic : r.interchanges)
    for (const auto& e : ic.errors) out += (out.empty() ? "" : ",") + std::string(edi::code_name(e.code));
  return out;
}

}  // namespace edihub::test
