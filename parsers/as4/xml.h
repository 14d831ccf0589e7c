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

// Every dimension of a document a partner controls. Real AS4 envelopes
// (phase4, Domibus, the JDK's WSS4J) stay far inside these; a hostile one
// at every cap costs milliseconds (tools/bench-worst-case), never seconds.
struct Bounds {
  size_t max_bytes = 1 << 20;
  size_t max_depth = 32;
  size_t max_elements = 5000;
  size_t max_attributes_per_element = 64;      // namespace declarations included
  size_t max_attributes = 20000;               // in the whole document
  size_t max_namespace_declarations = 1000;    // xmlns and xmlns:p, in the whole document
  size_t max_name_bytes = 256;                 // an element's or attribute's qualified name
  size_t max_attribute_bytes = 16384;          // one attribute value
  size_t max_text_bytes = size_t{512} * 1024;  // one text node (a base64 token, a Body's text)
};
// The bounds of a business document, which can be far larger than an AS4
// header (a Peppol SBD, a UBL invoice embedding base64 PDFs, thousands of
// lines of ~20 elements): 100 MiB in all, a text node up to 100 MiB, depth 64
// (UBL nests about 8 deep), 2,000,000 elements, 64 attributes on an element
// and 4,000,000 in all, 100,000 namespace declarations (some writers declare
// cbc/cac on every element), names of 256 bytes, attribute values of 64 KiB.
Bounds business_document_bounds();

// Parses `bytes` into `doc`: no DOCTYPE or entity declarations, no more than
// the bounds. Returns empty, or what is wrong, to follow "the ... is ":
// "not well-formed XML: ...", "larger than N bytes", "an element with more
// than 64 attributes".
std::string load(std::string_view bytes, const Bounds& bounds, pugi::xml_document* doc);

// The node printed without indentation or declaration.
std::string print(const pugi::xml_node& n);

}  // namespace edihub::as4::xml
