// Test driver for src/crypto/cms against messages made by `openssl cms`
// (tests/integration/cms_interop_test.sh). Not installed; not for operators.
//   cms_tool decrypt IN.der CERT KEY          content on stdout
//   cms_tool verify CONTENT SIG.der CERT...   "signer=<subject> digest=<name>"
//   cms_tool decompress IN.der                content on stdout
//   cms_tool sign CONTENT CERT KEY DIGEST     DER signature on stdout
//   cms_tool mic FILE ALGORITHM               base64 MIC
//   cms_tool zlib-cms IN                      DER compressed-data of IN (zlib, built here:
//                                             this OpenSSL cannot make one)
//   cms_tool unwrap ENTITY CERT KEY SIGNER_CERT MICALG OUT
//                                             AS2 unwrap; facts on stdout, payload to OUT
//   cms_tool mdn CERT KEY DISPOSITION-NOTIFICATION-OPTIONS MODIFIER
//                                             an MDN as a MIME message on stdout
#include <zlib.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "src/crypto/cms.h"
#include "src/gate/receipt_policy.h"
#include "src/protocols/as2/mdn.h"
#include "src/protocols/as2/unwrap.h"

using namespace edihub;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int fail(const Status& s) {
  std::cerr << s.message() << "\n";
  return 1;
}

// DER: a tag, a definite length, the content.
std::string der(unsigned char tag, const std::string& content) {
  std::string out(1, static_cast<char>(tag));
  size_t n = content.size();
  if (n < 128) {
    out.push_back(static_cast<char>(n));
  } else {
    std::string len;
    for (; n > 0; n >>= 8) len.insert(len.begin(), static_cast<char>(n & 0xff));
    out.push_back(static_cast<char>(0x80 | len.size()));
    out += len;
  }
  return out + content;
}

std::string zlib_cms(const std::string& content) {
  uLongf size = compressBound(content.size());
  std::string z(size, '\0');
  compress2(reinterpret_cast<Bytef*>(z.data()), &size, reinterpret_cast<const Bytef*>(content.data()), content.size(),
            9);
  z.resize(size);
  const std::string compressed_data_oid("\x2A\x86\x48\x86\xF7\x0D\x01\x09\x10\x01\x09", 11);
  const std::string zlib_oid("\x2A\x86\x48\x86\xF7\x0D\x01\x09\x10\x03\x08", 11);
  const std::string data_oid("\x2A\x86\x48\x86\xF7\x0D\x01\x07\x01", 9);
  std::string encap = der(0x30, der(0x06, data_oid) + der(0xA0, der(0x04, z)));
  std::string compressed = der(0x30, der(0x02, std::string(1, '\0')) + der(0x30, der(0x06, zlib_oid)) + encap);
  return der(0x30, der(0x06, compressed_data_oid) + der(0xA0, compressed));
}

crypto::Identity identity(const std::string& cert, const std::string& key) {
  return {crypto::Certificate::load_pem_file(cert).value(), crypto::PrivateKey::load_pem_file(key).value()};
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> a(argv + 1, argv + argc);
  if (a.size() == 4 && a[0] == "decrypt") {
    auto r = crypto::decrypt(slurp(a[1]), {identity(a[2], a[3])});
    if (!r.is_ok()) return fail(r.status());
    std::cout << r.value();
    return 0;
  }
  if (a.size() >= 4 && a[0] == "verify") {
    std::vector<crypto::Certificate> allowed;
    for (size_t i = 3; i < a.size(); ++i) allowed.push_back(crypto::Certificate::load_pem_file(a[i]).value());
    auto r = crypto::verify_detached(slurp(a[1]), slurp(a[2]), allowed);
    if (!r.is_ok()) return fail(r.status());
    std::cout << "signer=" << r->signer.subject() << " digest=" << r->digest << "\n";
    return 0;
  }
  if (a.size() == 2 && a[0] == "decompress") {
    Lease lease(nullptr, 100u << 20);
    auto r = crypto::decompress(slurp(a[1]), lease);
    if (!r.is_ok()) return fail(r.status());
    std::cout << r.value();
    return 0;
  }
  if (a.size() == 5 && a[0] == "sign") {
    auto r = crypto::sign_detached(slurp(a[1]), identity(a[2], a[3]), a[4]);
    if (!r.is_ok()) return fail(r.status());
    std::cout << r.value();
    return 0;
  }
  if (a.size() == 3 && a[0] == "mic") {
    auto r = crypto::mic(slurp(a[1]), a[2]);
    if (!r.is_ok()) return fail(r.status());
    std::cout << r.value() << "\n";
    return 0;
  }
  if (a.size() == 2 && a[0] == "zlib-cms") {
    std::cout << zlib_cms(slurp(a[1]));
    return 0;
  }
  if (a.size() == 7 && a[0] == "unwrap") {
    as2::UnwrapOptions o;
    o.identities.push_back(identity(a[2], a[3]));
    o.signers.push_back(crypto::Certificate::load_pem_file(a[4]).value());
    o.mic_algorithm = a[5];
    const std::string entity = slurp(a[1]);
    mime::Entity outer;
    if (mime::Error e = mime::parse_entity(entity, &outer)) {
      std::cerr << "not a MIME entity: " << e.message << "\n";
      return 1;
    }
    Lease lease(nullptr, 100u << 20);
    auto r = as2::unwrap(outer, o, lease);
    if (!r.is_ok()) {
      std::cout << "disposition=" << as2::as2_modifier(gate::failure_of(r.status().code())) << "\n";
      return fail(r.status());
    }
    std::cout << "content_type=" << r->content_type << " encrypted=" << r->encrypted << " signed=" << r->signed_
              << " compressed=" << r->compressed << " mic=" << r->mic << ", " << r->mic_algorithm << "\n";
    std::ofstream(a[6], std::ios::binary) << r->payload;
    return 0;
  }
  if (a.size() == 5 && a[0] == "mdn") {
    crypto::Identity id = identity(a[1], a[2]);
    as2::MdnContent c;
    c.our_as2_id = "EDIHUB";
    c.partner_as2_id = "ACMESUPPLY";
    c.original_message_id = "<test-1@acme.example>";
    c.mic = "7v7F++Fq/ZBXemxwOD1GvbtHRcXb2BjmWHjbvPx1P7c=";
    c.mic_algorithm = "sha-256";
    c.modifier = a[4] == "-" ? "" : a[4];
    c.text = "The AS2 message <test-1@acme.example> was received.";
    c.message_id = "<mdn-1@edihub>";
    c.boundary = "test";
    auto r = as2::build_mdn(c, as2::parse_disposition_options(a[3]), &id);
    if (!r.is_ok()) return fail(r.status());
    std::cout << r->headers << "\r\n" << r->body;
    return 0;
  }
  std::cerr << "usage: see the comment at the top of tests/tools/cms_tool.cpp\n";
  return 2;
}
