#include "src/cli/store_args.h"

#include <ostream>

#include "src/cli/commands.h"

namespace edihub::cli {

OptionSpec db_option() {
  return {"db", "URI", std::string("store, default ") + kDefaultDb + " (?synchronous=normal to relax fsync)"};
}

OptionSpec partners_option() {
  return {"partners", "DIR", std::string("partner profiles, default ") + kDefaultPartners};
}

std::unique_ptr<store::Store> open_store_from(const Args& args, std::ostream& err, const char* command,
                                              int* exit_code) {
  const std::string uri = args.value("db", kDefaultDb);
  auto opened = store::open_store(uri);
  if (!opened.is_ok()) {
    err << "edihub " << command << ": " << opened.status().message() << "\n";
    *exit_code = opened.status().kind() == Status::Kind::Invalid ? kUsage : kStoreUnavailable;
    return nullptr;
  }
  return std::move(opened.value());
}

std::optional<config::Partners> load_partners_from(const Args& args, std::ostream& err, const char* command) {
  auto partners = config::Partners::load(args.value("partners", kDefaultPartners));
  if (!partners.is_ok()) {
    err << "edihub " << command << ": " << partners.status().message() << "\n";
    return std::nullopt;
  }
  return std::move(partners.value());
}

Args with_config_defaults(const Args& args, const config::Gateway& gw) {
  Args out = args;
  if (args.value("config").empty()) return out;
  out.values.emplace("db", gw.store_uri);  // emplace: what the command line gave stays
  out.values.emplace("partners", gw.partners_dir);
  return out;
}

std::optional<GatewayArgs> gateway_args(const Args& command_line, std::ostream& err, const char* command) {
  Result<config::Gateway> gw = load_gateway(command_line);
  if (!gw.is_ok()) {
    err << "edihub " << command << ": " << gw.status().message() << "\n";
    return std::nullopt;
  }
  Args args = with_config_defaults(command_line, gw.value());
  return GatewayArgs{std::move(gw.value()), std::move(args)};
}

Result<config::Gateway> load_gateway(const Args& args) {
  if (args.value("config").empty()) return config::Gateway::defaults();
  return config::Gateway::load(args.value("config"));
}

std::optional<std::vector<identity::CertificateInUse>> certificates_from(const Args& args, std::ostream& err,
                                                                         const char* command) {
  Result<config::Gateway> gw = load_gateway(args);
  if (!gw.is_ok()) {
    err << "edihub " << command << ": " << gw.status().message() << "\n";
    return std::nullopt;
  }
  auto partners = config::Partners::load(args.value("partners", gw->partners_dir));
  if (!partners.is_ok()) {
    err << "edihub " << command << ": " << partners.status().message() << "\n";
    return std::nullopt;
  }
  auto certs = identity::certificates_in_use(gw.value(), partners.value());
  if (!certs.is_ok()) {
    err << "edihub " << command << ": " << certs.status().message() << "\n";
    return std::nullopt;
  }
  return std::move(certs.value());
}

}  // namespace edihub::cli
