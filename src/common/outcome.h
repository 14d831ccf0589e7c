// What happened to a received thing: one type from the gate through the
// interchange result, the HTTP answer, the `messages` row and the log line.
// The words are what operators see (design: `messages`).
#pragma once

#include <optional>
#include <string_view>

namespace edihub {

enum class Outcome {
  Processed,  // the handling ran and committed (its receipt may still be negative for an interchange)
  Duplicate,  // seen before with the same content: nothing ran, the stored receipt answers
  Conflict,   // same id, different content: nothing ran, the original stays
  Rejected,   // refused: bad message, unknown sender, failed security; negative receipt
  Poison,     // failed too often: the stored negative receipt, nothing ran
  InFlight,   // another worker still handles it: answered transiently
  Error,      // the gateway could not decide (store trouble, over capacity): retry later
  Archived,   // a payload that is not EDI: stored for the operator, receipted, not handled
};

// "processed", "duplicate", "conflict", "rejected", "poison", "in-flight", "error", "archived".
std::string_view outcome_name(Outcome o);
std::optional<Outcome> outcome_from(std::string_view name);

// Whether the sender should send again later (nothing was decided).
inline bool is_transient(Outcome o) { return o == Outcome::InFlight || o == Outcome::Error; }
// Whether the outcome is a problem for the operator (exit status 1 of replay).
inline bool is_problem(Outcome o) {
  return o == Outcome::Rejected || o == Outcome::Conflict || o == Outcome::Poison || is_transient(o);
}

}  // namespace edihub
