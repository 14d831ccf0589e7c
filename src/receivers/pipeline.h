// One receive pipeline for every way in (POST /as2, POST /as4, a replayed
// capture). A message passes these stages, each of which continues or
// answers early:
//
//   edge      the headers are data, never structure (edge.h)
//   envelope  who sent it and what it is called: partner, transport key      [protocol]
//   stored    a retransmission of something settled is answered from the store
//   unwrap    decrypt, verify, decompress, bounded per message               [protocol]
//   keys      the EDI interchanges, their keys and documents
//   draft     the receipt a new key settles to, signed outside any lock      [protocol]
//   gate      one commit: keys, business rows, log rows, receipt, capture
//   answer    the outcome as an HTTP answer                                  [protocol]
//
// AS2 and AS4 differ only in the stages marked [protocol] (Protocol below).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/common/budget.h"
#include "src/config/partners.h"
#include "src/gate/gate.h"
#include "src/gate/receipt_policy.h"
#include "src/gate/transport.h"
#include "src/http/message.h"
#include "src/store/store.h"

namespace edihub::receivers {

// Message-log rows of answers that commit nothing (a duplicate answered from
// the store, a refusal at the edge): written off the answer's path. `client`
// is the address the request came from (HttpRequest::peer; empty for a
// replayed file): the server bounds the rows per client (log_throttle.h).
class LogSink {
 public:
  virtual ~LogSink() = default;
  virtual void record(store::MessageLog row, std::string_view client) = 0;
};

// Writes each row at once, in its own transaction (replay: the operator's files, every row).
class DirectLog : public LogSink {
 public:
  explicit DirectLog(store::MessageLogStore& store) : store_(store) {}
  void record(store::MessageLog row, std::string_view /*client*/) override {
    store_.log({std::move(row)}).ignore();  // best effort
  }

 private:
  store::MessageLogStore& store_;
};

// What every receiving thread shares, read-only.
struct Context {
  const config::Partners* partners = nullptr;
  gate::Gate* gate = nullptr;
  LogSink* log = nullptr;
  Budget* unwrap_budget = nullptr;              // bytes being unwrapped gateway-wide (null: no cap)
  size_t max_message_bytes = 100u << 20;        // one message's unwrapped bytes, all layers together
  std::string transport = "http";               // or "replay"
  std::optional<std::string> expected_partner;  // replay --partner: only this partner's messages
  const config::EdiIds* ours = nullptr;         // what interchanges must be addressed to (<edi>); null: any
  bool archive = true;                          // keep the request as a capture
  std::function<void()> queued;                 // called when something may have been queued in the outbox
};

// A received transport message as the stages fill it in.
struct Message {
  Message(const http::HttpRequest& r, const Context& c) : request(r), lease(c.unwrap_budget, c.max_message_bytes) {}
  const http::HttpRequest& request;
  const config::Partner* partner = nullptr;
  gate::TransportWork work;  // key, digests, arrival, settlement, interchanges, capture

  struct Payload {
    std::string content_type;  // as the sender declared it
    std::string bytes;
  };
  std::vector<Payload> payloads;  // after unwrap
  gate::Failure failure = gate::Failure::None;
  std::string failure_text;  // what the partner and the operator read
  // Set by the protocol's unwrap: a signature by one of the partner's
  // certificates verified (even if a later layer failed), and whether its
  // profile requires one. A copy that failed without proving who sent it
  // (see authenticated()) never acts on the partner's key.
  bool signature_verified = false;
  bool signature_required = false;
  Lease lease;                // this message's share of the unwrap budget
  std::string protocol_note;  // e.g. "signed, encrypted" for the log
  std::string capture_head;   // the head as archived: credentials redacted
};

enum class Next { Continue, Answer };

// The stages AS2 and AS4 do differently.
class Protocol {
 public:
  virtual ~Protocol() = default;
  virtual std::string_view name() const = 0;  // "as2", "as4"
  // True when the envelope is in the body (AS4), so screen() cannot read it.
  virtual bool envelope_in_body() const = 0;
  // Sets m.partner, m.work.claim.key and m.work.arrival.transport_id, or
  // answers (malformed, unknown sender, not for us). Reads no more of the
  // body than the envelope needs: screen() runs it on an I/O thread.
  virtual Next envelope(Message& m, http::HttpAnswer* answer) = 0;
  // The digest of the bytes as received, as the outer entity: what tells a
  // byte-identical retransmission (and a replayed capture) apart. Its form
  // is stored with every key: it never changes.
  virtual store::RawDigest raw_digest(const http::HttpRequest& request) const = 0;
  // Fills m.payloads and m.work.claim.payload; a permanent failure sets
  // m.failure instead; a transient one (over the unwrap budget) answers.
  virtual Next unwrap(Message& m, http::HttpAnswer* answer) = 0;
  // The receipt a new key settles to: positive for `outcome` Processed or
  // Archived, negative for m.failure. Error status: cannot be made now.
  virtual Result<store::Receipt> draft(Message& m, Outcome outcome, const std::string& text) = 0;
  // The answer to a copy whose content differs from the stored one.
  virtual Result<store::Receipt> conflict(Message& m, const std::string& detail) = 0;
  // The HTTP answer carrying `receipt` (async receipts are answered 200 and queued).
  virtual http::HttpAnswer answer(Message& m, Outcome outcome, const store::Receipt& receipt) = 0;
  // The id `receipt` goes out under when it is sent on its own (an async
  // MDN's Message-ID); empty: it never is (AS4 answers on the response).
  virtual std::string receipt_message_id(const store::Receipt&) const { return ""; }
  // The keys stage of a message whose payloads are not EDI interchanges (a
  // Peppol Standard Business Document): fills m.work.interchanges, or sets
  // m.failure, and returns true; false: the pipeline reads EDI interchanges.
  virtual bool keys(Message&) { return false; }
};

class Pipeline {
 public:
  // REQUIRES: `store` is this thread's; context and protocol outlive the Pipeline.
  Pipeline(const Context& context, store::Store& store, Protocol& protocol)
      : c_(context), store_(store), p_(protocol) {}

  // Before the body is read: refuses what the headers alone condemn (a bad
  // header, an unknown AS2 sender, its <auth>), so nothing costly is done for
  // it. Needs no store. With `may_hash` false (an I/O thread, which must not
  // block) a check that needs a PBKDF2 is not made: *needs_hash is set and
  // nothing is answered; a worker then screens again with `may_hash` true.
  static std::optional<http::HttpAnswer> screen(const Context& context, Protocol& protocol,
                                                const http::HttpRequest& head, bool may_hash, bool* needs_hash);
  // The whole pipeline; every answer has its `messages` row.
  http::HttpAnswer receive(const http::HttpRequest& request);

 private:
  Next stored(Message& m, http::HttpAnswer* answer);
  void keys(Message& m);
  Next draft(Message& m, http::HttpAnswer* answer);
  http::HttpAnswer refuse_unauthenticated(Message& m);
  http::HttpAnswer admit(Message& m);

  const Context& c_;
  store::Store& store_;
  Protocol& p_;
};

// The answer that carries a stored receipt (its status, header lines and body).
http::HttpAnswer receipt_answer(const store::Receipt& r, Outcome outcome);

// A 503 with Retry-After: nothing was decided, the partner sends again.
http::HttpAnswer retry_later(std::string_view why, Outcome outcome);

// Whether a copy that failed with `m.failure` was still sent by its partner:
// a bad or unknown signature never is, and where the profile requires a
// signature only one that verified proves it (a copy that could not be
// decrypted, or is unsigned, proves nothing). Such a copy is answered, and
// creates, fails, poisons, archives and queues nothing in the partner's name.
bool authenticated(const Message& m);

}  // namespace edihub::receivers
