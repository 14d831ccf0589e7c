#include "src/documents/validator.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

namespace edihub::documents {

namespace {

constexpr size_t kNone = static_cast<size_t>(-1);
constexpr size_t kMaxElements = 512;  // a segment's elements looked at; the rest are "too many"

void split_on(std::string_view text, char sep, char release, std::vector<std::string_view>* out) {
  edi::split_values(text, sep, release, kMaxElements, out);
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A value that may be quoted back in AK404/IK404: printable, short, and
// without the interchange's delimiters (it goes into the acknowledgment as one element).
std::string quotable(std::string_view v, const edi::Delimiters& d) {
  if (v.size() > 99) return {};
  for (char c : v) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f || c == d.element || c == d.component || (d.repetition != 0 && c == d.repetition) ||
        d.terminator.view().find(c) != std::string_view::npos)
      return {};
  }
  return std::string(v);
}

// Whether `v` holds an unreleased repetition separator, or (`simple`) component one.
bool has_separator(std::string_view v, const edi::Delimiters& d, bool simple) {
  if (d.release == 0)
    return (simple && v.find(d.component) != std::string_view::npos) ||
           (d.repetition != 0 && v.find(d.repetition) != std::string_view::npos);
  for (size_t i = 0; i < v.size(); ++i) {
    if (d.release != 0 && v[i] == d.release) {
      ++i;
    } else if ((simple && v[i] == d.component) || (d.repetition != 0 && v[i] == d.repetition)) {
      return true;
    }
  }
  return false;
}

// Why a value got code 6 (the CONTRL says each differently).
edi::BadCharacter bad_character(std::string_view v, const edi::Delimiters& d, bool simple) {
  if (has_separator(v, d, simple)) return edi::BadCharacter::kSeparator;
  for (char c : v)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return edi::BadCharacter::kSet;
  return edi::BadCharacter::kType;
}

bool leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int digits(std::string_view s, size_t from, size_t n) {
  int v = 0;
  for (size_t i = from; i < from + n; ++i) v = v * 10 + (s[i] - '0');
  return v;
}

// CCYYMMDD, or YYMMDD for a 6-long date element.
bool valid_date(std::string_view v) {
  if ((v.size() != 8 && v.size() != 6) || !edi::all_digits(v)) return false;
  const size_t y = v.size() == 8 ? 4 : 2;
  const int year = v.size() == 8 ? digits(v, 0, 4) : 2000 + digits(v, 0, 2);
  const int month = digits(v, y, 2), day = digits(v, y + 2, 2);
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= kDays[month - 1] + (month == 2 && leap(year) ? 1 : 0);
}

// HHMM, HHMMSS, HHMMSSd or HHMMSSdd.
bool valid_time(std::string_view v) {
  if (v.size() < 4 || v.size() > 8 || v.size() == 5 || !edi::all_digits(v)) return false;
  if (digits(v, 0, 2) > 23 || digits(v, 2, 2) > 59) return false;
  return v.size() < 6 || digits(v, 4, 2) <= 59;
}

// How many digits a numeric value has, or -1 when it is not a number of
// `type` (N: optional minus and digits; R: also one decimal point; EDIFACT n:
// one decimal mark, '.' or ',').
int numeric_length(std::string_view v, ElementType type) {
  if (!v.empty() && v[0] == '-') v.remove_prefix(1);
  int n = 0;
  bool point = false;
  for (char c : v) {
    if (is_digit(c)) {
      ++n;
    } else if (!point && (type == ElementType::R || type == ElementType::Numeric) &&
               (c == '.' || (c == ',' && type == ElementType::Numeric))) {
      point = true;
    } else {
      return -1;
    }
  }
  return n == 0 ? -1 : n;
}

bool is_alpha_value(std::string_view v) {
  for (char c : v)
    if (is_digit(c)) return false;
  return true;
}

// The code for `v` against `e`, or nullptr when it is valid. `release` is
// EDIFACT's release character: it is not data and not counted.
const char* value_problem(const ElementDef& e, std::string_view v, char release) {
  size_t length = v.size();
  if (e.type == ElementType::N || e.type == ElementType::R || e.type == ElementType::Numeric) {
    const int n = numeric_length(v, e.type);
    if (n < 0) return "6";
    length = static_cast<size_t>(n);
  } else {
    for (size_t i = 0; i < v.size(); ++i) {
      if (static_cast<unsigned char>(v[i]) < 0x20 || v[i] == 0x7f) return "6";
      if (release != 0 && v[i] == release && i + 1 < v.size()) {
        --length;  // "?+" is one character of data
        ++i;
      }
    }
    if (e.type == ElementType::Alpha && !is_alpha_value(v)) return "6";
  }
  if (length < e.min) return "4";
  if (length > e.max) return "5";
  if (e.type == ElementType::DT && !valid_date(v)) return "8";
  if (e.type == ElementType::TM && !valid_time(v)) return "9";
  if (!e.codes.empty() && e.codes.find(v) == e.codes.end()) {
    // A code the standard knows but the partner's guide does not use.
    const bool standard_code = e.base != nullptr && (e.base->codes.empty() || e.base->codes.count(v) != 0);
    return standard_code ? "I6" : "7";
  }
  return nullptr;
}

}  // namespace

std::string_view segment_error_text(std::string_view code) {
  static constexpr std::string_view kText[] = {"",
                                               "unrecognized segment ID",
                                               "unexpected segment",
                                               "mandatory segment missing",
                                               "loop occurs over maximum times",
                                               "segment exceeds maximum use",
                                               "segment not in defined transaction set",
                                               "segment not in proper sequence",
                                               "segment has data element errors"};
  if (code == "I4") return "implementation \"not used\" segment present";
  const size_t i = code.size() == 1 && code[0] >= '1' && code[0] <= '8' ? static_cast<size_t>(code[0] - '0') : 0;
  return i == 0 ? std::string_view("segment error") : kText[i];
}

std::string_view element_error_text(std::string_view code) {
  static constexpr std::string_view kText[] = {"",
                                               "mandatory data element missing",
                                               "conditional required data element missing",
                                               "too many data elements",
                                               "data element too short",
                                               "data element too long",
                                               "invalid character in data element",
                                               "invalid code value",
                                               "invalid date",
                                               "invalid time",
                                               "exclusion condition violated"};
  if (code == "13") return "too many components";
  if (code == "I6") return "code value not used in implementation";
  if (code == "I10") return "implementation \"not used\" data element present";
  size_t i = 0;
  if (code == "10") {
    i = 10;
  } else if (code.size() == 1 && code[0] >= '1' && code[0] <= '9') {
    i = static_cast<size_t>(code[0] - '0');
  }
  return i == 0 ? std::string_view("data element error") : kText[i];
}

void Validator::begin(const edi::Interchange& ic, const edi::Group&, const edi::Message& message) {
  errors_.clear();
  stack_.clear();
  dropped_ = 0;
  d_ = ic.delimiters;
  def_ = catalog_->message(edi::standard_name(ic.standard), message.version, message.type);
  if (def_ != nullptr) stack_.push_back({&def_->root, kNone, std::vector<uint32_t>(def_->root.children.size(), 0)});
}

void Validator::segment(const edi::Segment& s, uint32_t number) {
  if (def_ == nullptr || stack_.empty()) return;
  place(s, number);
}

edi::MessageObserver::Findings Validator::end() {
  Findings out;
  out.checked = def_ != nullptr;
  out.errors = std::move(errors_);
  errors_.clear();
  stack_.clear();
  def_ = nullptr;
  return out;
}

std::string Validator::loop_id() const { return stack_.size() > 1 ? stack_.back().loop->tag : std::string(); }

void Validator::report(edi::SegmentError e) {
  if (errors_.size() >= limits_.max_segment_errors) {
    ++dropped_;
    return;
  }
  errors_.push_back(std::move(e));
}

void Validator::missing(const Frame& f, size_t from, size_t to, uint32_t number) {
  const auto& children = f.loop->children;
  for (size_t j = from; j < to && j < children.size(); ++j) {
    const Node& n = children[j];
    if (n.usage != Usage::Mandatory || f.count[j] != 0) continue;
    edi::SegmentError e;
    e.tag = n.loop ? n.children[0].tag : n.tag;
    e.position = number;
    e.loop = f.loop == &def_->root ? std::string() : f.loop->tag;
    e.code = "3";  // mandatory segment missing
    report(std::move(e));
  }
}

void Validator::place(const edi::Segment& s, uint32_t number) {
  const std::string_view tag = s.tag;
  for (size_t depth = stack_.size(); depth-- > 0;) {
    const Frame& f = stack_[depth];
    const auto& children = f.loop->children;
    for (size_t j = f.index == kNone ? 0 : f.index; j < children.size(); ++j) {
      // A loop's first segment starts its next repetition, one level up.
      if (depth > 0 && j == 0) continue;
      const Node& n = children[j];
      if ((n.loop ? n.children[0].tag : n.tag) != tag) continue;
      // Found: the loops deeper than this one end here.
      while (stack_.size() > depth + 1) {
        const Frame& inner = stack_.back();
        missing(inner, inner.index + 1, inner.loop->children.size(), number);
        stack_.pop_back();
      }
      Frame& g = stack_[depth];
      missing(g, g.index == kNone ? 0 : g.index + 1, j, number);
      g.index = j;
      const bool over = ++g.count[j] > n.max;
      const SegmentDef* def = n.loop ? n.children[0].segment : n.segment;
      if (n.loop) {
        Frame inner{&n, 0, std::vector<uint32_t>(n.children.size(), 0)};
        inner.count[0] = 1;
        stack_.push_back(std::move(inner));
      }
      tell(s, number, def);
      if (over) {
        report({std::string(tag), number, loop_id(), n.loop ? "4" : "5", {}});  // loop over max / segment over max use
        return;
      }
      if (n.usage == Usage::NotUsed) {
        report({std::string(tag), number, loop_id(), "I4", {}});  // the partner's guide does not use it
        return;
      }
      check_elements(*def, s, number);
      return;
    }
  }
  // Nowhere from here: why.
  tell(s, number, nullptr);
  report({std::string(tag), number, loop_id(), unplaced_code(tag), {}});
}

void Validator::tell(const edi::Segment& s, uint32_t number, const SegmentDef* def) {
  if (sink_ == nullptr) return;
  loops_.clear();
  for (size_t depth = 1; depth < stack_.size(); ++depth) {
    const Frame& parent = stack_[depth - 1];
    loops_.push_back({stack_[depth].loop, parent.count[parent.index]});
  }
  sink_->placed(s, number, def, loops_);
}

std::string Validator::unplaced_code(std::string_view tag) const {
  if (catalog_->standard == nullptr || !catalog_->standard->knows_segment(def_->standard, def_->version, tag))
    return "1";                                              // unrecognized segment ID
  if (def_->tags.find(tag) == def_->tags.end()) return "6";  // not in the defined transaction set
  for (const Frame& f : stack_) {
    const size_t upto = f.index == kNone ? 0 : f.index;
    for (size_t j = 0; j < upto; ++j) {
      const Node& n = f.loop->children[j];
      if ((n.loop ? n.children[0].tag : n.tag) == tag) return "7";  // its place was earlier
    }
  }
  return "2";  // unexpected: its place is in a loop not entered
}

// Long on purpose: one pass over a segment's elements, components and rules.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
void Validator::check_elements(const SegmentDef& def, const edi::Segment& s, uint32_t number) {
  if (def.elements.empty() && def.open) return;
  std::vector<std::string_view>& values = values_;  // reused: no allocation per segment
  std::vector<std::string_view>& components = components_;
  split_on(s.text, d_.element, d_.release, &values);  // [0] is the tag
  const size_t n = values.size() - 1;
  std::vector<edi::ElementError> found;
  auto add = [&](uint32_t position, uint32_t component, std::string_view ref, const char* code,
                 std::string_view value) {
    edi::ElementError e;
    e.position = static_cast<int>(position);
    e.component = static_cast<int>(component);
    e.reference = std::string(ref);
    e.code = code;
    // The bad value where there is one (too short ... exclusion), not for what is missing or extra.
    const std::string_view c(code);
    if (c != "1" && c != "2" && c != "3" && c != "13" && c != "I10") e.value = quotable(value, d_);
    if (c == "6") e.character = bad_character(value, d_, component == 0);
    found.push_back(std::move(e));
  };
  for (size_t i = 1; i <= n; ++i) {
    const std::string_view v = values[i];
    if (i > def.elements.size()) {
      if (def.open) break;
      // Trailing empty elements are a separator too many, not data.
      bool data = false;
      for (size_t k = i; k <= n; ++k) data = data || !values[k].empty();
      if (data) add(static_cast<uint32_t>(i), 0, "", "3", v);  // too many data elements
      break;
    }
    const ElementUse& use = def.elements[i - 1];
    if (v.empty()) {
      if (use.usage == Usage::Mandatory) add(static_cast<uint32_t>(i), 0, use.ref(), "1", v);
      continue;
    }
    if (use.usage == Usage::NotUsed) {
      add(static_cast<uint32_t>(i), 0, use.ref(), "I10", v);  // the partner's guide does not use it
      continue;
    }
    if (use.element != nullptr) {
      // A separator inside a simple element: the sender meant a composite or a repetition.
      const char* p = has_separator(v, d_, true) ? "6" : value_problem(*use.element, v, d_.release);
      if (p != nullptr) add(static_cast<uint32_t>(i), 0, use.ref(), p, v);
      continue;
    }
    split_on(v, d_.component, d_.release, &components);
    const auto& parts = use.composite->components;
    for (size_t k = 0; k < components.size(); ++k) {
      const auto position = static_cast<uint32_t>(i), component = static_cast<uint32_t>(k + 1);
      if (k >= parts.size()) {
        // Too many components (997: 3). No reference: IK402 is a data
        // element's number, and a component past the last has none.
        add(position, component, "", "13", components[k]);
        break;
      }
      if (components[k].empty()) {
        if (parts[k].usage == Usage::Mandatory) add(position, component, parts[k].element->ref, "1", "");
      } else if (parts[k].usage == Usage::NotUsed) {
        add(position, component, parts[k].element->ref, "I10", components[k]);
      } else if (const char* p = has_separator(components[k], d_, false)
                                     ? "6"
                                     : value_problem(*parts[k].element, components[k], d_.release)) {
        add(position, component, parts[k].element->ref, p, components[k]);
      }
    }
    for (size_t k = components.size(); k < parts.size(); ++k)
      if (parts[k].usage == Usage::Mandatory)
        add(static_cast<uint32_t>(i), static_cast<uint32_t>(k + 1), parts[k].element->ref, "1", "");
  }
  for (size_t i = n + 1; i <= def.elements.size(); ++i)
    if (def.elements[i - 1].usage == Usage::Mandatory)
      add(static_cast<uint32_t>(i), 0, def.elements[i - 1].ref(), "1", "");

  auto present = [&](uint32_t p) { return p <= n && !values[p].empty(); };
  auto ref_at = [&](uint32_t p) { return def.elements[p - 1].ref(); };
  // The element that made the rule apply, for the 999's CTX: the last finding added.
  auto triggered_by = [&](uint32_t p) {
    found.back().trigger_position = static_cast<int>(p);
    found.back().trigger_reference = std::string(ref_at(p));
  };
  auto first_present = [&](const std::vector<uint32_t>& ps) { return *std::find_if(ps.begin(), ps.end(), present); };
  for (const Rule& r : def.rules) {
    const auto& ps = r.positions;
    const auto count = static_cast<size_t>(std::count_if(ps.begin(), ps.end(), present));
    switch (r.kind) {
      case Rule::Kind::Paired:  // all or none
        if (count > 0 && count < ps.size())
          for (uint32_t p : ps)
            if (!present(p)) {
              add(p, 0, ref_at(p), "2", "");
              triggered_by(first_present(ps));
            }
        break;
      case Rule::Kind::Required:  // at least one: nothing triggers it
        if (count == 0) add(ps[0], 0, ref_at(ps[0]), "2", "");
        break;
      case Rule::Kind::Exclusion:  // at most one
        if (count > 1) {
          size_t seen = 0;
          for (uint32_t p : ps)
            if (present(p) && ++seen == 2) {
              add(p, 0, ref_at(p), "10", values[p]);
              triggered_by(first_present(ps));
            }
        }
        break;
      case Rule::Kind::Conditional:  // the first: then all others
        if (present(ps[0]))
          for (size_t k = 1; k < ps.size(); ++k)
            if (!present(ps[k])) {
              add(ps[k], 0, ref_at(ps[k]), "2", "");
              triggered_by(ps[0]);
            }
        break;
      case Rule::Kind::ListConditional:  // the first: then at least one other
        if (present(ps[0]) && count == 1) {
          add(ps[1], 0, ref_at(ps[1]), "2", "");
          triggered_by(ps[0]);
        }
        break;
    }
  }
  if (found.empty()) return;
  std::stable_sort(found.begin(), found.end(), [](const edi::ElementError& a, const edi::ElementError& b) {
    return a.position != b.position ? a.position < b.position : a.component < b.component;
  });
  if (found.size() > limits_.max_element_errors) found.resize(limits_.max_element_errors);
  report({std::string(s.tag), number, loop_id(), "8", std::move(found)});  // segment has data element errors
}

std::string element_finding_text(const edi::SegmentError& segment, const edi::ElementError& e) {
  std::string out = segment.tag + (e.position < 10 ? "0" : "") + std::to_string(e.position);
  if (e.component > 0) out += "-" + std::to_string(e.component);
  if (!e.reference.empty()) out += " (" + e.reference + ")";
  if (!e.value.empty()) out += " '" + e.value + "'";
  return out + ": " + std::string(element_error_text(e.code)) + " (code " + e.code + ")" +
         trigger_text(segment.tag, e.trigger_position, e.trigger_reference);
}

std::string trigger_text(std::string_view tag, int position, std::string_view reference) {
  if (position <= 0) return {};
  std::string out = ", because " + std::string(tag) + (position < 10 ? "0" : "") + std::to_string(position);
  if (!reference.empty()) out += " (" + std::string(reference) + ")";
  return out + " is present";
}

std::string finding_text(const edi::SegmentError& e) {
  std::string out = e.tag + " at segment " + std::to_string(e.position) + ": ";
  if (e.elements.empty()) return out + std::string(segment_error_text(e.code)) + " (code " + e.code + ")";
  for (size_t i = 0; i < e.elements.size(); ++i) out += (i == 0 ? "" : "; ") + element_finding_text(e, e.elements[i]);
  return out;
}

edi::MessageObserver::Findings observe_message(edi::MessageObserver& observer, const edi::Interchange& ic,
                                               const edi::Group& group, const edi::Message& message,
                                               std::string_view input) {
  observer.begin(ic, group, message);
  if (message.span.offset > input.size() || message.span.length > input.size() - message.span.offset)
    return observer.end();
  const std::string_view bytes = input.substr(message.span.offset, message.span.length);
  edi::SegmentScanner scanner;
  scanner.reset(ic.delimiters, edi::ScanOptions{});
  size_t pos = 0;
  uint32_t number = 0;
  edi::Segment s;
  while (scanner.next(bytes, &pos, true, message.span.offset, &s) == edi::SegmentScanner::Status::Ok)
    observer.segment(s, ++number);
  return observer.end();
}

edi::MessageObserver::Findings validate_message(const Catalog& catalog, const edi::Interchange& ic,
                                                const edi::Group& group, const edi::Message& message,
                                                std::string_view input, ValidatorLimits limits) {
  Validator v(catalog, limits);
  return observe_message(v, ic, group, message, input);
}

}  // namespace edihub::documents
