#include "src/gate/receipt_policy.h"

#include <ctime>

#include "parsers/edifact/contrl.h"
#include "parsers/x12/acks.h"

namespace edihub::gate {

namespace {

struct Row {
  Failure failure;
  std::string_view modifier;  // AS2, and the prefix unwrap stages put on a Status message
  std::string_view ebms;
};

constexpr Row kRows[] = {
    {Failure::DecryptionFailed, "decryption-failed", "EBMS:0102"},
    {Failure::AuthenticationFailed, "authentication-failed", "EBMS:0101"},
    {Failure::IntegrityCheckFailed, "integrity-check-failed", "EBMS:0101"},
    {Failure::DecompressionFailed, "decompression-failed", "EBMS:0303"},
    {Failure::InsufficientSecurity, "insufficient-message-security", "EBMS:0103"},
    {Failure::Malformed, "unexpected-processing-error", "EBMS:0009"},
    {Failure::NotEdi, "unexpected-processing-error", "EBMS:0004"},
    {Failure::Configuration, "unexpected-processing-error", "EBMS:0004"},
};

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

}  // namespace

Failure failure_from(std::string_view message) {
  for (const Row& r : kRows)
    if (r.failure != Failure::Malformed && message.substr(0, r.modifier.size()) == r.modifier &&
        r.modifier != "unexpected-processing-error")
      return r.failure;
  return Failure::Malformed;
}

std::string_view as2_modifier(Failure f) {
  for (const Row& r : kRows)
    if (r.failure == f) return r.modifier;
  return "unexpected-processing-error";
}

std::string_view ebms_code(Failure f) {
  for (const Row& r : kRows)
    if (r.failure == f) return r.ebms;
  return "EBMS:0004";
}

int http_status(Outcome outcome, bool as4_error) {
  if (is_transient(outcome)) return 503;
  return as4_error ? 500 : 200;
}

std::string acknowledgment(const edi::Interchange& ic, int64_t number, bool duplicate) {
  if (ic.standard == edi::Standard::X12) {
    x12::AckEnvelope env{pad9(number), std::to_string(number), utc("%Y%m%d"), utc("%H%M"), "\n"};
    if (duplicate) return x12::build_ta1(ic, x12::ta1_duplicate(), env);
    if (ic.has_interchange_errors()) return x12::build_ta1(ic, x12::ta1_for(ic), env);
    return ic.version >= "00501" ? x12::build_999(ic, env) : x12::build_997(ic, env);
  }
  edifact::ContrlEnvelope env{std::to_string(number), "1", utc(ic.version == "4" ? "%Y%m%d" : "%y%m%d"),
                              utc("%H%M"), "\n"};
  return edifact::build_contrl(ic, env, duplicate);
}

}  // namespace edihub::gate
