#include "src/config/partners.h"

#include "src/common/cidr.h"
#include "src/common/files.h"
#include "src/documents/definition.h"
#include "src/crypto/cms.h"
#include "src/crypto/password.h"

#include <curl/curl.h>
#include <fcntl.h>
#include <unistd.h>
#include <pugixml.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>

namespace edihub::config {

namespace {

constexpr size_t kMaxProfileBytes = 16 << 20;
constexpr size_t kMaxGuideBytes = 4 << 20;

bool matches(const edi::Party& configured, const edi::Party& actual, bool qualifier_optional) {
  if (configured.id != actual.id) return false;
  if (qualifier_optional && configured.qualifier.empty()) return true;
  return configured.qualifier == actual.qualifier;
}

// --- Async-MDN URLs -------------------------------------------------------
// A Receipt-Delivery-Option URL makes this gateway POST to wherever it points,
// so the allow-list compares URLs as the HTTP client will use them: parsed by
// libcurl (the client of the outbox), dot segments resolved, percent-encoding
// normalised first so that %2e%2e cannot hide a "..".

// An http(s) URL reduced to what the allow-list compares.
struct MdnUrl {
  std::string scheme, host, port;  // lower case; port made explicit (80/443)
  std::string path;                // "/" at least, dot segments resolved
  bool any_port = false;           // prefix "http://host:" (empty port): the demo profile's form
};

bool unreserved(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' || c == '~';
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// RFC 3986 6.2.2: %XX of an unreserved character becomes the character, the
// hex of the others upper case. False on a '%' without two hex digits.
bool normalise_percent(const std::string& in, std::string* out) {
  out->clear();
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      out->push_back(in[i]);
      continue;
    }
    if (i + 2 >= in.size() || !std::isxdigit(static_cast<unsigned char>(in[i + 1])) ||
        !std::isxdigit(static_cast<unsigned char>(in[i + 2])))
      return false;
    const char c = static_cast<char>(std::stoi(in.substr(i + 1, 2), nullptr, 16));
    if (unreserved(c)) {
      out->push_back(c);
    } else {
      out->push_back('%');
      out->push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(in[i + 1]))));
      out->push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(in[i + 2]))));
    }
    i += 2;
  }
  return true;
}

// Checks on the raw text that libcurl would be lenient about: it accepts
// "http:/host" and "http:///host", keeps a backslash in the path as a path
// character (some servers read it as '/'), and passes non-ASCII bytes.
Status check_url_text(const std::string& url) {
  for (char c : url) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f) return Status::invalid("control character, space or non-ASCII byte in the URL");
    if (c == '\\') return Status::invalid("backslash in the URL");
  }
  const std::string head = lower(url.substr(0, 8));
  const size_t slashes = head.rfind("https://", 0) == 0 ? 8 : head.rfind("http://", 0) == 0 ? 7 : 0;
  if (slashes == 0) return Status::invalid("the scheme must be http:// or https://");
  if (url.size() == slashes || url[slashes] == '/') return Status::invalid("no host after the scheme");
  return Status::ok();
}

// True when the authority of `url` (already checked) ends in ':' (no port digits).
bool empty_port(const std::string& url) {
  const size_t start = url.find("://") + 3;
  const size_t end = url.find_first_of("/?#", start);
  const std::string authority = url.substr(start, end == std::string::npos ? std::string::npos : end - start);
  return !authority.empty() && authority.back() == ':';
}

using CurlUrl = std::unique_ptr<CURLU, decltype(&curl_url_cleanup)>;

// One part of a parsed URL, or nullopt when it is absent.
std::optional<std::string> url_part(const CurlUrl& h, CURLUPart part, unsigned int flags = 0) {
  char* value = nullptr;
  if (curl_url_get(h.get(), part, &value, flags) != CURLUE_OK) return std::nullopt;
  std::string s(value);
  curl_free(value);
  return s;
}

// `url` as the allow-list compares it. A prefix may not carry a query; the
// error texts say what is wrong without repeating the URL.
Result<MdnUrl> parse_mdn_url(const std::string& url, bool is_prefix) {
  RETURN_IF_ERROR(check_url_text(url));
  std::string normal;
  if (!normalise_percent(url, &normal)) return Status::invalid("'%' not followed by two hex digits");
  CurlUrl h(curl_url(), curl_url_cleanup);
  if (!h) return Status::invalid("out of memory parsing the URL");
  // Without CURLU_PATH_AS_IS libcurl resolves "." and ".." segments.
  CURLUcode rc = curl_url_set(h.get(), CURLUPART_URL, normal.c_str(), 0);
  if (rc != CURLUE_OK) return Status::invalid(curl_url_strerror(rc));
  if (url_part(h, CURLUPART_USER) || url_part(h, CURLUPART_PASSWORD))
    return Status::invalid("user info (user@host) is not allowed");
  if (url_part(h, CURLUPART_FRAGMENT)) return Status::invalid("a fragment (#...) is not allowed");
  if (is_prefix && url_part(h, CURLUPART_QUERY)) return Status::invalid("a prefix cannot have a query (?...)");
  MdnUrl out;
  out.scheme = lower(url_part(h, CURLUPART_SCHEME).value_or(""));
  out.host = lower(url_part(h, CURLUPART_HOST).value_or(""));
  out.port = url_part(h, CURLUPART_PORT, CURLU_DEFAULT_PORT).value_or("");
  out.path = url_part(h, CURLUPART_PATH).value_or("/");
  if (out.path.empty()) out.path = "/";
  out.any_port = is_prefix && empty_port(normal);
  if (out.host.empty() || out.port.empty()) return Status::invalid("no host or port");
  // An encoded '/' or '\' is a path separator to some servers: it could step
  // out of the prefix after the check.
  if (out.path.find("%2F") != std::string::npos || out.path.find("%5C") != std::string::npos)
    return Status::invalid("an encoded '/' or '\\' in the path is not allowed");
  return out;
}

// Same scheme, host and port, and the path under the prefix's path on a
// segment boundary: "/mdn" covers "/mdn", "/mdn/x", not "/mdnx" nor "/mdn-admin".
bool under_prefix(const MdnUrl& prefix, const MdnUrl& url) {
  if (url.scheme != prefix.scheme || url.host != prefix.host) return false;
  if (!prefix.any_port && url.port != prefix.port) return false;
  const std::string& p = prefix.path;
  if (url.path.compare(0, p.size(), p) != 0) return false;
  return p.back() == '/' || url.path.size() == p.size() || url.path[p.size()] == '/';
}

// One profile file being read, section by section: its name for the errors,
// its directory for the relative paths in it.
class ProfileReader {
 public:
  ProfileReader(std::string name, std::filesystem::path dir, pugi::xml_node root)
      : name_(std::move(name)), dir_(std::move(dir)), root_(root) {}

  Status ids(Partner* p) const {
    for (pugi::xml_node x : root_.children("x12")) {
      edi::Party party{x.attribute("id").as_string(), x.attribute("qualifier").as_string()};
      if (party.id.empty() || party.qualifier.empty()) return invalid("<x12> needs qualifier and id attributes");
      p->x12_ids.push_back(party);
    }
    for (pugi::xml_node e : root_.children("edifact")) {
      edi::Party party{e.attribute("id").as_string(), e.attribute("qualifier").as_string()};
      if (party.id.empty()) return invalid("<edifact> needs an id attribute");
      p->edifact_ids.push_back(party);
    }
    for (pugi::xml_node f : root_.children("sends-for")) {
      const std::string other = f.attribute("partner").as_string();
      if (other.empty() || other == p->id)
        return invalid("<sends-for partner=\"ID\"/> needs the id of another partner profile");
      p->sends_for.push_back(other);
    }
    return Status::ok();
  }

  Status as2(Partner* p) const {
    for (pugi::xml_node a : root_.children("as2")) {
      std::string id = a.attribute("id").as_string();
      if (id.empty() || id.size() > 128) return invalid("<as2> needs an id of 1-128 characters");
      p->as2.ids.push_back(id);
      RETURN_IF_ERROR(endpoint(a, "as2", &p->as2.url));
      if (!a.attribute("url")) continue;
      p->as2.send_id = id;
      if (pugi::xml_attribute c = a.attribute("cipher")) {
        static const char* const kCiphers[] = {"aes-128-cbc", "aes-192-cbc", "aes-256-cbc", "des-ede3-cbc"};
        if (std::find(std::begin(kCiphers), std::end(kCiphers), std::string(c.as_string())) == std::end(kCiphers))
          return invalid("<as2 cipher> must be aes-128-cbc|aes-192-cbc|aes-256-cbc|des-ede3-cbc, not '" +
                         std::string(c.as_string()) + "'");
        p->as2.cipher = c.as_string();
      }
      const std::string transport = a.attribute("key-transport").as_string("rsa");
      if (transport != "rsa" && transport != "rsa-oaep")
        return invalid("<as2 key-transport> must be rsa|rsa-oaep, not '" + transport + "'");
      p->as2.rsa_oaep = transport == "rsa-oaep";
      p->as2.digest = a.attribute("digest").as_string("sha-256");
      if (p->as2.digest != "sha-256" && p->as2.digest != "sha-384" && p->as2.digest != "sha-512")
        return invalid("<as2 digest> must be sha-256|sha-384|sha-512, not '" + p->as2.digest + "'");
      RETURN_IF_ERROR(flag(a, "as2", "compress", &p->as2.compress));
    }
    return Status::ok();
  }

  Status as4(Partner* p) const {
    for (pugi::xml_node a : root_.children("as4")) {
      std::string id = a.attribute("party-id").as_string();
      if (id.empty() || id.size() > 256) return invalid("<as4> needs a party-id of 1-256 characters");
      p->as4.parties.emplace_back(id, a.attribute("type").as_string());
      RETURN_IF_ERROR(endpoint(a, "as4", &p->as4.url));
      if (!a.attribute("url")) continue;
      p->as4.send_party = id;
      p->as4.send_party_type = a.attribute("type").as_string();
      p->as4.service = a.attribute("service").as_string(p->as4.service.c_str());
      p->as4.service_type = a.attribute("service-type").as_string();
      p->as4.action = a.attribute("action").as_string(p->as4.action.c_str());
      if (p->as4.service.empty() || p->as4.action.empty())
        return invalid("<as4 service> and <as4 action> may not be empty");
      RETURN_IF_ERROR(flag(a, "as4", "compress", &p->as4.compress));
      RETURN_IF_ERROR(flag(a, "as4", "sign", &p->as4.sign));
      RETURN_IF_ERROR(flag(a, "as4", "encrypt", &p->as4.encrypt));
    }
    return Status::ok();
  }

  // After as2() and as4(): the default channel is the endpoint the profile has.
  Status acknowledgments(Partner* p) const {
    using Acks = Partner::Acknowledgments;
    Acks& acks = p->acknowledgments;
    acks.via = !p->as2.url.empty() ? Acks::Via::As2 : !p->as4.url.empty() ? Acks::Via::As4 : Acks::Via::None;
    if (pugi::xml_node a = root_.child("acknowledgments")) {
      int via = static_cast<int>(acks.via), x12 = 0, ta1 = 1, contrl = 1, mdn = 0, aperak = 0;
      RETURN_IF_ERROR(choice(a, "via", {"as2", "as4", "dir", "none"}, &via));
      RETURN_IF_ERROR(choice(a, "x12", {"auto", "997", "999", "none"}, &x12));
      RETURN_IF_ERROR(choice(a, "ta1", {"never", "on-error", "requested"}, &ta1));
      RETURN_IF_ERROR(choice(a, "contrl", {"requested", "always", "never"}, &contrl));
      RETURN_IF_ERROR(choice(a, "mdn", {"sync", "async"}, &mdn));
      RETURN_IF_ERROR(choice(a, "aperak", {"never", "errors"}, &aperak));
      acks.via = static_cast<Acks::Via>(via);
      acks.x12 = static_cast<Acks::X12>(x12);
      acks.ta1 = static_cast<Acks::Ta1>(ta1);
      acks.contrl = static_cast<Acks::Contrl>(contrl);
      acks.mdn = static_cast<Acks::Mdn>(mdn);
      acks.aperak = static_cast<Acks::Aperak>(aperak);
      if (std::string d = a.attribute("dir").as_string(); !d.empty()) acks.dir = resolve(d);
    }
    if (acks.via == Acks::Via::As2 && p->as2.url.empty())
      return invalid("<acknowledgments via=\"as2\"> needs an <as2 id url> to send to");
    if (acks.via == Acks::Via::As4 && p->as4.url.empty())
      return invalid("<acknowledgments via=\"as4\"> needs an <as4 party-id url> to send to");
    if (acks.via == Acks::Via::Dir && acks.dir.empty())
      return invalid("<acknowledgments via=\"dir\"> needs a dir attribute");
    return Status::ok();
  }

  Status validation(Partner* p) const {
    pugi::xml_node v = root_.child("validation");
    if (!v) return Status::ok();
    int policy = 0;
    RETURN_IF_ERROR(choice(v, "validation", "policy", {"off", "reject", "accept", "flag"}, &policy));
    p->validation.policy = static_cast<Partner::Validation::Policy>(policy);
    for (pugi::xml_node g : v.children("guide")) {
      const std::string type = g.attribute("message").as_string(), file = g.attribute("file").as_string();
      if (type.empty() || file.empty())
        return invalid("<guide> needs message and file attributes (<guide message=\"810\" file=\"guides/810.def\"/>)");
      if (p->validation.policy == Partner::Validation::Policy::Off)
        return invalid("<guide message=\"" + type + "\"> is never read with <validation policy=\"off\">");
      ASSIGN_OR_RETURN(std::string text, read_file_bounded(resolve(file), kMaxGuideBytes));
      auto guide = documents::Guide::load(documents::standard_definitions(), {resolve(file), std::move(text)});
      if (!guide.is_ok()) return invalid("<guide message=\"" + type + "\">: " + guide.status().message());
      const documents::MessageDef& m = guide.value()->message();
      if (m.type != type) return invalid("<guide message=\"" + type + "\"> names " + file + ", a guide for " + m.type);
      for (const auto& other : p->validation.guides)
        if (other->message().type == type &&
            documents::version_key(other->message().standard, other->message().version) ==
                documents::version_key(m.standard, m.version))
          return invalid("two <guide> for " + m.standard + " " + m.version + " " + type);
      p->validation.guides.push_back(std::move(guide).value());
    }
    return Status::ok();
  }

  Status documents(Partner* p) const {
    pugi::xml_node d = root_.child("documents");
    if (!d) return Status::ok();
    ASSIGN_OR_RETURN(p->documents, read_documents(d, name_, [this](const char* f) { return resolve(f); }));
    p->documents_set = true;
    return Status::ok();
  }

  Status certificates(Partner* p) const {
    for (pugi::xml_node c : root_.children("certificate")) {
      std::string use = c.attribute("use").as_string(), f = c.attribute("file").as_string();
      if (f.empty()) return invalid("<certificate> needs a file attribute");
      if (use == "signing") {
        p->certificates.signing.push_back(resolve(f));
      } else if (use == "encryption") {
        if (!p->certificates.encryption.empty()) return invalid("only one <certificate use=\"encryption\">");
        p->certificates.encryption = resolve(f);
      } else {
        return invalid("<certificate use> must be signing or encryption, not '" + use + "'");
      }
    }
    return Status::ok();
  }

  // <security> applies to AS2 and AS4; <security protocol="as4"> overrides it for AS4.
  Status security(Partner* p) const {
    for (const char* protocol : {"", "as4"}) {
      for (pugi::xml_node sec : root_.children("security")) {
        const std::string which = sec.attribute("protocol").as_string();
        if (which != "" && which != "as4")
          return invalid("<security protocol> must be as4 (or absent), not '" + which + "'");
        if (which != protocol) continue;
        const bool sign = sec.attribute("require-signature").as_bool(true);
        const bool encrypt = sec.attribute("require-encryption").as_bool(false);
        if (which.empty()) {
          p->as2.require_signature = sign;
          p->as2.require_encryption = encrypt;
          p->certificates.allow_expired = sec.attribute("allow-expired").as_bool(false);
        }
        p->as4.require_signature = sign;
        p->as4.require_encryption = encrypt;
      }
    }
    return Status::ok();
  }

  Status auth(Partner* p) const {
    for (pugi::xml_node a : root_.children("auth")) {
      if (pugi::xml_attribute ip = a.attribute("allow-ip")) {
        if (!is_cidr(ip.as_string()))
          return invalid("<auth allow-ip> must be an address or a CIDR network (192.0.2.0/24, 2001:db8::/32), not '" +
                         std::string(ip.as_string()) + "'");
        p->auth.allow_ips.push_back(ip.as_string());
      }
      if (pugi::xml_attribute cert = a.attribute("client-cert")) {
        if (std::string(cert.as_string()).empty()) return invalid("<auth client-cert> needs a certificate file");
        // Loaded now: a pin that cannot be read would refuse every message of the partner.
        const std::string file = resolve(cert.as_string());
        Result<crypto::Certificate> c = crypto::Certificate::load_pem_file(file);
        if (!c.is_ok()) return invalid("<auth client-cert>: " + c.status().message());
        p->auth.client_certificates.push_back(file);
        p->auth.client_cert_sha256.push_back(c->sha256());
      }
      if (a.attribute("basic-user") || a.attribute("basic-password-hash")) {
        p->auth.basic_user = a.attribute("basic-user").as_string();
        p->auth.basic_password_hash = a.attribute("basic-password-hash").as_string();
        if (p->auth.basic_user.empty() || p->auth.basic_user.find(':') != std::string::npos)
          return invalid("<auth basic-user> must be a user name without ':'");
        if (!crypto::is_password_hash(p->auth.basic_password_hash))
          return invalid(
              "<auth basic-password-hash> must be what `edihub hash-password` prints "
              "(pbkdf2-sha256$ITERATIONS$SALT$HASH), never the password itself");
      }
    }
    return Status::ok();
  }

  Status mdn(Partner* p) const {
    for (pugi::xml_node m : root_.children("mdn")) {
      if (m.attribute("allow-md5").as_bool(false)) p->as2.mdn_allow_md5 = true;
      pugi::xml_attribute allow = m.attribute("async-url-allow");
      if (!allow) continue;  // an <mdn> carrying other settings
      const std::string prefix = allow.as_string();
      Result<MdnUrl> parsed_prefix = parse_mdn_url(prefix, true);
      if (!parsed_prefix.is_ok())
        return invalid("<mdn async-url-allow> must be an http(s) URL prefix (scheme://host[:port][/path]), not '" +
                       prefix + "': " + parsed_prefix.status().message());
      p->as2.async_mdn_prefixes.push_back(prefix);
    }
    return Status::ok();
  }

  // Peppol access points are authenticated by their certificate: signed and
  // encrypted messages only, whatever <security> says.
  Status peppol(Partner* p) const {
    for (pugi::xml_node n : root_.children("peppol")) {
      const std::string seat = n.attribute("seat").as_string();
      if (seat.empty() || seat.size() > 64)
        return invalid("<peppol> needs seat, the sending access point's seat id (1-64 characters) or \"*\" for any");
      if (std::find(p->peppol.seats.begin(), p->peppol.seats.end(), seat) != p->peppol.seats.end())
        return invalid("<peppol seat=\"" + seat + "\"> is listed twice");
      p->peppol.seats.push_back(seat);
      const std::string url = n.attribute("mls-url").as_string(), cert = n.attribute("mls-certificate").as_string();
      if (url.empty() != cert.empty())
        return invalid("<peppol seat=\"" + seat + "\"> needs both mls-url and mls-certificate, or neither");
      if (url.empty()) continue;
      if (seat == "*") return invalid("<peppol seat=\"*\"> cannot have an mls-url: name the access point's seat");
      std::string checked_url;
      RETURN_IF_ERROR(endpoint(n, "peppol", &checked_url, "mls-url"));
      p->peppol.mls[seat] = {checked_url, resolve(cert)};
    }
    if (p->is_peppol()) {
      p->as4.require_signature = true;
      p->as4.require_encryption = true;
    }
    return Status::ok();
  }

  Status retention(Partner* p) const {
    pugi::xml_node r = root_.child("retention");
    if (!r) return Status::ok();
    p->retention.days = r.attribute("days").as_int(-1);
    if (p->retention.days < 0) return invalid("<retention days=\"N\"/> needs a number of days >= 0");
    p->retention.receipt_days = r.attribute("receipt-days").as_int(std::min(7, p->retention.days));
    if (p->retention.receipt_days < 0) return invalid("<retention receipt-days=\"N\"/> needs a number of days >= 0");
    return Status::ok();
  }

 private:
  Status invalid(const std::string& what) const { return Status::invalid(name_ + ": " + what); }
  std::string resolve(const std::string& f) const { return (dir_ / f).lexically_normal().string(); }

  // An endpoint we send to: an http(s) URL without user info or fragment.
  Status endpoint(pugi::xml_node n, const char* element, std::string* out, const char* attribute = "url") const {
    pugi::xml_attribute url = n.attribute(attribute);
    if (!url) return Status::ok();
    Result<MdnUrl> parsed = parse_mdn_url(url.as_string(), false);
    if (!parsed.is_ok())
      return invalid(std::string("<") + element + " " + attribute + "> must be an http(s) URL, not '" +
                     url.as_string() + "': " + parsed.status().message());
    if (!out->empty()) return invalid(std::string("only one <") + element + "> may have a url");
    *out = url.as_string();
    return Status::ok();
  }

  Status flag(pugi::xml_node a, const char* element, const char* attribute, bool* out) const {
    const std::string v = a.attribute(attribute).as_string("false");
    if (v != "true" && v != "false")
      return invalid(std::string("<") + element + " " + attribute + "> must be true|false, not '" + v + "'");
    *out = v == "true";
    return Status::ok();
  }

  // An attribute that is one of `words` (its index in *out), or a load error
  // naming the file and the choices; absent: *out unchanged.
  Status choice(pugi::xml_node a, const char* attribute, std::initializer_list<const char*> words, int* out) const {
    return choice(a, "acknowledgments", attribute, words, out);
  }
  Status choice(pugi::xml_node a, const char* element, const char* attribute, std::initializer_list<const char*> words,
                int* out) const {
    pugi::xml_attribute v = a.attribute(attribute);
    if (!v) return Status::ok();
    int i = 0;
    std::string all;
    for (const char* w : words) {
      if (std::string(v.value()) == w) {
        *out = i;
        return Status::ok();
      }
      all += (all.empty() ? "" : "|") + std::string(w);
      ++i;
    }
    return invalid(std::string("<") + element + " " + attribute + "> must be " + all + ", not '" + v.value() + "'");
  }

  const std::string name_;
  const std::filesystem::path dir_;
  const pugi::xml_node root_;
};

Result<Partner> read_partner(const std::filesystem::path& file) {
  const std::string name = file.string();
  // Read here rather than by pugixml, whose "file not found" would hide the reason.
  ASSIGN_OR_RETURN(std::string bytes, read_file_bounded(name, kMaxProfileBytes));
  pugi::xml_document doc;
  // No DTDs or entities: partner files are configuration, but keep the parser strict.
  pugi::xml_parse_result parsed =
      doc.load_buffer(bytes.data(), bytes.size(), pugi::parse_default & ~pugi::parse_doctype);
  if (!parsed)
    return Status::invalid(name + ": XML error at byte " + std::to_string(parsed.offset) + ": " + parsed.description());
  pugi::xml_node root = doc.child("partner");
  if (!root) return Status::invalid(name + ": the root element must be <partner id=\"...\">");
  Partner p;
  p.file = name;
  p.id = root.attribute("id").as_string();
  if (p.id.empty()) return Status::invalid(name + ": <partner> needs an id attribute");
  p.name = root.child_value("name");
  const ProfileReader r(name, file.parent_path(), root);
  RETURN_IF_ERROR(r.ids(&p));
  RETURN_IF_ERROR(r.as2(&p));
  RETURN_IF_ERROR(r.as4(&p));
  RETURN_IF_ERROR(r.acknowledgments(&p));
  RETURN_IF_ERROR(r.validation(&p));
  RETURN_IF_ERROR(r.documents(&p));
  RETURN_IF_ERROR(r.certificates(&p));
  RETURN_IF_ERROR(r.security(&p));
  RETURN_IF_ERROR(r.auth(&p));
  RETURN_IF_ERROR(r.mdn(&p));
  RETURN_IF_ERROR(r.retention(&p));
  RETURN_IF_ERROR(r.peppol(&p));
  if (p.as4.encrypt && (!p.as4.sign || p.certificates.encryption.empty()))
    return Status::invalid(name +
                           ": <as4 encrypt=\"true\"> needs sign=\"true\" too and a <certificate use=\"encryption\">");
  if (p.as4.sign && p.certificates.signing.empty())
    return Status::invalid(name +
                           ": <as4 sign=\"true\"> needs a <certificate use=\"signing\"> to check the partner's "
                           "signed Receipts with");
  return p;
}

// The *.xml files of the partners directory, sorted. Every file-system call
// takes an error_code: a symlink loop or an unreadable directory is an error
// naming the path, never an exception or a profile silently left out.
Result<std::vector<std::filesystem::path>> profile_files(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (ec == std::errc::no_such_file_or_directory || (!ec && !fs::exists(st)))
    return Status::invalid("partners directory '" + dir + "' does not exist");
  if (ec) return Status::invalid("partners directory '" + dir + "': cannot access: " + ec.message());
  if (!fs::is_directory(st)) return Status::invalid("partners directory '" + dir + "' is not a directory");
  std::vector<fs::path> files;
  fs::directory_iterator it(dir, ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const fs::path& path = it->path();
    if (path.extension() != ".xml") continue;
    const fs::file_status entry = it->status(ec);  // follows a symlink
    if (ec) {
      std::error_code link_ec;
      if (ec == std::errc::no_such_file_or_directory && it->is_symlink(link_ec))
        return Status::invalid(path.string() + ": symbolic link to a missing file");
      return Status::invalid(path.string() + ": cannot read: " + ec.message());
    }
    if (fs::is_regular_file(entry)) files.push_back(path);
  }
  if (ec) return Status::invalid("partners directory '" + dir + "': cannot list directory: " + ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

Result<Partner::Documents> read_documents(const pugi::xml_node& d, const std::string& file,
                                          const std::function<std::string(const char*)>& resolve) {
  // Booked documents on to the back office: one way, a webhook or a directory (or none).
  const std::string url = d.attribute("webhook").as_string(), dir = d.attribute("dir").as_string();
  const bool none = std::string(d.attribute("none").as_string()) == "true";
  if (none && url.empty() && dir.empty()) return Partner::Documents{};
  if (none || url.empty() == dir.empty())
    return Status::invalid(file + ": <documents> needs either a webhook URL or a dir (or none=\"true\")");
  if (!url.empty()) {
    Result<MdnUrl> parsed = parse_mdn_url(url, false);
    if (!parsed.is_ok())
      return Status::invalid(file + ": <documents webhook> must be an http(s) URL, not '" + url +
                             "': " + parsed.status().message());
    return Partner::Documents{Partner::Documents::Via::Webhook, url};
  }
  return Partner::Documents{Partner::Documents::Via::Dir, resolve(dir.c_str())};
}

void Partners::default_documents(const Partner::Documents& documents) {
  for (Partner& p : partners_)
    if (!p.documents_set) p.documents = documents;
}

namespace {

// Why `p` cannot join the profiles `loaded` (from `file`): an id that one of
// them claims too (X12, EDIFACT, AS2, or AS4, where an empty qualifier or
// type matches any: two profiles could both be taken for one sender), or
// empty when it can.
std::string claimed_twice(const Partner& p, const Partner& other) {
  for (const auto& id : p.x12_ids)
    for (const auto& theirs : other.x12_ids)
      if (matches(theirs, id, false)) return "X12 id " + id.qualifier + ":" + id.id;
  for (const auto& id : p.edifact_ids)
    for (const auto& theirs : other.edifact_ids)
      if (theirs.id == id.id && (theirs.qualifier == id.qualifier || theirs.qualifier.empty() || id.qualifier.empty()))
        return "EDIFACT id " + id.id;
  for (const auto& id : p.as2.ids)
    for (const auto& theirs : other.as2.ids)
      if (id == theirs) return "AS2 id '" + id + "'";
  for (const auto& [id, type] : p.as4.parties)
    for (const auto& [their_id, their_type] : other.as4.parties)
      if (id == their_id && (type == their_type || type.empty() || their_type.empty()))
        return "AS4 party id '" + id + "'" + (type.empty() ? "" : " (type " + type + ")");
  for (const auto& seat : p.peppol.seats)
    for (const auto& theirs : other.peppol.seats)
      if (seat == theirs) return "Peppol seat '" + seat + "'";
  return "";
}

// What an operator should know of `p` at start: a partner whose only identity is a header.
void warn_of(const Partner& p, std::vector<std::string>* warnings) {
  const bool wire_auth = !p.auth.basic_user.empty() || !p.auth.allow_ips.empty() || !p.auth.client_cert_sha256.empty();
  if (!p.as2.ids.empty() && !p.as2.require_signature && !wire_auth)
    warnings->push_back(p.file + ": partner '" + p.id +
                        "' requires no AS2 signature and has no <auth>: anyone who sends its AS2-From header is "
                        "taken for it");
  if (!p.as4.parties.empty() && !p.as4.require_signature && !wire_auth)
    warnings->push_back(p.file + ": partner '" + p.id +
                        "' requires no AS4 signature and has no <auth>: anyone who sends its eb:From party id is "
                        "taken for it");
}

}  // namespace

Result<Partners> Partners::load(const std::string& dir) {
  ASSIGN_OR_RETURN(std::vector<std::filesystem::path> files, profile_files(dir));
  Partners out;
  for (const auto& f : files) {
    ASSIGN_OR_RETURN(Partner p, read_partner(f));
    if (out.find(p.id) != nullptr)
      return Status::invalid(f.string() + ": partner id '" + p.id + "' is already defined");
    for (const auto& other : out.partners_)
      if (const std::string what = claimed_twice(p, other); !what.empty())
        return Status::invalid(f.string() + ": " + what + " also belongs to partner '" + other.id + "'");
    out.partners_.push_back(std::move(p));
  }
  for (const Partner& p : out.partners_) {
    for (const std::string& other : p.sends_for)
      if (out.find(other) == nullptr)
        return Status::invalid(p.file + ": <sends-for partner=\"" + other + "\"/> names no partner profile");
    warn_of(p, &out.warnings_);
  }
  return out;
}

const Partner* Partners::find(const std::string& id) const {
  for (const auto& p : partners_)
    if (p.id == id) return &p;
  return nullptr;
}

bool Partner::owns(const edi::Interchange& ic) const {
  const bool edifact = ic.standard == edi::Standard::Edifact;
  for (const auto& id : edifact ? edifact_ids : x12_ids)
    if (matches(id, ic.sender, edifact)) return true;
  return false;
}

const Partner* Partners::sender_of(const edi::Interchange& ic) const {
  for (const auto& p : partners_)
    if (p.owns(ic)) return &p;
  return nullptr;
}

const Partner* Partners::owner_for(const Partner& wire, const edi::Interchange& ic) const {
  if (wire.owns(ic)) return &wire;
  for (const std::string& other : wire.sends_for)
    if (const Partner* p = find(other); p != nullptr && p->owns(ic)) return p;
  return nullptr;
}

std::string Partner::ids_text(edi::Standard standard) const {
  return parties_text(standard, standard == edi::Standard::Edifact ? edifact_ids : x12_ids);
}

bool EdiIds::ours(const edi::Interchange& ic) const {
  const bool is_edifact = ic.standard == edi::Standard::Edifact;
  for (const auto& id : is_edifact ? edifact : x12)
    if (matches(id, ic.receiver, is_edifact)) return true;
  return false;
}

std::string EdiIds::text(edi::Standard standard) const {
  return parties_text(standard, standard == edi::Standard::Edifact ? edifact : x12);
}

const Partner* Partners::as2_sender(const std::string& as2_from) const {
  for (const auto& p : partners_)
    for (const auto& id : p.as2.ids)
      if (id == as2_from) return &p;
  return nullptr;
}

const Partner* Partners::as4_sender(const std::string& party_id, const std::string& type) const {
  for (const auto& p : partners_)
    for (const auto& [id, t] : p.as4.parties)
      if (id == party_id && (t.empty() || t == type)) return &p;
  return nullptr;
}

const Partner* Partners::peppol_sender(const std::string& seat) const {
  const Partner* any = nullptr;
  for (const auto& p : partners_)
    for (const auto& s : p.peppol.seats) {
      if (s == seat) return &p;
      if (s == "*") any = &p;
    }
  return any;
}

bool Partner::allows_async_mdn(const std::string& url) const {
  Result<MdnUrl> candidate = parse_mdn_url(url, false);
  if (!candidate.is_ok()) return false;
  for (const auto& text : as2.async_mdn_prefixes) {
    Result<MdnUrl> prefix = parse_mdn_url(text, true);
    if (prefix.is_ok() && under_prefix(prefix.value(), candidate.value())) return true;
  }
  return false;
}

std::string party_text(edi::Standard standard, const edi::Party& party) {
  if (standard == edi::Standard::X12) return party.qualifier + ":" + party.id;
  return party.qualifier.empty() ? party.id : party.id + ":" + party.qualifier;
}

std::string parties_text(edi::Standard standard, const std::vector<edi::Party>& parties) {
  std::string out;
  for (const auto& p : parties) out += (out.empty() ? "" : ", ") + party_text(standard, p);
  return out.empty() ? "none" : out;
}

std::string sender_text(const edi::Interchange& ic) { return party_text(ic.standard, ic.sender); }

std::string receiver_text(const edi::Interchange& ic) { return party_text(ic.standard, ic.receiver); }

}  // namespace edihub::config
