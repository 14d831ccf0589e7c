#include "src/protocols/as4/inbound.h"

#include <algorithm>
#include <ctime>
#include <set>

#include "parsers/mime/entity.h"
#include "parsers/mime/transfer.h"
#include "src/common/partner_text.h"
#include "src/common/utc.h"
#include "src/crypto/inflate.h"
#include "src/crypto/random.h"

namespace edihub::as4 {

using http::HttpAnswer;
using receivers::Message;
using receivers::Next;

namespace {

const char* kSoapType = "application/soap+xml; charset=UTF-8";
constexpr std::string_view kTestService = "http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/service";

std::string now_utc() { return iso_utc(static_cast<int64_t>(std::time(nullptr)) * 1000); }

SignalInfo signal_for(const std::string& ref) { return {crypto::random_uuid() + "@edihub", now_utc(), ref}; }

store::Receipt error_receipt(const Error& e, const std::string& ref) {
  // A warning (EBMS:0006) is a normal answer; a failure a SOAP fault status.
  return {e.severity == "warning" ? 200 : 500, std::string("Content-Type: ") + kSoapType + "\r\n",
          build_error(signal_for(ref), e)};
}

Next refuse(HttpAnswer* answer, const Error& e, const std::string& ref) {
  *answer = receivers::receipt_answer(error_receipt(e, ref),
                                      e.severity == "warning" ? Outcome::Processed : Outcome::Rejected);
  answer->detail = e.code + " " + e.detail;
  return Next::Answer;
}

std::string strip_angles(std::string v) {
  if (v.size() >= 2 && v.front() == '<' && v.back() == '>') v = v.substr(1, v.size() - 2);
  return v;
}

gate::Failure failure_of(const crypto::wss::Failure& f) {
  if (f.code == "EBMS:0101") return gate::Failure::AuthenticationFailed;
  if (f.code == "EBMS:0102") return gate::Failure::DecryptionFailed;
  if (f.code == "EBMS:0103") return gate::Failure::InsufficientSecurity;
  if (f.code == "EBMS:0009") return gate::Failure::Malformed;
  return gate::Failure::Configuration;
}

}  // namespace

std::string_view ebms_code(gate::Failure f) {
  using gate::Failure;
  switch (f) {
    case Failure::DecryptionFailed:
      return "EBMS:0102";
    case Failure::AuthenticationFailed:
    case Failure::IntegrityCheckFailed:
      return "EBMS:0101";
    case Failure::DecompressionFailed:
      return "EBMS:0303";
    case Failure::InsufficientSecurity:
      return "EBMS:0103";
    case Failure::Malformed:
      return "EBMS:0009";
    // The payload names a sender or receiver inconsistent with the P-Mode.
    case Failure::SenderNotAuthorized:
    case Failure::NotAddressedToUs:
      return "EBMS:0003";
    default:
      return "EBMS:0004";
  }
}

Result<Settings> Settings::from_config(const config::Gateway& gw, const config::Partners& partners) {
  ASSIGN_OR_RETURN(identity::SigningCertificates certs, identity::load_signing_certificates(partners));
  ASSIGN_OR_RETURN(std::vector<crypto::Identity> identities, identity::load_identities(gw));
  return Settings{gw.as4_party_id, gw.as4_party_type, &partners, std::move(certs), std::move(identities)};
}

Result<store::Receipt> As4Protocol::signed_if_authenticated(store::Receipt receipt) const {
  if (!security_.is_signed) return receipt;
  if (s_.identities.empty()) return Status::invalid("no identity to sign the Receipt with (<identity> in the config)");
  ASSIGN_OR_RETURN(std::string signed_body, crypto::wss::sign_envelope(receipt.body, s_.identities.front()));
  receipt.body = std::move(signed_body);
  return receipt;
}

const Network* As4Protocol::network_of(const Message& m) const {
  return s_.network != nullptr && m.partner != nullptr && s_.network->serves(*m.partner) ? s_.network : nullptr;
}

bool As4Protocol::check_security(Message& m) {
  std::vector<crypto::wss::Attachment> parts;
  for (const auto& [id, bytes] : attachments_) parts.push_back({id, bytes});
  crypto::wss::Policy policy;
  policy.require_signature = m.partner->as4.require_signature;
  policy.require_encryption = m.partner->as4.require_encryption;
  policy.identities = s_.identities;
  if (auto it = s_.signing_certificates.find(m.partner->id); it != s_.signing_certificates.end())
    policy.signers = it->second;
  if (const Network* network = network_of(m))
    policy.trust = [this, network](const crypto::Certificate& c) { return network->check_signer(c, um_); };
  crypto::wss::Failure f = crypto::wss::check(soap_, parts, policy, &security_);
  if (!f && security_.is_signed)
    if (const std::string why = identity::expired_signer(*m.partner, security_.signer.subject(),
                                                         security_.signer.not_after(), std::time(nullptr));
        !why.empty()) {
      security_.is_signed = false;  // not authenticated: the answer is not signed
      f = {"EBMS:0101", why};
    }
  if (f) {
    m.failure = failure_of(f);
    m.failure_text = f.detail;
    error_code_ = f.code;
    return false;
  }
  // From here on the payloads are the decrypted attachments.
  for (const auto& [cid, plain] : security_.decrypted) {
    attachments_[cid] = plain;
    if (const std::string& type = security_.mime_types[cid]; !type.empty()) attachment_types_[cid] = type;
  }
  // The security header is processed: it is no MustUnderstand fault.
  auto& blocks = um_.not_understood;
  blocks.erase(std::remove_if(blocks.begin(), blocks.end(),
                              [](const auto& b) { return b.first == crypto::wss::kWsseNs && b.second == "Security"; }),
               blocks.end());
  return true;
}

// Long on purpose: the AS4 envelope stage in wire order; to split with the AS4 protocol folder.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
Next As4Protocol::envelope(Message& m, HttpAnswer* answer) {
  const http::HttpRequest& r = m.request;
  const std::string content_type = r.header("Content-Type");
  mime::ContentType ct;
  if (content_type.empty()) return refuse(answer, ebms_error("EBMS:0009", "missing Content-Type"), "");
  if (mime::Error e = mime::parse_content_type(content_type, &ct))
    return refuse(answer, ebms_error("EBMS:0009", "malformed Content-Type: " + partner_text(e.message, 300)), "");
  if (ct.is("application/soap+xml")) {
    soap_ = r.body;
  } else if (ct.is("multipart/related")) {
    std::vector<std::string_view> parts;
    if (mime::Error e = mime::split_multipart(r.body, ct.param("boundary"), &parts))
      return refuse(answer, ebms_error("EBMS:0009", "multipart/related: " + e.message), "");
    const std::string start = strip_angles(ct.param("start"));
    bool root_found = false;
    std::set<std::string> ids;
    for (size_t i = 0; i < parts.size(); ++i) {
      mime::Entity part;
      if (mime::Error e = mime::parse_entity(parts[i], &part))
        return refuse(answer, ebms_error("EBMS:0009", "MIME part " + std::to_string(i + 1) + ": " + e.message), "");
      const mime::Header* cid = part.find("Content-ID");
      const std::string id = cid ? strip_angles(cid->value) : "";
      // One part per Content-ID (the root's included): with two, the
      // signature and the payload could be read from different ones.
      if (!id.empty() && !ids.insert(id).second)
        return refuse(answer,
                      ebms_error("EBMS:0009", "MIME part " + std::to_string(i + 1) + " repeats Content-ID <" +
                                                  partner_text(id, 200) + ">: the message could be read two ways"),
                      "");
      std::string_view bytes = part.body;
      if (const mime::Header* cte = part.find("Content-Transfer-Encoding");
          cte != nullptr && !mime::iequals(cte->value, "binary") && !mime::iequals(cte->value, "8bit") &&
          !mime::iequals(cte->value, "7bit")) {
        std::string decoded;
        if (mime::Error e = mime::decode_body(part, &decoded))
          return refuse(answer, ebms_error("EBMS:0009", "MIME part " + std::to_string(i + 1) + ": " + e.message), "");
        bytes = decoded_[id.empty() ? "#" + std::to_string(i) : id] = std::move(decoded);
      }
      if (!root_found && (start.empty() ? i == 0 : id == start)) {
        soap_ = bytes;
        root_found = true;
      } else {
        attachments_[id] = bytes;
        const mime::Header* type = part.find("Content-Type");
        attachment_types_[id] = type != nullptr ? type->value : "application/octet-stream";
      }
    }
    if (!root_found)
      return refuse(answer, ebms_error("EBMS:0009", "no SOAP root part '" + partner_text(start, 200) + "'"), "");
  } else {
    return refuse(answer,
                  ebms_error("EBMS:0009", "Content-Type '" + partner_text(ct.type + "/" + ct.subtype, 100) +
                                              "' is neither application/soap+xml nor multipart/related"),
                  "");
  }

  if (Error e = parse_user_message(soap_, &um_)) {
    m.work.arrival.transport_id = um_.message_id;
    return refuse(answer, e, um_.message_id);
  }
  m.work.arrival.transport_id = um_.message_id;
  // Parties: From must be a partner, To must be us.
  m.partner = s_.partners->as4_sender(um_.from[0].id, um_.from[0].type);
  if (m.partner == nullptr && s_.network != nullptr) m.partner = s_.network->sender(um_);
  if (m.partner == nullptr)
    return refuse(answer,
                  ebms_error("EBMS:0001", "unknown sender party '" + partner_text(um_.from[0].id, 256) + "' (" +
                                              partner_text(um_.from[0].type, 256) + ")"),
                  um_.message_id);
  if (m.work.arrival.expected_partner && *m.work.arrival.expected_partner != m.partner->id) {
    const config::Partner* p = m.partner;
    m.partner = nullptr;
    return refuse(answer,
                  ebms_error("EBMS:0001", "sender party belongs to partner '" + p->id + "', not '" +
                                              *m.work.arrival.expected_partner + "'"),
                  um_.message_id);
  }
  if (const Network* network = network_of(m)) {
    // The network's P-Mode: its agreement, party types, our seat, its properties.
    if (Error e = network->check_envelope(um_)) return refuse(answer, e, um_.message_id);
    m.work.claim.key = store::MessageKey::as4(m.partner->id, um_.message_id);
    return Next::Continue;
  }
  bool to_us = false;
  for (const auto& p : um_.to)
    to_us = to_us || (p.id == s_.our_party_id && (s_.our_party_type.empty() || p.type == s_.our_party_type));
  if (!to_us)
    return refuse(answer,
                  ebms_error("EBMS:0003", "eb:To party '" + partner_text(um_.to[0].id, 256) +
                                              "' is not this gateway ('" + s_.our_party_id + "')"),
                  um_.message_id);
  m.work.claim.key = store::MessageKey::as4(m.partner->id, um_.message_id);
  return Next::Continue;
}

// The request's Content-Type, a blank line, the body.
store::RawDigest As4Protocol::raw_digest(const http::HttpRequest& r) const {
  return store::RawDigest::of({r.header("Content-Type"), "\r\n\r\n", r.body});
}

Next As4Protocol::unwrap(Message& m, HttpAnswer* answer) {
  m.signature_required = m.partner->as4.require_signature;
  const bool secure = check_security(m);
  m.signature_verified = security_.is_signed;  // false for an expired signer too
  if (!secure) return Next::Continue;
  if (!um_.not_understood.empty()) {
    // Never a Receipt for a message whose security (or other) header this
    // gateway does not process: a SOAP MustUnderstand fault.
    *answer = receivers::receipt_answer(
        {500, std::string("Content-Type: ") + kSoapType + "\r\n", build_must_understand_fault(um_.not_understood)},
        Outcome::Rejected);
    answer->detail = "MustUnderstand fault: " + partner_text(um_.not_understood[0].second, 100) + " (" +
                     partner_text(um_.not_understood[0].first, 200) + ") is not processed by this gateway";
    return Next::Answer;
  }
  for (const PartInfo& p : um_.parts) {
    if (p.href.rfind("cid:", 0) != 0) {
      // XML in the SOAP Body: not EDI; the capture keeps it.
      m.payloads.push_back({"application/xml", std::string(soap_)});
      continue;
    }
    const std::string id = p.href.substr(4);
    auto it = attachments_.find(id);
    if (it == attachments_.end()) {
      m.failure = gate::Failure::Malformed;
      m.failure_text = "eb:PartInfo " + partner_text(p.href, 200) + " has no MIME part";
      error_code_ = "EBMS:0003";
      return Next::Continue;
    }
    std::string bytes;
    if (mime::iequals(p.property("CompressionType"), "application/gzip")) {
      Result<std::string> inflated = crypto::inflate(it->second, crypto::Wrapping::Gzip, m.lease);
      if (!inflated.is_ok()) {
        if (inflated.status().kind() == Status::Kind::Transient) {
          *answer = receivers::retry_later(inflated.status().message(), Outcome::Error);
          return Next::Answer;
        }
        m.failure = gate::Failure::DecompressionFailed;
        m.failure_text = "payload " + partner_text(p.href, 200) +
                         " is not valid gzip (or too large): " + inflated.status().message();
        return Next::Continue;
      }
      bytes = std::move(inflated.value());
    } else {
      bytes = std::string(it->second);
    }
    const std::string mime_type = p.property("MimeType");
    m.payloads.push_back({mime_type.empty() ? attachment_types_[id] : mime_type, std::move(bytes)});
  }
  if (um_.parts.empty() && um_.service == kTestService) {
    // The ebMS test service ("ping"): nothing to handle; the envelope is what is kept.
    m.payloads.push_back({"application/xml", std::string(soap_)});
  }
  std::string digest_input;
  for (const auto& p : m.payloads) digest_input += std::to_string(p.bytes.size()) + ":" + p.bytes;
  m.work.claim.payload = store::PayloadDigest::of(digest_input);
  return Next::Continue;
}

Result<store::Receipt> As4Protocol::draft(Message& m, Outcome outcome, const std::string& text) {
  if (outcome != Outcome::Rejected) {
    // A signed message gets the signed form: NonRepudiationInformation, no copy of the message.
    const SignalInfo info = signal_for(um_.message_id);
    return signed_if_authenticated(
        {200, std::string("Content-Type: ") + kSoapType + "\r\n",
         security_.is_signed ? build_nr_receipt(info, security_.references) : build_receipt(info, um_)});
  }
  const std::string code = error_code_.empty() ? std::string(ebms_code(m.failure)) : error_code_;
  Error e = ebms_error(code, m.failure_text.empty() ? text : m.failure_text);
  e.error_detail = error_detail_;
  return signed_if_authenticated(error_receipt(e, um_.message_id));
}

bool As4Protocol::keys(Message& m) {
  const Network* network = network_of(m);
  if (network == nullptr) return false;
  Error e;
  network->keys(m, um_, &e);
  if (e) {
    error_code_ = e.code;
    error_detail_ = e.error_detail;
  }
  return true;
}

Result<store::Receipt> As4Protocol::conflict(Message&, const std::string&) {
  return signed_if_authenticated(
      error_receipt(ebms_error("EBMS:0004", "conflict: MessageId " + partner_text(um_.message_id, 256) +
                                                " was already received with different content"),
                    um_.message_id));
}

HttpAnswer As4Protocol::answer(Message&, Outcome outcome, const store::Receipt& receipt) {
  return receivers::receipt_answer(receipt, outcome);
}

}  // namespace edihub::as4
