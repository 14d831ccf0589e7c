// Builds the X12 envelope model (ISA/GS/ST ... SE/GE/IEA) from segments and
// checks its counts and control numbers.
#pragma once

#include <cstdint>

#include "parsers/edi/assembler.h"
#include "parsers/x12/isa.h"

namespace edihub::x12 {

class EnvelopeBuilder {
 public:
  EnvelopeBuilder(bool keep_messages, edi::MessageObserver* observer) : a_(keep_messages, observer) {}

  enum class Step {
    Continue,  // more segments belong to this interchange
    Complete,  // the IEA closed it: take() it
    Restart,   // this segment (an ISA) starts the next interchange: take() this
               // one, then read the segment again as an interchange start
  };

  // Starts an interchange. `isa` is segment number `number` at `offset`.
  void start(const IsaHeader& isa, uint64_t offset, uint64_t number);
  Step on_segment(const edi::Segment& s, uint64_t number);
  // True when plain content segments may be counted with on_plain().
  bool in_message() const { return a_.in_message(); }
  // `n` content segments of the open message, the last ending at `end`.
  void on_plain(uint64_t n, uint64_t end) {
    a_.count_plain(n);
    last_end_ = end;
  }
  // The input ended before IEA; `end` is the offset after the last byte.
  void truncate(const edi::Segment& last, uint64_t number, uint64_t end);
  edi::Interchange take() { return a_.take(); }

 private:
  using Scope = edi::Assembler::Scope;

  void on_gs(const edi::Segment& s, uint64_t number);
  void on_st(const edi::Segment& s, uint64_t number);
  void on_se(const edi::Segment& s, uint64_t number);
  void on_ge(const edi::Segment& s, uint64_t number);
  void on_iea(const edi::Segment& s, uint64_t number);
  void on_body(const edi::Segment& s, uint64_t number);
  // Closes what is open when a segment of an outer level arrives early.
  void close_message_missing_se(const edi::Segment& at, uint64_t number);
  void close_group_missing_ge(const edi::Segment& at, uint64_t number);
  void check_isa(const IsaHeader& isa, const edi::Segment& at, uint64_t number);

  edi::Assembler a_;
  edi::Delimiters d_;
  uint64_t last_end_ = 0;  // offset after the last segment seen
};

}  // namespace edihub::x12
