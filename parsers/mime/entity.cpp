#include "parsers/mime/entity.h"

#include <cctype>

namespace edihub::mime {

namespace {

// ASCII only, and without the C library's locale lookup per character: header
// names and MIME tokens are ASCII, and this runs for every header of every request.
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool is_space(char c) { return c == ' ' || c == '\t'; }

// RFC 2045 token characters.
bool is_token(char c) {
  static const std::string_view specials = "()<>@,;:\\\"/[]?=";
  unsigned char u = static_cast<unsigned char>(c);
  return u > 0x20 && u < 0x7f && specials.find(c) == std::string_view::npos;
}

Error error(Error::Code code, size_t offset, std::string message) {
  Error e;
  e.code = code;
  e.offset = offset;
  e.message = std::move(message);
  return e;
}

// The line starting at `pos`: its text without CR LF, and where the next begins.
struct Line {
  std::string_view text;
  size_t next;
  bool complete;
};

Line line_at(std::string_view s, size_t pos) {
  size_t lf = s.find('\n', pos);
  if (lf == std::string_view::npos) return {s.substr(pos), s.size(), false};
  size_t end = lf;
  if (end > pos && s[end - 1] == '\r') --end;
  return {s.substr(pos, end - pos), lf + 1, true};
}

}  // namespace

std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lower(c);
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (is_space(s.front()) || s.front() == '\r' || s.front() == '\n')) s.remove_prefix(1);
  while (!s.empty() && (is_space(s.back()) || s.back() == '\r' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

std::string ContentType::param(std::string_view name) const {
  for (const auto& [k, v] : params)
    if (k == name) return v;
  return {};
}

bool ContentType::is(std::string_view type_slash_subtype) const {
  size_t slash = type_slash_subtype.find('/');
  return iequals(type, type_slash_subtype.substr(0, slash)) && slash != std::string_view::npos &&
         iequals(subtype, type_slash_subtype.substr(slash + 1));
}

const Header* Entity::find(std::string_view name) const {
  for (const auto& h : headers)
    if (iequals(h.name, name)) return &h;
  return nullptr;
}

ContentType Entity::content_type() const {
  ContentType ct;
  const Header* h = find("Content-Type");
  if (h == nullptr || parse_content_type(h->value, &ct)) {
    ct = ContentType{};
    ct.type = "text";
    ct.subtype = "plain";
  }
  return ct;
}

Error parse_entity(std::string_view bytes, Entity* out, const Limits& limits) {
  Entity e;
  size_t pos = 0;
  while (true) {
    if (pos >= bytes.size())
      return error(Error::Code::NoHeaderEnd, pos, "MIME headers end without the blank line before the body");
    Line line = line_at(bytes, pos);
    if (!line.complete)
      return error(Error::Code::NoHeaderEnd, pos, "MIME headers end without the blank line before the body");
    if (line.text.empty()) {
      e.header_block = bytes.substr(0, line.next);
      e.body = bytes.substr(line.next);
      e.raw = bytes;
      break;
    }
    if (is_space(line.text.front())) {
      if (e.headers.empty())
        return error(Error::Code::BadHeader, pos, "MIME header continuation line before any header");
      Header& h = e.headers.back();
      h.value += ' ';
      h.value += std::string(trim(line.text));
      if (h.value.size() > limits.max_header_bytes)
        return error(Error::Code::HeaderTooLong, pos,
                     "MIME header '" + std::string(h.name) + "' is longer than " +
                         std::to_string(limits.max_header_bytes) + " bytes");
    } else {
      size_t colon = line.text.find(':');
      std::string_view name = colon == std::string_view::npos ? std::string_view() : line.text.substr(0, colon);
      bool valid = !name.empty();
      for (char c : name) valid = valid && is_token(c);
      if (!valid)
        return error(Error::Code::BadHeader, pos, "MIME header line without a 'Name:' at byte " + std::to_string(pos));
      if (e.headers.size() >= limits.max_headers)
        return error(Error::Code::TooManyHeaders, pos,
                     "more than " + std::to_string(limits.max_headers) + " MIME headers");
      if (line.text.size() > limits.max_header_bytes)
        return error(Error::Code::HeaderTooLong, pos,
                     "MIME header '" + std::string(name) + "' is longer than " +
                         std::to_string(limits.max_header_bytes) + " bytes");
      for (std::string_view decides :
           {"Content-Type", "Content-Transfer-Encoding", "Content-ID", "Content-Disposition"})
        if (iequals(name, decides) && e.find(decides) != nullptr)
          return error(Error::Code::Ambiguous, pos, "MIME header '" + std::string(decides) + "' given twice");
      e.headers.push_back({name, std::string(trim(line.text.substr(colon + 1)))});
    }
    pos = line.next;
  }
  *out = std::move(e);
  return {};
}

Error parse_content_type(std::string_view value, ContentType* out) {
  ContentType ct;
  std::string_view v = trim(value);
  size_t i = 0;
  auto token = [&]() {
    size_t start = i;
    while (i < v.size() && is_token(v[i])) ++i;
    return v.substr(start, i - start);
  };
  auto skip_space = [&]() {  // folding whitespace too, for values not unfolded yet
    while (i < v.size() && (is_space(v[i]) || v[i] == '\r' || v[i] == '\n')) ++i;
  };
  std::string_view type = token();
  if (type.empty() || i >= v.size() || v[i] != '/')
    return error(Error::Code::BadContentType, i, "Content-Type '" + std::string(value) + "' is not type/subtype");
  ++i;
  std::string_view subtype = token();
  if (subtype.empty())
    return error(Error::Code::BadContentType, i, "Content-Type '" + std::string(value) + "' has no subtype");
  ct.type = lowered(type);
  ct.subtype = lowered(subtype);
  while (true) {
    skip_space();
    if (i >= v.size()) break;
    if (v[i] != ';')
      return error(Error::Code::BadContentType, i,
                   "Content-Type '" + std::string(value) + "': expected ';' at " + std::to_string(i));
    ++i;
    skip_space();
    if (i >= v.size()) break;  // a trailing ';' is common and harmless
    std::string_view name = token();
    skip_space();
    if (name.empty() || i >= v.size() || v[i] != '=')
      return error(Error::Code::BadContentType, i,
                   "Content-Type '" + std::string(value) + "': expected name=value at " + std::to_string(i));
    ++i;
    skip_space();
    std::string param_value;
    if (i < v.size() && v[i] == '"') {
      ++i;
      bool closed = false;
      while (i < v.size()) {
        char c = v[i++];
        if (c == '\\' && i < v.size()) {
          param_value.push_back(v[i++]);
        } else if (c == '"') {
          closed = true;
          break;
        } else {
          param_value.push_back(c);
        }
      }
      if (!closed)
        return error(Error::Code::BadContentType, i,
                     "Content-Type '" + std::string(value) + "': unterminated quoted string");
    } else {
      param_value = std::string(token());
    }
    std::string lower_name = lowered(name);
    for (const auto& [seen, unused] : ct.params)
      if (seen == lower_name)
        return error(Error::Code::Ambiguous, i, "Content-Type parameter '" + lower_name + "' given twice");
    ct.params.emplace_back(std::move(lower_name), std::move(param_value));
  }
  *out = std::move(ct);
  return {};
}

constexpr size_t kMaxBoundary = 200;

Error split_multipart(std::string_view body, std::string_view boundary, std::vector<std::string_view>* parts,
                      const Limits& limits) {
  // RFC 2046 allows 70 characters; libas2 and other AS2 software send longer
  // boundaries, so the bound read is wider (still bounded: it is searched for).
  if (boundary.empty() || boundary.size() > kMaxBoundary)
    return error(Error::Code::NoBoundary, 0,
                 "multipart boundary must be 1-" + std::to_string(kMaxBoundary) + " characters");
  const std::string delimiter = "--" + std::string(boundary);
  std::vector<std::string_view> found;
  size_t part_start = std::string_view::npos;
  size_t search = 0;
  while (true) {
    size_t at = body.find(delimiter, search);
    if (at == std::string_view::npos) break;
    search = at + 1;
    // A delimiter starts a line.
    if (at != 0 && body[at - 1] != '\n') continue;
    size_t after = at + delimiter.size();
    bool closing = body.compare(after, 2, "--") == 0;
    size_t rest = closing ? after + 2 : after;
    while (rest < body.size() && is_space(body[rest])) ++rest;                                 // transport padding
    if (!closing && rest < body.size() && body[rest] != '\r' && body[rest] != '\n') continue;  // longer boundary
    if (part_start != std::string_view::npos) {
      // The line break before the delimiter belongs to it, not to the part.
      size_t end = at;
      if (end > part_start && body[end - 1] == '\n') --end;
      if (end > part_start && body[end - 1] == '\r') --end;
      if (found.size() >= limits.max_parts)
        return error(Error::Code::TooManyParts, at, "more than " + std::to_string(limits.max_parts) + " MIME parts");
      found.push_back(body.substr(part_start, end - part_start));
    }
    if (closing) {
      *parts = std::move(found);
      return {};
    }
    Line line = line_at(body, rest);
    part_start = line.next;
    search = part_start;
  }
  if (part_start == std::string_view::npos)
    return error(Error::Code::NoBoundary, 0, "multipart body has no '" + delimiter + "' line");
  return error(Error::Code::NoClosingBoundary, body.size(),
               "multipart body ends without the closing '" + delimiter + "--' line");
}

}  // namespace edihub::mime
