// What the operator console reads from anyone who reaches its port, before
// any login: the form (query or url-encoded body, through POCO's HTMLForm),
// the session cookie, the path to return to; and the one escape every value
// passes on its way into a page. Input: target LF cookie LF body; the first
// byte's low bit picks GET or POST.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "src/console/console.h"
#include "src/console/html.h"
#include "src/console/session.h"

using namespace edihub;

namespace {

void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "console_request_fuzz: %s\n", what);
  std::abort();
}

// Escaped text never opens or closes markup or an attribute, never breaks a line.
void check_escaped(const std::string& out) {
  for (char c : out)
    require(c != '<' && c != '>' && c != '"' && c != '\'' && c != '\n' && c != '\r' && c != '\0',
            "markup, a quote or a line break came out of the escape");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t a = input.find('\n'), b = a == std::string::npos ? a : input.find('\n', a + 1);
  http::HttpRequest r;
  r.method = size > 0 && (data[0] & 1) ? "POST" : "GET";
  r.target = "/" + input.substr(0, a);
  if (a != std::string::npos)
    r.headers.push_back({"Cookie", input.substr(a + 1, b == std::string::npos ? b : b - a - 1)});
  if (b != std::string::npos) r.body = input.substr(b + 1);

  Result<console::Form> form = console::parse_form(r);
  if (form.is_ok()) {
    require(form->size() <= 32, "more fields than the limit");
    for (const auto& [name, value] : form.value()) {
      check_escaped(console::html(name));
      check_escaped(console::html(value));
      const std::string back = console::local_path(value);
      require(!back.empty() && back[0] == '/' && (back.size() == 1 || (back[1] != '/' && back[1] != '\\')),
              "a return path that leaves the site");
      console::positive_number(value);
    }
  }
  const std::string token = console::session_token(r);
  require(token.empty() || token.size() == 64, "a session token of the wrong size");
  check_escaped(console::html(input));
  check_escaped(console::url(input));
  return 0;
}
