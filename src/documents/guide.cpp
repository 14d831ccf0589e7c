#include <string>
#include <utility>

#include "src/documents/definition.h"
#include "src/documents/lines.h"

namespace edihub::documents {

namespace {

std::string usage_name(Usage u) {
  switch (u) {
    case Usage::Mandatory:
      return "mandatory";
    case Usage::Optional:
      return "optional";
    case Usage::Relational:
      return "relational";
    case Usage::NotUsed:
      return "not used";
  }
  return "";
}

// M, O or `-` (not used); a guide writes no X.
std::optional<Usage> guide_usage_of(std::string_view s) {
  if (s == "-") return Usage::NotUsed;
  if (s == "X") return std::nullopt;
  return usage_of(s);
}

// Whether a guide may turn `from` into `to`: it narrows, never widens.
bool narrows(Usage from, Usage to) { return from == to || from != Usage::Mandatory; }

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t slash = path.find('/', start);
    out.emplace_back(path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (slash == std::string_view::npos) return out;
    start = slash + 1;
  }
}

}  // namespace

// Reads a guide: copies the standard's message, then narrows it statement by
// statement, copying each segment, composite and element it changes.
class GuideReader {
 public:
  GuideReader(const Definitions& standard, const Definitions::File& file, Guide* out)
      : standard_(standard), file_(file.name), out_(out) {}

  Status read(const std::vector<Line>& lines) {
    if (lines.empty() || lines[0].indented || lines[0].tokens[0] != "guide" || lines[0].tokens.size() < 4 ||
        lines[0].tokens.size() > 5)
      return fail(lines.empty() ? 1 : lines[0].number,
                  "the file must start with `guide STANDARD VERSION TYPE [\"name\"]`");
    const Line& head = lines[0];
    const Definitions::Version* v = standard_.version(head.tokens[1], head.tokens[2]);
    const MessageDef* base = standard_.message(head.tokens[1], head.tokens[2], head.tokens[3]);
    if (v == nullptr || base == nullptr)
      return fail(head.number, "edihub has no definition of " + head.tokens[1] + " " + head.tokens[2] + " " +
                                   head.tokens[3] + " to narrow");
    v_ = v;
    out_->message_ = *base;
    if (head.tokens.size() == 5) out_->message_.name = head.tokens[4];
    for (size_t i = 1; i < lines.size(); ++i) {
      const Line& l = lines[i];
      if (l.indented) return fail(l.number, "a guide has no indented lines");
      const std::string& what = l.tokens[0];
      if (what == "segment" || what == "loop") {
        RETURN_IF_ERROR(position(l, what == "loop"));
      } else if (what == "element") {
        RETURN_IF_ERROR(element(l));
      } else {
        return fail(l.number, "unknown statement '" + what + "' (segment, loop, element)");
      }
    }
    return Status::ok();
  }

 private:
  Status fail(size_t line, const std::string& what) const {
    return Status::invalid(file_ + ":" + std::to_string(line) + ": " + what);
  }

  // `segment PATH [USAGE] [max N]` / `loop PATH [USAGE] [max N]`.
  Status position(const Line& l, bool loop) {
    const char* shape = loop ? "expected `loop PATH [M|O|-] [max N]`" : "expected `segment PATH [M|O|-] [max N]`";
    if (l.tokens.size() < 3) return fail(l.number, shape);
    std::optional<Usage> usage;
    std::optional<uint32_t> max;
    for (size_t k = 2; k < l.tokens.size(); ++k) {
      if (l.tokens[k] == "max" && k + 1 < l.tokens.size() && !max) {
        max = number_of(l.tokens[++k]);
        if (!max || *max == 0) return fail(l.number, "max '" + l.tokens[k] + "' is not a number >= 1");
      } else if (auto u = guide_usage_of(l.tokens[k]); u && !usage && !max) {
        usage = u;
      } else {
        return fail(l.number, shape);
      }
    }
    ASSIGN_OR_RETURN(Node * n, find(l, loop));
    const std::string what = (loop ? "loop " : "segment ") + l.tokens[1];
    if (usage) {
      if (!narrows(n->usage, *usage))
        return fail(l.number, what + " is " + usage_name(n->usage) + " in the standard: a guide cannot make it " +
                                  usage_name(*usage));
      n->usage = *usage;
    }
    if (max) {
      if (*max > n->max)
        return fail(l.number, what + " may occur " + std::to_string(n->max) +
                                  " times in the standard: a guide cannot raise that to " + std::to_string(*max));
      n->max = *max;
    }
    return Status::ok();
  }

  // The position PATH names: loops by their ids from the message's top, then
  // the segment (a position that does not start its loop) or the loop.
  Result<Node*> find(const Line& l, bool loop) {
    const std::vector<std::string> parts = split_path(l.tokens[1]);
    Node* at = &out_->message_.root;
    for (size_t p = 0; p < parts.size(); ++p) {
      const bool last = p + 1 == parts.size();
      const bool want_loop = !last || loop;
      Node* next = nullptr;
      for (size_t j = 0; j < at->children.size() && next == nullptr; ++j) {
        Node& c = at->children[j];
        if (c.loop == want_loop && c.tag == parts[p] && (want_loop || j > 0 || at == &out_->message_.root)) next = &c;
      }
      if (next == nullptr) {
        const bool starts = !want_loop && !at->children.empty() && at->children[0].tag == parts[p];
        if (starts)
          return fail(l.number, parts[p] + " starts loop " + at->tag + ": write `loop " +
                                    l.tokens[1].substr(0, l.tokens[1].rfind('/')) + "`");
        return fail(l.number, std::string(want_loop ? "loop " : "segment ") + parts[p] + " is not a position of " +
                                  (at == &out_->message_.root ? "message " + out_->message_.type : "loop " + at->tag));
      }
      at = next;
    }
    return at;
  }

  // `element TAGnn[-k] [USAGE] [length MIN MAX] [codes CODE...]`.
  Status element(const Line& l) {
    const char* shape = "expected `element TAGnn[-k] [M|O|-] [length MIN MAX] [codes CODE...]`";
    if (l.tokens.size() < 3) return fail(l.number, shape);
    std::string spec = l.tokens[1];
    uint32_t component = 0;
    if (size_t dash = spec.find('-'); dash != std::string::npos) {
      auto c = number_of(std::string_view(spec).substr(dash + 1));
      if (!c || *c == 0) return fail(l.number, shape);
      component = *c;
      spec.resize(dash);
    }
    if (spec.size() < 4 || spec.size() > 5) return fail(l.number, shape);
    const std::string tag = spec.substr(0, spec.size() - 2);
    auto position = number_of(std::string_view(spec).substr(spec.size() - 2));
    if (!position || *position == 0) return fail(l.number, shape);
    if (out_->message_.tags.count(tag) == 0)
      return fail(l.number, "segment " + tag + " is not in message " + out_->message_.type);
    SegmentDef* seg = own_segment(tag);
    if (*position > seg->elements.size())
      return fail(l.number, "segment " + tag + " has " + std::to_string(seg->elements.size()) +
                                " element positions defined, not " + std::to_string(*position));
    ElementUse& use = seg->elements[*position - 1];
    Usage* usage = &use.usage;
    const ElementDef** element = &use.element;
    if (component > 0) {
      if (use.composite == nullptr) return fail(l.number, l.tokens[1] + ": " + spec + " is not a composite");
      CompositeDef* c = own_composite(&use);
      if (component > c->components.size())
        return fail(l.number, l.tokens[1] + ": composite " + c->id + " has " + std::to_string(c->components.size()) +
                                  " components");
      usage = &c->components[component - 1].usage;
      element = &c->components[component - 1].element;
    } else if (use.composite != nullptr && l.tokens.size() > 3) {
      return fail(l.number, l.tokens[1] + " is composite " + use.composite->id + ": name a component (" + spec +
                                "-1) to narrow its length or codes");
    }
    size_t k = 2;
    if (auto u = guide_usage_of(l.tokens[k])) {
      if (!narrows(*usage, *u))
        return fail(l.number, l.tokens[1] + " is " + usage_name(*usage) + " in the standard: a guide cannot make it " +
                                  usage_name(*u));
      *usage = *u;
      ++k;
    }
    if (k < l.tokens.size() && l.tokens[k] == "length") {
      if (*element == nullptr || k + 2 >= l.tokens.size()) return fail(l.number, shape);
      auto min = number_of(l.tokens[k + 1]), max = number_of(l.tokens[k + 2]);
      ElementDef* e = own_element(element);
      if (!min || !max || *min < e->min || *max > e->max || *min > *max)
        return fail(l.number, l.tokens[1] + " (" + e->ref + ") is " + std::to_string(e->min) + " to " +
                                  std::to_string(e->max) + " long in the standard: a guide can only narrow that");
      e->min = *min;
      e->max = *max;
      k += 3;
    }
    if (k < l.tokens.size() && l.tokens[k] == "codes") {
      if (*element == nullptr || k + 1 >= l.tokens.size()) return fail(l.number, shape);
      ElementDef* e = own_element(element);
      std::set<std::string, std::less<>> codes;
      for (++k; k < l.tokens.size(); ++k) {
        const std::string& c = l.tokens[k];
        if (!e->base->codes.empty() && e->base->codes.count(c) == 0)
          return fail(l.number, l.tokens[1] + " (" + e->ref + "): '" + c + "' is not a code of the standard's list");
        if (c.size() < e->min || c.size() > e->max)
          return fail(l.number, l.tokens[1] + " (" + e->ref + "): code '" + c + "' does not fit its length");
        codes.insert(c);
      }
      e->codes = std::move(codes);
    }
    if (k != l.tokens.size()) return fail(l.number, shape);
    return Status::ok();
  }

  // The guide's own copy of segment `tag`, which every position of the message now uses.
  SegmentDef* own_segment(const std::string& tag) {
    for (auto& s : out_->segments_)
      if (s->tag == tag) return s.get();
    const SegmentDef* base = v_->segments.at(tag).get();
    out_->segments_.push_back(std::make_unique<SegmentDef>(*base));
    SegmentDef* copy = out_->segments_.back().get();
    repoint(&out_->message_.root, base, copy);
    return copy;
  }
  static void repoint(Node* n, const SegmentDef* from, const SegmentDef* to) {
    if (n->segment == from) n->segment = to;
    for (Node& c : n->children) repoint(&c, from, to);
  }
  CompositeDef* own_composite(ElementUse* use) {
    for (auto& c : out_->composites_)
      if (c.get() == use->composite) return c.get();
    out_->composites_.push_back(std::make_unique<CompositeDef>(*use->composite));
    use->composite = out_->composites_.back().get();
    return out_->composites_.back().get();
  }
  ElementDef* own_element(const ElementDef** slot) {
    for (auto& e : out_->elements_)
      if (e.get() == *slot) return e.get();
    const ElementDef* base = *slot;
    out_->elements_.push_back(std::make_unique<ElementDef>(*base));
    ElementDef* copy = out_->elements_.back().get();
    copy->base = base->base != nullptr ? base->base : base;
    *slot = copy;
    return copy;
  }

  const Definitions& standard_;
  const Definitions::Version* v_ = nullptr;
  std::string file_;
  Guide* out_;
};

Result<std::shared_ptr<const Guide>> Guide::load(const Definitions& standard, const Definitions::File& file) {
  ASSIGN_OR_RETURN(std::vector<Line> lines, tokenize(file));
  auto guide = std::make_shared<Guide>();
  guide->name_ = file.name;
  GuideReader reader(standard, file, guide.get());
  RETURN_IF_ERROR(reader.read(lines));
  return std::shared_ptr<const Guide>(std::move(guide));
}

const MessageDef* Catalog::message(std::string_view standard_name, std::string_view version,
                                   std::string_view type) const {
  const std::string key = version_key(standard_name, version);
  for (const auto& g : guides) {
    const MessageDef& m = g->message();
    if (m.type == type && version_key(m.standard, m.version) == key) return &m;
  }
  return standard == nullptr ? nullptr : standard->message(standard_name, version, type);
}

}  // namespace edihub::documents
