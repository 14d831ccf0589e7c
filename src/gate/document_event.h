// The back office's view of a booked document: one JSON event per document
// version (partner, number, document date, purpose), queued in the outbox in
// the transaction that books it, to the partner's <documents> webhook or
// directory. Its id, the webhook's Idempotency-Key, names that version: the
// gateway's retries, a replay, a restart send the same key; a replacement or
// a cancellation is a new version and a new key.
#pragma once

#include <string>

#include "src/config/partners.h"
#include "src/gate/interchanges.h"
#include "src/store/outbox.h"
#include "src/store/transaction.h"

namespace edihub::gate {

// "shipment-notice:acme:ASN-1001": the document whose versions these are (its
// events are delivered in the order they were queued, OutboxItem::order_key).
std::string document_key(const std::string& partner_id, const Document& doc);

// "shipment-notice:acme:ASN-1001:20261201:original": the version's name.
std::string document_version_key(const std::string& partner_id, const Document& doc);

// The event as JSON: the document as booked (`applied` says how), its lines,
// the interchange it came in (`source`, the message key).
std::string document_json(const std::string& partner_id, const Document& doc, store::Applied applied,
                          const std::string& source);

// The outbox row for it on the partner's <documents> way out; the document
// is `owner`'s (the partner's id, or a Peppol sending participant's).
// REQUIRES: partner.documents.via != None.
store::OutboxItem document_event(const config::Partner& partner, const std::string& owner, const Document& doc,
                                 store::Applied applied, const std::string& source);

}  // namespace edihub::gate
