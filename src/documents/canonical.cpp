#include "src/documents/canonical.h"

#include <algorithm>

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <sstream>
#include <vector>

#include "parsers/edi/segment.h"
#include "src/documents/validator.h"

namespace edihub::documents {

namespace {

using Poco::JSON::Array;
using Poco::JSON::Object;

constexpr size_t kMaxValues = 512;  // elements of a segment, components of an element

Object::Ptr object() { return new Object(Poco::JSON_PRESERVE_KEY_ORDER); }

// Whether `v` is well-formed UTF-8 (no overlong forms, surrogates or code points above U+10FFFF).
bool is_utf8(std::string_view v) {
  for (size_t i = 0; i < v.size();) {
    const auto c = static_cast<unsigned char>(v[i]);
    size_t n = 0;
    uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if (c >= 0xC2 && c <= 0xDF) {
      n = 1;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 2;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    for (size_t k = 1; k <= n; ++k) {
      if (i + k >= v.size()) return false;
      const auto t = static_cast<unsigned char>(v[i + k]);
      if ((t & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (t & 0x3F);
    }
    if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += n + 1;
  }
  return true;
}

// The one way partner bytes enter the document: JSON strings are UTF-8, so a
// value that is not is read as ISO 8859-1 (EDIFACT UNOC's repertoire), byte
// for character: nothing is dropped, and no invalid JSON is ever written.
// Control characters are escaped by the JSON writer.
std::string text(std::string_view v) {
  if (is_utf8(v)) return std::string(v);
  std::string out;
  out.reserve(v.size() * 2);
  for (char ch : v) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x80) {
      out.push_back(ch);
    } else {
      out.push_back(static_cast<char>(0xC0 | (c >> 6)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
  }
  return out;
}

Object::Ptr party(const edi::Party& p) {
  Object::Ptr o = object();
  o->set("id", text(p.id));
  if (!p.qualifier.empty()) o->set("qualifier", text(p.qualifier));
  return o;
}

// A value as it is meant: release characters removed, nothing else changed.
void set_value(Object& o, const edi::Delimiters& d, std::string_view v) { o.set("value", text(edi::unescape(v, d))); }

void set_element(Object& o, const ElementDef* e) {
  if (e == nullptr) return;
  o.set("ref", e->ref);
  if (!e->name.empty()) o.set("name", e->name);
}

// Builds the segments tree while the validator places them.
class Builder : public PlacementSink {
 public:
  explicit Builder(const edi::Delimiters& d) : d_(d), root_(new Array) { arrays_.push_back(root_); }

  void placed(const edi::Segment& s, uint32_t number, const SegmentDef* def, const std::vector<Loop>& loops) override {
    size_t common = 0;
    while (common < open_.size() && common < loops.size() && open_[common].node == loops[common].node &&
           open_[common].repetition == loops[common].repetition)
      ++common;
    open_.resize(common);
    arrays_.resize(common + 1);
    for (size_t i = common; i < loops.size(); ++i) {
      Object::Ptr loop = object();
      loop->set("loop", loops[i].node->tag);
      if (!loops[i].node->name.empty()) loop->set("name", loops[i].node->name);
      loop->set("repetition", loops[i].repetition);
      Array::Ptr segments = new Array;
      loop->set("segments", segments);
      arrays_.back()->add(loop);
      arrays_.push_back(segments);
      open_.push_back(loops[i]);
    }
    arrays_.back()->add(segment(s, number, def));
  }

  Array::Ptr root() const { return root_; }

  Object::Ptr segment(const edi::Segment& s, uint32_t number, const SegmentDef* def) {
    Object::Ptr o = object();
    o->set("tag", text(s.tag));
    o->set("position", number);
    if (def != nullptr && !def->name.empty()) o->set("name", def->name);
    edi::split_values(s.text, d_.element, d_.release, kMaxValues, &values_);
    Array::Ptr elements = new Array;
    for (size_t i = 1; i < values_.size(); ++i) {
      if (values_[i].empty()) continue;
      const ElementUse* use = def != nullptr && i <= def->elements.size() ? &def->elements[i - 1] : nullptr;
      elements->add(element(i, values_[i], use));
    }
    o->set("elements", elements);
    return o;
  }

 private:
  Object::Ptr element(size_t position, std::string_view v, const ElementUse* use) {
    Object::Ptr e = object();
    e->set("position", position);
    const bool composite = use != nullptr ? use->composite != nullptr : false;
    if (use != nullptr && use->composite != nullptr) {
      e->set("ref", use->composite->id);
      if (!use->composite->name.empty()) e->set("name", use->composite->name);
    } else if (use != nullptr) {
      set_element(*e, use->element);
    }
    // Without a definition an element with an unreleased component separator is a composite.
    std::vector<std::string_view> parts;
    edi::split_values(v, d_.component, d_.release, kMaxValues, &parts);
    if (!composite && (use != nullptr || parts.size() == 1)) {
      set_value(*e, d_, v);
      return e;
    }
    Array::Ptr components = new Array;
    for (size_t k = 0; k < parts.size(); ++k) {
      if (parts[k].empty()) continue;
      Object::Ptr c = object();
      c->set("position", k + 1);
      if (composite && k < use->composite->components.size()) set_element(*c, use->composite->components[k].element);
      set_value(*c, d_, parts[k]);
      components->add(c);
    }
    e->set("components", components);
    return e;
  }

  edi::Delimiters d_;
  Array::Ptr root_;
  std::vector<Array::Ptr> arrays_;  // [0] the message's segments, then each open loop repetition's
  std::vector<Loop> open_;
  std::vector<std::string_view> values_;
};

}  // namespace

struct CanonicalReader::State {
  explicit State(const Catalog& catalog) : validator(catalog) {}
  Validator validator;
  std::unique_ptr<Builder> builder;
  Object::Ptr head;  // the document without its segments, from begin()
  std::vector<std::string> done;
};

namespace {

// "version" is what the schema says: X12's GS08/ST03, EDIFACT's S009 version,
// release and agency ("D:96A:UN"); an EDIFACT association-assigned code
// (S009 0057, "EAN008"), which the model keeps as a fourth part, goes in "association".
void set_version(Object& head, edi::Standard standard, const std::string& version) {
  size_t cut = std::string::npos;
  if (standard == edi::Standard::Edifact && std::count(version.begin(), version.end(), ':') == 3)
    cut = version.rfind(':');
  head.set("version", text(version.substr(0, cut)));
  if (cut != std::string::npos) head.set("association", text(version.substr(cut + 1)));
}

}  // namespace

CanonicalReader::CanonicalReader(const Catalog& catalog) : state_(std::make_unique<State>(catalog)) {}
CanonicalReader::~CanonicalReader() = default;

void CanonicalReader::begin(const edi::Interchange& ic, const edi::Group& group, const edi::Message& message) {
  State& st = *state_;
  st.builder = std::make_unique<Builder>(ic.delimiters);
  st.validator.set_sink(st.builder.get());
  st.validator.begin(ic, group, message);
  const MessageDef* def = st.validator.definition();
  st.head = object();
  st.head->set("schema", std::string(kCanonicalSchema));
  st.head->set("standard", std::string(edi::standard_name(ic.standard)));
  set_version(*st.head, ic.standard, message.version);
  st.head->set("type", text(message.type));
  if (def != nullptr && !def->name.empty()) st.head->set("name", text(def->name));
  Object::Ptr envelope = object();
  envelope->set("interchange", text(ic.control_number));
  envelope->set("sender", party(ic.sender));
  envelope->set("receiver", party(ic.receiver));
  envelope->set("date", text(ic.date));
  envelope->set("time", text(ic.time));
  envelope->set("test", ic.test);
  if (!group.implicit) {
    envelope->set("group", text(group.control_number));
    envelope->set("functional_id", text(group.functional_id));
  }
  envelope->set("message", text(message.control_number));
  st.head->set("envelope", envelope);
}

void CanonicalReader::segment(const edi::Segment& s, uint32_t number) {
  State& st = *state_;
  if (!st.builder) return;
  if (st.validator.definition() != nullptr) {
    st.validator.segment(s, number);
  } else {
    st.builder->root()->add(st.builder->segment(s, number, nullptr));
  }
}

edi::MessageObserver::Findings CanonicalReader::end() {
  State& st = *state_;
  Findings found = st.validator.end();
  st.validator.set_sink(nullptr);
  if (st.builder && st.head) {
    st.head->set("checked", found.checked);
    st.head->set("valid", found.checked && found.errors.empty());
    st.head->set("segments", st.builder->root());
    std::ostringstream out;
    st.head->stringify(out);
    st.done.push_back(out.str());
  }
  st.builder.reset();
  st.head = nullptr;
  return found;
}

std::vector<std::string> CanonicalReader::take() {
  std::vector<std::string> out;
  out.swap(state_->done);
  return out;
}

std::string canonical_json(const Catalog& catalog, const edi::Interchange& ic, const edi::Group& group,
                           const edi::Message& message, std::string_view input) {
  CanonicalReader reader(catalog);
  observe_message(reader, ic, group, message, input);
  std::vector<std::string> out = reader.take();
  return out.empty() ? std::string() : std::move(out[0]);
}

}  // namespace edihub::documents
