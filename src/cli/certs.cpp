// `edihub certs`: every certificate the gateway uses, with the days it has left;
// `edihub hash-password`: the hash a partner's <auth basic-password-hash> holds.
#include <sys/stat.h>
#include <unistd.h>

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <cmath>
#include <ctime>
#include <iostream>
#include <ostream>

#include "src/cli/commands.h"
#include "src/cli/duration.h"
#include "src/cli/store_args.h"
#include "src/common/files.h"
#include "src/crypto/password.h"
#include "src/crypto/self_signed.h"

namespace edihub::cli {

const CommandSpec& certs_spec() {
  static const CommandSpec spec{
      "certs",
      "Lists every certificate in use: ours and the partners', with the days they have left.\n"
      "Our identities from --config (the demo identity without it); each partner's signing and\n"
      "encryption certificates from --partners (default: the config's partners dir). Exit 0 when\n"
      "none expires within --warn-days, 1 when one does or has expired, 2 on a usage or file error.",
      "",
      0,
      {{"config", "FILE", "gateway config: our identities and the partners dir"},
       partners_option(),
       integer_option("warn-days", "DAYS", "warn for certificates expiring within DAYS days, 0 to 3650 (default 30)", 0,
                      3650),
       {"json", "", "one JSON array"}}};
  return spec;
}

int run_certs(const Args& args, std::ostream& out, std::ostream& err) {
  const int warn_days = static_cast<int>(*args.integer("warn-days", kCertificateWarnDays));  // checked: 0-3650
  auto certs = certificates_from(args, err, "certs");
  if (!certs) return kUsage;
  const std::time_t now = std::time(nullptr);
  bool warned = false;
  Poco::JSON::Array list;
  for (const identity::CertificateInUse& c : *certs) {
    const int64_t days = days_left(c, now);
    const bool warn = days < warn_days;
    warned = warned || warn;
    if (args.flag("json")) {
      Poco::JSON::Object::Ptr o = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
      o->set("owner", c.owner);
      o->set("use", c.use);
      o->set("subject", c.subject);
      o->set("serial", c.serial);
      o->set("not_after", iso_utc(c.not_after * 1000));
      o->set("days_left", days);
      o->set("warning", warn);
      o->set("file", c.file);
      list.add(o);
      continue;
    }
    out << c.owner << " " << c.use << " " << c.subject << " serial " << c.serial << " not-after "
        << iso_utc(c.not_after * 1000) << " " << days << " days left"
        << (days < 0 ? "  EXPIRED"
            : warn   ? "  WARNING: expires within " + std::to_string(warn_days) + " days"
                     : "")
        << "\n";
  }
  if (args.flag("json")) {
    list.stringify(out);
    out << "\n";
  }
  return warned ? kProblems : kOk;
}

const CommandSpec& hash_password_spec() {
  static const CommandSpec spec{
      "hash-password",
      "Prints the hash of a password read from standard input, for <auth basic-password-hash>.\n"
      "PBKDF2-HMAC-SHA256, 100000 iterations, a fresh salt: the profile never holds the password.",
      "",
      0,
      {}};
  return spec;
}

bool read_password_line(std::istream& in, std::string* password) {
  if (!std::getline(in, *password)) return false;
  if (!password->empty() && password->back() == '\r') password->pop_back();
  return !password->empty();
}

const CommandSpec& new_identity_spec() {
  static const CommandSpec spec{
      "new-identity",
      "Makes a new identity: an RSA key and a self-signed certificate, for <identity cert key>.\n"
      "Neither file may exist (nothing is overwritten); the key is written 0600. Prints the\n"
      "certificate's SHA-256 fingerprint, which partners compare when they pin it.",
      "",
      0,
      {{"key", "FILE", "the private key to write (PEM)"},
       {"cert", "FILE", "the certificate to write (PEM)"},
       {"name", "CN", "the certificate's common name, default EDIHUB"},
       integer_option("days", "DAYS", "validity, 1 to 36500 days, default 730", 1, 36500),
       integer_option("bits", "N", "RSA key size, 2048 to 8192, default 3072", 2048, 8192)}};
  return spec;
}

int run_new_identity(const Args& args, std::ostream& out, std::ostream& err) {
  const std::string key = args.value("key"), cert = args.value("cert");
  if (key.empty() || cert.empty()) {
    err << "edihub new-identity: give --key FILE and --cert FILE\n";
    return kUsage;
  }
  Result<crypto::NewIdentity> made =
      crypto::make_self_signed(args.value("name", "EDIHUB"), static_cast<int>(*args.integer("bits", 3072)),
                               static_cast<int>(*args.integer("days", 730)));
  if (!made.is_ok()) {
    err << "edihub new-identity: " << made.status().message() << "\n";
    return kUsage;
  }
  // Neither is ever replaced: a key partners already trust must not vanish by a typo.
  struct stat st {};
  for (const std::string& f : {key, cert})
    if (::lstat(f.c_str(), &st) == 0) {
      err << "edihub new-identity: " << f << " exists: not replaced\n";
      return kProblems;
    }
  if (Status s = write_new_file(key, made->key_pem, 0600); !s.is_ok()) {
    err << "edihub new-identity: " << s.message() << "\n";
    return kProblems;
  }
  if (Status s = write_new_file(cert, made->certificate_pem, 0644); !s.is_ok()) {
    ::unlink(key.c_str());
    err << "edihub new-identity: " << s.message() << "\n";
    return kProblems;
  }
  out << "new identity: " << cert << " (sha256 " << made->sha256 << "), key " << key << "\n";
  return kOk;
}

int run_hash_password(const Args&, std::ostream& out, std::ostream& err) {
  std::string password;
  if (!read_password_line(std::cin, &password)) {
    err << "edihub hash-password: give the password on standard input (one line)\n";
    return kUsage;
  }
  out << crypto::hash_password(password) << "\n";
  return kOk;
}

}  // namespace edihub::cli
