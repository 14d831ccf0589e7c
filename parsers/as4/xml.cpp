#include "parsers/as4/xml.h"

#include <cctype>
#include <functional>

namespace edihub::as4::xml {

namespace {

bool contains_doctype(std::string_view xml) {
  for (size_t i = xml.find("<!"); i != std::string_view::npos; i = xml.find("<!", i + 2)) {
    std::string_view rest = xml.substr(i + 2, 7);
    std::string upper;
    for (char c : rest) upper.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    if (upper == "DOCTYPE" || upper.rfind("ENTITY", 0) == 0) return true;
  }
  return false;
}

struct StringWriter : pugi::xml_writer {
  std::string out;
  void write(const void* data, size_t size) override { out.append(static_cast<const char*>(data), size); }
};

}  // namespace

std::string_view local_name(const pugi::xml_node& n) {
  std::string_view name = n.name();
  size_t colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

std::string_view namespace_of(const pugi::xml_node& n) {
  std::string_view name = n.name();
  size_t colon = name.find(':');
  const std::string attr = colon == std::string_view::npos ? "xmlns" : "xmlns:" + std::string(name.substr(0, colon));
  for (pugi::xml_node p = n; p; p = p.parent()) {
    if (p.type() != pugi::node_element) continue;
    if (pugi::xml_attribute a = p.attribute(attr.c_str())) return a.value();
  }
  return {};
}

bool is(const pugi::xml_node& n, std::string_view ns, std::string_view local) {
  return n.type() == pugi::node_element && local_name(n) == local && namespace_of(n) == ns;
}

pugi::xml_node child(const pugi::xml_node& n, std::string_view ns, std::string_view local) {
  for (pugi::xml_node c : n.children())
    if (is(c, ns, local)) return c;
  return {};
}

std::string text(const pugi::xml_node& n) {
  std::string_view v = n.text().get();
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front()))) v.remove_prefix(1);
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.remove_suffix(1);
  return std::string(v);
}

std::string attribute(const pugi::xml_node& n, std::string_view name) {
  for (pugi::xml_attribute a : n.attributes()) {
    std::string_view an = a.name();
    size_t colon = an.find(':');
    if ((colon == std::string_view::npos ? an : an.substr(colon + 1)) == name) return a.value();
  }
  return {};
}

std::string load(std::string_view bytes, const Bounds& bounds, pugi::xml_document* doc) {
  if (bytes.size() > bounds.max_bytes) return "larger than " + std::to_string(bounds.max_bytes) + " bytes";
  if (contains_doctype(bytes)) return "a document with a DTD or entity declarations (not accepted)";
  // No DOCTYPE node, no entity expansion beyond the five predefined ones.
  pugi::xml_parse_result parsed =
      doc->load_buffer(bytes.data(), bytes.size(), pugi::parse_default & ~pugi::parse_doctype, pugi::encoding_utf8);
  if (!parsed)
    return std::string("not well-formed XML: ") + parsed.description() + " at byte " + std::to_string(parsed.offset);
  // Bound depth and element count before anything reads it.
  size_t elements = 0;
  bool too_deep = false;
  std::function<void(const pugi::xml_node&, size_t)> walk = [&](const pugi::xml_node& n, size_t depth) {
    if (depth > bounds.max_depth) too_deep = true;
    for (pugi::xml_node c : n.children()) {
      if (too_deep || elements > bounds.max_elements) return;
      if (c.type() == pugi::node_element) {
        ++elements;
        walk(c, depth + 1);
      }
    }
  };
  walk(*doc, 0);
  if (too_deep) return "nested deeper than " + std::to_string(bounds.max_depth) + " elements";
  if (elements > bounds.max_elements) return "more than " + std::to_string(bounds.max_elements) + " XML elements";
  return {};
}

std::string print(const pugi::xml_node& n) {
  StringWriter w;
  if (n.type() == pugi::node_document)
    n.print(w, "", pugi::format_raw | pugi::format_no_declaration);
  else
    n.print(w, "", pugi::format_raw);
  return w.out;
}

}  // namespace edihub::as4::xml
