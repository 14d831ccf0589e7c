// libFuzzer target for the Peppol envelope and the UBL documents it carries:
// any bytes to parse_sbd; its payload (and the bytes themselves, which reach
// the UBL reader faster without an envelope) to the UBL reader, the rules
// and the business mapping. Never a crash; traps on a broken invariant.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/peppol/sbdh.h"
#include "parsers/ubl/ubl.h"
#include "src/business/registry.h"
#include "src/business/ubl_documents.h"

namespace {

using namespace edihub;

bool has_rule(const std::vector<ubl::Finding>& findings, std::string_view rule) {
  for (const ubl::Finding& f : findings)
    if (f.rule == rule) return true;
  return false;
}

void check_document(const business::ReadDocument& r, const std::string& number) {
  if (!r.handled) __builtin_trap();
  if (!r.error.empty()) return;
  const business::Document& d = r.document;
  if (d.type == nullptr || d.number != number || d.fields.size() != d.type->fields.size()) __builtin_trap();
  for (const auto& line : d.lines)
    if (line.size() != d.type->line_fields.size()) __builtin_trap();
}

void check_invoice(const ubl::Invoice& inv) {
  const std::vector<ubl::Finding> findings = ubl::validate(inv);
  // A document without its number always says so.
  if (inv.id.empty() && !has_rule(findings, "BR-02")) __builtin_trap();
  if (ubl::validate(inv) != findings) __builtin_trap();  // the rules are a function of the model
  const business::ReadDocument r = business::read_document(inv);
  check_document(r, inv.id);
  // What the rules accept, the booking can represent.
  if (!ubl::rejects(findings) && !r.error.empty()) __builtin_trap();
}

void check_despatch_advice(const ubl::DespatchAdvice& da) {
  const std::vector<ubl::Finding> findings = ubl::validate(da);
  if (da.id.empty() && !has_rule(findings, "PEPPOL-T16-B00103")) __builtin_trap();
  const business::ReadDocument r = business::read_document(da);
  check_document(r, da.id);
  if (!ubl::rejects(findings) && !r.error.empty()) __builtin_trap();
}

// Returns the UBL error code the bytes give (None when read).
ubl::ErrorCode check_ubl(std::string_view xml) {
  ubl::Invoice inv;
  const ubl::Error e = ubl::parse_invoice(xml, &inv);
  if (!e) {
    check_invoice(inv);
    ubl::DespatchAdvice da;
    if (ubl::parse_despatch_advice(xml, &da).code != ubl::ErrorCode::WrongDocument) __builtin_trap();
    return e.code;
  }
  if (e.code != ubl::ErrorCode::WrongDocument) return e.code;
  ubl::DespatchAdvice da;
  const ubl::Error d = ubl::parse_despatch_advice(xml, &da);
  if (!d) check_despatch_advice(da);
  return d.code;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  peppol::Sbd sbd;
  if (!peppol::parse_sbd(input, &sbd)) {
    const peppol::Payload& p = sbd.payload;
    if (p.offset > size || p.length > size - p.offset || p.length < p.qualified_name.size() + 2) __builtin_trap();
    const std::string_view bytes = peppol::payload_bytes(input, sbd);
    if (bytes.size() != p.length || bytes.substr(1, p.qualified_name.size()) != p.qualified_name) __builtin_trap();
    if (bytes.front() != '<' || bytes.back() != '>') __builtin_trap();
    if (sbd.document.standard != p.namespace_uri || sbd.document.type != p.local_name) __builtin_trap();
    if (sbd.document.instance_identifier.empty() || sbd.document.instance_identifier.size() > 200) __builtin_trap();
    const std::string standalone = peppol::standalone_payload(input, sbd);
    if (standalone.size() < bytes.size()) __builtin_trap();
    // The copy is a document of its own: only a bound (the added declarations) may refuse it.
    ubl::Invoice inv;
    const ubl::Error e = ubl::parse_invoice(standalone, &inv);
    if (e.code == ubl::ErrorCode::Xml && e.text.rfind("the UBL document is not well-formed", 0) == 0) __builtin_trap();
    check_ubl(standalone);
  }
  check_ubl(input);
  return 0;
}
