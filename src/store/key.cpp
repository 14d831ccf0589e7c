#include "src/store/key.h"

namespace edihub::store {

namespace {
std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}
}  // namespace

MessageKey MessageKey::as2(std::string partner, std::string_view id) {
  return {std::move(partner), "as2:" + std::string(trim(id))};
}
MessageKey MessageKey::as4(std::string partner, std::string_view id) {
  return {std::move(partner), "as4:" + std::string(trim(id))};
}
MessageKey MessageKey::x12(std::string partner, std::string_view isa06, std::string_view isa13) {
  return {std::move(partner), "x12:" + std::string(trim(isa06)) + ":" + std::string(isa13)};
}
MessageKey MessageKey::edifact(std::string partner, std::string_view sender, std::string_view control) {
  return {std::move(partner), "edifact:" + std::string(sender) + ":" + std::string(control)};
}

MessageKey MessageKey::peppol(std::string partner, std::string_view participant, std::string_view instance) {
  return {std::move(partner), "peppol:" + std::string(participant) + ":" + std::string(instance)};
}

std::string_view MessageKey::protocol() const {
  std::string_view id = message_id;
  return id.substr(0, id.find(':'));
}

std::string_view state_name(KeyState s) {
  switch (s) {
    case KeyState::Processing:
      return "processing";
    case KeyState::Completed:
      return "completed";
    case KeyState::Failed:
      return "failed";
  }
  return "processing";
}

KeyState state_from(std::string_view s) {
  if (s == "completed") return KeyState::Completed;
  if (s == "failed") return KeyState::Failed;
  return KeyState::Processing;
}

}  // namespace edihub::store
