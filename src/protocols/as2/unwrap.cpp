#include "src/protocols/as2/unwrap.h"

#include "parsers/mime/entity.h"
#include "parsers/mime/transfer.h"

namespace edihub::as2 {

namespace {

Status unexpected(const std::string& why) {
  return Status::invalid(Code::Malformed, "unexpected-processing-error: " + why);
}

// The body with its transfer encoding removed, failing as an MDN disposition.
Result<std::string> decoded_body(const mime::Entity& e) {
  std::string out;
  if (mime::Error err = mime::decode_body(e, &out)) return unexpected(err.message);
  return out;
}

// S/MIME signs the canonical (CRLF) form; some senders deliver bare LFs.
std::string canonical_crlf(std::string_view s) {
  std::string out;
  out.reserve(s.size() + s.size() / 32);
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\n' && (i == 0 || s[i - 1] != '\r')) out.push_back('\r');
    out.push_back(s[i]);
  }
  return out;
}

Status counted(Lease& lease, size_t n) {
  switch (lease.take(n)) {
    case Lease::Refusal::None:
      return Status::ok();
    case Lease::Refusal::OverGatewayCap:
      return Status::transient("the gateway is unwrapping too much at once: retry later");
    case Lease::Refusal::OverMessageCap:
      break;
  }
  return unexpected("the message unwraps to more than " + std::to_string(lease.cap()) + " bytes (all layers together)");
}

}  // namespace

// Long on purpose: the S/MIME layers in wire order; to split with the AS2 protocol folder.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
Result<Unwrapped> unwrap(const mime::Entity& outer, const UnwrapOptions& options, Lease& lease,
                         bool* signature_verified) {
  Unwrapped out;
  if (signature_verified != nullptr) *signature_verified = false;
  // The layer being read lives in `layer` (or is the caller's `outer`);
  // building the next one replaces it, so at most two are held at once.
  std::string layer;
  std::string_view current;
  auto take_mic = [&](Result<std::string> m) -> Status {
    if (!m.is_ok()) return m.status();
    out.mic = std::move(m.value());
    out.mic_algorithm = options.mic_algorithm;
    return Status::ok();
  };
  auto set_mic = [&](std::string_view covered) { return take_mic(crypto::mic(covered, options.mic_algorithm)); };
  // Set after a decryption while no signature has been read: the MIC covers
  // the decrypted entity unless a signature is next (then the signed part).
  bool mic_of_decrypted = false;
  auto replace_layer = [&](std::string next) {
    lease.give_back(layer.size());
    layer = std::move(next);
    current = layer;
  };
  for (int depth = 0; depth <= options.max_layers; ++depth) {
    mime::Entity e;
    if (depth == 0) {
      e = outer;
    } else if (mime::Error err = mime::parse_entity(current, &e)) {
      return unexpected(err.message);
    }
    // A Content-Type that cannot be read one way only (a parameter given
    // twice) is refused, never read as text/plain or by its first parameter.
    mime::ContentType ct = e.content_type();
    if (const mime::Header* declared = e.find("Content-Type"))
      if (mime::Error err = mime::parse_content_type(declared->value, &ct)) return unexpected(err.message);
    if (mic_of_decrypted) {
      // Hashed only when no signature follows: the signature's MIC would
      // replace it (one pass less over a signed and encrypted message).
      mic_of_decrypted = false;
      if (!ct.is("multipart/signed")) RETURN_IF_ERROR(set_mic(current));
    }

    if (ct.is("multipart/signed")) {
      std::vector<std::string_view> parts;
      if (mime::Error err = mime::split_multipart(e.body, ct.param("boundary"), &parts))
        return unexpected("multipart/signed: " + err.message);
      if (parts.size() != 2)
        return unexpected("multipart/signed has " + std::to_string(parts.size()) + " parts, expected 2");
      mime::Entity signature;
      if (mime::Error err = mime::parse_entity(parts[1], &signature))
        return unexpected("signature part: " + err.message);
      ASSIGN_OR_RETURN(std::string der, decoded_body(signature));
      std::string_view signed_part = parts[0];
      Result<crypto::Verified> v = crypto::verify_detached(signed_part, der, options.signers);
      std::string canonical;
      if (!v.is_ok() && v.status().code() == Code::IntegrityCheckFailed &&
          signed_part.find('\n') != std::string_view::npos) {
        canonical = canonical_crlf(signed_part);
        if (canonical.size() != signed_part.size()) {
          Result<crypto::Verified> again = crypto::verify_detached(canonical, der, options.signers);
          if (again.is_ok()) v = std::move(again);
        }
      }
      if (!v.is_ok()) return v.status();
      if (signature_verified != nullptr) *signature_verified = true;
      const bool canonical_verified = !canonical.empty() && canonical.size() != signed_part.size();
      if (!out.signed_) {
        // The MIC covers what the signature covered: the first part, headers
        // included, in the form that verified (RFC 4130 7.3.1).
        // The signature's own digest of it when the partner asked for that algorithm.
        RETURN_IF_ERROR(take_mic(
            crypto::mic(canonical_verified ? std::string_view(canonical) : signed_part, *v, options.mic_algorithm)));
      }
      out.signed_ = true;
      out.signer_subject = v->signer.subject();
      out.signer_not_after = v->signer.not_after();
      out.signature_digest = v->digest;
      if (canonical_verified) {
        RETURN_IF_ERROR(counted(lease, canonical.size()));
        replace_layer(std::move(canonical));
      } else {
        current = signed_part;  // a view into the layer we hold
      }
      continue;
    }

    if (ct.is("application/pkcs7-mime") || ct.is("application/x-pkcs7-mime")) {
      ASSIGN_OR_RETURN(std::string der, decoded_body(e));
      std::string smime_type = ct.param("smime-type");
      for (char& c : smime_type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      Result<std::string> inner = Status::invalid("");
      if (smime_type == "compressed-data") {
        inner = crypto::decompress(der, lease);
        if (!inner.is_ok()) return inner.status();
        out.compressed = true;
      } else {
        inner = crypto::decrypt(der, options.identities);
        if (!inner.is_ok()) return inner.status();
        RETURN_IF_ERROR(counted(lease, inner->size()));
        // Encrypted, not (yet) signed: the MIC covers the decrypted entity
        // (hashed at the next layer, once it is known not to be a signature).
        mic_of_decrypted = !out.signed_;
        out.encrypted = true;
      }
      replace_layer(std::move(inner.value()));
      continue;
    }

    // The payload.
    ASSIGN_OR_RETURN(std::string body, decoded_body(e));
    const mime::Header* declared = e.find("Content-Type");
    out.content_type = declared != nullptr ? declared->value : ct.type + "/" + ct.subtype;
    out.payload = std::move(body);
    if (!out.signed_ && !out.encrypted) {
      // Neither signed nor encrypted: the MIC covers the content only.
      RETURN_IF_ERROR(set_mic(out.payload));
    }
    return out;
  }
  return unexpected("more than " + std::to_string(options.max_layers) +
                    " layers of encryption, signature and compression");
}

}  // namespace edihub::as2
