// libFuzzer target, differential: the envelope parser with the validator
// reading every message, fed the input whole and then in chunks of n bytes
// (byte 0 of an input that does not start with ISA/UNA/UNB, 1..64): the
// validator must never crash, and must find the same segment and element
// errors either way (it sees segments whose bytes the scanner may have
// copied out of a wrapped line, never a view into an earlier buffer). The
// canonical writer too: the document it writes while the parser reads equals
// the one written from the message's bytes afterwards (for an interchange
// without envelope errors), and is always JSON.
#include <Poco/JSON/Parser.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/edi/parser.h"
#include "src/documents/canonical.h"
#include "src/documents/validator.h"

namespace {

using namespace edihub;

std::string findings(const std::vector<edi::Interchange>& interchanges) {
  std::string out;
  for (const auto& ic : interchanges)
    for (const auto& g : ic.groups)
      for (const auto& m : g.messages) {
        out += m.type + (m.validated ? "+" : "-");
        for (const auto& se : m.segment_errors) {
          out += " " + se.tag + "/" + std::to_string(se.position) + "/" + se.loop + "/" + se.code;
          for (const auto& ee : se.elements)
            out += "(" + std::to_string(ee.position) + "." + std::to_string(ee.component) + " " + ee.reference + " " +
                   ee.code + " " + ee.value + ")";
        }
        out += "\n";
      }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  size_t n = 1 + size % 64;
  if (!in.empty() && in.substr(0, 3) != "ISA" && in.substr(0, 3) != "UNA" && in.substr(0, 3) != "UNB") {
    n = 1 + static_cast<uint8_t>(in[0]) % 64;
    in.remove_prefix(1);
  }
  const documents::Definitions& defs = documents::standard_definitions();

  documents::Validator whole_validator(defs);
  edi::ParseOptions options;
  options.observer = &whole_validator;
  const edi::ParseResult whole = edi::parse(in, options);

  documents::Validator chunk_validator(defs);
  options.observer = &chunk_validator;
  std::vector<edi::Interchange> chunked;
  edi::Parser parser(
      options, [&](edi::Interchange&& ic) { chunked.push_back(std::move(ic)); }, [](edi::EnvelopeError&&) {});
  std::string pending;
  for (size_t at = 0; at < in.size(); at += n) {
    pending.append(in.substr(at, n));
    auto copy = std::make_unique<char[]>(pending.size());
    std::copy(pending.begin(), pending.end(), copy.get());
    const size_t used = parser.feed(std::string_view(copy.get(), pending.size()), false);
    pending.erase(0, used);
  }
  parser.feed(pending, true);

  // The canonical document, while parsing and from the bytes afterwards.
  const documents::Catalog catalog{&defs, {}};
  documents::CanonicalReader reader(catalog);
  options.observer = &reader;
  const edi::ParseResult read = edi::parse(in, options);
  const std::vector<std::string> streamed = reader.take();
  size_t k = 0;
  for (const auto& ic : read.interchanges)
    for (const auto& g : ic.groups)
      for (const auto& m : g.messages) {
        const std::string again = documents::canonical_json(catalog, ic, g, m, in);
        // A message the envelope closed early (no trailer) saw other segments while streaming.
        if (ic.ok() && k < streamed.size() && streamed[k] != again) {
          std::fprintf(stderr, "canonical documents differ:\n%s\n%s\n", streamed[k].c_str(), again.c_str());
          __builtin_trap();
        }
        ++k;
        try {
          Poco::JSON::Parser().parse(again);
        } catch (...) {
          std::fprintf(stderr, "not JSON: %s\n", again.c_str());
          __builtin_trap();
        }
      }

  const std::string a = findings(whole.interchanges), b = findings(chunked);
  if (a != b) {
    std::fprintf(stderr, "validator findings differ:\nwhole:\n%s\nchunked:\n%s\n", a.c_str(), b.c_str());
    __builtin_trap();
  }
  return 0;
}
