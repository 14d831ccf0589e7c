// What the commands share: --db, --partners and --config, with their defaults.
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>
#include <vector>

#include "src/cli/args.h"
#include "src/config/gateway.h"
#include "src/config/partners.h"
#include "src/identity/credentials.h"
#include "src/store/store.h"

namespace edihub::cli {

constexpr const char* kDefaultDb = "sqlite:data/edihub.db";
constexpr const char* kDefaultPartners = "partners";

OptionSpec db_option();
OptionSpec partners_option();

// Opens the store named by --db. On failure prints why and returns nullptr;
// *exit_code is then kStoreUnavailable (or kUsage for a malformed URI).
std::unique_ptr<store::Store> open_store_from(const Args& args, std::ostream& err, const char* command, int* exit_code);
// Loads --partners. On failure prints why and returns nullopt.
std::optional<config::Partners> load_partners_from(const Args& args, std::ostream& err, const char* command);

// The gateway's configuration from --config, or the demo one.
Result<config::Gateway> load_gateway(const Args& args);

// `args` with --db and --partners taken from the gateway config `gw` where
// the command line gives none (a command run with --config uses the
// server's store and profiles, as `serve` does).
Args with_config_defaults(const Args& args, const config::Gateway& gw);

// The gateway config (--config, or the demo one) and the command line with
// its defaults (with_config_defaults). On failure prints why and returns nullopt.
struct GatewayArgs {
  config::Gateway gateway;
  Args args;
};
std::optional<GatewayArgs> gateway_args(const Args& command_line, std::ostream& err, const char* command);

// The certificates in use (--config's identities, --partners or the config's
// partners dir), for `certs` and `status`. On failure prints why and returns nullopt.
std::optional<std::vector<identity::CertificateInUse>> certificates_from(const Args& args, std::ostream& err,
                                                                         const char* command);

}  // namespace edihub::cli
