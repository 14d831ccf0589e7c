#include "src/config/partners.h"

#include <pugixml.hpp>

#include <algorithm>
#include <filesystem>

namespace edihub::config {

namespace {

bool matches(const edi::Party& configured, const edi::Party& actual, bool qualifier_optional) {
  if (configured.id != actual.id) return false;
  if (qualifier_optional && configured.qualifier.empty()) return true;
  return configured.qualifier == actual.qualifier;
}

Result<Partner> read_partner(const std::filesystem::path& file) {
  pugi::xml_document doc;
  // No DTDs or entities: partner files are configuration, but keep the parser strict.
  pugi::xml_parse_result parsed = doc.load_file(file.c_str(), pugi::parse_default & ~pugi::parse_doctype);
  const std::string name = file.string();
  if (!parsed)
    return Status::invalid(name + ": XML error at byte " + std::to_string(parsed.offset) + ": " +
                           parsed.description());
  pugi::xml_node root = doc.child("partner");
  if (!root) return Status::invalid(name + ": the root element must be <partner id=\"...\">");
  Partner p;
  p.file = name;
  p.id = root.attribute("id").as_string();
  if (p.id.empty()) return Status::invalid(name + ": <partner> needs an id attribute");
  p.name = root.child_value("name");
  for (pugi::xml_node x : root.children("x12")) {
    edi::Party party{x.attribute("id").as_string(), x.attribute("qualifier").as_string()};
    if (party.id.empty() || party.qualifier.empty())
      return Status::invalid(name + ": <x12> needs qualifier and id attributes");
    p.x12_ids.push_back(party);
  }
  for (pugi::xml_node e : root.children("edifact")) {
    edi::Party party{e.attribute("id").as_string(), e.attribute("qualifier").as_string()};
    if (party.id.empty()) return Status::invalid(name + ": <edifact> needs an id attribute");
    p.edifact_ids.push_back(party);
  }
  if (pugi::xml_node r = root.child("retention")) {
    p.retention_days = r.attribute("days").as_int(-1);
    if (p.retention_days < 0)
      return Status::invalid(name + ": <retention days=\"N\"/> needs a number of days >= 0");
  }
  return p;
}

}  // namespace

Result<Partners> Partners::load(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    return Status::invalid("partners directory '" + dir + "' does not exist");
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".xml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  Partners out;
  for (const auto& f : files) {
    Result<Partner> p = read_partner(f);
    if (!p.is_ok()) return p.status();
    if (out.find(p->id) != nullptr)
      return Status::invalid(f.string() + ": partner id '" + p->id + "' is already defined");
    for (const auto& other : out.partners_) {
      for (const auto& id : p->x12_ids)
        for (const auto& theirs : other.x12_ids)
          if (matches(theirs, id, false))
            return Status::invalid(f.string() + ": X12 id " + id.qualifier + ":" + id.id +
                                   " also belongs to partner '" + other.id + "'");
      for (const auto& id : p->edifact_ids)
        for (const auto& theirs : other.edifact_ids)
          if (theirs.id == id.id && (theirs.qualifier == id.qualifier || theirs.qualifier.empty() ||
                                     id.qualifier.empty()))
            return Status::invalid(f.string() + ": EDIFACT id " + id.id + " also belongs to partner '" +
                                   other.id + "'");
    }
    out.partners_.push_back(std::move(p.value()));
  }
  return out;
}

const Partner* Partners::find(const std::string& id) const {
  for (const auto& p : partners_)
    if (p.id == id) return &p;
  return nullptr;
}

const Partner* Partners::sender_of(const edi::Interchange& ic) const {
  for (const auto& p : partners_) {
    const auto& ids = ic.standard == edi::Standard::X12 ? p.x12_ids : p.edifact_ids;
    for (const auto& id : ids)
      if (matches(id, ic.sender, ic.standard == edi::Standard::Edifact)) return &p;
  }
  return nullptr;
}

std::string sender_text(const edi::Interchange& ic) {
  if (ic.standard == edi::Standard::X12) return ic.sender.qualifier + ":" + ic.sender.id;
  return ic.sender.qualifier.empty() ? ic.sender.id : ic.sender.id + ":" + ic.sender.qualifier;
}

}  // namespace edihub::config
