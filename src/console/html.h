// Building the console's pages: the one escape every value passes on its way
// into HTML (partner ids, message ids, error texts: anything from a partner
// or the store), the page frame with its navigation, and small tables.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace edihub::console {

// `value` safe as HTML text or a quoted attribute value: & < > " ' escaped,
// control bytes and invalid UTF-8 shown as \xNN (partner_text()), bounded.
std::string html(std::string_view value, size_t max = 2048);

// `value` percent-encoded for a URL query or path segment.
std::string url(std::string_view value);

// A link: href is built from trusted parts plus url()-encoded values.
std::string link(const std::string& href, std::string_view text);

// The whole page: head, navigation (the current one marked), the operator
// and the logout form, then `body` (already HTML).
struct Frame {
  std::string title, current, operator_name, role, csrf;
};
std::string page(const Frame& frame, const std::string& body);

// A table: `head` cells are escaped, `rows` cells are HTML already.
std::string table(std::initializer_list<std::string_view> head, const std::vector<std::vector<std::string>>& rows,
                  std::string_view empty = "nothing here");

// A POST form of one button, with the session's CSRF token and hidden fields.
std::string action_button(const std::string& action, std::string_view label,
                          const std::vector<std::pair<std::string, std::string>>& fields, const std::string& csrf);

// A store time as UTC (html-safe), "-" for 0.
std::string when(int64_t ms);

// The outcome as a coloured badge.
std::string badge(std::string_view outcome);

// The stylesheet served at /style.css.
const std::string& stylesheet();

}  // namespace edihub::console
