// Files written by other projects (../shared/corpus, copied from staedi) and
// our hand-made samples: envelope results an operator would expect.
#include <doctest/doctest.h>

#include "parsers/edi/parser.h"
#include "tests/unit/test_util.h"

using namespace edihub;

namespace {

struct Expect {
  const char* file;
  size_t interchanges;
  size_t messages;  // in all interchanges
  const char* codes;
};

void check(const std::string& path, const Expect& e) {
  CAPTURE(path);
  std::string bytes = test::read_file(path);
  REQUIRE_FALSE(bytes.empty());
  auto r = edi::parse(bytes);
  CHECK(r.interchanges.size() == e.interchanges);
  size_t messages = 0;
  for (const auto& ic : r.interchanges) messages += ic.message_count;
  CHECK(messages == e.messages);
  CHECK(test::codes(r) == e.codes);
}

}  // namespace

TEST_CASE("independent corpus (staedi test files)") {
  const std::string dir = test::source_path("tests/corpus/staedi/");
  const Expect expects[] = {
      {"EDIFACT_empty-segment-example.edi", 1, 1, "UNB_SYNTAX"},  // IATA syntax, not UNOx
      {"EDIFACT_invoic_d93a_una.edi", 1, 1, ""},
      {"EDIFACT_invoic_d97b.edi", 1, 1, ""},
      {"EDIFACT_invoic_d97b_bad.edi", 1, 1, ""},  // broken in content, not in its envelope
      {"EDIFACT_invoic_d97b_una.edi", 1, 1, ""},
      {"EDIFACT_issue128_wrapped_invoic_d97b.edi", 1, 1, ""},
      {"EDIFACT_issue128_wrapped_invoic_d97b_una.edi", 1, 1, ""},
      {"EDIFACT_orders-with-group.edi", 1, 1, "UNT0074_COUNT"},  // UNT says 21, 18 segments
      {"x12_extraDelimiter997.edi", 1, 1, ""},
      {"x12_invoice810_po850_dual.edi", 1, 3, ""},
      {"x12_issue109_ts214_ellipses_segterm.edi", 1, 1, ""},  // U+2026 as terminator
      {"x12_issue128_ts210_80char.edi", 1, 1, ""},
      {"x12_optionalInterchangeServices.edi", 1, 1, ""},
      {"x12_simple810.edi", 1, 2, ""},
      {"x12_simple997-multiple-interchanges.edi", 3, 3, ""},
      {"x12_simple999.edi", 1, 1, ""},
  };
  for (const auto& e : expects) check(dir + e.file, e);
}

TEST_CASE("hand-made samples") {
  const std::string dir = test::source_path("samples/edi/");
  const Expect expects[] = {
      {"x12-856-004010.edi", 1, 1, ""},
      {"x12-856-005010.edi", 1, 2, ""},
      {"x12-810-004010.edi", 1, 1, ""},
      {"x12-810-005010.edi", 1, 1, ""},
      {"edifact-desadv-d96a-una.edi", 1, 1, ""},
      {"edifact-invoic-d96a.edi", 1, 2, ""},
      {"edifact-desadv-d96a-groups.edi", 1, 2, ""},
      {"edifact-syntax4.edi", 1, 1, ""},
      {"two-interchanges.edi", 2, 2, ""},
      {"broken-x12-se-count.edi", 1, 1, "SE01_COUNT"},
      {"broken-x12-iea-control.edi", 1, 1, "IEA02_CONTROL"},
      {"broken-x12-ge-count.edi", 1, 1, "GE01_COUNT"},
      {"broken-x12-truncated.edi", 1, 1, "TRUNCATED,SE_MISSING,GE_MISSING"},
      {"broken-x12-isa-short.edi", 1, 1, "ISA_LENGTH"},
      {"broken-edifact-unt-count.edi", 1, 1, "UNT0074_COUNT"},
      {"broken-edifact-unz-ref.edi", 1, 1, "UNZ0020_CONTROL"},
      {"broken-edifact-truncated.edi", 1, 1, "TRUNCATED,UNT_MISSING"},
      {"broken-edifact-unt-ref.edi", 1, 1, "UNT0062_REFERENCE"},
  };
  for (const auto& e : expects) check(dir + e.file, e);
}
