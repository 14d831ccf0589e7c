// The streaming validator: checks each message against its definition while
// the envelope parser reads it, segment by segment, in memory bounded by the
// definition (a stack of loops, counts per position), never by the message.
// Its findings are X12 segment and element errors with the 997/999 codes:
//
//   AK304/IK304  1 unrecognized segment ID      2 unexpected segment
//                3 mandatory segment missing    4 loop occurs over maximum times
//                5 segment exceeds maximum use  6 segment not in defined transaction set
//                7 segment not in proper sequence   8 segment has data element errors
//   AK403/IK403  1 mandatory element missing    2 conditional required element missing
//                3 too many data elements       4 data element too short
//                5 data element too long        6 invalid character in data element
//                7 invalid code value           8 invalid date
//                9 invalid time                 10 exclusion condition violated
//                13 too many components (a composite's; 005010X231, the 997 says 3)
//
// and, where a partner's guide narrows the standard, the 999's implementation
// codes: IK304 I4 ("not used" segment present), IK403 I10 ("not used" element
// present) and I6 (a standard code the guide does not use). A 997 (004010
// has none of them) says 2, 10 and 7 instead (parsers/x12/acks.h); a CONTRL
// maps every code to ISO 9735's 0085 (parsers/edifact/contrl.h). EDIFACT
// messages are checked the same way, with the release character honoured.
//
// A message whose standard, version and type have no definition is not
// checked (Message::validated stays false); the envelope checks still apply.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/edi/observer.h"
#include "src/documents/definition.h"

namespace edihub::documents {

struct ValidatorLimits {
  size_t max_segment_errors = 100;  // per message; the rest are counted, not listed
  size_t max_element_errors = 20;   // per segment
};

// What an AK304/IK304 or AK403/IK403 code means, for people ("invalid date").
std::string_view segment_error_text(std::string_view code);
std::string_view element_error_text(std::string_view code);

// One line for people: "DTM at segment 14: DTM02 (373) '20240230': invalid date (code 8)";
// a segment error without element errors: "ZZZ at segment 22: unrecognized segment ID (code 1)".
std::string finding_text(const edi::SegmentError& e);
// "DTM02 (373) '20240230': invalid date (code 8)"; a relational condition
// names its trigger: "N104 (67): conditional ... (code 2), because N103 (66) is present".
std::string element_finding_text(const edi::SegmentError& segment, const edi::ElementError& e);
// ", because N103 (66) is present" (empty for position 0): the 999's CTX in words.
std::string trigger_text(std::string_view tag, int position, std::string_view reference);

// Where the validator placed each segment, for a reader that wants the
// message's structure (the canonical document): the loops it is in, outermost
// first, each with its repetition (1-based), and its definition (null for a
// segment with no place).
class PlacementSink {
 public:
  struct Loop {
    const Node* node;
    uint32_t repetition;
  };
  virtual ~PlacementSink() = default;
  virtual void placed(const edi::Segment& s, uint32_t number, const SegmentDef* def,
                      const std::vector<Loop>& loops) = 0;
};

class Validator : public edi::MessageObserver {
 public:
  // Checks against the standard's definitions.
  explicit Validator(const Definitions& definitions, ValidatorLimits limits = {})
      : own_{&definitions, {}}, catalog_(&own_), limits_(limits) {}
  // Checks against a partner's guides where it has one (`catalog` must outlive the validator).
  explicit Validator(const Catalog& catalog, ValidatorLimits limits = {}) : catalog_(&catalog), limits_(limits) {}
  Validator(const Validator&) = delete;
  Validator& operator=(const Validator&) = delete;

  void begin(const edi::Interchange& ic, const edi::Group& group, const edi::Message& message) override;
  void segment(const edi::Segment& s, uint32_t number) override;
  Findings end() override;

  // Errors found beyond max_segment_errors in the last message ended.
  uint64_t dropped() const { return dropped_; }
  // The definition of the message begun last (null: not checked).
  const MessageDef* definition() const { return def_; }
  // Told where each segment goes (`sink` must outlive the validator's use).
  void set_sink(PlacementSink* sink) { sink_ = sink; }

 private:
  struct Frame {
    const Node* loop;
    size_t index;                 // the current position in loop->children (npos: before the first)
    std::vector<uint32_t> count;  // uses (segments) or repetitions (loops) per position
  };
  void place(const edi::Segment& s, uint32_t number);
  // The AK304 code for a segment that has no position reachable from here.
  std::string unplaced_code(std::string_view tag) const;
  // Reports mandatory positions of frame f in [from, to) never used.
  void missing(const Frame& f, size_t from, size_t to, uint32_t number);
  void check_elements(const SegmentDef& def, const edi::Segment& s, uint32_t number);
  void report(edi::SegmentError e);
  void tell(const edi::Segment& s, uint32_t number, const SegmentDef* def);
  std::string loop_id() const;

  Catalog own_;  // the standard alone, when constructed from Definitions
  const Catalog* catalog_;
  ValidatorLimits limits_;
  const MessageDef* def_ = nullptr;
  edi::Delimiters d_;
  std::vector<Frame> stack_;
  std::vector<edi::SegmentError> errors_;
  std::vector<std::string_view> values_, components_;  // scratch of check_elements()
  uint64_t dropped_ = 0;
  PlacementSink* sink_ = nullptr;
  std::vector<PlacementSink::Loop> loops_;  // scratch of tell()
};

// Drives `observer` over one message already parsed, from its bytes at
// message.span in `input` (the interchange's input), as the parser would.
edi::MessageObserver::Findings observe_message(edi::MessageObserver& observer, const edi::Interchange& ic,
                                               const edi::Group& group, const edi::Message& message,
                                               std::string_view input);

// Checks one message already parsed, from its bytes at message.span in
// `input` (the interchange's input): what the Validator finds when the parser
// drives it, for a caller that learns only after the parse whether it wants
// the check (the gate, once it knows whose the interchange is).
edi::MessageObserver::Findings validate_message(const Catalog& catalog, const edi::Interchange& ic,
                                                const edi::Group& group, const edi::Message& message,
                                                std::string_view input, ValidatorLimits limits = {});

}  // namespace edihub::documents
