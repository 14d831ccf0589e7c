#include "src/console/html.h"

#include "src/common/partner_text.h"
#include "src/common/utc.h"

namespace edihub::console {

std::string html(std::string_view value, size_t max) {
  const std::string safe = partner_text(value, max);  // printable ASCII only from here on
  std::string out;
  out.reserve(safe.size());
  for (char c : safe) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string url(std::string_view value) {
  static const char* digits = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : value) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += digits[c >> 4];
      out += digits[c & 15];
    }
  }
  return out;
}

std::string link(const std::string& href, std::string_view text) {
  return "<a href=\"" + html(href, 8192) + "\">" + html(text) + "</a>";
}

std::string page(const Frame& f, const std::string& body) {
  static const std::pair<const char*, const char*> kNav[] = {{"/", "Dashboard"},        {"/messages", "Messages"},
                                                             {"/keys", "Keys"},         {"/outbox", "Outbox"},
                                                             {"/partners", "Partners"}, {"/audit", "Audit"}};
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<title>" +
      html(f.title) + " - edihub</title><link rel=\"stylesheet\" href=\"/style.css\"></head><body>";
  if (!f.operator_name.empty()) {
    out += "<header><span class=\"brand\">edihub</span><nav>";
    for (const auto& [href, label] : kNav) {
      out += std::string("<a href=\"") + href + "\"" + (f.current == href ? " aria-current=\"page\"" : "") + ">" +
             label + "</a>";
    }
    out += "</nav><form method=\"post\" action=\"/logout\" class=\"who\"><span>" + html(f.operator_name) + " (" +
           html(f.role) + ")</span><input type=\"hidden\" name=\"csrf\" value=\"" + html(f.csrf) +
           "\"><button type=\"submit\">Log out</button></form></header>";
  }
  out += "<main><h1>" + html(f.title) + "</h1>" + body + "</main></body></html>\n";
  return out;
}

std::string table(std::initializer_list<std::string_view> head, const std::vector<std::vector<std::string>>& rows,
                  std::string_view empty) {
  if (rows.empty()) return "<p class=\"empty\">" + html(empty) + "</p>";
  std::string out = "<div class=\"scroll\"><table><thead><tr>";
  for (std::string_view h : head) out += "<th>" + html(h) + "</th>";
  out += "</tr></thead><tbody>";
  for (const auto& row : rows) {
    out += "<tr>";
    for (const auto& cell : row) out += "<td>" + cell + "</td>";
    out += "</tr>";
  }
  return out + "</tbody></table></div>";
}

std::string action_button(const std::string& action, std::string_view label,
                          const std::vector<std::pair<std::string, std::string>>& fields, const std::string& csrf) {
  std::string out = "<form method=\"post\" action=\"" + html(action) + "\" class=\"inline\">";
  out += "<input type=\"hidden\" name=\"csrf\" value=\"" + html(csrf) + "\">";
  for (const auto& [name, value] : fields)
    out += "<input type=\"hidden\" name=\"" + html(name) + "\" value=\"" + html(value, 4096) + "\">";
  return out + "<button type=\"submit\">" + html(label) + "</button></form>";
}

std::string when(int64_t ms) { return html(iso_utc(ms)); }

std::string badge(std::string_view outcome) {
  return "<span class=\"badge " + html(outcome, 32) + "\">" + html(outcome, 32) + "</span>";
}

const std::string& stylesheet() {
  static const std::string css = R"(*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2433;background:#f5f6f8}
header{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.25rem;padding:.6rem 1rem;background:#1d2433;color:#fff}
header a{color:#cfd6e4;text-decoration:none;padding:.2rem .1rem}header a[aria-current]{color:#fff;border-bottom:2px solid #5aa0ff}
.brand{font-weight:700;letter-spacing:.02em}nav{display:flex;flex-wrap:wrap;gap:.9rem}
.who{margin-left:auto;display:flex;gap:.5rem;align-items:center}
main{max-width:1240px;margin:0 auto;padding:1rem}h1{font-size:1.4rem;margin:.4rem 0 1rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
.scroll{overflow-x:auto;background:#fff;border:1px solid #dde1e8;border-radius:6px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #eceff4;vertical-align:top}
th{background:#f0f2f6;font-weight:600;white-space:nowrap}td{overflow-wrap:anywhere}
.badge{display:inline-block;white-space:nowrap;padding:0 .45rem;border-radius:9px;font-size:.85em;background:#e3e7ee}
.badge.processed,.badge.delivered,.badge.completed{background:#d6f0dc;color:#185c2b}
.badge.duplicate{background:#e0ebfb;color:#1d4e89}.badge.rejected,.badge.conflict,.badge.failed,.badge.poison,.badge.error{background:#fbe0df;color:#8a1f1a}
.badge.in-flight,.badge.pending,.badge.processing,.badge.sent{background:#fdf0d2;color:#7a5300}
form.inline{display:inline}button{font:inherit;white-space:nowrap;padding:.25rem .7rem;border:1px solid #5a6b85;border-radius:4px;background:#fff;cursor:pointer}
button:hover{background:#eef3fb}input,select{font:inherit;padding:.25rem .4rem;border:1px solid #b9c1cf;border-radius:4px;max-width:100%}
.filters{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin-bottom:1rem}.filters label{display:flex;flex-direction:column;font-size:.85em}
.problems li{margin:.2rem 0}.ok{color:#185c2b}.warn{color:#8a1f1a;font-weight:600}.notice{padding:.5rem .8rem;background:#e0ebfb;border-radius:6px}
.error-box{padding:.5rem .8rem;background:#fbe0df;border-radius:6px}pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#fff;border:1px solid #dde1e8;padding:.6rem;border-radius:6px;max-height:28rem;overflow:auto}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
svg{max-width:100%;height:auto;background:#fff;border:1px solid #dde1e8;border-radius:6px}.empty{color:#5a6b85}
.login{max-width:22rem;margin:4rem auto;background:#fff;padding:1.5rem;border:1px solid #dde1e8;border-radius:8px}
.login label{display:block;margin:.6rem 0}.login input{width:100%}
@media (max-width:640px){main{padding:.6rem}th,td{padding:.3rem .4rem;font-size:.9em}.who{margin-left:0}}
)";
  return css;
}

}  // namespace edihub::console
