// What the Peppol readers and writers (sbdh, mls, reporting) share: digits
// and calendar days in identifiers and dates, and writing XML with pugixml.
// Internal to parsers/peppol.
#pragma once

#include <pugixml.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace edihub::peppol::text {

// s[at, at + n) exists and is all ASCII digits.
bool digits(std::string_view s, size_t at, size_t n);
// The number s[at, at + n) writes. REQUIRES: digits(s, at, n).
int number(std::string_view s, size_t at, size_t n);
// Days in `month` (1-12) of `year`, leap years right; 0 for no month.
int days_in_month(int year, int month);
// A day of the calendar (year 1 on).
bool calendar_date(int year, int month, int day);

// Collects pugixml's output.
struct StringWriter : pugi::xml_writer {
  std::string out;
  void write(const void* data, size_t size) override { out.append(static_cast<const char*>(data), size); }
};

// A child element `name` of `parent` holding `text`.
pugi::xml_node add(pugi::xml_node parent, const char* name, std::string_view text);

}  // namespace edihub::peppol::text
