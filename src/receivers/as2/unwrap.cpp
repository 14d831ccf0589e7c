#include "src/receivers/as2/unwrap.h"

#include <Poco/Base64Decoder.h>
#include <Poco/Exception.h>
#include <Poco/StreamCopier.h>

#include <deque>
#include <sstream>

#include "parsers/mime/entity.h"

namespace edihub::as2 {

namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

}  // namespace

Result<std::string> mime_body(const mime::Entity& e) {
  const mime::Header* cte = e.find("Content-Transfer-Encoding");
  std::string encoding = cte == nullptr ? "binary" : cte->value;
  for (char& c : encoding) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (encoding == "binary" || encoding == "8bit" || encoding == "7bit") return std::string(e.body);
  if (encoding != "base64")
    return Status::invalid("Content-Transfer-Encoding '" + encoding + "' is not supported (binary or base64)");
  try {
    std::istringstream in{std::string(e.body)};
    Poco::Base64Decoder decoder(in);
    std::string out;
    Poco::StreamCopier::copyToString(decoder, out);
    return out;
  } catch (const Poco::Exception& ex) {
    return Status::invalid("bad base64 body: " + ex.displayText());
  }
}

// mime_body, failing as an MDN disposition.
static Result<std::string> decoded_body(const mime::Entity& e) {
  Result<std::string> body = mime_body(e);
  if (!body.is_ok()) return Status::invalid("unexpected-processing-error: " + body.status().message());
  return body;
}

std::string_view disposition_modifier(const Status& failure) {
  for (std::string_view m : {"decryption-failed", "authentication-failed", "integrity-check-failed",
                             "decompression-failed", "insufficient-message-security"})
    if (starts_with(failure.message(), m)) return m;
  return "unexpected-processing-error";
}

Result<Unwrapped> unwrap(std::string_view entity, const UnwrapOptions& options) {
  Unwrapped out;
  // Each layer's bytes live in `layers` while inner views point into them
  // (a deque never moves its elements).
  std::deque<std::string> layers;
  layers.emplace_back(entity);
  std::string_view current = layers.back();
  for (int depth = 0; depth <= options.max_layers; ++depth) {
    mime::Entity e;
    if (mime::Error err = mime::parse_entity(current, &e))
      return Status::invalid("unexpected-processing-error: " + err.message);
    const mime::ContentType ct = e.content_type();

    if (ct.is("multipart/signed")) {
      std::vector<std::string_view> parts;
      if (mime::Error err = mime::split_multipart(e.body, ct.param("boundary"), &parts))
        return Status::invalid("unexpected-processing-error: multipart/signed: " + err.message);
      if (parts.size() != 2)
        return Status::invalid("unexpected-processing-error: multipart/signed has " + std::to_string(parts.size()) +
                               " parts, expected 2");
      mime::Entity signature;
      if (mime::Error err = mime::parse_entity(parts[1], &signature))
        return Status::invalid("unexpected-processing-error: signature part: " + err.message);
      Result<std::string> der = decoded_body(signature);
      if (!der.is_ok()) return der.status();
      Result<crypto::Verified> v = crypto::verify_detached(parts[0], der.value(), options.signers);
      if (!v.is_ok() && disposition_modifier(v.status()) == "integrity-check-failed" &&
          parts[0].find('\n') != std::string_view::npos) {
        // S/MIME signs the canonical (CRLF) form; a sender may have sent bare LFs.
        std::string canonical;
        canonical.reserve(parts[0].size() + parts[0].size() / 32);
        for (size_t i = 0; i < parts[0].size(); ++i) {
          if (parts[0][i] == '\n' && (i == 0 || parts[0][i - 1] != '\r')) canonical.push_back('\r');
          canonical.push_back(parts[0][i]);
        }
        if (canonical.size() != parts[0].size()) {
          Result<crypto::Verified> again = crypto::verify_detached(canonical, der.value(), options.signers);
          if (again.is_ok()) v = again;
        }
      }
      if (!v.is_ok()) return v.status();
      if (!out.signed_) {
        // The MIC covers what the partner signed: the first part, headers included.
        Result<std::string> m = crypto::mic(parts[0], options.mic_algorithm);
        if (!m.is_ok()) return m.status();
        out.mic = m.value();
        out.mic_algorithm = options.mic_algorithm;
      }
      out.signed_ = true;
      out.signer_subject = v->signer.subject();
      out.signature_digest = v->digest;
      current = parts[0];
      continue;
    }

    if (ct.is("application/pkcs7-mime") || ct.is("application/x-pkcs7-mime")) {
      Result<std::string> der = decoded_body(e);
      if (!der.is_ok()) return der.status();
      std::string smime_type = ct.param("smime-type");
      for (char& c : smime_type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      Result<std::string> inner = Status::invalid("");
      if (smime_type == "compressed-data") {
        inner = crypto::decompress(der.value(), options.max_decompressed_bytes);
        out.compressed = true;
      } else {
        inner = crypto::decrypt(der.value(), options.identities);
        if (inner.is_ok() && !out.signed_) {
          // Encrypted, not (yet) signed: the MIC covers the decrypted entity.
          Result<std::string> m = crypto::mic(inner.value(), options.mic_algorithm);
          if (!m.is_ok()) return m.status();
          out.mic = m.value();
          out.mic_algorithm = options.mic_algorithm;
        }
        out.encrypted = true;
      }
      if (!inner.is_ok()) return inner.status();
      layers.push_back(std::move(inner.value()));
      current = layers.back();
      continue;
    }

    // The payload.
    Result<std::string> body = decoded_body(e);
    if (!body.is_ok()) return body.status();
    out.content_type = ct.type + "/" + ct.subtype;
    out.payload = std::move(body.value());
    if (!out.signed_ && !out.encrypted) {
      // Neither signed nor encrypted: the MIC covers the content only.
      Result<std::string> m = crypto::mic(out.payload, options.mic_algorithm);
      if (!m.is_ok()) return m.status();
      out.mic = m.value();
      out.mic_algorithm = options.mic_algorithm;
    }
    return out;
  }
  return Status::invalid("unexpected-processing-error: more than " + std::to_string(options.max_layers) +
                         " layers of encryption, signature and compression");
}

}  // namespace edihub::as2
