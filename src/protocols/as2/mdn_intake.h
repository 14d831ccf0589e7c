// Async MDNs partners send to /as2 for messages edihub sent them
// (acknowledgments): recognised by their Content-Type, matched to the outbox
// row by Original-Message-ID, their signature checked against the partner's
// certificates and their MIC against ours; the row becomes delivered, or
// failed with why, for the operator.
#pragma once

#include "src/http/message.h"
#include "src/protocols/as2/inbound.h"
#include "src/protocols/as2/partner_mdn.h"
#include "src/receivers/pipeline.h"
#include "src/store/store.h"

namespace edihub::as2 {

// Whether `request` is an MDN rather than a message.
bool is_mdn(const http::HttpRequest& request);

// Handles one async MDN; its `messages` row goes to the context's log.
// `expected_mic` gives the MIC edihub computed for an outbox row.
http::HttpAnswer receive_mdn(const http::HttpRequest& request, const receivers::Context& context,
                             const Settings& settings, store::Store& store,
                             const std::function<Mic(const store::OutboxEntry&)>& expected_mic);

}  // namespace edihub::as2
