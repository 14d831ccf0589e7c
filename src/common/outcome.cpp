#include "src/common/outcome.h"

namespace edihub {

namespace {
constexpr std::pair<Outcome, std::string_view> kNames[] = {
    {Outcome::Processed, "processed"}, {Outcome::Duplicate, "duplicate"}, {Outcome::Conflict, "conflict"},
    {Outcome::Rejected, "rejected"},   {Outcome::Poison, "poison"},       {Outcome::InFlight, "in-flight"},
    {Outcome::Error, "error"},         {Outcome::Archived, "archived"},
};
}  // namespace

std::string_view outcome_name(Outcome o) {
  for (const auto& [value, name] : kNames)
    if (value == o) return name;
  return "error";
}

std::optional<Outcome> outcome_from(std::string_view name) {
  for (const auto& [value, n] : kNames)
    if (n == name) return value;
  return std::nullopt;
}

}  // namespace edihub
