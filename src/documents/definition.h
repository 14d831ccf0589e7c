// Message definitions as data: the element dictionary, the segments and the
// message structures of one standard version, read from edihub's definition
// format (schema/definitions/README.md). Pure: text in, model or an error
// naming the file and line out.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "src/common/status.h"

namespace edihub::documents {

// Element types. X12: AN string, ID code, DT date, TM time, N0-N9 numeric
// with implied decimals, R decimal. EDIFACT: an (AN), a alphabetic, n numeric
// (a decimal with '.' or ',' as its mark).
enum class ElementType { AN, ID, DT, TM, N, R, Alpha, Numeric };

struct ElementDef {
  std::string ref;  // the data element reference number, "373"
  ElementType type = ElementType::AN;
  int decimals = 0;  // N0-N9
  uint32_t min = 1, max = 1;
  std::string name;
  std::set<std::string, std::less<>> codes;  // empty: any code
  // In a guide: the standard's element this one narrows (its codes tell an
  // invalid code from one the guide does not use).
  const ElementDef* base = nullptr;
};

// NotUsed: a guide's "must not be sent" (X12 999 I4 / I10).
enum class Usage { Mandatory, Optional, Relational, NotUsed };

struct ComponentUse {
  const ElementDef* element = nullptr;
  Usage usage = Usage::Optional;
};

struct CompositeDef {
  std::string id;  // "C040"
  std::string name;
  std::vector<ComponentUse> components;
};

// One element position of a segment: a simple element or a composite.
struct ElementUse {
  const ElementDef* element = nullptr;      // set for a simple element
  const CompositeDef* composite = nullptr;  // set for a composite
  Usage usage = Usage::Optional;
  std::string_view ref() const { return element != nullptr ? element->ref : composite->id; }
};

// A syntax note between element positions (1-based), X12 style (EDIFACT
// dependency notes D2-D6 are written with the same letters).
struct Rule {
  enum class Kind { Paired, Required, Exclusion, Conditional, ListConditional };
  Kind kind = Kind::Paired;
  std::vector<uint32_t> positions;
  std::string text;  // as written, "P0304"
};

struct SegmentDef {
  std::string tag, name;
  std::vector<ElementUse> elements;
  std::vector<Rule> rules;
  bool open = false;  // elements past the last listed are not checked
};

// A position in a message structure: a segment, or a loop of positions whose
// first is the segment that starts each repetition.
struct Node {
  bool loop = false;
  std::string tag;   // the segment's tag; for a loop, its first segment's (the loop id)
  std::string name;  // a loop's name where the standard gives one ("SG2")
  Usage usage = Usage::Optional;
  uint32_t max = 1;  // maximum use, or repetitions of a loop
  const SegmentDef* segment = nullptr;
  std::vector<Node> children;  // a loop's positions
};

struct MessageDef {
  std::string standard, version, type, name;
  Node root;  // a loop without a trigger: the message's positions
  // Segment tags anywhere in this message.
  std::set<std::string, std::less<>> tags;
};

// Every definition of one or more standard versions.
class Definitions {
 public:
  // The message definition for `type` in `version`, or null. X12: GS08/ST03,
  // only the first 6 characters count ("004010VICS" is 004010); EDIFACT: the
  // S009 version and release ("D:96A:UN:EAN008" is D96A).
  const MessageDef* message(std::string_view standard, std::string_view version, std::string_view type) const;
  // Whether `tag` is a segment of `version`'s dictionary.
  bool knows_segment(std::string_view standard, std::string_view version, std::string_view tag) const;
  // "x12 004010 810, x12 004010 850": what is defined.
  std::vector<std::string> names() const;

  // Reads definition files; each starts with `standard NAME VERSION`. Files
  // of one version may come in any order. Invalid names the file and line.
  struct File {
    std::string name;  // for errors, e.g. "x12/004010/810.def"
    std::string text;
  };
  static Result<Definitions> load(const std::vector<File>& files);

 private:
  struct Version {
    std::map<std::string, std::unique_ptr<ElementDef>, std::less<>> elements;
    std::map<std::string, std::unique_ptr<CompositeDef>, std::less<>> composites;
    std::map<std::string, std::unique_ptr<SegmentDef>, std::less<>> segments;
    std::map<std::string, std::unique_ptr<MessageDef>, std::less<>> messages;
  };
  const Version* version(std::string_view standard, std::string_view version) const;
  friend class GuideReader;
  // Keyed "x12 004010". unique_ptr: the model's pointers stay valid when moved.
  std::map<std::string, std::unique_ptr<Version>, std::less<>> versions_;
  friend class DefinitionReader;
};

// "x12 004010" for ("x12", "004010VICS"), "edifact D96A" for ("edifact", "D:96A:UN:EAN008").
std::string version_key(std::string_view standard, std::string_view version);

// A partner's implementation guide: one message definition narrowed, never
// widened (schema/definitions/README.md, "Guides"). Pure, like the
// definitions: text in, guide or an error naming the file and line out.
class Guide {
 public:
  // Reads a guide over `standard` (which must outlive it): a file starting
  // `guide STANDARD VERSION TYPE ["name"]`.
  static Result<std::shared_ptr<const Guide>> load(const Definitions& standard, const Definitions::File& file);
  const MessageDef& message() const { return message_; }
  const std::string& name() const { return name_; }  // the file's name, for people

 private:
  MessageDef message_;
  std::string name_;
  // The segments, composites and elements the guide narrowed, owned here.
  std::vector<std::unique_ptr<SegmentDef>> segments_;
  std::vector<std::unique_ptr<CompositeDef>> composites_;
  std::vector<std::unique_ptr<ElementDef>> elements_;
  friend class GuideReader;
};

// What a partner's messages are checked against: its guides where one is
// for the message's standard, version and type, the standard's definition
// otherwise.
struct Catalog {
  const Definitions* standard = nullptr;
  std::vector<std::shared_ptr<const Guide>> guides;
  const MessageDef* message(std::string_view standard_name, std::string_view version, std::string_view type) const;
};

// The files of schema/definitions/, compiled into the binary (named by their
// path below it, "x12/004010/810.def").
const std::vector<Definitions::File>& shipped_definition_files();
// Those files loaded, once. A shipped file that does not load is a build
// defect (the tests load them): it is said on stderr and nothing is checked.
const Definitions& standard_definitions();

}  // namespace edihub::documents
