#include "parsers/edi/assembler.h"

#include <utility>

namespace edihub::edi {

std::optional<uint64_t> parse_number(std::string_view s) {
  if (s.empty() || s.size() > 18) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  return v;
}

bool same_number(std::string_view a, std::string_view b) {
  if (a == b) return true;
  auto x = parse_number(a), y = parse_number(b);
  return x && y && *x == *y;
}

void Assembler::begin(Standard standard, uint64_t offset) {
  ic_ = Interchange{};
  ic_.standard = standard;
  ic_.span.offset = offset;
  // The builders close both before an interchange ends; should one not, the
  // next group or message still starts empty.
  if (group_open_) group_ = Group{};
  if (message_open_) message_ = Message{};
  group_open_ = message_open_ = false;
}

Interchange Assembler::take() {
  // begin() makes the next one from nothing.
  return std::move(ic_);
}

void Assembler::count(const Segment& s, uint64_t) {
  ++ic_.segments;
  if (!message_open_) return;
  ++message_.segments;
  if (observer_ != nullptr) observer_->segment(s, message_.segments);
}

void Assembler::open_group(const Segment& header) {
  group_.span.offset = header.offset;
  group_open_ = true;
  if (!group_.implicit) ++ic_.group_count;
}

void Assembler::close_group(uint64_t end_offset) {
  group_.span.length = end_offset - group_.span.offset;
  // Groups are kept even without messages: acknowledgements need one AK1 each.
  ic_.groups.push_back(std::move(group_));
  group_ = Group{};
  group_open_ = false;
}

void Assembler::open_message(const Segment& header, uint64_t number) {
  message_.span.offset = header.offset;
  message_.first_segment = number;
  message_.segments = 1;
  message_open_ = true;
  ++group_.message_count;
  ++ic_.message_count;
  if (observer_ != nullptr) {
    observer_->begin(ic_, group_, message_);
    observer_->segment(header, 1);
  }
}

void Assembler::close_message(uint64_t end_offset) {
  message_.span.length = end_offset - message_.span.offset;
  if (observer_ != nullptr) {
    MessageObserver::Findings found = observer_->end();
    message_.validated = found.checked;
    for (SegmentError& e : found.errors) message_.segment_errors.push_back(std::move(e));
  }
  if (keep_messages_) group_.messages.push_back(std::move(message_));
  message_ = Message{};
  message_open_ = false;
}

void Assembler::error(ErrorCode code, Scope scope, const Segment& at, uint64_t number, std::string text, int element) {
  EnvelopeError e;
  e.code = code;
  e.offset = at.offset;
  e.segment = number;
  e.element = element;
  e.text = std::move(text);
  if (scope != Scope::Interchange && group_open_) {
    e.group = static_cast<int>(ic_.groups.size());
    if (scope == Scope::Message && message_open_) e.message = static_cast<int>(group_.message_count) - 1;
  }
  ic_.errors.push_back(std::move(e));
}

}  // namespace edihub::edi
