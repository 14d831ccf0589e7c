// `edihub replay`'s receive side: partner files through the same pipeline as
// the server. A capture (AS2 or AS4) is one request through the AS2 or AS4
// pipeline; a file of EDI is streamed interchange by interchange through the
// incremental parser, each passing the gate in its own transaction, so memory
// stays bounded by the largest interchange, not the file.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "src/common/outcome.h"
#include "src/protocols/as2/inbound.h"
#include "src/protocols/as4/inbound.h"
#include "src/receivers/capture.h"
#include "src/receivers/pipeline.h"
#include "src/store/store.h"

namespace edihub::replay {

// One result: per interchange of an EDI file, per capture.
struct Line {
  std::string file, partner, message_id;
  Outcome outcome = Outcome::Error;
  std::string detail;
  int documents = -1;  // -1: not counted here (a capture's interchanges have their own rows)
  // A capture's answer as the partner would have had it (for --mdn-out).
  std::optional<http::HttpAnswer> answer;
};

using Report = std::function<void(const Line&)>;

// The identities replay answers captures with, loaded at the first capture.
using SettingsLoader = std::function<Result<std::pair<as2::Settings, as4::Settings>>()>;

class Replayer {
 public:
  // REQUIRES: context.log writes to `store` (or nowhere); all outlive the Replayer.
  Replayer(const receivers::Context& context, store::Store& store, SettingsLoader settings)
      : c_(context), store_(store), load_settings_(std::move(settings)) {}

  // Runs one file; calls `report` once per result. Invalid when the file
  // cannot be read, or with Code::Configuration when the identities for a
  // capture cannot be loaded (nothing else can work either).
  Status run(const std::string& path, const Report& report);

 private:
  Status run_capture(const std::string& path, receivers::CaptureKind kind, const Report& report);
  Status run_edi(const std::string& path, const Report& report);

  const receivers::Context& c_;
  store::Store& store_;
  SettingsLoader load_settings_;
  std::optional<std::pair<as2::Settings, as4::Settings>> settings_;
  std::vector<char> buffer_;  // run_edi's reads
};

}  // namespace edihub::replay
