// The gateway's configuration file (XML; paths relative to the file):
//
//   <edihub>
//     <identity as2-id="EDIHUB" as4-party-id="EDIHUB" as4-party-type="" cert="certs/edihub.crt"
//               key="certs/edihub.key"/>  (repeatable: rollover)
//     <edi>                                     (our EDI ids: an interchange addressed to
//       <x12 qualifier="ZZ" id="EDIHUB"/>        another is refused; repeatable. Without
//       <edifact id="5400000000009" qualifier="14"/>  <edi>: these demo ids)
//     </edi>
//     <listen address="127.0.0.1" port="8080" path="/as2" public-url="https://gw.example/as2">
//       <tls cert="tls.crt" key="tls.key"/>                                      (optional)
//     </listen>
//     <store uri="sqlite:data/edihub.db"/>
//     <partners dir="partners"/>
//     <archive enabled="true" retention-days="90"/>   (captures, kept in the store)
//     <limits max-body-bytes="104857600" threads="8" queue="64" head-timeout-seconds="10"
//             request-timeout-seconds="120" max-connections="512" max-connections-per-client="64"
//             max-buffered-bytes="536870912" max-message-unwrap-bytes="104857600"
//             max-unwrap-bytes="1073741824" max-log-rows-per-client="60" max-log-rows="1000"/>
//                                           (rows and log lines a minute of answers that commit
//                                            nothing, per client address and partner / in all)
//     <outbox first-retry-seconds="5" max-attempts="12" timeout-seconds="30" workers="4"/>
//     <documents webhook="https://erp.example/edi"/>  (or dir="PATH": booked documents of
//                                                      every partner without its own <documents>)
//     <gate lease-seconds="300" wait-seconds="10" owner-timeout-seconds="10" node-id="HOST:PORT"/>
//     <metrics address="127.0.0.1" port="9108"/>   (off without it: GET /metrics, Prometheus)
//     <console address="127.0.0.1" port="8443" session-minutes="480">  (off without it: the
//       <tls cert="console.crt" key="console.key"/>                      operator console)
//     </console>
//     <log format="text|json"/>   (a crashed worker's keys are taken
//                                                      over after the lease)
//     <peppol seat="POP000999" country="NO">      (a Peppol receiving access point: AS4 messages
//       <participant id="0088:5790000435951" country="DK"/>  from APs whose profiles have <peppol seat>;
//       <ap-ca file="certs/peppol-ap-ca.pem"/>      participants repeatable: those we receive for;
//       <crl file="certs/peppol-ap.crl"/>           ap-ca and crl repeatable)
//       <ocsp responder="http://..." timeout-ms="2000" unreachable="reject|accept"/>  (optional)
//     </peppol>
//   </edihub>
#pragma once

#include <string>
#include <vector>

#include "src/common/status.h"
#include "src/config/partners.h"

namespace edihub::config {

struct IdentityFiles {
  std::string cert, key;
};

// <peppol>: edihub as a Peppol receiving access point (C3). Our seat id is
// our AP certificate's CN and the eb:To PartyId senders address; the
// participants are the receivers (C4) we accept documents for; a sending
// AP's certificate must chain to one of the AP CAs, be within its validity
// and not be revoked by one of the CRLs.
struct Peppol {
  bool enabled = false;
  std::string seat;                       // eb:To PartyId, type urn:fdc:peppol.eu:2017:identifiers:ap
  std::string country;                    // <peppol country>: ours, COUNTRY_C1 of the MLS we send
  std::vector<std::string> participants;  // iso6523-actorid-upis values, "0088:5790000435951"
  std::vector<std::string> countries;     // each participant's country (ISO 3166 alpha-2), empty: unknown
  std::vector<std::string> ap_cas;        // PEM files, resolved paths (several: the PKI generation change)
  std::vector<std::string> crls;          // PEM or DER files, resolved paths
  // <ocsp responder timeout-ms unreachable>: OCSP as well (off without it).
  bool ocsp = false;
  std::string ocsp_responder;  // empty: the one each certificate names
  int ocsp_timeout_ms = 2000;
  bool ocsp_accept_unreachable = false;  // unreachable="accept": the message passes (a warning is logged)
};

// ZZ:EDIHUB and 5400000000009:14, the demo's (samples/edi are addressed to them).
EdiIds demo_edi_ids();

struct Gateway {
  std::string as2_id = "EDIHUB";
  std::string as4_party_id = "EDIHUB", as4_party_type;  // our eb:To PartyId
  std::vector<IdentityFiles> identities;
  EdiIds edi_ids = demo_edi_ids();    // <edi>: what interchanges must be addressed to
  std::vector<std::string> warnings;  // what the file leaves to defaults an operator should know
  std::string address = "127.0.0.1";
  int port = 8080;
  std::string as2_path = "/as2";
  std::string public_url;         // <listen public-url>: our /as2 as partners reach it (async MDNs to us)
  std::string tls_cert, tls_key;  // both empty: plain HTTP
  std::string store_uri = "sqlite:data/edihub.db";
  std::string partners_dir = "partners";
  bool archive = true;  // keep every accepted request as a capture in the store
  int archive_retention_days = 90;
  size_t max_body_bytes = 100u << 20;
  int threads = 8;
  int queue = 64;
  int head_timeout_seconds = 10;      // connection (or previous answer) to the end of the head
  int request_timeout_seconds = 120;  // end of the head to the end of the body
  int max_connections = 512;
  int max_connections_per_client = 64;
  size_t max_buffered_bytes = 512u << 20;        // request bodies in memory, all connections
  size_t max_message_unwrap_bytes = 100u << 20;  // one message's layers, all together
  size_t max_unwrap_bytes = 1u << 30;            // being unwrapped at once, gateway-wide
  // Message-log rows a minute of answers that commit nothing (refusals,
  // retransmissions answered from the store): per client address and partner
  // named, and in all; past them counted, one row per client and outcome a
  // minute. Their log lines have the same limits, counted apart.
  int max_log_rows_per_client = 60;
  int max_log_rows = 1000;
  int outbox_first_retry_seconds = 5;
  int outbox_max_attempts = 12;
  int outbox_timeout_seconds = 30;  // one delivery attempt
  int outbox_workers = 4;           // rows delivered at once (each its own store connection)
  Partner::Documents documents;     // <documents>: for partners whose profile has none
  std::string log_format = "text";  // or "json": one JSON object per line
  // <metrics>: a listener of its own for GET /metrics (and /healthz, /readyz); off when port < 0.
  std::string metrics_address = "127.0.0.1";
  int metrics_port = -1;
  // <console>: the operator console's listener (src/console/); off when port < 0.
  std::string console_address = "127.0.0.1";
  int console_port = -1;
  std::string console_tls_cert, console_tls_key;  // both empty: plain HTTP (loopback use)
  int console_session_minutes = 480;              // a login lasts this long
  int lease_seconds = 300;
  int wait_seconds = 10;
  int owner_timeout_seconds = 10;  // a lease owner silent this long is gone (its leases taken over)
  std::string node_id;             // <gate node-id>: default the host name and listen port
  Peppol peppol;                   // <peppol>: off without it

  // The defaults without a file: the demo identity in partners/certs.
  static Gateway defaults();
  // Reads the file; Invalid names the file and what is wrong.
  static Result<Gateway> load(const std::string& path);
};

}  // namespace edihub::config
