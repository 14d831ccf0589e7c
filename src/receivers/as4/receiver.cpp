#include "src/receivers/as4/receiver.h"

#include <Poco/UUIDGenerator.h>
#include <zlib.h>

#include <chrono>
#include <ctime>
#include <map>

#include "parsers/as4/user_message.h"
#include "parsers/edi/parser.h"
#include "parsers/mime/entity.h"
#include "src/crypto/digest.h"
#include "src/receivers/as2/unwrap.h"

namespace edihub::as4 {

namespace {

using as2::mime_body;

const char* kSoapType = "application/soap+xml; charset=UTF-8";

std::string now_utc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

SignalInfo signal_for(const std::string& ref) {
  return {Poco::UUIDGenerator::defaultGenerator().createRandom().toString() + "@edihub", now_utc(), ref};
}

receivers::HttpAnswer error_answer(const Error& e, const std::string& ref, std::string partner = "") {
  receivers::HttpAnswer a;
  a.message_id = ref;
  a.status = e.severity == "warning" ? 200 : 500;  // a warning (EBMS:0006) is a normal answer
  a.headers = {{"Content-Type", kSoapType}};
  a.body = build_error(signal_for(ref), e);
  a.outcome = "rejected";
  a.partner = std::move(partner);
  a.detail = e.code + " " + e.detail;
  return a;
}

// gzip (RFC 1952), bounded.
bool gunzip(std::string_view in, size_t max, std::string* out) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return false;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  char buf[65536];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out->append(buf, sizeof buf - z.avail_out);
    if (out->size() > max || (rc == Z_OK && z.avail_in == 0 && z.avail_out != 0)) rc = Z_DATA_ERROR;
  }
  inflateEnd(&z);
  return rc == Z_STREAM_END;
}

std::string strip_angles(std::string v) {
  if (v.size() >= 2 && v.front() == '<' && v.back() == '>') v = v.substr(1, v.size() - 2);
  return v;
}

}  // namespace

receivers::HttpAnswer Receiver::handle(const receivers::HttpRequest& req) {
  // The SOAP envelope and the attachments by Content-ID.
  const std::string content_type = req.header("Content-Type");
  mime::ContentType ct;
  if (content_type.empty() || mime::parse_content_type(content_type, &ct))
    return error_answer(ebms_error("EBMS:0009", "missing or malformed Content-Type"), "");
  std::string soap;
  std::map<std::string, std::string> attachments;
  std::vector<std::string> layers;  // keeps part bytes alive
  if (ct.is("application/soap+xml")) {
    soap = req.body;
  } else if (ct.is("multipart/related")) {
    std::vector<std::string_view> parts;
    if (mime::Error e = mime::split_multipart(req.body, ct.param("boundary"), &parts))
      return error_answer(ebms_error("EBMS:0009", "multipart/related: " + e.message), "");
    const std::string start = strip_angles(ct.param("start"));
    bool root_found = false;
    for (size_t i = 0; i < parts.size(); ++i) {
      mime::Entity part;
      if (mime::Error e = mime::parse_entity(parts[i], &part))
        return error_answer(ebms_error("EBMS:0009", "MIME part " + std::to_string(i + 1) + ": " + e.message), "");
      const mime::Header* cid = part.find("Content-ID");
      const std::string id = cid ? strip_angles(cid->value) : "";
      Result<std::string> bytes = mime_body(part);
      if (!bytes.is_ok()) return error_answer(ebms_error("EBMS:0009", bytes.status().message()), "");
      if (!root_found && (start.empty() ? i == 0 : id == start)) {
        soap = bytes.value();
        root_found = true;
      } else {
        attachments[id] = bytes.value();
      }
    }
    if (!root_found) return error_answer(ebms_error("EBMS:0009", "no SOAP root part '" + start + "'"), "");
  } else {
    return error_answer(ebms_error("EBMS:0009", "Content-Type '" + ct.type + "/" + ct.subtype +
                                                    "' is neither application/soap+xml nor multipart/related"), "");
  }

  UserMessage um;
  if (Error e = parse_user_message(soap, &um)) return error_answer(e, um.message_id);

  // Parties: From must be a partner, To must be us.
  const config::Partner* partner = context_.partners->as4_sender(um.from[0].id, um.from[0].type);
  if (partner == nullptr)
    return error_answer(ebms_error("EBMS:0001", "unknown sender party '" + um.from[0].id + "' (" + um.from[0].type + ")"),
                        um.message_id);
  bool to_us = false;
  for (const auto& p : um.to)
    to_us = to_us || (p.id == context_.our_party_id && (context_.our_party_type.empty() || p.type == context_.our_party_type));
  if (!to_us)
    return error_answer(ebms_error("EBMS:0003", "eb:To party '" + um.to[0].id + "' is not this gateway ('" +
                                                    context_.our_party_id + "')"),
                        um.message_id, partner->id);

  store::ClaimRequest claim;
  claim.key = store::MessageKey::as4(partner->id, um.message_id);
  claim.raw_sha256 = crypto::sha256_hex(content_type + "\r\n\r\n" + req.body);
  // A byte-identical retransmission of a settled message: the stored Receipt.
  if (auto known = store_.lookup(claim.key); known.is_ok() && known->has_value()) {
    const store::KeyRecord& k = *known.value();
    if (k.state == store::KeyState::Completed && k.raw_sha256 == claim.raw_sha256) {
      receivers::HttpAnswer a;
      a.status = k.receipt.status;
      a.headers = receivers::split_headers(k.receipt.headers);
      a.body = k.receipt.body;
      a.outcome = "duplicate";
      a.partner = partner->id;
      a.message_id = um.message_id;
      return a;
    }
  }

  // Payloads: each PartInfo's part, gunzipped when so declared.
  std::vector<std::string> payloads;
  size_t total = 0;
  Error failure;
  for (const PartInfo& p : um.parts) {
    if (p.href.rfind("cid:", 0) != 0) continue;  // XML in the SOAP body: not EDI
    auto it = attachments.find(p.href.substr(4));
    if (it == attachments.end()) {
      failure = ebms_error("EBMS:0003", "eb:PartInfo " + p.href + " has no MIME part");
      break;
    }
    std::string bytes = it->second;
    if (mime::iequals(p.property("CompressionType"), "application/gzip")) {
      std::string inflated;
      if (!gunzip(bytes, context_.max_payload_bytes - total, &inflated)) {
        failure = ebms_error("EBMS:0303", "payload " + p.href + " is not valid gzip (or too large)");
        break;
      }
      bytes = std::move(inflated);
    }
    total += bytes.size();
    if (total > context_.max_payload_bytes) {
      failure = ebms_error("EBMS:0009", "payloads larger than " + std::to_string(context_.max_payload_bytes) + " bytes");
      break;
    }
    payloads.push_back(std::move(bytes));
  }
  std::string digest_input;
  for (const auto& p : payloads) digest_input += std::to_string(p.size()) + ":" + p;
  claim.payload_sha256 = failure ? claim.raw_sha256 : crypto::sha256_hex(digest_input);

  const std::string soap_headers = std::string("Content-Type: ") + kSoapType + "\r\n";
  gate::Outcome outcome = gate_.pass_leased(store_, claim, [&]() -> Result<store::Settlement> {
    if (failure) {
      return store::Settlement{store::KeyState::Failed,
                               {500, soap_headers, build_error(signal_for(um.message_id), failure)},
                               "rejected", failure.code + " " + failure.detail, {}};
    }
    gate::Arrival arrival{"http", "as4:" + um.message_id, partner->id};
    std::string notes;
    for (const std::string& payload : payloads) {
      edi::ParseResult parsed = edi::parse(payload);
      for (const auto& ic : parsed.interchanges) {
        gate::InterchangeResult r = intake_.process(ic, payload, arrival);
        if (r.outcome == "error") return Status::transient(r.detail);
        notes += r.message_id + " " + r.outcome + "; ";
      }
    }
    return store::Settlement{store::KeyState::Completed,
                             {200, soap_headers, build_receipt(signal_for(um.message_id), um)},
                             "processed", notes, {}};
  });

  receivers::HttpAnswer a;
  a.partner = partner->id;
  a.message_id = um.message_id;
  a.detail = outcome.detail;
  switch (outcome.kind) {
    case gate::Outcome::Kind::Processed:
    case gate::Outcome::Kind::Failed:
    case gate::Outcome::Kind::Duplicate:
    case gate::Outcome::Kind::Poison:
      a.status = outcome.receipt.status;
      a.headers = receivers::split_headers(outcome.receipt.headers);
      a.body = outcome.receipt.body;
      a.outcome = outcome.kind == gate::Outcome::Kind::Processed   ? "processed"
                  : outcome.kind == gate::Outcome::Kind::Duplicate ? "duplicate"
                                                                   : "rejected";
      return a;
    case gate::Outcome::Kind::Conflict: {
      receivers::HttpAnswer e = error_answer(
          ebms_error("EBMS:0004", "conflict: MessageId " + um.message_id + " was already received with different content"),
          um.message_id, partner->id);
      e.outcome = "conflict";
      return e;
    }
    case gate::Outcome::Kind::InFlight:
    case gate::Outcome::Kind::Transient:
      a.status = 503;
      a.headers = {{"Content-Type", "text/plain; charset=utf-8"}, {"Retry-After", "30"}};
      a.body = "temporarily unable to process " + um.message_id + ": retry later\n";
      a.outcome = "error";
      return a;
  }
  return a;
}

receivers::HttpAnswer Receiver::receive(const receivers::HttpRequest& req) {
  const auto started = std::chrono::steady_clock::now();
  receivers::HttpAnswer answer = handle(req);
  receivers::log_transport(store_, "as4", answer.message_id, req, answer, started);
  return answer;
}

}  // namespace edihub::as4
