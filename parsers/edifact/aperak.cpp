#include "parsers/edifact/aperak.h"

#include <algorithm>
#include <vector>

#include "parsers/edifact/writer.h"

namespace edihub::edifact {

namespace {

constexpr size_t kFtxChunk = 70;  // D.96A 4440 an..70
constexpr size_t kFtxChunks = 5;  // C108 has five

const edi::EnvelopeError* application_error(const edi::Interchange& o, int group, int message) {
  for (const auto& e : o.errors)
    if (e.code == edi::ErrorCode::ApplicationRejected && e.group == group && e.message == message) return &e;
  return nullptr;
}

// FTX C108: the text in up to five components of at most 70 characters each,
// cut after a space where the piece has one. Cut before escaping, so a
// released character never straddles two of them.
std::string ftx_text(const Writer& w, std::string_view text, std::string_view syntax) {
  std::string out;
  for (size_t n = 0; n < kFtxChunks && !text.empty(); ++n) {
    size_t take = std::min(text.size(), kFtxChunk);
    if (take < text.size()) {
      const size_t space = text.substr(0, take).rfind(' ');
      if (space != std::string_view::npos && space > 0) take = space + 1;
    }
    if (n > 0) out += w.comp();
    out += w.text(text.substr(0, take), syntax);
    text.remove_prefix(take);
  }
  return out;
}

}  // namespace

bool has_application_errors(const edi::Interchange& ic) {
  return std::any_of(ic.errors.begin(), ic.errors.end(),
                     [](const edi::EnvelopeError& e) { return e.code == edi::ErrorCode::ApplicationRejected; });
}

std::string build_aperak(const edi::Interchange& o, const AperakEnvelope& env) {
  const auto first = std::find_if(o.errors.begin(), o.errors.end(), [](const edi::EnvelopeError& e) {
    return e.code == edi::ErrorCode::ApplicationRejected;
  });
  if (first == o.errors.end()) return {};
  Writer w(o.delimiters, env.segment_suffix);
  w.interchange_header(o, env.sender, env.recipient, env.date, env.time, env.control_reference);
  const std::string syntax = syntax_of(o);
  const char c = w.comp();
  // The message that stopped the interchange, named in its siblings' APERAKs.
  std::string stopper = "another message";
  if (first->group >= 0 && static_cast<size_t>(first->group) < o.groups.size()) {
    const auto& messages = o.groups[static_cast<size_t>(first->group)].messages;
    if (first->message >= 0 && static_cast<size_t>(first->message) < messages.size())
      stopper = "message " + messages[static_cast<size_t>(first->message)].control_number + " (" +
                messages[static_cast<size_t>(first->message)].type + ")";
  }
  int n = 0;
  for (size_t g = 0; g < o.groups.size(); ++g) {
    for (size_t m = 0; m < o.groups[g].messages.size(); ++m) {
      const edi::Message& msg = o.groups[g].messages[m];
      const std::string ref = std::to_string(++n);
      const edi::EnvelopeError* e = application_error(o, static_cast<int>(g), static_cast<int>(m));
      w.reset_count();
      w.segment({"UNH", ref, std::string("APERAK") + c + "D" + c + "96A" + c + "UN"});
      w.segment({"BGM", "305", w.esc(env.control_reference + "-" + ref), "27"});
      w.segment({"DTM", "137" + std::string(1, c) + w.esc(env.created) + c + "203"});
      w.segment({"RFF", "ACW" + std::string(1, c) + w.esc(msg.control_number)});
      const std::string why = e != nullptr ? e->text
                                           : "not booked: " + stopper +
                                                 " of the same interchange was rejected, and an interchange is "
                                                 "booked all or nothing";
      w.segment({"ERC", std::string(e != nullptr ? kAperakNotBooked : kAperakWithOther) + c + c + "ZZZ"});
      w.segment({"FTX", "AAO", "", "", ftx_text(w, why, syntax)});
      w.segment({"UNT", std::to_string(w.count() + 1), ref});
    }
  }
  w.segment({"UNZ", std::to_string(n), w.esc(env.control_reference)});
  return w.take();
}

}  // namespace edihub::edifact
