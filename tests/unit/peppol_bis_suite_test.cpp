// The Peppol BIS Billing 3.0 and EN 16931 suites (tests/corpus/peppol-bis,
// copied unchanged from OpenPeppol and the European Commission): every
// document they publish as valid is accepted (one breaks EN 16931 itself,
// named below), and no rule the suites' rule
// unit tests say holds on a document refuses it. A false rejection loses a
// partner's invoice; a rule edihub does not check only loses a warning.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <pugixml.hpp>

#include "parsers/ubl/ubl.h"
#include "tests/unit/test_util.h"

using namespace edihub;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> xml_files(const std::string& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(test::source_path(dir)))
    if (entry.is_regular_file() && entry.path().extension() == ".xml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string fatal_rules(const std::vector<ubl::Finding>& findings) {
  std::string out;
  for (const ubl::Finding& f : findings)
    if (f.severity != ubl::Severity::Warning) out += " " + f.rule + " (" + f.path + ": " + f.text + ")";
  return out;
}

bool is_invoice_root(const pugi::xml_node& root) {
  const std::string name = root.name();
  const std::string local = name.substr(name.find(':') == std::string::npos ? 0 : name.find(':') + 1);
  return local == "Invoice" || local == "CreditNote";
}

}  // namespace

TEST_CASE("Peppol BIS suites: every example, national example and snippet is accepted") {
  std::string refused;
  size_t read = 0;
  for (const char* dir :
       {"tests/corpus/peppol-bis/openpeppol/examples", "tests/corpus/peppol-bis/openpeppol/national-examples",
        "tests/corpus/peppol-bis/openpeppol/snippets"}) {
    for (const fs::path& file : xml_files(dir)) {
      const std::string bytes = test::read_file(file.string());
      pugi::xml_document probe;
      probe.load_string(bytes.c_str());
      // sales-order-example.xml is an Order: not a billing document.
      if (!is_invoice_root(probe.document_element())) continue;
      ubl::Invoice inv;
      if (const ubl::Error e = ubl::parse_invoice(bytes, &inv)) {
        refused += file.filename().string() + ": " + std::string(ubl::code_name(e.code)) + " " + e.text + "\n";
        continue;
      }
      ++read;
      const std::vector<ubl::Finding> findings = ubl::validate(inv);
      if (ubl::rejects(findings)) refused += file.filename().string() + ":" + fatal_rules(findings) + "\n";
    }
  }
  CHECK(read == 27);
  // One published example breaks EN 16931 itself: the Greek tax
  // representative example gives its seller no cac:PartyLegalEntity, and
  // BR-06 (normalize-space(cac:AccountingSupplierParty/cac:Party/
  // cac:PartyLegalEntity/cbc:RegistrationName) != '', CEN-EN16931-UBL.sch)
  // fires on it under the official Schematron too.
  CHECK(refused ==
        "GR-base-example-TaxRepresentative.xml: BR-06 (/Invoice/cac:AccountingSupplierParty/cac:Party/"
        "cac:PartyLegalEntity/cbc:RegistrationName: the seller's name (cac:PartyLegalEntity/cbc:RegistrationName) is "
        "missing)\n");
}

// Each VEFA test set's <test> holds a document and the rules that must hold
// (<success>) or fire (<error>, <warning>) on it. The documents are fragments
// (only what the rule needs), so edihub's other rules fire on them; a rule
// the suite says holds must not.
TEST_CASE("EN 16931 and Peppol rule unit tests: no rule the suite says holds refuses the document") {
  std::string wrong;
  size_t tests = 0, holds = 0, named = 0, must_fire = 0;
  for (const char* dir : {"tests/corpus/peppol-bis/openpeppol", "tests/corpus/peppol-bis/cen"}) {
    for (const fs::path& file : xml_files(dir)) {
      pugi::xml_document set;
      if (!set.load_file(file.c_str())) continue;
      if (std::string(set.document_element().name()) != "testSet") continue;  // examples, snippets
      size_t index = 0;
      for (pugi::xml_node test : set.document_element().children("test")) {
        ++index;
        pugi::xml_node doc;
        for (pugi::xml_node child : test.children())
          if (child.type() == pugi::node_element && is_invoice_root(child)) doc = child;
        if (!doc) continue;
        ++tests;
        std::ostringstream xml;
        doc.print(xml, "", pugi::format_raw);
        ubl::Invoice inv;
        if (ubl::parse_invoice(xml.str(), &inv)) continue;  // not a document edihub reads
        std::map<std::string, std::string> fatal;
        std::set<std::string> all;
        for (const ubl::Finding& f : ubl::validate(inv)) {
          all.insert(f.rule);
          if (f.severity != ubl::Severity::Warning) fatal[f.rule] = f.path + ": " + f.text;
        }
        for (pugi::xml_node a : test.child("assert").children()) {
          const std::string rule = a.text().get();
          if (std::string(a.name()) == "success") {
            ++holds;
            if (fatal.count(rule))
              wrong += file.filename().string() + " test " + std::to_string(index) + ": " + rule +
                       " holds, edihub said " + fatal[rule] + "\n";
          } else if (std::string(a.name()) == "error" || std::string(a.name()) == "warning") {
            ++must_fire;
            named += all.count(rule);
          }
        }
      }
    }
  }
  MESSAGE(tests << " rule unit tests; " << holds << " rules that hold, " << must_fire
                << " that must fire, of which edihub names " << named);
  CHECK(tests > 800);
  CHECK(wrong == "");
}
