// `edihub serve`: the gateway. AS2 on POST /as2 (the path is configurable),
// GET /healthz, graceful stop on SIGTERM or SIGINT.
#include <signal.h>
#include <unistd.h>

#include <curl/curl.h>

#include <ostream>

#include "src/cli/commands.h"
#include "src/common/event_log.h"
#include "src/config/gateway.h"
#include "src/gate/heartbeat.h"
#include "src/protocols/as2/outbound.h"
#include "src/protocols/as4/outbound.h"
#include "src/protocols/peppol/network.h"
#include "src/server/gateway_outbox.h"
#include "src/server/server.h"

namespace edihub::cli {

const CommandSpec& serve_spec() {
  static const CommandSpec spec{
      "serve",
      "Runs the gateway: AS2 on POST /as2, AS4 on POST /as4, GET /healthz and /readyz.\n"
      "Without --config: 127.0.0.1:8080, store sqlite:data/edihub.db, partners/, and the demo\n"
      "identity EDIHUB (partners/certs). SIGTERM or SIGINT stops it after requests in flight.",
      "",
      0,
      {{"config", "FILE", "gateway configuration (see samples/edihub.xml)"},
       integer_option("port", "N", "override the listening port, 0 to 65535 (0: any free port, printed on start)", 0,
                      65535)}};
  return spec;
}

int run_serve(const Args& args, std::ostream& out, std::ostream& err) {
  config::Gateway gw = config::Gateway::defaults();
  if (!args.value("config").empty()) {
    auto loaded = config::Gateway::load(args.value("config"));
    if (!loaded.is_ok()) {
      err << "edihub serve: " << loaded.status().message() << "\n";
      return kUsage;
    }
    gw = loaded.value();
  }
  gw.port = static_cast<int>(*args.integer("port", gw.port));  // checked: 0-65535

  auto partners = config::Partners::load(gw.partners_dir);
  if (!partners.is_ok()) {
    err << "edihub serve: " << partners.status().message() << "\n";
    return kUsage;
  }
  partners->default_documents(gw.documents);
  for (const std::vector<std::string>* warnings :
       std::initializer_list<const std::vector<std::string>*>{&gw.warnings, &partners->warnings()})
    for (const std::string& w : *warnings) err << "edihub serve: warning: " << w << "\n";
  auto as2_settings = as2::Settings::from_config(gw, partners.value());
  if (!as2_settings.is_ok()) {
    err << "edihub serve: " << as2_settings.status().message() << "\n";
    return kUsage;
  }
  {
    // Open once here: migrations run before the first request, and a store
    // that cannot be opened stops the start with a clear message.
    auto store = store::open_store(gw.store_uri);
    if (!store.is_ok()) {
      err << "edihub serve: " << store.status().message() << "\n";
      return kStoreUnavailable;
    }
  }

  // Signals are taken by sigwait below, not by the worker threads.
  set_log_format(gw.log_format == "json" ? LogFormat::Json : LogFormat::Text);
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  auto peppol_network = peppol::PeppolNetwork::from_config(gw, partners.value());
  if (!peppol_network.is_ok()) {
    err << "edihub serve: " << peppol_network.status().message() << "\n";
    return kUsage;
  }
  server::GatewayOutbox outbox(gw, partners.value(), as2_settings.value(), peppol_network->get());
  delivery::OutboxDelivery& delivery = outbox.delivery();

  gate::GateOptions gate_options;
  gate_options.lease_ms = gw.lease_seconds * 1000LL;
  gate_options.inflight_wait_ms = gw.wait_seconds * 1000LL;
  gate_options.owner_timeout_ms = gw.owner_timeout_seconds * 1000LL;
  // A node id that is the same after a restart (its previous instance's
  // leases are taken over at once) and differs between nodes on one machine.
  gate_options = gate::with_owner(
      gate_options, !gw.node_id.empty() ? gw.node_id
                                        : gate::node_id("serve:" + (gw.port != 0 ? std::to_string(gw.port)
                                                                                 : "pid" + std::to_string(getpid()))));
  auto heartbeat = gate::Heartbeat::start(gw.store_uri, gate_options);
  if (!heartbeat.is_ok()) {
    err << "edihub serve: " << heartbeat.status().message() << "\n";
    return kStoreUnavailable;
  }
  gate::Gate gate{gate_options};
  auto as4_settings = as4::Settings::from_config(gw, partners.value());
  if (!as4_settings.is_ok()) {
    err << "edihub serve: " << as4_settings.status().message() << "\n";
    return kUsage;
  }
  as4_settings->network = peppol_network->get();
  server::Server server(gw, partners.value(), as2_settings.value(), as4_settings.value(), gate,
                        [&delivery] { delivery.wake(); });
  Status started = server.start();
  if (!started.is_ok()) {
    err << "edihub serve: " << started.message() << "\n";
    return kStoreUnavailable;
  }
  curl_global_init(CURL_GLOBAL_DEFAULT);
  delivery.start();
  out << "edihub: AS2 id " << gw.as2_id << " listening on " << (gw.tls_cert.empty() ? "http" : "https") << "://"
      << gw.address << ":" << server.port() << gw.as2_path << " (store " << gw.store_uri << ", "
      << partners->all().size() << " partners)" << std::endl;
  if (gw.peppol.enabled)
    out << "edihub: Peppol access point " << gw.peppol.seat << " on /as4 for " << gw.peppol.participants.size()
        << " participant" << (gw.peppol.participants.size() == 1 ? "" : "s") << std::endl;
  if (server.metrics_port() >= 0)
    out << "edihub: metrics on http://" << gw.metrics_address << ":" << server.metrics_port() << "/metrics"
        << std::endl;
  if (server.console_port() >= 0)
    out << "edihub: operator console on " << (gw.console_tls_cert.empty() ? "http" : "https") << "://"
        << gw.console_address << ":" << server.console_port() << "/" << std::endl;
  LogLine("listening", gw.address + ":" + std::to_string(server.port())).info();
  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  LogLine("stopping", "after the requests in flight").add("signal", signal_number).info();
  server.stop(30000);
  delivery.stop();
  out << "edihub: stopped" << std::endl;
  return kOk;
}

}  // namespace edihub::cli
