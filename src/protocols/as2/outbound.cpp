#include "src/protocols/as2/outbound.h"

#include "parsers/mime/entity.h"
#include "parsers/mime/transfer.h"
#include "src/http/client.h"
#include "src/http/message.h"
#include "src/protocols/as2/partner_mdn.h"

namespace edihub::as2 {

namespace {

delivery::Attempt failed(std::string why) {
  return delivery::Attempt{delivery::Attempt::Kind::Failed, "", std::move(why)};
}

std::string quoted_id(const std::string& id) {
  for (char c : id)
    if (c == ' ' || c == '"' || c == '\\') return "\"" + id + "\"";
  return id;
}

}  // namespace

std::string as2_entity(const store::OutboxEntry& e) {
  const char* type = store::acknowledgment_media_type(e.item.kind);
  return std::string("Content-Type: ") + type + "\r\nContent-Transfer-Encoding: binary\r\n\r\n" + e.item.body;
}

std::string as2_signed_entity(const store::OutboxEntry& e, const config::Partner& partner) {
  if (!partner.as2.compress) return as2_entity(e);
  return "Content-Type: application/pkcs7-mime; smime-type=compressed-data; name=\"smime.p7z\"\r\n"
         "Content-Transfer-Encoding: binary\r\n\r\n" +
         crypto::compress(as2_entity(e));
}

as2::Mic as2_expected_mic(const store::OutboxEntry& e, const config::Partner& partner) {
  return {crypto::mic(as2_signed_entity(e, partner), partner.as2.digest).value(), partner.as2.digest};
}

as2::Mic as2_expected_mic_now(const store::OutboxEntry& e, const config::Partners& partners) {
  const config::Partner* p = partners.find(e.item.partner_id);
  return as2_expected_mic(e, p != nullptr ? *p : config::Partner{});
}

Result<delivery::Prepared> build_as2(const store::OutboxEntry& e, const config::Partner& partner,
                                     const As2Outbound& o) {
  if (o.settings->identities.empty()) return Status::invalid("this gateway has no identity to sign with");
  if (partner.certificates.encryption.empty())
    return Status::invalid("partner '" + partner.id + "' has no <certificate use=\"encryption\"> to encrypt to");
  Result<crypto::Certificate> to = crypto::Certificate::load_pem_file(partner.certificates.encryption);
  if (!to.is_ok()) return to.status();
  // Signed: multipart/signed over the entity, as RFC 1847 and 4130 have it.
  const std::string entity = as2_signed_entity(e, partner);
  Result<std::string> signature = crypto::sign_detached(entity, o.settings->identities.front(), partner.as2.digest);
  if (!signature.is_ok()) return signature.status();
  const std::string boundary = "----=_edihub_ack_" + std::to_string(e.id);
  const std::string signed_entity =
      "Content-Type: multipart/signed; protocol=\"application/pkcs7-signature\"; micalg=" + partner.as2.digest +
      "; boundary=\"" + boundary + "\"\r\n\r\n--" + boundary + "\r\n" + entity + "\r\n--" + boundary +
      "\r\nContent-Type: application/pkcs7-signature; name=smime.p7s\r\nContent-Transfer-Encoding: base64\r\n"
      "Content-Disposition: attachment; filename=smime.p7s\r\n\r\n" +
      mime::base64_encode_lines(signature.value()) + "--" + boundary + "--\r\n";
  // Then encrypted to the partner.
  Result<std::string> enveloped =
      crypto::encrypt(signed_entity, to.value(), partner.as2.cipher,
                      partner.as2.rsa_oaep ? crypto::KeyTransport::RsaOaep : crypto::KeyTransport::RsaPkcs1);
  if (!enveloped.is_ok()) return enveloped.status();
  const bool async = partner.acknowledgments.mdn == config::Partner::Acknowledgments::Mdn::Async;
  if (async && o.receipt_url.empty())
    return Status::invalid("partner '" + partner.id +
                           "' asks for async MDNs but this gateway has no <listen public-url> to receive them");
  std::string headers = "AS2-Version: 1.2\r\nAS2-From: " + quoted_id(o.settings->our_as2_id) +
                        "\r\nAS2-To: " + quoted_id(partner.as2.send_id) + "\r\nMessage-ID: " + e.item.message_id +
                        "\r\nSubject: " + e.item.kind +
                        " acknowledgment\r\nMIME-Version: 1.0\r\n"
                        "Disposition-Notification-To: " +
                        o.settings->our_as2_id +
                        "\r\nDisposition-Notification-Options: signed-receipt-protocol=optional, pkcs7-signature; "
                        "signed-receipt-micalg=optional, " +
                        partner.as2.digest + "\r\n";
  if (async) headers += "Receipt-Delivery-Option: " + o.receipt_url + "\r\n";
  headers +=
      "Content-Type: application/pkcs7-mime; smime-type=enveloped-data; name=\"smime.p7m\"\r\n"
      "Content-Transfer-Encoding: binary\r\n";
  return delivery::Prepared{std::move(headers), std::move(enveloped.value())};
}

Result<delivery::Prepared> prepare_as2(const store::OutboxEntry& e, const As2Outbound& o) {
  const config::Partner* partner = o.partners->find(e.item.partner_id);
  if (partner == nullptr) return Status::invalid("partner '" + e.item.partner_id + "' is no longer configured");
  return build_as2(e, *partner, o);
}

delivery::Attempt deliver_as2(const store::OutboxEntry& e, const As2Outbound& o) {
  const config::Partner* partner = o.partners->find(e.item.partner_id);
  if (partner == nullptr) return failed("partner '" + e.item.partner_id + "' is no longer configured");
  if (e.prepared.empty()) return failed("the AS2 message was not prepared");
  delivery::Attempt a;
  // The profile's URL now, not the one at enqueue: an operator who fixes a
  // partner's URL and retries means the new one (same bytes, same Message-ID).
  const std::string& url = partner->as2.url.empty() ? e.item.destination : partner->as2.url;
  http::Response r = http::post(url, e.prepared_headers, e.prepared, o.options.timeout_seconds);
  if (r.status == 0 || r.status >= 500 || r.status == 408 || r.status == 429) {
    a.kind = delivery::Attempt::Kind::Retry;
    a.error = r.status == 0 ? r.error : "HTTP " + std::to_string(r.status);
    return a;
  }
  if (r.status >= 300) {
    a.kind = delivery::Attempt::Kind::Failed;
    a.error = "HTTP " + std::to_string(r.status) + " from the partner";
    return a;
  }
  const bool async = partner->acknowledgments.mdn == config::Partner::Acknowledgments::Mdn::Async;
  http::HttpRequest answer;
  answer.headers = http::split_headers(r.headers);
  const std::string content_type = answer.header("Content-Type");
  if (async && !as2::looks_like_mdn(content_type, r.body)) {
    a.kind = delivery::Attempt::Kind::Sent;  // its MDN comes to /as2
    return a;
  }
  std::vector<crypto::Certificate> certs;
  if (auto it = o.settings->signing_certificates.find(partner->id); it != o.settings->signing_certificates.end())
    certs = it->second;
  Result<as2::PartnerMdn> mdn = as2::read_partner_mdn(content_type, r.body, certs);
  if (!mdn.is_ok()) {
    a.kind = delivery::Attempt::Kind::Failed;
    a.error = mdn.status().message();
    return a;
  }
  as2::Mic mic = as2_expected_mic(e, *partner);
  Status v = as2::verdict(
      mdn.value(), {e.item.message_id, mic.value, mic.algorithm, as2::signature_required_of(*partner, certs.size())});
  a.kind = v.is_ok() ? delivery::Attempt::Kind::Delivered : delivery::Attempt::Kind::Failed;
  a.error = v.message();
  a.receipt = r.headers + "\r\n" + r.body;
  return a;
}

}  // namespace edihub::as2
