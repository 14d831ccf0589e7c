#include "src/protocols/as2/mdn_intake.h"

#include "src/common/partner_text.h"
#include "src/identity/partner_auth.h"
#include "src/protocols/as2/partner_mdn.h"
#include "src/receivers/edge.h"

namespace edihub::as2 {

bool is_mdn(const http::HttpRequest& request) { return looks_like_mdn(request.header("Content-Type"), request.body); }

http::HttpAnswer receive_mdn(const http::HttpRequest& r, const receivers::Context& c, const Settings& settings,
                             store::Store& store, const std::function<Mic(const store::OutboxEntry&)>& expected_mic) {
  const auto started = std::chrono::steady_clock::now();
  store::MessageLog row;
  row.protocol = "as2";
  row.transport = c.transport;
  row.transport_id = r.header("Message-ID");
  row.bytes = static_cast<int64_t>(r.body.size());
  auto answer = [&](int status, Outcome outcome, const std::string& text) {
    http::HttpAnswer a = http::text_answer(status, text, outcome);
    if (status == 200) a.body.clear();  // an MDN is not answered with a body
    row.outcome = outcome;
    row.detail = text;
    row.duration_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
    if (c.log != nullptr) c.log->record(row, r.peer);
    a.partner = row.partner_id;
    a.transport_id = row.transport_id;
    return a;
  };
  if (std::optional<std::string> problem = receivers::header_problem(r))
    return answer(400, Outcome::Rejected, *problem);
  std::optional<std::string> from = receivers::as2_id(r.header("AS2-From")), to = receivers::as2_id(r.header("AS2-To"));
  if (!from || !to) return answer(400, Outcome::Rejected, "an MDN needs AS2-From and AS2-To headers (RFC 4130 ids)");
  if (*to != settings.our_as2_id) return answer(403, Outcome::Rejected, "AS2-To '" + *to + "' is not this gateway");
  const config::Partner* partner = settings.partners->as2_sender(*from);
  if (partner == nullptr) return answer(403, Outcome::Rejected, "unknown AS2-From '" + *from + "'");
  row.partner_id = partner->id;
  // The partner's <auth> holds for its MDNs as for its messages, before the signature is checked.
  if (std::optional<http::HttpAnswer> refused = identity::check_partner_auth(*partner, r)) {
    http::HttpAnswer logged = answer(refused->status, Outcome::Rejected, refused->body);
    logged.headers = refused->headers;
    return logged;
  }
  std::vector<crypto::Certificate> certs;
  if (auto it = settings.signing_certificates.find(partner->id); it != settings.signing_certificates.end())
    certs = it->second;
  Result<PartnerMdn> mdn = read_partner_mdn(r.header("Content-Type"), r.body, certs);
  if (!mdn.is_ok()) return answer(400, Outcome::Rejected, "the MDN cannot be used: " + mdn.status().message());
  // Anyone can write an unsigned MDN naming a predictable Message-ID: where
  // the partner signs, one that is not signed by it settles and fails nothing.
  const bool must_be_signed = signature_required_of(*partner, certs.size());
  if (must_be_signed && !mdn->signed_)
    return answer(403, Outcome::Rejected,
                  "the MDN is not signed: partner '" + partner->id + "' must sign its MDNs (nothing was settled)");
  const std::string answers = partner_text(mdn->original_message_id, 200);  // for the log; raw for the look-up
  row.message_id = "as2:" + answers;
  Result<std::optional<store::OutboxEntry>> row_sent = store.outbox_awaiting(partner->id, mdn->original_message_id);
  if (!row_sent.is_ok()) return answer(503, Outcome::Error, row_sent.status().message());
  if (!row_sent.value())
    return answer(200, Outcome::Rejected,
                  "no AS2 message sent to partner '" + partner->id + "' awaits an MDN for " + answers);
  const store::OutboxEntry& e = *row_sent.value();
  const Mic mic = expected_mic(e);
  Status v = verdict(mdn.value(), {e.item.message_id, mic.value, mic.algorithm, must_be_signed});
  Status kept = store.outbox_answered(e.id, v.is_ok(), http::join_headers(r.headers) + "\r\n" + r.body, v.message());
  if (!kept.is_ok()) return answer(503, Outcome::Error, kept.message());
  return v.is_ok() ? answer(200, Outcome::Processed, "MDN for outbox row " + std::to_string(e.id) + ": delivered")
                   : answer(200, Outcome::Rejected,
                            "MDN for outbox row " + std::to_string(e.id) + ": failed: " + v.message());
}

}  // namespace edihub::as2
