#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Stringifier.h>

#include <ostream>
#include <string>
#include <vector>

#include "src/cli/commands.h"
#include "src/cli/edi_file.h"

namespace edihub::cli {

namespace {

using Poco::JSON::Array;
using Poco::JSON::Object;

std::string party(const edi::Interchange& ic, const edi::Party& p) {
  if (ic.standard == edi::Standard::X12) return p.qualifier + ":" + p.id;
  return p.qualifier.empty() ? p.id : p.id + ":" + p.qualifier;
}

Object::Ptr error_json(const edi::EnvelopeError& e) {
  Object::Ptr o = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
  o->set("code", std::string(edi::code_name(e.code)));
  o->set("segment", e.segment);
  o->set("offset", e.offset);
  o->set("message", e.text);
  return o;
}

Object::Ptr interchange_json(const edi::Interchange& ic) {
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

void print_text(std::ostream& out, const std::string& file, const edi::Interchange& ic) {
  out << file << ": " << edi::standard_name(ic.standard) << " interchange " << ic.control_number
      << " from " << party(ic, ic.sender) << " to " << party(ic, ic.receiver) << ", version "
      << ic.version << (ic.test ? ", test" : "") << ", " << ic.message_count << " message"
      << (ic.message_count == 1 ? "" : "s") << (ic.ok() ? "" : ", ERRORS") << "\n";
  for (const auto& g : ic.groups) {
    for (const auto& m : g.messages) {
      out << "  " << m.type << " " << m.control_number << " (" << m.version << "), "
          << m.segments << " segments";
      if (!g.implicit) out << ", group " << g.control_number;
      out << "\n";
    }
  }
  for (const auto& e : ic.errors) {
    out << "  error " << edi::code_name(e.code) << " at segment " << e.segment << ": " << e.text
        << "\n";
  }
}

}  // namespace

const CommandSpec& inspect_spec() {
  static const CommandSpec spec{
      "inspect",
      "Prints the X12/EDIFACT interchanges in files, with their envelope errors.\n"
      "Every interchange, group and message found. Exit 0 when every file parsed without\n"
      "envelope errors, 1 otherwise.",
      "FILE...",
      1,
      {{"json", "", "one JSON document per file on stdout"}}};
  return spec;
}

int run_inspect(const Args& args, std::ostream& out, std::ostream& err) {
  const bool json = args.flag("json");
  bool all_ok = true;
  for (const std::string& file : args.positional) {
    std::vector<edi::Interchange> interchanges;
    std::vector<edi::EnvelopeError> file_errors;
    std::string io_error;
    bool any_interchange = false;
    bool read = stream_edi_file(
        file, edi::ParseOptions{},
        [&](edi::Interchange&& ic) {
          any_interchange = true;
          if (!ic.ok()) all_ok = false;
          if (json) {
            interchanges.push_back(std::move(ic));
          } else {
            print_text(out, file, ic);
          }
        },
        [&](edi::EnvelopeError&& e) { file_errors.push_back(std::move(e)); }, &io_error);
    if (read && interchanges.empty() && file_errors.empty() && !any_interchange) {
      edi::EnvelopeError e;
      e.code = edi::ErrorCode::UnknownStart;
      e.text = "no interchange found (empty file?)";
      file_errors.push_back(std::move(e));
    }
    if (!read || !file_errors.empty()) all_ok = false;
    if (json) {
      Object::Ptr doc = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
      doc->set("file", file);
      Array::Ptr ics = new Array;
      for (const auto& ic : interchanges) ics->add(interchange_json(ic));
      doc->set("interchanges", ics);
      Array::Ptr errors = new Array;
      if (!read) {
        Object::Ptr o = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
        o->set("code", "IO_ERROR");
        o->set("segment", 0);
        o->set("offset", 0);
        o->set("message", io_error);
        errors->add(o);
      }
      for (const auto& e : file_errors) errors->add(error_json(e));
      doc->set("errors", errors);
      Poco::JSON::Stringifier::stringify(doc, out);
      out << "\n";
    } else {
      if (!read) err << "edihub inspect: " << io_error << "\n";
      for (const auto& e : file_errors)
        out << file << ": error " << edi::code_name(e.code) << " at byte " << e.offset << ": "
            << e.text << "\n";
    }
  }
  return all_ok ? kOk : kProblems;
}

}  // namespace edihub::cli
