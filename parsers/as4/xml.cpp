#include "parsers/as4/xml.h"

#include <cctype>
#include <cstring>
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
  // Every dimension bounded before anything reads it (namespace look-ups
  // scan attributes up the ancestors: unbounded, they cost seconds). One
  // pass, stopped at the first bound crossed.
  size_t elements = 0, attributes = 0, declarations = 0;
  std::string problem;
  std::function<void(const pugi::xml_node&, size_t)> walk = [&](const pugi::xml_node& n, size_t depth) {
    if (depth > bounds.max_depth) {
      problem = "nested deeper than " + std::to_string(bounds.max_depth) + " elements";
      return;
    }
    for (pugi::xml_node c : n.children()) {
      if (!problem.empty()) return;
      if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) {
        if (std::strlen(c.value()) > bounds.max_text_bytes)
          problem = "holding a text longer than " + std::to_string(bounds.max_text_bytes) + " bytes";
        continue;
      }
      if (c.type() != pugi::node_element) continue;
      if (++elements > bounds.max_elements) {
        problem = "more than " + std::to_string(bounds.max_elements) + " XML elements";
        return;
      }
      if (std::strlen(c.name()) > bounds.max_name_bytes)
        problem = "holding a name longer than " + std::to_string(bounds.max_name_bytes) + " bytes";
      size_t here = 0;
      for (pugi::xml_attribute a : c.attributes()) {
        const std::string_view name = a.name();
        if (++here > bounds.max_attributes_per_element)
          problem = "an element with more than " + std::to_string(bounds.max_attributes_per_element) + " attributes";
        else if (++attributes > bounds.max_attributes)
          problem = "more than " + std::to_string(bounds.max_attributes) + " attributes";
        else if ((name == "xmlns" || name.substr(0, 6) == "xmlns:") &&
                 ++declarations > bounds.max_namespace_declarations)
          problem = "more than " + std::to_string(bounds.max_namespace_declarations) + " namespace declarations";
        else if (name.size() > bounds.max_name_bytes)
          problem = "holding a name longer than " + std::to_string(bounds.max_name_bytes) + " bytes";
        else if (std::strlen(a.value()) > bounds.max_attribute_bytes)
          problem = "holding an attribute value longer than " + std::to_string(bounds.max_attribute_bytes) + " bytes";
        if (!problem.empty()) return;
      }
      if (!problem.empty()) return;
      walk(c, depth + 1);
    }
  };
  walk(*doc, 0);
  return problem;
}

std::string print(const pugi::xml_node& n) {
  StringWriter w;
  if (n.type() == pugi::node_document)
    n.print(w, "", pugi::format_raw | pugi::format_no_declaration);
  else
    n.print(w, "", pugi::format_raw);
  return w.out;
}

Bounds business_document_bounds() {
  Bounds b;
  b.max_bytes = size_t{100} << 20;
  b.max_depth = 64;
  b.max_elements = 2000000;
  b.max_attributes_per_element = 64;
  b.max_attributes = 4000000;
  b.max_namespace_declarations = 100000;
  b.max_name_bytes = 256;
  b.max_attribute_bytes = 65536;
  b.max_text_bytes = size_t{100} << 20;
  return b;
}

}  // namespace edihub::as4::xml
