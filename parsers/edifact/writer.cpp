#include "parsers/edifact/writer.h"

#include <cstring>

#include "parsers/edifact/una.h"

namespace edihub::edifact {

bool Writer::service(char c) const {
  return c == d_.element || c == d_.component || c == d_.terminator.bytes[0] || (d_.release != 0 && c == d_.release) ||
         (d_.repetition != 0 && c == d_.repetition);
}

std::string Writer::esc(std::string_view v) const {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if (!service(c)) {
      out.push_back(c);
    } else if (d_.release != 0) {
      out.push_back(d_.release);
      out.push_back(c);
    } else {
      out.push_back(' ');
    }
  }
  return out;
}

std::string Writer::text(std::string_view v, std::string_view syntax) const {
  const bool level_a = syntax == "UNOA";
  std::string plain;
  plain.reserve(v.size());
  for (char ch : v) {
    const auto u = static_cast<unsigned char>(ch);
    char c = u < 0x20 || u > 0x7e ? ' ' : ch;
    if (level_a) {
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
      // Level A: A-Z, 0-9, space and . , - ( ) / = ' + : ? ! " % & * ; < >
      const bool ok = (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || std::strchr(" .,-()/='+:?!\"%&*;<>", c);
      if (!ok) c = ' ';
    }
    plain.push_back(c);
  }
  return esc(plain);
}

std::string Writer::party(const edi::Party& p) const {
  return p.qualifier.empty() ? esc(p.id) : esc(p.id) + d_.component + esc(p.qualifier);
}

void Writer::segment(std::initializer_list<std::string> elements) {
  size_t n = elements.size();
  auto it = elements.begin();
  while (n > 1 && it[n - 1].empty()) --n;
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) out_.push_back(d_.element);
    out_.append(it[i]);
  }
  out_.append(d_.terminator.view());
  out_.append(suffix_);
  ++count_;
}

void Writer::una() {
  out_ += "UNA";
  out_ += d_.component;
  out_ += d_.element;
  out_ += d_.decimal;
  out_ += d_.release != 0 ? d_.release : ' ';
  out_ += d_.repetition != 0 ? d_.repetition : ' ';
  out_.append(d_.terminator.view());
  out_.append(suffix_);
}

void Writer::interchange_header(const edi::Interchange& o, const std::optional<edi::Party>& sender,
                                const std::optional<edi::Party>& recipient, std::string_view date,
                                std::string_view time, std::string_view reference) {
  if (!is_default(o.delimiters)) una();
  const char c = d_.component;
  segment({"UNB", esc(syntax_of(o)) + c + esc(syntax_version_of(o)), party(sender ? *sender : o.receiver),
           party(recipient ? *recipient : o.sender), esc(date) + c + esc(time), esc(reference)});
}

std::string syntax_of(const edi::Interchange& o) { return o.syntax.empty() ? "UNOA" : o.syntax; }
std::string syntax_version_of(const edi::Interchange& o) { return o.version.empty() ? "3" : o.version; }

bool is_default(const edi::Delimiters& d) {
  edi::Delimiters def = default_delimiters();
  return d.component == def.component && d.element == def.element && d.decimal == def.decimal &&
         d.release == def.release && d.terminator.view() == def.terminator.view() &&
         (d.repetition == 0 || d.repetition == '*');
}

}  // namespace edihub::edifact
