#include "src/config/gateway.h"

#include <pugixml.hpp>

#include <cctype>
#include <filesystem>
#include <functional>

namespace edihub::config {

EdiIds demo_edi_ids() { return {{{"EDIHUB", "ZZ"}}, {{"5400000000009", "14"}}}; }

Gateway Gateway::defaults() {
  Gateway g;
  g.identities.push_back({"partners/certs/edihub.crt", "partners/certs/edihub.key"});
  return g;
}

namespace {

// <edi>: the ids interchanges must be addressed to; without it the demo's, said in a warning.
Status read_edi(pugi::xml_node root, const std::string& path, Gateway* out) {
  Gateway& g = *out;
  if (pugi::xml_node edi = root.child("edi")) {
    g.edi_ids = EdiIds{};
    for (pugi::xml_node x : edi.children("x12")) {
      edi::Party party{x.attribute("id").as_string(), x.attribute("qualifier").as_string()};
      if (party.id.empty() || party.qualifier.empty() || party.id.size() > 15 || party.qualifier.size() > 2)
        return Status::invalid(path +
                               ": <edi><x12> needs a qualifier (ISA07, 2 characters) and an id (ISA08, "
                               "1-15 characters)");
      g.edi_ids.x12.push_back(party);
    }
    for (pugi::xml_node e : edi.children("edifact")) {
      edi::Party party{e.attribute("id").as_string(), e.attribute("qualifier").as_string()};
      if (party.id.empty() || party.id.size() > 35)
        return Status::invalid(path + ": <edi><edifact> needs an id (UNB 0010, 1-35 characters)");
      g.edi_ids.edifact.push_back(party);
    }
    if (g.edi_ids.x12.empty() && g.edi_ids.edifact.empty())
      return Status::invalid(path +
                             ": <edi> lists no <x12 qualifier id/> or <edifact id qualifier/>: every "
                             "interchange would be refused");
  } else {
    g.warnings.push_back(path + ": no <edi> ids: interchanges must be addressed to the demo ids " +
                         g.edi_ids.text(edi::Standard::X12) + " (X12) and " + g.edi_ids.text(edi::Standard::Edifact) +
                         " (EDIFACT)");
  }
  return Status::ok();
}

// <limits>, <outbox>, <gate>: numbers, each checked against its range.
Status read_limits(pugi::xml_node root, const std::string& path, Gateway* out) {
  Gateway& g = *out;
  if (pugi::xml_node l = root.child("limits")) {
    g.max_body_bytes = l.attribute("max-body-bytes").as_ullong(g.max_body_bytes);
    g.threads = l.attribute("threads").as_int(g.threads);
    g.queue = l.attribute("queue").as_int(g.queue);
    g.head_timeout_seconds = l.attribute("head-timeout-seconds").as_int(g.head_timeout_seconds);
    g.request_timeout_seconds = l.attribute("request-timeout-seconds").as_int(g.request_timeout_seconds);
    g.max_connections = l.attribute("max-connections").as_int(g.max_connections);
    g.max_connections_per_client = l.attribute("max-connections-per-client").as_int(g.max_connections_per_client);
    g.max_buffered_bytes = l.attribute("max-buffered-bytes").as_ullong(g.max_buffered_bytes);
    g.max_message_unwrap_bytes = l.attribute("max-message-unwrap-bytes").as_ullong(g.max_message_unwrap_bytes);
    g.max_unwrap_bytes = l.attribute("max-unwrap-bytes").as_ullong(g.max_unwrap_bytes);
    g.max_log_rows_per_client = l.attribute("max-log-rows-per-client").as_int(g.max_log_rows_per_client);
    g.max_log_rows = l.attribute("max-log-rows").as_int(g.max_log_rows);
  }
  if (g.head_timeout_seconds < 1 || g.request_timeout_seconds < 1 || g.max_connections < 1 ||
      g.max_connections_per_client < 1 || g.max_buffered_bytes < g.max_body_bytes ||
      g.max_unwrap_bytes < g.max_message_unwrap_bytes || g.max_log_rows_per_client < 1 ||
      g.max_log_rows < g.max_log_rows_per_client)
    return Status::invalid(path +
                           ": <limits> timeouts >= 1 s, connection caps >= 1, max-buffered-bytes >= "
                           "max-body-bytes, max-unwrap-bytes >= max-message-unwrap-bytes, "
                           "max-log-rows >= max-log-rows-per-client >= 1");
  if (pugi::xml_node o = root.child("outbox")) {
    g.outbox_first_retry_seconds = o.attribute("first-retry-seconds").as_int(g.outbox_first_retry_seconds);
    g.outbox_max_attempts = o.attribute("max-attempts").as_int(g.outbox_max_attempts);
    g.outbox_timeout_seconds = o.attribute("timeout-seconds").as_int(g.outbox_timeout_seconds);
    g.outbox_workers = o.attribute("workers").as_int(g.outbox_workers);
  }
  if (g.outbox_first_retry_seconds < 1 || g.outbox_max_attempts < 1 || g.outbox_timeout_seconds < 1 ||
      g.outbox_workers < 1 || g.outbox_workers > 64)
    return Status::invalid(path +
                           ": <outbox> first-retry-seconds >= 1, max-attempts >= 1, timeout-seconds >= 1, "
                           "workers 1-64");
  if (pugi::xml_node gate = root.child("gate")) {
    g.lease_seconds = gate.attribute("lease-seconds").as_int(g.lease_seconds);
    g.wait_seconds = gate.attribute("wait-seconds").as_int(g.wait_seconds);
    g.owner_timeout_seconds = gate.attribute("owner-timeout-seconds").as_int(g.owner_timeout_seconds);
    g.node_id = gate.attribute("node-id").as_string();
  }
  if (g.lease_seconds < 1 || g.wait_seconds < 0 || g.owner_timeout_seconds < 1)
    return Status::invalid(path + ": <gate> lease-seconds >= 1, wait-seconds >= 0, owner-timeout-seconds >= 1");
  if (g.threads < 1 || g.threads > 256 || g.queue < 1 || g.max_body_bytes < 1024)
    return Status::invalid(path + ": <limits> threads 1-256, queue >= 1, max-body-bytes >= 1024");
  return Status::ok();
}

// <listen> (with <tls>), <metrics>, <console> (with <tls>): where the gateway listens.
Status read_listeners(pugi::xml_node root, const std::string& path,
                      const std::function<std::string(const char*)>& resolve, Gateway* out) {
  Gateway& g = *out;
  if (pugi::xml_node l = root.child("listen")) {
    g.address = l.attribute("address").as_string("127.0.0.1");
    g.port = l.attribute("port").as_int(8080);
    g.as2_path = l.attribute("path").as_string("/as2");
    g.public_url = l.attribute("public-url").as_string("");
    if (pugi::xml_node t = l.child("tls")) {
      if (!t.attribute("cert") || !t.attribute("key"))
        return Status::invalid(path + ": <tls> needs cert and key attributes");
      g.tls_cert = resolve(t.attribute("cert").value());
      g.tls_key = resolve(t.attribute("key").value());
    }
  }
  if (g.port < 0 || g.port > 65535) return Status::invalid(path + ": <listen port> must be 0-65535");
  if (pugi::xml_node m = root.child("metrics")) {
    g.metrics_address = m.attribute("address").as_string("127.0.0.1");
    g.metrics_port = m.attribute("port").as_int(9108);
    if (g.metrics_port < 0 || g.metrics_port > 65535) return Status::invalid(path + ": <metrics port> must be 0-65535");
  }
  if (pugi::xml_node c = root.child("console")) {
    g.console_address = c.attribute("address").as_string("127.0.0.1");
    g.console_port = c.attribute("port").as_int(8443);
    g.console_session_minutes = c.attribute("session-minutes").as_int(480);
    if (g.console_port < 0 || g.console_port > 65535) return Status::invalid(path + ": <console port> must be 0-65535");
    if (g.console_session_minutes < 1 || g.console_session_minutes > 43200)
      return Status::invalid(path + ": <console session-minutes> must be 1-43200 (30 days)");
    if (pugi::xml_node t = c.child("tls")) {
      if (!t.attribute("cert") || !t.attribute("key"))
        return Status::invalid(path + ": <console><tls> needs cert and key attributes");
      g.console_tls_cert = resolve(t.attribute("cert").value());
      g.console_tls_key = resolve(t.attribute("key").value());
    }
  }
  return Status::ok();
}

bool two_capitals(const std::string& s) {
  return s.size() == 2 && std::isupper(static_cast<unsigned char>(s[0])) &&
         std::isupper(static_cast<unsigned char>(s[1]));
}

// <peppol seat>: our access point, the participants we receive for, whom we trust.
Status read_peppol(pugi::xml_node root, const std::string& path, const std::function<std::string(const char*)>& resolve,
                   Gateway* out) {
  pugi::xml_node p = root.child("peppol");
  if (!p) return Status::ok();
  Peppol& peppol = out->peppol;
  peppol.enabled = true;
  peppol.seat = p.attribute("seat").as_string();
  if (peppol.seat.empty() || peppol.seat.size() > 64)
    return Status::invalid(path +
                           ": <peppol> needs seat, our access point's seat id (its certificate's CN, 1-64 "
                           "characters), e.g. seat=\"POP000999\"");
  peppol.country = p.attribute("country").as_string();
  if (!peppol.country.empty() && !two_capitals(peppol.country))
    return Status::invalid(path + ": <peppol country> must be an ISO 3166 alpha-2 code (DK, NO ...), not '" +
                           peppol.country + "'");
  for (pugi::xml_node participant : p.children("participant")) {
    std::string id = participant.attribute("id").as_string();
    const size_t colon = id.find(':');
    if (colon == 0 || colon == std::string::npos || colon + 1 == id.size() || id.size() > 64)
      return Status::invalid(path +
                             ": <peppol><participant id> must be a participant identifier SCHEME:VALUE "
                             "(iso6523-actorid-upis), e.g. 0088:5790000435951, not '" +
                             id + "'");
    std::string country = participant.attribute("country").as_string();
    if (!country.empty() && !two_capitals(country))
      return Status::invalid(path +
                             ": <peppol><participant country> must be an ISO 3166 alpha-2 code (DK, NO ...), not '" +
                             country + "'");
    peppol.participants.push_back(std::move(id));
    peppol.countries.push_back(std::move(country));
  }
  if (peppol.participants.empty())
    return Status::invalid(path + ": <peppol> lists no <participant id/>: every document would be refused");
  for (pugi::xml_node ca : p.children("ap-ca")) {
    if (!ca.attribute("file")) return Status::invalid(path + ": <peppol><ap-ca> needs a file attribute");
    peppol.ap_cas.push_back(resolve(ca.attribute("file").value()));
  }
  if (peppol.ap_cas.empty())
    return Status::invalid(path + ": <peppol> lists no <ap-ca file/>: no sending access point could be trusted");
  for (pugi::xml_node crl : p.children("crl")) {
    if (!crl.attribute("file")) return Status::invalid(path + ": <peppol><crl> needs a file attribute");
    peppol.crls.push_back(resolve(crl.attribute("file").value()));
  }
  if (pugi::xml_node ocsp = p.child("ocsp")) {
    peppol.ocsp = true;
    peppol.ocsp_responder = ocsp.attribute("responder").as_string();
    peppol.ocsp_timeout_ms = ocsp.attribute("timeout-ms").as_int(peppol.ocsp_timeout_ms);
    const std::string unreachable = ocsp.attribute("unreachable").as_string("reject");
    if (unreachable != "reject" && unreachable != "accept")
      return Status::invalid(path + ": <peppol><ocsp unreachable> must be reject|accept, not '" + unreachable + "'");
    peppol.ocsp_accept_unreachable = unreachable == "accept";
    if (peppol.ocsp_timeout_ms < 100 || peppol.ocsp_timeout_ms > 30000)
      return Status::invalid(path + ": <peppol><ocsp timeout-ms> must be 100-30000");
  }
  if (peppol.crls.empty() && !peppol.ocsp)
    out->warnings.push_back(path +
                            ": <peppol> has no <crl file/>: a revoked access point certificate is not "
                            "recognised as revoked");
  return Status::ok();
}

}  // namespace

Result<Gateway> Gateway::load(const std::string& path) {
  pugi::xml_document doc;
  pugi::xml_parse_result parsed = doc.load_file(path.c_str());
  if (!parsed)
    return Status::invalid(path + ": XML error at byte " + std::to_string(parsed.offset) + ": " + parsed.description());
  pugi::xml_node root = doc.child("edihub");
  if (!root) return Status::invalid(path + ": the root element must be <edihub>");
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  auto resolve = [&](const char* value) {
    std::filesystem::path p(value);
    return (p.is_absolute() ? p : dir / p).lexically_normal().string();
  };
  Gateway g;
  for (pugi::xml_node id : root.children("identity")) {
    if (std::string as2 = id.attribute("as2-id").as_string(); !as2.empty()) g.as2_id = as2;
    if (std::string as4 = id.attribute("as4-party-id").as_string(); !as4.empty()) g.as4_party_id = as4;
    if (std::string t = id.attribute("as4-party-type").as_string(); !t.empty()) g.as4_party_type = t;
    if (!id.attribute("cert") || !id.attribute("key"))
      return Status::invalid(path + ": <identity> needs cert and key attributes");
    g.identities.push_back({resolve(id.attribute("cert").value()), resolve(id.attribute("key").value())});
  }
  if (g.identities.empty()) return Status::invalid(path + ": at least one <identity as2-id cert key> is needed");
  RETURN_IF_ERROR(read_edi(root, path, &g));
  RETURN_IF_ERROR(read_listeners(root, path, resolve, &g));
  if (pugi::xml_node s = root.child("store")) {
    std::string uri = s.attribute("uri").as_string(g.store_uri.c_str());
    const std::string scheme = "sqlite:";
    if (uri.rfind(scheme, 0) == 0 && uri.size() > scheme.size() && uri[scheme.size()] != '/')
      uri = scheme + resolve(uri.substr(scheme.size()).c_str());
    g.store_uri = uri;
  }
  if (pugi::xml_node p = root.child("partners")) g.partners_dir = resolve(p.attribute("dir").as_string("partners"));
  if (pugi::xml_node a = root.child("archive")) {
    // `dir` was where captures went before they moved into the store: ignored.
    g.archive = a.attribute("enabled").as_bool(true);
    g.archive_retention_days = a.attribute("retention-days").as_int(90);
  }
  RETURN_IF_ERROR(read_limits(root, path, &g));
  RETURN_IF_ERROR(read_peppol(root, path, resolve, &g));
  if (pugi::xml_node d = root.child("documents")) {
    Result<Partner::Documents> documents = read_documents(d, path, resolve);
    if (!documents.is_ok()) return documents.status();
    g.documents = documents.value();
  }
  if (pugi::xml_node log = root.child("log")) g.log_format = log.attribute("format").as_string("text");
  if (g.log_format != "text" && g.log_format != "json")
    return Status::invalid(path + ": <log format> must be text or json, not '" + g.log_format + "'");
  return g;
}

}  // namespace edihub::config
