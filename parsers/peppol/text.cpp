#include "parsers/peppol/text.h"

namespace edihub::peppol::text {

bool digits(std::string_view s, size_t at, size_t n) {
  if (at + n > s.size()) return false;
  for (size_t i = at; i < at + n; ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

int number(std::string_view s, size_t at, size_t n) {
  int v = 0;
  for (size_t i = at; i < at + n; ++i) v = v * 10 + (s[i] - '0');
  return v;
}

int days_in_month(int year, int month) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12) return 0;
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

bool calendar_date(int year, int month, int day) { return year > 0 && day >= 1 && day <= days_in_month(year, month); }

pugi::xml_node add(pugi::xml_node parent, const char* name, std::string_view text) {
  pugi::xml_node n = parent.append_child(name);
  n.text().set(std::string(text).c_str());
  return n;
}

}  // namespace edihub::peppol::text
