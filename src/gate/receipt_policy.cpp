#include "src/gate/receipt_policy.h"

#include <algorithm>
#include <ctime>

#include "parsers/edifact/aperak.h"
#include "parsers/edifact/contrl.h"
#include "parsers/x12/acks.h"

namespace edihub::gate {

namespace {

std::string utc(const char* format) {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

std::string pad9(int64_t n) {
  std::string s = std::to_string(n % 1000000000);
  return std::string(9 - s.size(), '0') + s;
}

x12::AckEnvelope x12_envelope(int64_t number, const AckParties& parties) {
  return {pad9(number), std::to_string(number), utc("%Y%m%d"), utc("%H%M"), "\n", parties.sender, parties.recipient};
}

}  // namespace

Failure failure_of(Code code) {
  switch (code) {
    case Code::DecryptionFailed:
      return Failure::DecryptionFailed;
    case Code::AuthenticationFailed:
      return Failure::AuthenticationFailed;
    case Code::IntegrityCheckFailed:
      return Failure::IntegrityCheckFailed;
    case Code::DecompressionFailed:
      return Failure::DecompressionFailed;
    default:
      return Failure::Malformed;
  }
}

std::string_view acknowledgment_kind(const edi::Interchange& ic, bool duplicate,
                                     const config::Partner::Acknowledgments* policy) {
  using X12 = config::Partner::Acknowledgments::X12;
  if (ic.standard == edi::Standard::Edifact) return "contrl";
  if (duplicate || ic.has_interchange_errors()) return "ta1";
  if (policy != nullptr && policy->x12 == X12::Ack997) return "997";
  if (policy != nullptr && policy->x12 == X12::Ack999) return "999";
  return ic.version >= "00501" ? "999" : "997";
}

std::string acknowledgment(const edi::Interchange& ic, int64_t number, bool duplicate,
                           const config::Partner::Acknowledgments* policy, const AckParties& parties) {
  const std::string_view kind = acknowledgment_kind(ic, duplicate, policy);
  if (kind == "contrl") {
    edifact::ContrlEnvelope env{
        std::to_string(number), "1", utc(ic.version == "4" ? "%Y%m%d" : "%y%m%d"), utc("%H%M"), "\n", parties.sender,
        parties.recipient};
    if (wants_aperak(ic, policy)) {
      // The application errors go in the APERAK: the CONTRL speaks of syntax alone.
      edi::Interchange syntax_only = ic;
      auto& errors = syntax_only.errors;
      errors.erase(
          std::remove_if(errors.begin(), errors.end(),
                         [](const edi::EnvelopeError& e) { return e.code == edi::ErrorCode::ApplicationRejected; }),
          errors.end());
      return edifact::build_contrl(syntax_only, env, duplicate);
    }
    return edifact::build_contrl(ic, env, duplicate);
  }
  const x12::AckEnvelope env = x12_envelope(number, parties);
  if (kind == "ta1") return x12::build_ta1(ic, duplicate ? x12::ta1_duplicate() : x12::ta1_for(ic), env);
  return kind == "999" ? x12::build_999(ic, env) : x12::build_997(ic, env);
}

bool wants_aperak(const edi::Interchange& ic, const config::Partner::Acknowledgments* policy) {
  return policy != nullptr && policy->aperak == config::Partner::Acknowledgments::Aperak::Errors &&
         ic.standard == edi::Standard::Edifact;
}

std::string aperak_acknowledgment(const edi::Interchange& ic, int64_t number, const AckParties& parties) {
  edifact::AperakEnvelope env{std::to_string(number),
                              utc(ic.version == "4" ? "%Y%m%d" : "%y%m%d"),
                              utc("%H%M"),
                              utc("%Y%m%d%H%M"),
                              "\n",
                              parties.sender,
                              parties.recipient};
  return edifact::build_aperak(ic, env);
}

std::string ta1_acknowledgment(const edi::Interchange& ic, int64_t number, const AckParties& parties) {
  return x12::build_ta1(ic, x12::ta1_for(ic), x12_envelope(number, parties));
}

AckPlan ack_plan(const edi::Interchange& ic, std::string_view stored_kind,
                 const config::Partner::Acknowledgments& policy) {
  using Acks = config::Partner::Acknowledgments;
  AckPlan plan;
  if (policy.via == Acks::Via::None) return plan;
  if (stored_kind == "contrl") {
    plan.send_stored =
        policy.contrl == Acks::Contrl::Always || (policy.contrl == Acks::Contrl::Requested && ic.ack_requested);
  } else if (stored_kind == "ta1") {
    plan.send_stored = policy.ta1 != Acks::Ta1::Never;
  } else {
    plan.send_stored = policy.x12 != Acks::X12::None;
    plan.send_ta1_accepted = policy.ta1 == Acks::Ta1::Requested && ic.ack_requested;
  }
  return plan;
}

}  // namespace edihub::gate
