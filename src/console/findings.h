// The errors an acknowledgment names, one row per segment and element, for
// the console's interchange view: read back from the 997/999/CONTRL edihub
// stored (AK3/AK4, IK3/IK4, UCS/UCD), in the texts `edihub inspect
// --validate` prints.
#pragma once

#include <string>
#include <vector>

#include "src/store/key.h"

namespace edihub::console {

struct FindingRow {
  std::string segment;  // "DTM at segment 14" / "segment 4" (a CONTRL names no tag)
  std::string loop;     // the loop id, may be empty
  std::string what;     // "invalid date (code 8)" / "0085 13"
  std::string element;  // "DTM02 (373) '20240230'", empty for a segment error
};

// The findings in `receipt` (an acknowledgment's bytes); empty when it names none.
std::vector<FindingRow> acknowledged_findings(const store::Receipt& receipt);

}  // namespace edihub::console
