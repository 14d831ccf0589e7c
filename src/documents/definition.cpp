#include "src/documents/definition.h"

#include <cstdio>
#include <limits>
#include <optional>
#include <utility>

#include "src/documents/lines.h"

namespace edihub::documents {

namespace {

constexpr size_t kMaxDepth = 10;  // loops inside loops

// X12 types are upper case (AN, ID, DT, TM, R, N0-N9), EDIFACT's lower (a, an, n).
bool type_of(std::string_view standard, std::string_view s, ElementDef* e) {
  if (standard == "edifact") {
    if (s == "an") {
      e->type = ElementType::AN;
    } else if (s == "a") {
      e->type = ElementType::Alpha;
    } else if (s == "n") {
      e->type = ElementType::Numeric;
    } else {
      return false;
    }
    return true;
  }
  if (s == "AN") {
    e->type = ElementType::AN;
  } else if (s == "ID") {
    e->type = ElementType::ID;
  } else if (s == "DT") {
    e->type = ElementType::DT;
  } else if (s == "TM") {
    e->type = ElementType::TM;
  } else if (s == "R") {
    e->type = ElementType::R;
  } else if (s.size() == 2 && s[0] == 'N' && s[1] >= '0' && s[1] <= '9') {
    e->type = ElementType::N;
    e->decimals = s[1] - '0';
  } else {
    return false;
  }
  return true;
}

// "P0304" -> Paired {3, 4}: a letter, then two digits per position.
std::optional<Rule> rule_of(std::string_view s) {
  if (s.size() < 5 || (s.size() - 1) % 2 != 0) return std::nullopt;
  Rule r;
  r.text = std::string(s);
  switch (s[0]) {
    case 'P':
      r.kind = Rule::Kind::Paired;
      break;
    case 'R':
      r.kind = Rule::Kind::Required;
      break;
    case 'E':
      r.kind = Rule::Kind::Exclusion;
      break;
    case 'C':
      r.kind = Rule::Kind::Conditional;
      break;
    case 'L':
      r.kind = Rule::Kind::ListConditional;
      break;
    default:
      return std::nullopt;
  }
  for (size_t i = 1; i < s.size(); i += 2) {
    auto p = number_of(s.substr(i, 2));
    if (!p || *p == 0) return std::nullopt;
    r.positions.push_back(*p);
  }
  return r;
}

}  // namespace

// Reads all files in four passes (elements and codes, composites, segments,
// messages), so that a file may use what another file of its version defines.
class DefinitionReader {
 public:
  explicit DefinitionReader(Definitions* out) : out_(out) {}

  Status read(const std::vector<Definitions::File>& files) {
    std::vector<std::vector<Line>> tokenized;
    for (const auto& f : files) {
      ASSIGN_OR_RETURN(std::vector<Line> lines, tokenize(f));
      tokenized.push_back(std::move(lines));
    }
    for (int pass = 0; pass < 4; ++pass) {
      for (size_t i = 0; i < files.size(); ++i) RETURN_IF_ERROR(read_pass(pass, files[i].name, tokenized[i]));
    }
    return Status::ok();
  }

 private:
  Status fail(size_t line, const std::string& what) const {
    return Status::invalid(file_ + ":" + std::to_string(line) + ": " + what);
  }

  Status read_pass(int pass, const std::string& name, const std::vector<Line>& lines) {
    file_ = name;
    if (lines.empty() || lines[0].tokens[0] != "standard" || lines[0].tokens.size() != 3 || lines[0].indented)
      return fail(lines.empty() ? 1 : lines[0].number, "the file must start with `standard NAME VERSION`");
    if (lines[0].tokens[1] != "x12" && lines[0].tokens[1] != "edifact")
      return fail(lines[0].number, "standard '" + lines[0].tokens[1] + "' is not one edihub reads (x12, edifact)");
    auto& slot = out_->versions_[lines[0].tokens[1] + " " + lines[0].tokens[2]];
    if (!slot) slot = std::make_unique<Definitions::Version>();
    v_ = slot.get();
    standard_ = lines[0].tokens[1];
    version_ = lines[0].tokens[2];
    for (size_t i = 1; i < lines.size();) {
      const Line& l = lines[i];
      if (l.indented) return fail(l.number, "an indented line outside a composite, segment or message");
      size_t body_end = i + 1;
      while (body_end < lines.size() && lines[body_end].indented) ++body_end;
      const std::string& what = l.tokens[0];
      Status s = Status::ok();
      if (what == "element" || what == "codes") {
        if (body_end != i + 1) return fail(lines[i + 1].number, "`" + what + "` has no indented body");
        if (pass == 0) s = what == "element" ? element(l) : codes(l);
      } else if (what == "composite") {
        if (pass == 1) s = composite(l, lines, i + 1, body_end);
      } else if (what == "segment") {
        if (pass == 2) s = segment(l, lines, i + 1, body_end);
      } else if (what == "message") {
        if (pass == 3) s = message(l, lines, i + 1, body_end);
      } else {
        return fail(l.number, "unknown statement '" + what + "' (element, codes, composite, segment, message)");
      }
      RETURN_IF_ERROR(s);
      i = body_end;
    }
    return Status::ok();
  }

  Status element(const Line& l) {
    if (l.tokens.size() < 5 || l.tokens.size() > 6)
      return fail(l.number, "expected `element REF TYPE MIN MAX [\"name\"]`");
    auto e = std::make_unique<ElementDef>();
    e->ref = l.tokens[1];
    if (!type_of(standard_, l.tokens[2], e.get()))
      return fail(l.number, "element " + e->ref + ": type '" + l.tokens[2] + "' is not " +
                                (standard_ == "edifact" ? "a, an or n" : "AN, ID, DT, TM, R or N0-N9"));
    auto min = number_of(l.tokens[3]), max = number_of(l.tokens[4]);
    if (!min || !max || *min == 0 || *min > *max || *max > 100000)
      return fail(l.number, "element " + e->ref + ": lengths must be 1 <= MIN <= MAX");
    e->min = *min;
    e->max = *max;
    if (l.tokens.size() == 6) e->name = l.tokens[5];
    if (v_->elements.count(e->ref) != 0) return fail(l.number, "element " + e->ref + " is defined twice");
    v_->elements[e->ref] = std::move(e);
    return Status::ok();
  }

  Status codes(const Line& l) {
    if (l.tokens.size() < 3) return fail(l.number, "expected `codes REF CODE...`");
    auto it = v_->elements.find(l.tokens[1]);
    if (it == v_->elements.end()) return fail(l.number, "codes for element " + l.tokens[1] + ", which is not defined");
    for (size_t i = 2; i < l.tokens.size(); ++i) {
      const std::string& c = l.tokens[i];
      if (c.size() < it->second->min || c.size() > it->second->max)
        return fail(l.number, "code '" + c + "' does not fit element " + l.tokens[1] + "'s length");
      it->second->codes.insert(c);
    }
    return Status::ok();
  }

  Status composite(const Line& l, const std::vector<Line>& lines, size_t from, size_t to) {
    if (l.tokens.size() < 2 || l.tokens.size() > 3) return fail(l.number, "expected `composite ID [\"name\"]`");
    auto c = std::make_unique<CompositeDef>();
    c->id = l.tokens[1];
    if (l.tokens.size() == 3) c->name = l.tokens[2];
    for (size_t i = from; i < to; ++i) {
      const Line& b = lines[i];
      if (b.tokens.size() != 2) return fail(b.number, "expected a component `REF USAGE`");
      auto e = v_->elements.find(b.tokens[0]);
      if (e == v_->elements.end())
        return fail(b.number, "composite " + c->id + ": element " + b.tokens[0] + " is not defined");
      auto u = usage_of(b.tokens[1]);
      if (!u) return fail(b.number, "usage '" + b.tokens[1] + "' is not M, O or X");
      c->components.push_back({e->second.get(), *u});
    }
    if (c->components.empty()) return fail(l.number, "composite " + c->id + " has no components");
    if (v_->composites.count(c->id) != 0) return fail(l.number, "composite " + c->id + " is defined twice");
    v_->composites[c->id] = std::move(c);
    return Status::ok();
  }

  Status segment(const Line& l, const std::vector<Line>& lines, size_t from, size_t to) {
    auto s = std::make_unique<SegmentDef>();
    bool shape = l.tokens.size() >= 2 && l.tokens.size() <= 4 && !l.quoted[1];
    for (size_t k = 2; shape && k < l.tokens.size(); ++k) {
      if (l.quoted[k] && s->name.empty() && !s->open) {
        s->name = l.tokens[k];
      } else if (!l.quoted[k] && l.tokens[k] == "open" && !s->open) {
        s->open = true;
      } else {
        shape = false;
      }
    }
    if (!shape) return fail(l.number, "expected `segment TAG [\"name\"] [open]`");
    s->tag = l.tokens[1];
    for (size_t i = from; i < to; ++i) {
      const Line& b = lines[i];
      if (b.tokens[0] == "rule") {
        if (b.tokens.size() != 2) return fail(b.number, "expected `rule P0304`");
        auto r = rule_of(b.tokens[1]);
        if (!r) return fail(b.number, "rule '" + b.tokens[1] + "' is not P, R, E, C or L with two-digit positions");
        for (uint32_t p : r->positions)
          if (p > s->elements.size())
            return fail(b.number, "rule " + r->text + " names position " + std::to_string(p) + " of segment " + s->tag +
                                      ", which has " + std::to_string(s->elements.size()));
        s->rules.push_back(std::move(*r));
      } else if (b.tokens[0] == "open" && b.tokens.size() == 1) {
        s->open = true;
      } else {
        if (b.tokens.size() != 2) return fail(b.number, "expected an element position `REF USAGE`");
        if (!s->rules.empty() || s->open) return fail(b.number, "element positions come before rules and `open`");
        auto u = usage_of(b.tokens[1]);
        if (!u) return fail(b.number, "usage '" + b.tokens[1] + "' is not M, O or X");
        ElementUse use;
        use.usage = *u;
        if (auto e = v_->elements.find(b.tokens[0]); e != v_->elements.end()) {
          use.element = e->second.get();
        } else if (auto c = v_->composites.find(b.tokens[0]); c != v_->composites.end()) {
          use.composite = c->second.get();
        } else {
          return fail(b.number, "segment " + s->tag + ": element " + b.tokens[0] + " is not defined");
        }
        s->elements.push_back(use);
      }
    }
    if (v_->segments.count(s->tag) != 0) return fail(l.number, "segment " + s->tag + " is defined twice");
    v_->segments[s->tag] = std::move(s);
    return Status::ok();
  }

  Status message(const Line& l, const std::vector<Line>& lines, size_t from, size_t to) {
    if (l.tokens.size() < 2 || l.tokens.size() > 3) return fail(l.number, "expected `message TYPE [\"name\"]`");
    auto m = std::make_unique<MessageDef>();
    m->standard = standard_;
    m->version = version_;
    m->type = l.tokens[1];
    if (l.tokens.size() == 3) m->name = l.tokens[2];
    m->root.loop = true;
    m->root.usage = Usage::Mandatory;
    std::vector<Node*> open{&m->root};
    std::vector<size_t> opened_at{l.number};
    for (size_t i = from; i < to; ++i) {
      const Line& b = lines[i];
      if (b.tokens[0] == "end") {
        if (open.size() == 1) return fail(b.number, "`end` without a loop");
        RETURN_IF_ERROR(close_loop(*open.back(), opened_at.back()));
        open.pop_back();
        opened_at.pop_back();
        continue;
      }
      const bool loop = b.tokens[0] == "loop";
      const size_t at = loop ? 1 : 0;
      const bool named = loop && b.tokens.size() == at + 4 && b.quoted[at + 3];
      if (b.tokens.size() != at + 3 && !named)
        return fail(b.number, loop ? "expected `loop ID USAGE MAX [\"name\"]`" : "expected `TAG USAGE MAX`");
      Node n;
      n.loop = loop;
      n.tag = b.tokens[at];
      if (named) n.name = b.tokens[at + 3];
      auto u = usage_of(b.tokens[at + 1]);
      if (!u || *u == Usage::Relational) return fail(b.number, "usage '" + b.tokens[at + 1] + "' is not M or O");
      n.usage = *u;
      const std::string& max = b.tokens[at + 2];
      auto count = max == ">1" ? std::optional<uint32_t>(std::numeric_limits<uint32_t>::max()) : number_of(max);
      if (!count || *count == 0) return fail(b.number, "maximum '" + max + "' is not a number >= 1 or >1");
      n.max = *count;
      if (!loop) {
        auto s = v_->segments.find(n.tag);
        if (s == v_->segments.end()) return fail(b.number, "segment " + n.tag + " is not defined");
        n.segment = s->second.get();
        m->tags.insert(n.tag);
      }
      open.back()->children.push_back(std::move(n));
      if (loop) {
        if (open.size() > kMaxDepth) return fail(b.number, "loops nest deeper than " + std::to_string(kMaxDepth));
        open.push_back(&open.back()->children.back());
        opened_at.push_back(b.number);
      }
    }
    if (open.size() > 1) return fail(opened_at.back(), "loop " + open.back()->tag + " has no `end`");
    if (m->root.children.empty()) return fail(l.number, "message " + m->type + " has no segments");
    if (v_->messages.count(m->type) != 0) return fail(l.number, "message " + m->type + " is defined twice");
    v_->messages[m->type] = std::move(m);
    return Status::ok();
  }

  // A loop starts with the segment that names it.
  Status close_loop(const Node& loop, size_t line) const {
    if (loop.children.empty() || loop.children[0].loop || loop.children[0].tag != loop.tag)
      return fail(line, "loop " + loop.tag + " must start with segment " + loop.tag);
    return Status::ok();
  }

  Definitions* out_;
  Definitions::Version* v_ = nullptr;
  std::string file_, standard_, version_;
};

Result<Definitions> Definitions::load(const std::vector<File>& files) {
  Definitions d;
  DefinitionReader reader(&d);
  RETURN_IF_ERROR(reader.read(files));
  return d;
}

std::string version_key(std::string_view standard, std::string_view version) {
  if (standard == "x12" && version.size() > 6) version = version.substr(0, 6);
  if (standard == "edifact") {
    // "D:96A:UN[:EAN008]": the directory's version and release.
    const size_t a = version.find(':');
    if (a != std::string_view::npos) {
      const size_t b = version.find(':', a + 1);
      return std::string(standard) + " " + std::string(version.substr(0, a)) +
             std::string(version.substr(a + 1, b == std::string_view::npos ? std::string_view::npos : b - a - 1));
    }
  }
  return std::string(standard) + " " + std::string(version);
}

const Definitions::Version* Definitions::version(std::string_view standard, std::string_view version) const {
  auto it = versions_.find(version_key(standard, version));
  return it == versions_.end() ? nullptr : it->second.get();
}

const MessageDef* Definitions::message(std::string_view standard, std::string_view version,
                                       std::string_view type) const {
  const Version* v = this->version(standard, version);
  if (v == nullptr) return nullptr;
  auto it = v->messages.find(type);
  return it == v->messages.end() ? nullptr : it->second.get();
}

bool Definitions::knows_segment(std::string_view standard, std::string_view version, std::string_view tag) const {
  const Version* v = this->version(standard, version);
  return v != nullptr && v->segments.find(tag) != v->segments.end();
}

std::vector<std::string> Definitions::names() const {
  std::vector<std::string> out;
  for (const auto& [key, v] : versions_)
    for (const auto& [type, m] : v->messages) out.push_back(key + " " + type);
  return out;
}

const Definitions& standard_definitions() {
  static const Definitions* const shipped = [] {
    Result<Definitions> loaded = Definitions::load(shipped_definition_files());
    if (!loaded.is_ok()) {
      std::fprintf(stderr, "edihub: the shipped message definitions do not load: %s\n",
                   loaded.status().message().c_str());
      return new Definitions();
    }
    return new Definitions(std::move(loaded).value());
  }();
  return *shipped;
}

}  // namespace edihub::documents
