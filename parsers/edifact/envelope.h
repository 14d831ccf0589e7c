// Builds the EDIFACT envelope model (UNB [UNG] UNH ... UNT [UNE] UNZ) from
// segments and checks its counts and references.
#pragma once

#include <cstdint>

#include "parsers/edi/assembler.h"
#include "parsers/edifact/una.h"

namespace edihub::edifact {

class EnvelopeBuilder {
 public:
  EnvelopeBuilder(bool keep_messages, edi::MessageObserver* observer) : a_(keep_messages, observer) {}

  enum class Step { Continue, Complete, Restart };  // as x12::EnvelopeBuilder::Step

  // Starts an interchange at `unb` (segment number `number`). `una` is null
  // when the interchange has no UNA; `offset` is where UNA or UNB begins.
  void start(const edi::Delimiters& d, const Una* una, const edi::Segment& unb, uint64_t number, uint64_t offset);
  Step on_segment(const edi::Segment& s, uint64_t number);
  // True when plain content segments may be counted with on_plain().
  bool in_message() const { return a_.in_message(); }
  // `n` content segments of the open message, the last ending at `end`.
  void on_plain(uint64_t n, uint64_t end) {
    a_.count_plain(n);
    last_end_ = end;
  }
  void truncate(const edi::Segment& last, uint64_t number, uint64_t end);
  edi::Interchange take() { return a_.take(); }

 private:
  using Scope = edi::Assembler::Scope;

  void on_ung(const edi::Segment& s, uint64_t number);
  void on_unh(const edi::Segment& s, uint64_t number);
  void on_unt(const edi::Segment& s, uint64_t number);
  void on_une(const edi::Segment& s, uint64_t number);
  void on_unz(const edi::Segment& s, uint64_t number);
  void on_body(const edi::Segment& s, uint64_t number);
  void close_message_missing_unt(const edi::Segment& at, uint64_t number);
  void close_group_at(const edi::Segment& at, uint64_t number);
  // Component `comp` of element `element`, its release characters removed.
  std::string value(const edi::Elements& e, size_t element, size_t comp = 0) const;
  void set_value(std::string* out, const edi::Elements& e, size_t element, size_t comp = 0) const;
  // Element `element` as a party: id, then qualifier.
  void set_party(edi::Party* out, const edi::Elements& e, size_t element) const;

  edi::Assembler a_;
  edi::Delimiters d_;
  bool explicit_groups_ = false;
  bool bare_messages_ = false;
  uint64_t last_end_ = 0;
};

}  // namespace edihub::edifact
