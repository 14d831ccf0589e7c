#include "src/crypto/inflate.h"

#include <zlib.h>

namespace edihub::crypto {

Result<std::string> inflate(std::string_view in, Wrapping wrapping, Lease& lease) {
  z_stream z{};
  if (inflateInit2(&z, wrapping == Wrapping::Gzip ? 16 + MAX_WBITS : MAX_WBITS) != Z_OK)
    return Status::transient("zlib inflateInit failed");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  std::string out;
  char buf[65536];
  int rc = Z_OK;
  Lease::Refusal refused = Lease::Refusal::None;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = ::inflate(&z, Z_NO_FLUSH);
    const size_t produced = sizeof buf - z.avail_out;
    if ((refused = lease.take(produced)) != Lease::Refusal::None) break;
    out.append(buf, produced);
    if (rc == Z_OK && z.avail_in == 0 && z.avail_out != 0) rc = Z_BUF_ERROR;  // truncated
  }
  inflateEnd(&z);
  if (refused == Lease::Refusal::OverGatewayCap)
    return Status::transient("the gateway is unwrapping too much at once: retry later");
  if (refused == Lease::Refusal::OverMessageCap) {
    lease.give_back(out.size());
    return Status::invalid("content larger than " + std::to_string(lease.cap()) +
                           " bytes for the whole message (all layers together)");
  }
  if (rc != Z_STREAM_END) {
    lease.give_back(out.size());
    return Status::invalid("the compressed stream is corrupt or truncated");
  }
  return out;
}

}  // namespace edihub::crypto

namespace edihub::crypto {

std::string deflate(std::string_view in, Wrapping wrapping) {
  z_stream z{};
  // Level 6 and an 8-level memory: zlib's defaults, for any inflater.
  deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, wrapping == Wrapping::Gzip ? 16 + MAX_WBITS : MAX_WBITS, 8,
               Z_DEFAULT_STRATEGY);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  std::string out;
  char buf[65536];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = ::deflate(&z, Z_FINISH);
    out.append(buf, sizeof buf - z.avail_out);
  }
  deflateEnd(&z);
  return out;
}

}  // namespace edihub::crypto
