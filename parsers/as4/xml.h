// XML helpers the AS4 parsers share: namespace-aware lookups on pugixml
// nodes (prefixes vary between senders) and a bounded, DTD-free load.
#pragma once

#include <pugixml.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace edihub::as4::xml {

std::string_view local_name(const pugi::xml_node& n);
// The namespace URI of an element, from the xmlns declarations in scope.
std::string_view namespace_of(const pugi::xml_node& n);
bool is(const pugi::xml_node& n, std::string_view ns, std::string_view local);
pugi::xml_node child(const pugi::xml_node& n, std::string_view ns, std::string_view local);
// The element's text, surrounding white space removed.
std::string text(const pugi::xml_node& n);
// The attribute `name` regardless of its prefix (AS4 senders vary).
std::string attribute(const pugi::xml_node& n, std::string_view name);

struct Bounds {
  size_t max_bytes, max_depth, max_elements;
};
// Parses `bytes` into `doc`: no DOCTYPE or entity declarations, no more than
// the bounds. Returns empty, or what is wrong, to follow "the ... is ":
// "not well-formed XML: ...", "larger than N bytes".
std::string load(std::string_view bytes, const Bounds& bounds, pugi::xml_document* doc);

// The node printed without indentation or declaration.
std::string print(const pugi::xml_node& n);

}  // namespace edihub::as4::xml
