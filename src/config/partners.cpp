#include "src/config/partners.h"

#include <pugixml.hpp>

#include <algorithm>
#include <cctype>
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
  const std::filesystem::path dir = file.parent_path();
  auto resolve = [&](const std::string& f) { return (dir / f).lexically_normal().string(); };
  for (pugi::xml_node a : root.children("as2")) {
    std::string id = a.attribute("id").as_string();
    if (id.empty() || id.size() > 128) return Status::invalid(name + ": <as2> needs an id of 1-128 characters");
    p.as2_ids.push_back(id);
  }
  for (pugi::xml_node a : root.children("as4")) {
    std::string id = a.attribute("party-id").as_string();
    if (id.empty() || id.size() > 256) return Status::invalid(name + ": <as4> needs a party-id of 1-256 characters");
    p.as4_parties.emplace_back(id, a.attribute("type").as_string());
  }
  for (pugi::xml_node c : root.children("certificate")) {
    std::string use = c.attribute("use").as_string(), f = c.attribute("file").as_string();
    if (f.empty()) return Status::invalid(name + ": <certificate> needs a file attribute");
    if (use == "signing") {
      p.signing_certificates.push_back(resolve(f));
    } else if (use == "encryption") {
      if (!p.encryption_certificate.empty())
        return Status::invalid(name + ": only one <certificate use=\"encryption\">");
      p.encryption_certificate = resolve(f);
    } else {
      return Status::invalid(name + ": <certificate use> must be signing or encryption, not '" + use + "'");
    }
  }
  if (pugi::xml_node sec = root.child("security")) {
    p.require_signature = sec.attribute("require-signature").as_bool(true);
    p.require_encryption = sec.attribute("require-encryption").as_bool(false);
  }
  for (pugi::xml_node m : root.children("mdn")) {
    std::string prefix = m.attribute("async-url-allow").as_string();
    if (prefix.rfind("https://", 0) != 0 && prefix.rfind("http://", 0) != 0)
      return Status::invalid(name + ": <mdn async-url-allow> must be an http(s) URL prefix, not '" + prefix + "'");
    p.async_mdn_prefixes.push_back(prefix);
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
    for (const auto& other : out.partners_)
      for (const auto& id : p->as2_ids)
        for (const auto& theirs : other.as2_ids)
          if (id == theirs)
            return Status::invalid(f.string() + ": AS2 id '" + id + "' also belongs to partner '" + other.id + "'");
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

const Partner* Partners::as2_sender(const std::string& as2_from) const {
  for (const auto& p : partners_)
    for (const auto& id : p.as2_ids)
      if (id == as2_from) return &p;
  return nullptr;
}

const Partner* Partners::as4_sender(const std::string& party_id, const std::string& type) const {
  for (const auto& p : partners_)
    for (const auto& [id, t] : p.as4_parties)
      if (id == party_id && (t.empty() || t == type)) return &p;
  return nullptr;
}

bool Partner::allows_async_mdn(const std::string& url) const {
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  // Scheme and host are case-insensitive; the path is not.
  auto split = [&](const std::string& u) {
    size_t host_end = u.find('/', u.find("://") == std::string::npos ? 0 : u.find("://") + 3);
    if (host_end == std::string::npos) host_end = u.size();
    return lower(u.substr(0, host_end)) + u.substr(host_end);
  };
  const std::string candidate = split(url);
  for (const auto& prefix : async_mdn_prefixes) {
    const std::string p = split(prefix);
    if (candidate.compare(0, p.size(), p) != 0) continue;
    // A prefix with a path matches by prefix. One that ends in the authority
    // must not match a longer host (https://partner.example vs
    // https://partner.example.evil.com); "host:" allows any port.
    const size_t scheme_end = p.find("://") == std::string::npos ? 0 : p.find("://") + 3;
    if (p.find('/', scheme_end) != std::string::npos) return true;
    size_t i = p.size();
    if (p.back() == ':')
      while (i < candidate.size() && std::isdigit(static_cast<unsigned char>(candidate[i]))) ++i;
    if (i == candidate.size() || candidate[i] == '/' || candidate[i] == '?') return true;
  }
  return false;
}

std::string sender_text(const edi::Interchange& ic) {
  if (ic.standard == edi::Standard::X12) return ic.sender.qualifier + ":" + ic.sender.id;
  return ic.sender.qualifier.empty() ? ic.sender.id : ic.sender.id + ":" + ic.sender.qualifier;
}

}  // namespace edihub::config
