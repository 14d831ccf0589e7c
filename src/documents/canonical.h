// The canonical document: one message as JSON, every segment and element of
// it, in the structure its definition gives (loops nested, each repetition
// its own object), each element with its reference number and name, plus the
// envelope keys it came from. The format is versioned and documented in
// schema/document/README.md (schema/document/v1.schema.json, with examples);
// it is what `edihub inspect --json --documents` prints and what the back
// office receives beside the booked fields.
//
// A message without a definition is still carried whole: its segments in
// order, elements by position, without loops or names ("checked": false).
#pragma once

#include <memory>
#include <string>
#include <vector>
#include <string_view>

#include "parsers/edi/interchange.h"
#include "parsers/edi/observer.h"
#include "src/documents/definition.h"

namespace edihub::documents {

inline constexpr std::string_view kCanonicalSchema = "edihub-document/1";

// A MessageObserver that writes each message's canonical document while the
// parser reads it (and validates it, as a Validator would: its findings are
// the message's segment errors). `catalog` must outlive it.
class CanonicalReader : public edi::MessageObserver {
 public:
  explicit CanonicalReader(const Catalog& catalog);
  ~CanonicalReader() override;
  void begin(const edi::Interchange& ic, const edi::Group& group, const edi::Message& message) override;
  void segment(const edi::Segment& s, uint32_t number) override;
  Findings end() override;
  // The canonical JSON of each message ended since the last call, in order.
  std::vector<std::string> take();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The canonical JSON of `message` (its bytes at message.span in `input`, the
// interchange's input), checked against `catalog`. Pure; bounded by the
// message (at most a few times its size).
std::string canonical_json(const Catalog& catalog, const edi::Interchange& ic, const edi::Group& group,
                           const edi::Message& message, std::string_view input);

}  // namespace edihub::documents
