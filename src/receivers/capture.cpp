#include "src/receivers/capture.h"

#include "parsers/as4/user_message.h"
#include "parsers/mime/entity.h"
#include "src/http/reader.h"

namespace edihub::receivers {

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

constexpr std::string_view kPartnerLine = "EDIHUB-CAPTURE partner=";

// The bytes after an exported file's partner line, and the partner it names.
std::string_view after_partner_line(std::string_view bytes, std::string* partner) {
  if (partner != nullptr) partner->clear();
  if (!starts_with(bytes, kPartnerLine)) return bytes;
  const size_t end = bytes.find("\r\n");
  if (end == std::string_view::npos || end > 512) return bytes;  // not ours: read as it is
  if (partner != nullptr) *partner = std::string(bytes.substr(kPartnerLine.size(), end - kPartnerLine.size()));
  return bytes.substr(end + 2);
}

// The header block of an old-style capture, through the blank line.
std::string_view legacy_head(std::string_view bytes) {
  size_t end = bytes.find("\r\n\r\n");
  return end == std::string_view::npos ? std::string_view() : bytes.substr(0, end + 4);
}

bool has_header(std::string_view head, std::string_view name) {
  size_t pos = 0;
  while (pos < head.size()) {
    size_t end = head.find("\r\n", pos);
    if (end == std::string_view::npos) end = head.size();
    std::string_view line = head.substr(pos, end - pos);
    if (line.size() > name.size() && line[name.size()] == ':' && mime::iequals(line.substr(0, name.size()), name))
      return true;
    pos = end + 2;
  }
  return false;
}

}  // namespace

CaptureKind capture_kind(std::string_view bytes) {
  bytes = after_partner_line(bytes, nullptr);
  if (starts_with(bytes, "POST ")) {
    const size_t line_end = bytes.find("\r\n");
    std::string_view line = bytes.substr(0, line_end == std::string_view::npos ? 0 : line_end);
    return line.find("/as4") != std::string_view::npos ? CaptureKind::As4 : CaptureKind::As2;
  }
  std::string_view head = legacy_head(bytes.substr(0, 65536));
  if (head.empty()) return CaptureKind::None;
  if (has_header(head, "AS2-From")) return CaptureKind::As2;
  if (has_header(head, "Content-Type") && bytes.substr(0, 1 << 20).find(as4::kEbmsNs) != std::string_view::npos)
    return CaptureKind::As4;
  return CaptureKind::None;
}

Result<http::HttpRequest> read_capture(std::string_view bytes, std::string* recorded_partner) {
  bytes = after_partner_line(bytes, recorded_partner);
  const CaptureKind kind = capture_kind(bytes);
  if (kind == CaptureKind::None) return Status::invalid("not a capture: no request line or AS2/AS4 headers");
  std::string synthetic;
  std::string_view head_source = bytes;
  size_t legacy_skip = 0;
  if (!starts_with(bytes, "POST ")) {
    // Old style: the header lines alone; read them under a request line.
    std::string_view head = legacy_head(bytes);
    synthetic =
        std::string(kind == CaptureKind::As4 ? "POST /as4 HTTP/1.1\r\n" : "POST /as2 HTTP/1.1\r\n") + std::string(head);
    head_source = synthetic;
    legacy_skip = head.size();
  }
  http::RequestReader reader(http::ReaderLimits{});
  http::RequestReader::State state = http::RequestReader::State::NeedMore;
  // The head only: the body follows it, already without transfer coding.
  const size_t head_end = head_source.find("\r\n\r\n");
  if (head_end == std::string_view::npos) return Status::invalid("capture: no blank line after the headers");
  reader.feed(head_source.substr(0, head_end + 4), &state);
  if (state == http::RequestReader::State::Failed) return Status::invalid("capture: " + reader.failure().detail);
  if (state == http::RequestReader::State::NeedMore) return Status::invalid("capture: the header block is incomplete");
  http::HttpRequest r = std::move(reader.request());
  r.body = std::string(synthetic.empty() ? bytes.substr(head_end + 4) : bytes.substr(legacy_skip));
  r.peer = "replay";
  return r;
}

std::string capture_file(const store::Capture& c) {
  return std::string(kPartnerLine) + c.partner_id + "\r\n" + redacted_head(c.head) + c.body;
}

std::string redacted_head(std::string_view head) {
  std::string out;
  out.reserve(head.size());
  size_t pos = 0;
  while (pos < head.size()) {
    size_t end = head.find("\r\n", pos);
    end = end == std::string_view::npos ? head.size() : end + 2;
    std::string_view line = head.substr(pos, end - pos);
    pos = end;
    const size_t colon = line.find(':');
    const std::string_view name = colon == std::string_view::npos ? std::string_view() : line.substr(0, colon);
    const bool secret = mime::iequals(name, "Authorization") || mime::iequals(name, "Proxy-Authorization") ||
                        mime::iequals(name, "Cookie");
    if (!secret) {
      out.append(line);
      continue;
    }
    std::string_view value = mime::trim(line.substr(colon + 1));
    const size_t space = value.find(' ');
    const bool has_scheme = !mime::iequals(name, "Cookie") && space != std::string_view::npos && space <= 32;
    out.append(name).append(": ");
    if (has_scheme) out.append(value.substr(0, space)).append(" ");
    out.append("[redacted]\r\n");
  }
  return out;
}

}  // namespace edihub::receivers
