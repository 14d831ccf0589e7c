// Partner profiles: one XML file per partner in the partners directory.
//
//   <partner id="acme">
//     <name>ACME Supply</name>
//     <x12 qualifier="ZZ" id="ACMESUPPLY"/>          (repeatable)
//     <edifact id="5412345000013" qualifier="14"/>   (repeatable; qualifier optional)
//     <retention days="30"/>
//   </partner>
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "parsers/edi/interchange.h"
#include "src/common/status.h"

namespace edihub::config {

struct Partner {
  std::string id;
  std::string name;
  std::vector<edi::Party> x12_ids;      // qualifier + id (ISA05/06)
  std::vector<edi::Party> edifact_ids;  // id + qualifier (UNB 0004/0007); empty qualifier matches any
  int retention_days = 30;
  std::string file;  // where it was read from
};

class Partners {
 public:
  // Reads every *.xml in `dir`. Invalid when a file is malformed, an id is
  // missing or an interchange sender id belongs to two partners.
  static Result<Partners> load(const std::string& dir);

  const std::vector<Partner>& all() const { return partners_; }
  const Partner* find(const std::string& id) const;
  // The partner owning the interchange's sender id, or null.
  const Partner* sender_of(const edi::Interchange& ic) const;

 private:
  std::vector<Partner> partners_;
};

// "ZZ:ACMESUPPLY" / "5412345000013:14": the sender id as an operator reads it.
std::string sender_text(const edi::Interchange& ic);

}  // namespace edihub::config
