#include "src/delivery/channels.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "src/common/files.h"
#include "src/http/client.h"

namespace edihub::delivery {

namespace {

Attempt retry(std::string why) { return Attempt{Attempt::Kind::Retry, "", std::move(why)}; }
Attempt failed(std::string why) { return Attempt{Attempt::Kind::Failed, "", std::move(why)}; }

std::string status_text(const http::Response& r) {
  return r.status == 0 ? r.error : "HTTP " + std::to_string(r.status);
}

}  // namespace

Attempt deliver_http(const store::OutboxEntry& e, const ChannelOptions& o) {
  http::Response r = http::post(e.item.destination, e.item.headers, e.item.body, o.timeout_seconds);
  if (r.status >= 200 && r.status < 300) return Attempt{Attempt::Kind::Delivered, r.body, ""};
  return retry(status_text(r));
}

Attempt deliver_webhook(const store::OutboxEntry& e, const ChannelOptions& o) {
  const std::string headers = "Content-Type: application/json\r\nIdempotency-Key: " + e.item.message_id + "\r\n";
  http::Response r = http::post(e.item.destination, headers, e.item.body, o.timeout_seconds);
  if (r.status >= 200 && r.status < 300) return Attempt{Attempt::Kind::Delivered, r.body, ""};
  if (r.status >= 400 && r.status < 500 && r.status != 408 && r.status != 429)
    return failed(status_text(r) + " (the receiver refuses it: retrying would not help)");
  return retry(status_text(r));
}

std::string drop_name(const store::OutboxEntry& e) {
  std::string name;
  for (char c : e.item.message_id)
    name.push_back(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' ? c : '_');
  return name + "." + (e.item.kind == "document" ? "json" : e.item.kind);
}

Attempt deliver_dir(const store::OutboxEntry& e) {
  const std::filesystem::path dir = e.item.destination;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return retry(dir.string() + ": " + ec.message());
  // Whole on disk before it has its name, never through a link (common/files.h).
  Status written = write_file_whole(dir.string(), drop_name(e), e.item.body);
  if (written.is_ok()) return Attempt{Attempt::Kind::Delivered, "", ""};
  // A link or a directory where the file goes: for the operator, not retried blindly.
  if (written.kind() == Status::Kind::Invalid) return Attempt{Attempt::Kind::Failed, "", written.message()};
  return retry(written.message());
}

}  // namespace edihub::delivery
