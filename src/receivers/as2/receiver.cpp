#include "src/receivers/as2/receiver.h"

#include <Poco/UUIDGenerator.h>

#include <chrono>

#include "parsers/edi/parser.h"
#include "parsers/mime/entity.h"
#include "src/crypto/digest.h"
#include "src/receivers/as2/mdn.h"
#include "src/receivers/as2/unwrap.h"

namespace edihub::as2 {

namespace {

// AS2 ids may be quoted (RFC 4130 6.2).
std::string unquote(std::string s) {
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return s;
}

HttpAnswer text(int status, std::string body, std::string outcome, std::string detail = "") {
  HttpAnswer a;
  a.status = status;
  a.headers = {{"Content-Type", "text/plain; charset=utf-8"}};
  a.body = std::move(body) + "\n";
  a.outcome = std::move(outcome);
  a.detail = detail.empty() ? a.body : std::move(detail);
  return a;
}

HttpAnswer from_receipt(const store::Receipt& r) {
  HttpAnswer a;
  a.status = r.status == 0 ? 200 : r.status;
  a.headers = split_headers(r.headers);
  a.body = r.body;
  return a;
}

}  // namespace




Result<As2Context> As2Context::load(std::string our_as2_id, std::vector<crypto::Identity> identities,
                                    const config::Partners& partners) {
  As2Context c;
  c.our_as2_id = std::move(our_as2_id);
  c.identities = std::move(identities);
  c.partners = &partners;
  for (const auto& p : partners.all()) {
    for (const auto& file : p.signing_certificates) {
      auto cert = crypto::Certificate::load_pem_file(file);
      if (!cert.is_ok()) return Status::invalid("partner '" + p.id + "': " + cert.status().message());
      c.signing_certificates[p.id].push_back(cert.value());
    }
  }
  return c;
}

Result<As2Context> As2Context::from_config(const config::Gateway& gw, const config::Partners& partners) {
  std::vector<crypto::Identity> identities;
  for (const auto& id : gw.identities) {
    auto cert = crypto::Certificate::load_pem_file(id.cert);
    if (!cert.is_ok()) return Status::invalid("identity: " + cert.status().message());
    auto key = crypto::PrivateKey::load_pem_file(id.key);
    if (!key.is_ok()) return Status::invalid("identity: " + key.status().message());
    identities.push_back({cert.value(), key.value()});
  }
  return load(gw.as2_id, std::move(identities), partners);
}


HttpAnswer Receiver::handle(const HttpRequest& req) {
  const std::string from = unquote(req.header("AS2-From")), to = unquote(req.header("AS2-To"));
  const std::string message_id = req.header("Message-ID");
  for (const auto& [name, value] : {std::pair<const char*, const std::string*>{"AS2-From", &from},
                                    {"AS2-To", &to}, {"Message-ID", &message_id}})
    if (value->empty()) return text(400, std::string("missing ") + name + " header", "rejected");
  if (to != context_.our_as2_id)
    return text(403, "AS2-To '" + to + "' is not this gateway ('" + context_.our_as2_id + "')", "rejected");
  const config::Partner* partner = context_.partners->as2_sender(from);
  if (partner == nullptr) return text(403, "unknown AS2-From '" + from + "': no partner profile lists it", "rejected");

  // Async MDN: only to a URL the partner's profile allows.
  const std::string async_url = req.header("Receipt-Delivery-Option");
  if (!async_url.empty() && !partner->allows_async_mdn(async_url))
    return text(403, "Receipt-Delivery-Option '" + async_url + "' is not allowed for partner '" + partner->id +
                         "' (see <mdn async-url-allow> in its profile)",
                "rejected");
  // An async answer: HTTP 200 now, the MDN through the outbox.
  auto queue_mdn = [&](const store::Receipt& receipt) {
    store::OutboxItem item{partner->id, "mdn", "as2:" + message_id, async_url, receipt.headers, receipt.body};
    return item;
  };
  auto async_answer = [&](const std::string& outcome) {
    HttpAnswer a;
    a.status = 200;
    a.partner = partner->id;
    a.outcome = outcome;
    a.detail = "MDN queued for " + async_url;
    if (context_.queued) context_.queued();
    return a;
  };

  // The outer entity: the HTTP headers that describe the body, then the body.
  const std::string content_type = req.header("Content-Type");
  if (content_type.empty()) return text(400, "missing Content-Type header", "rejected");
  std::string entity = "Content-Type: " + content_type + "\r\n";
  if (std::string cte = req.header("Content-Transfer-Encoding"); !cte.empty())
    entity += "Content-Transfer-Encoding: " + cte + "\r\n";
  entity += "\r\n" + req.body;

  store::ClaimRequest claim;
  claim.key = store::MessageKey::as2(partner->id, message_id);
  claim.raw_sha256 = crypto::sha256_hex(entity);

  // A byte-identical retransmission of a settled message: the stored MDN, with
  // no private-key operation.
  if (auto known = store_.lookup(claim.key); known.is_ok() && known->has_value()) {
    const store::KeyRecord& k = *known.value();
    if (k.state == store::KeyState::Completed && k.raw_sha256 == claim.raw_sha256) {
      if (!async_url.empty()) {
        if (!store_.enqueue(queue_mdn(k.receipt)).is_ok()) return text(503, "store unavailable", "error");
        return async_answer("duplicate");
      }
      HttpAnswer a = from_receipt(k.receipt);
      a.outcome = "duplicate";
      a.partner = partner->id;
      return a;
    }
  }

  const ReceiptRequest receipt_request = parse_disposition_options(req.header("Disposition-Notification-Options"));
  auto mdn_for = [&](const std::string& modifier, const std::string& mic, const std::string& mic_alg,
                     const std::string& human) -> Result<store::Receipt> {
    MdnContent c;
    c.our_as2_id = context_.our_as2_id;
    c.partner_as2_id = from;
    c.original_message_id = message_id;
    c.mic = mic;
    c.mic_algorithm = mic_alg;
    c.modifier = modifier;
    c.text = human;
    const std::string uuid = Poco::UUIDGenerator::defaultGenerator().createRandom().toString();
    c.message_id = "<" + uuid + "@" + context_.our_as2_id + ">";
    c.boundary = uuid;
    const crypto::Identity* signer = context_.identities.empty() ? nullptr : &context_.identities.front();
    Result<Mdn> mdn = build_mdn(c, receipt_request, signer);
    if (!mdn.is_ok()) return mdn.status();
    return store::Receipt{200, mdn->headers, mdn->body};
  };

  UnwrapOptions options;
  options.identities = context_.identities;
  if (auto it = context_.signing_certificates.find(partner->id); it != context_.signing_certificates.end())
    options.signers = it->second;
  options.mic_algorithm = receipt_request.micalg;
  options.max_decompressed_bytes = context_.max_decompressed_bytes;
  Result<Unwrapped> unwrapped = unwrap(entity, options);

  std::string failure, modifier;
  if (!unwrapped.is_ok()) {
    failure = unwrapped.status().message();
    modifier = std::string(disposition_modifier(unwrapped.status()));
  } else if (partner->require_signature && !unwrapped->signed_) {
    failure = "insufficient-message-security: partner '" + partner->id + "' must sign its messages";
    modifier = "insufficient-message-security";
  } else if (partner->require_encryption && !unwrapped->encrypted) {
    failure = "insufficient-message-security: partner '" + partner->id + "' must encrypt its messages";
    modifier = "insufficient-message-security";
  }

  HttpAnswer answer;
  answer.partner = partner->id;
  gate::Outcome outcome;
  if (!failure.empty()) {
    // Permanent: stored as failed with its negative MDN; a retransmission runs again.
    claim.payload_sha256 = claim.raw_sha256;
    outcome = gate_.pass_leased(store_, claim, [&]() -> Result<store::Settlement> {
      Result<store::Receipt> r = mdn_for(modifier, "", "", "The message " + message_id + " could not be processed: " + failure);
      if (!r.is_ok()) return r.status();
      store::Settlement settlement{store::KeyState::Failed, r.value(), "rejected", failure, {}};
      if (!async_url.empty()) settlement.outbox.push_back(queue_mdn(r.value()));
      return settlement;
    });
  } else {
    const Unwrapped& u = unwrapped.value();
    claim.payload_sha256 = crypto::sha256_hex(u.payload);
    outcome = gate_.pass_leased(store_, claim, [&]() -> Result<store::Settlement> {
      edi::ParseResult parsed = edi::parse(u.payload);
      gate::Arrival arrival{"http", message_id, partner->id};
      std::string notes;
      for (const auto& ic : parsed.interchanges) {
        gate::InterchangeResult r = intake_.process(ic, u.payload, arrival);
        if (r.outcome == "error") return Status::transient(r.detail);  // no MDN: the partner retries
        notes += r.message_id + " " + r.outcome + (r.detail.empty() ? "" : " (" + r.detail + ")") + "; ";
      }
      if (parsed.interchanges.empty()) {
        const std::string why = parsed.errors.empty() ? "no X12 or EDIFACT interchange in the payload"
                                                      : parsed.errors[0].text;
        Result<store::Receipt> r = mdn_for("unexpected-processing-error", u.mic, u.mic_algorithm,
                                           "The message " + message_id + " carries no EDI: " + why);
        if (!r.is_ok()) return r.status();
        store::Settlement settlement{store::KeyState::Failed, r.value(), "rejected", why, {}};
        if (!async_url.empty()) settlement.outbox.push_back(queue_mdn(r.value()));
        return settlement;
      }
      Result<store::Receipt> r = mdn_for("", u.mic, u.mic_algorithm,
                                         "The message " + message_id + " was received and processed: " + notes);
      if (!r.is_ok()) return r.status();
      store::Settlement settlement{store::KeyState::Completed, r.value(), "processed", notes, {}};
      if (!async_url.empty()) settlement.outbox.push_back(queue_mdn(r.value()));
      return settlement;
    });
  }

  switch (outcome.kind) {
    case gate::Outcome::Kind::Processed:
    case gate::Outcome::Kind::Failed:
    case gate::Outcome::Kind::Duplicate:
    case gate::Outcome::Kind::Poison: {
      const bool settled_now =
          outcome.kind == gate::Outcome::Kind::Processed || outcome.kind == gate::Outcome::Kind::Failed;
      if (!async_url.empty()) {
        // Settled now: queued with the settlement. Seen before: queued again.
        if (!settled_now && !store_.enqueue(queue_mdn(outcome.receipt)).is_ok())
          return text(503, "store unavailable", "error");
        HttpAnswer a = async_answer(outcome.kind == gate::Outcome::Kind::Processed   ? "processed"
                                    : outcome.kind == gate::Outcome::Kind::Duplicate ? "duplicate"
                                                                                     : "rejected");
        return a;
      }
      answer = from_receipt(outcome.receipt);
      answer.partner = partner->id;
      answer.outcome = outcome.kind == gate::Outcome::Kind::Processed   ? "processed"
                       : outcome.kind == gate::Outcome::Kind::Duplicate ? "duplicate"
                                                                        : "rejected";
      answer.detail = outcome.detail;
      return answer;
    }
    case gate::Outcome::Kind::Conflict: {
      // Message-ID reused for other content: an error MDN, not stored; the
      // original keeps its receipt.
      Result<store::Receipt> r = mdn_for("unexpected-processing-error", "", "",
                                         "Message-ID " + message_id + " was already used for different content");
      if (!r.is_ok()) return text(500, r.status().message(), "error");
      if (!async_url.empty()) {
        if (!store_.enqueue(queue_mdn(r.value())).is_ok()) return text(503, "store unavailable", "error");
        HttpAnswer a = async_answer("conflict");
        a.detail = outcome.detail;
        return a;
      }
      answer = from_receipt(r.value());
      answer.partner = partner->id;
      answer.outcome = "conflict";
      answer.detail = outcome.detail;
      return answer;
    }
    case gate::Outcome::Kind::InFlight:
    case gate::Outcome::Kind::Transient: {
      HttpAnswer busy = text(503, "temporarily unable to process " + message_id + ": retry later", "error",
                             outcome.detail);
      busy.headers.emplace_back("Retry-After", "30");
      busy.partner = partner->id;
      return busy;
    }
  }
  return text(500, "unexpected gate outcome", "error");
}

HttpAnswer Receiver::receive(const HttpRequest& req) {
  const auto started = std::chrono::steady_clock::now();
  HttpAnswer answer = handle(req);
  // The transport message's own row (its interchanges have theirs).
  log_transport(store_, "as2", req.header("Message-ID"), req, answer, started);
  return answer;
}

}  // namespace edihub::as2
