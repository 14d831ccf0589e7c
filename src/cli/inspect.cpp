#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/JSON/Stringifier.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "src/cli/commands.h"
#include "src/cli/edi_file.h"
#include "src/common/files.h"
#include "src/documents/canonical.h"
#include "src/documents/validator.h"

namespace edihub::cli {

namespace {

using Poco::JSON::Array;
using Poco::JSON::Object;

std::string party(const edi::Interchange& ic, const edi::Party& p) {
  if (ic.standard == edi::Standard::X12) return p.qualifier + ":" + p.id;
  return p.qualifier.empty() ? p.id : p.id + ":" + p.qualifier;
}

Object::Ptr error_json(const std::string& code, uint64_t segment, uint64_t offset, const std::string& message) {
  Object::Ptr o = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
  o->set("code", code);
  o->set("segment", segment);
  o->set("offset", offset);
  o->set("message", message);
  return o;
}

Object::Ptr error_json(const edi::EnvelopeError& e) {
  return error_json(std::string(edi::code_name(e.code)), e.segment, e.offset, e.text);
}

// A message's findings: whether a definition checked it, and each segment
// error with its element errors, the 997/999 codes and what they mean.
Object::Ptr validation_json(const edi::Message& m) {
  Object::Ptr o = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
  o->set("checked", m.validated);
  Array::Ptr segments = new Array;
  for (const edi::SegmentError& se : m.segment_errors) {
    Object::Ptr so = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
    so->set("segment", se.tag);
    so->set("position", se.position);
    so->set("loop", se.loop);
    so->set("code", se.code);
    so->set("text", std::string(documents::segment_error_text(se.code)));
    Array::Ptr elements = new Array;
    for (const edi::ElementError& ee : se.elements) {
      Object::Ptr eo = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
      eo->set("position", ee.position);
      eo->set("component", ee.component);
      eo->set("reference", ee.reference);
      eo->set("code", ee.code);
      eo->set("text", std::string(documents::element_error_text(ee.code)));
      eo->set("value", ee.value);
      elements->add(eo);
    }
    so->set("elements", elements);
    segments->add(so);
  }
  o->set("errors", segments);
  return o;
}

// `documents`: the canonical documents of this interchange's messages, in order (--documents).
Object::Ptr interchange_json(const edi::Interchange& ic, bool validate, const std::vector<std::string>* documents) {
  size_t next_document = 0;
  Object::Ptr o = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
  o->set("standard", std::string(edi::standard_name(ic.standard)));
  o->set("sender", party(ic, ic.sender));
  o->set("receiver", party(ic, ic.receiver));
  o->set("control_number", ic.control_number);
  o->set("version", ic.version);
  if (!ic.syntax.empty()) o->set("syntax", ic.syntax);
  o->set("date", ic.date);
  o->set("time", ic.time);
  o->set("test", ic.test);
  o->set("offset", ic.span.offset);
  o->set("length", ic.span.length);
  o->set("segments", ic.segments);
  Array::Ptr groups = new Array;
  for (const auto& g : ic.groups) {
    Object::Ptr go = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
    if (g.implicit) {
      go->set("control_number", Poco::Dynamic::Var());
      go->set("functional_id", Poco::Dynamic::Var());
    } else {
      go->set("control_number", g.control_number);
      go->set("functional_id", g.functional_id);
      go->set("version", g.version);
    }
    Array::Ptr messages = new Array;
    for (const auto& m : g.messages) {
      Object::Ptr mo = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
      mo->set("type", m.type);
      mo->set("control_number", m.control_number);
      mo->set("version", m.version);
      mo->set("segments", m.segments);
      mo->set("offset", m.span.offset);
      mo->set("length", m.span.length);
      if (validate) mo->set("validation", validation_json(m));
      if (documents != nullptr && next_document < documents->size()) {
        Poco::JSON::Parser parser(new Poco::JSON::ParseHandler(true));  // the document's key order
        mo->set("document", parser.parse((*documents)[next_document++]));
      }
      messages->add(mo);
    }
    go->set("messages", messages);
    groups->add(go);
  }
  o->set("groups", groups);
  Array::Ptr errors = new Array;
  for (const auto& e : ic.errors) errors->add(error_json(e));
  o->set("errors", errors);
  return o;
}

void print_validation(std::ostream& out, const edi::Message& m) {
  if (!m.validated) {
    out << "    not validated: no definition for " << m.type << " " << m.version << "\n";
    return;
  }
  if (m.segment_errors.empty()) out << "    valid\n";
  for (const edi::SegmentError& se : m.segment_errors) {
    out << "    " << se.tag << " at segment " << se.position;
    if (!se.loop.empty()) out << " (loop " << se.loop << ")";
    out << ": " << documents::segment_error_text(se.code) << " (code " << se.code << ")\n";
    for (const edi::ElementError& ee : se.elements) out << "      " << documents::element_finding_text(se, ee) << "\n";
  }
}

void print_text(std::ostream& out, const std::string& file, const edi::Interchange& ic, bool validate) {
  out << file << ": " << edi::standard_name(ic.standard) << " interchange " << ic.control_number << " from "
      << party(ic, ic.sender) << " to " << party(ic, ic.receiver) << ", version " << ic.version
      << (ic.test ? ", test" : "") << ", " << ic.message_count << " message" << (ic.message_count == 1 ? "" : "s")
      << (ic.ok() ? "" : ", ERRORS") << "\n";
  for (const auto& g : ic.groups) {
    for (const auto& m : g.messages) {
      out << "  " << m.type << " " << m.control_number << " (" << m.version << "), " << m.segments << " segments";
      if (!g.implicit) out << ", group " << g.control_number;
      out << "\n";
      if (validate) print_validation(out, m);
    }
  }
  for (const auto& e : ic.errors) {
    out << "  error " << edi::code_name(e.code) << " at segment " << e.segment << ": " << e.text << "\n";
  }
}

// File-level errors are printed after the file's interchanges. A file of
// garbage can produce one per junk run, so only the first kMaxFileErrors are
// held and the rest are counted.
constexpr size_t kMaxFileErrors = 1000;

struct FileErrors {
  std::vector<edi::EnvelopeError> kept;
  uint64_t dropped = 0;
  uint64_t first_dropped_offset = 0, first_dropped_segment = 0;

  void add(edi::EnvelopeError&& e) {
    if (kept.size() < kMaxFileErrors) {
      kept.push_back(std::move(e));
      return;
    }
    if (dropped++ == 0) {
      first_dropped_offset = e.offset;
      first_dropped_segment = e.segment;
    }
  }
  bool empty() const { return kept.empty(); }
  std::string summary() const {
    return std::to_string(dropped) + " more errors after the first " + std::to_string(kMaxFileErrors) +
           " were dropped; the first dropped one is at byte " + std::to_string(first_dropped_offset);
  }
};

// The tail of a file's JSON document: `],"errors":[...]}` and the newline
// (the head and the interchanges are already written).
void write_json_tail(std::ostream& out, bool read, const std::string& io_error, const FileErrors& errors) {
  Array::Ptr arr = new Array;
  if (!read) arr->add(error_json("IO_ERROR", 0, 0, io_error));
  for (const auto& e : errors.kept) arr->add(error_json(e));
  if (errors.dropped > 0)
    arr->add(
        error_json("TOO_MANY_ERRORS", errors.first_dropped_segment, errors.first_dropped_offset, errors.summary()));
  out << "],\"errors\":";
  Poco::JSON::Stringifier::stringify(arr, out);
  out << "}\n";
}

void write_text_errors(std::ostream& out, std::ostream& err, const std::string& file, bool read,
                       const std::string& io_error, const FileErrors& errors) {
  if (!read) err << "edihub inspect: " << io_error << "\n";
  for (const auto& e : errors.kept)
    out << file << ": error " << edi::code_name(e.code) << " at byte " << e.offset << ": " << e.text << "\n";
  if (errors.dropped > 0)
    out << file << ": error TOO_MANY_ERRORS at byte " << errors.first_dropped_offset << ": " << errors.summary()
        << "\n";
}

// One file, streamed: with --json the document is written as the parser goes,
// `{"file":...,"interchanges":[` first, so memory does not grow with the
// number of interchanges. False when the file had any problem.
bool inspect_file(const std::string& file, bool json, const documents::Catalog* catalog, bool with_documents,
                  std::ostream& out, std::ostream& err) {
  const bool validate = catalog != nullptr;
  if (json) {
    out << "{\"file\":";
    Poco::JSON::Stringifier::formatString(file, out);
    out << ",\"interchanges\":[";
  }
  bool ok = true;
  uint64_t count = 0;
  FileErrors errors;
  std::string io_error;
  const documents::Catalog unchecked;
  documents::Validator validator(catalog != nullptr ? *catalog : unchecked);
  documents::CanonicalReader canonical(catalog != nullptr ? *catalog : unchecked);
  edi::ParseOptions options;
  if (validate) options.observer = with_documents ? static_cast<edi::MessageObserver*>(&canonical) : &validator;
  bool read = stream_edi_file(
      file, options,
      [&](edi::Interchange&& ic) {
        if (!ic.ok()) ok = false;
        for (const auto& g : ic.groups)
          for (const auto& m : g.messages)
            if (!m.segment_errors.empty()) ok = false;
        if (!json) {
          print_text(out, file, ic, validate);
        } else {
          if (count > 0) out << ',';
          const std::vector<std::string> docs = canonical.take();
          Poco::JSON::Stringifier::stringify(interchange_json(ic, validate, with_documents ? &docs : nullptr), out);
        }
        ++count;
      },
      [&](edi::EnvelopeError&& e) { errors.add(std::move(e)); }, &io_error);
  if (read && count == 0 && errors.empty()) {
    edi::EnvelopeError e;
    e.code = edi::ErrorCode::UnknownStart;
    e.text = "no interchange found (empty file?)";
    errors.add(std::move(e));
  }
  if (!read || !errors.empty()) ok = false;
  if (json) {
    write_json_tail(out, read, io_error, errors);
  } else {
    write_text_errors(out, err, file, read, io_error, errors);
  }
  return ok;
}

}  // namespace

const CommandSpec& inspect_spec() {
  static const CommandSpec spec{
      "inspect",
      "Prints the X12/EDIFACT interchanges in files, with their envelope errors.\n"
      "Every interchange, group and message found. Exit 0 when every file parsed without\n"
      "envelope errors (and, with --validate, every message passed its definition), 1\n"
      "otherwise.",
      "FILE...",
      1,
      {{"json", "", "one JSON document per file on stdout"},
       {"validate", "", "check each message against its definition, with 997/999 codes"},
       {"definitions", "DIR", "with --validate: the *.def files under DIR instead of the shipped definitions"},
       {"guide", "FILE", "with --validate: a partner's implementation guide over the definitions"},
       {"documents", "", "with --json: each message's canonical document (schema/document/), validated"}}};
  return spec;
}

namespace {

// The *.def files under `dir`, named by their path below it; at most
// kMaxFiles of kMaxBytes each. Symbolic links are not followed.
Result<std::vector<documents::Definitions::File>> definition_files(const std::string& dir) {
  constexpr size_t kMaxFiles = 1000, kMaxBytes = 4 << 20;
  namespace fs = std::filesystem;
  std::vector<documents::Definitions::File> files;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, ec), end;
  if (ec) return Status::invalid(dir + ": " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) return Status::invalid(dir + ": " + ec.message());
    if (!it->is_regular_file(ec) || it->is_symlink(ec) || it->path().extension() != ".def") continue;
    if (files.size() == kMaxFiles)
      return Status::invalid(dir + ": more than " + std::to_string(kMaxFiles) + " .def files");
    ASSIGN_OR_RETURN(std::string text, read_file_bounded(it->path().string(), kMaxBytes));
    files.push_back({fs::relative(it->path(), dir).string(), std::move(text)});
  }
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  if (files.empty()) return Status::invalid(dir + ": no .def files");
  return files;
}

}  // namespace

int run_inspect(const Args& args, std::ostream& out, std::ostream& err) {
  const bool json = args.flag("json"), with_documents = args.flag("documents");
  const bool validate = args.flag("validate") || with_documents;
  if (with_documents && !json) {
    err << "edihub inspect: --documents is written only as JSON: add --json\n";
    return kUsage;
  }
  const std::string dir = args.value("definitions"), guide_file = args.value("guide");
  if (!validate && (!dir.empty() || !guide_file.empty())) {
    err << "edihub inspect: --definitions and --guide are read only with --validate\n";
    return kUsage;
  }
  documents::Definitions loaded;
  documents::Catalog catalog{&documents::standard_definitions(), {}};
  if (!dir.empty()) {
    auto files = definition_files(dir);
    auto defs =
        files.is_ok() ? documents::Definitions::load(files.value()) : Result<documents::Definitions>(files.status());
    if (!defs.is_ok()) {
      err << "edihub inspect: --definitions " << defs.status().message() << "\n";
      return kUsage;
    }
    loaded = std::move(defs).value();
    catalog.standard = &loaded;
  }
  if (!guide_file.empty()) {
    auto text = read_file_bounded(guide_file, 4 << 20);
    auto guide = text.is_ok() ? documents::Guide::load(*catalog.standard, {guide_file, std::move(text).value()})
                              : Result<std::shared_ptr<const documents::Guide>>(text.status());
    if (!guide.is_ok()) {
      err << "edihub inspect: --guide " << guide.status().message() << "\n";
      return kUsage;
    }
    catalog.guides.push_back(std::move(guide).value());
  }
  bool all_ok = true;
  for (const std::string& file : args.positional)
    if (!inspect_file(file, json, validate ? &catalog : nullptr, with_documents, out, err)) all_ok = false;
  return all_ok ? kOk : kProblems;
}

}  // namespace edihub::cli
