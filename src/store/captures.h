// The archive of received requests: the bytes exactly as they arrived (the
// request line and header block as received, then the body), kept for the
// operator and for `edihub replay`, in the transaction that settles them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/common/status.h"
#include "src/crypto/digest.h"

namespace edihub::store {

struct Capture {
  std::string partner_id, protocol, message_id;  // message_id: the transport key's
  crypto::RawDigest raw;
  std::string head;  // request line + header lines + blank line, as received
  std::string body;  // the body (transfer coding removed)
};

// A capture to write: views into the request being handled (no copy of a
// large body). REQUIRES: the viewed bytes outlive the write.
struct CaptureRef {
  std::string partner_id, protocol, message_id;
  crypto::RawDigest raw;
  std::string_view head, body;
};

struct CaptureInfo {
  int64_t id = 0, received_at_ms = 0, bytes = 0;
  std::string partner_id, protocol, message_id;
};

struct CaptureFilter {
  std::optional<std::string> partner_id, message_id;
  int64_t since_ms = 0;
  int limit = 100;
};

class CaptureStore {
 public:
  virtual ~CaptureStore() = default;
  // Newest first.
  virtual Result<std::vector<CaptureInfo>> list_captures(const CaptureFilter& filter) = 0;
  virtual Result<std::optional<Capture>> read_capture(int64_t id) = 0;
};

}  // namespace edihub::store
