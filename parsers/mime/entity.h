// MIME entities (RFC 2045) and multipart bodies (RFC 2046), as AS2 and AS4
// carry them. Pure: views into the caller's bytes, bounded, never throws.
//
// Signatures cover the exact bytes of a part, headers included, so parts are
// kept as byte-exact views; nothing is re-serialised.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace edihub::mime {

struct Limits {
  size_t max_headers = 100;         // per entity
  size_t max_header_bytes = 16384;  // one header, folded lines included
  size_t max_parts = 100;           // per multipart body
};

struct Header {
  std::string_view name;  // as written (compare with iequals)
  std::string value;      // unfolded (CRLF + whitespace -> one space), trimmed
};

struct Error {
  enum class Code {
    None,
    NoHeaderEnd,
    HeaderTooLong,
    TooManyHeaders,
    BadHeader,
    NoBoundary,
    NoClosingBoundary,
    TooManyParts,
    BadContentType,
    // A header that decides how the entity is read, or a
    // Content-Type parameter, given twice: two readings.
    Ambiguous
  };
  Code code = Code::None;
  size_t offset = 0;
  std::string message;
  explicit operator bool() const { return code != Code::None; }
};

// A parsed Content-Type: lower-case type and subtype, parameters with
// lower-case names and unquoted values.
struct ContentType {
  std::string type, subtype;
  std::vector<std::pair<std::string, std::string>> params;
  // The parameter's value, or empty.
  std::string param(std::string_view name) const;
  bool is(std::string_view type_slash_subtype) const;  // "multipart/signed"
};

struct Entity {
  std::vector<Header> headers;
  std::string_view header_block;  // the header lines, up to and including the blank line
  std::string_view body;          // everything after the blank line
  std::string_view raw;           // header_block + body: what a signature covers

  // The first header called `name` (case-insensitive), or null.
  const Header* find(std::string_view name) const;
  ContentType content_type() const;  // text/plain when absent (RFC 2045 5.2)
};

bool iequals(std::string_view a, std::string_view b);
// ASCII lower case (header names, tokens, dispositions).
std::string lowered(std::string_view s);
// Without the header white space (SP, HTAB, CR, LF) around it.
std::string_view trim(std::string_view s);

// Parses `bytes` as one entity: header lines (CRLF, or bare LF as some
// senders write), a blank line, the body. An entity without headers (starting
// with a blank line) is valid.
// The headers that decide how an entity is read (Content-Type,
// Content-Transfer-Encoding, Content-ID, Content-Disposition) may occur once:
// a second one is Ambiguous, as a reader taking the first and one taking the
// last would read two messages.
Error parse_entity(std::string_view bytes, Entity* out, const Limits& limits = {});

// Parses a Content-Type value: `type/subtype; name=value; name="quoted"`. A
// parameter given twice (two boundaries, two starts) is Ambiguous.
Error parse_content_type(std::string_view value, ContentType* out);

// Splits a multipart body at `boundary` (RFC 2046 5.1.1): the parts between
// the delimiter lines, without the CRLF that belongs to the next delimiter.
// The preamble and epilogue are ignored.
Error split_multipart(std::string_view body, std::string_view boundary, std::vector<std::string_view>* parts,
                      const Limits& limits = {});

}  // namespace edihub::mime
