#include "src/replay/replay.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "parsers/edi/parser.h"
#include "src/common/partner_text.h"
#include "src/gate/interchanges.h"
#include "src/receivers/capture.h"

namespace edihub::replay {

namespace {

constexpr size_t kChunk = 1 << 20;
// A capture is one request: no larger than the largest body a server takes, with room.
constexpr uint64_t kMaxCaptureBytes = uint64_t{1} << 30;

// Closes a file descriptor when the scope ends.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

Status os_error(const std::string& path, const char* what) {
  return Status::invalid(path + ": " + what + ": " + std::strerror(errno));
}

// Reads exactly `n` bytes at `offset`.
Status read_at(int fd, uint64_t offset, size_t n, std::string* out, const std::string& path) {
  out->resize(n);
  size_t got = 0;
  while (got < n) {
    ssize_t r = ::pread(fd, out->data() + got, n - got, static_cast<off_t>(offset + got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return os_error(path, "cannot read");
    if (r == 0) return Status::invalid(path + ": the file shrank while it was read");
    got += static_cast<size_t>(r);
  }
  return Status::ok();
}

}  // namespace

Status Replayer::run(const std::string& path, const Report& report) {
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0) return os_error(path, "cannot open");
  // What the file is: the first bytes tell a capture from EDI.
  std::string start;
  char buf[65536];
  ssize_t n;
  while ((n = ::read(f.fd, buf, sizeof buf)) < 0 && errno == EINTR) {
  }
  if (n < 0) return os_error(path, "cannot read");
  start.assign(buf, static_cast<size_t>(n));
  const receivers::CaptureKind kind = receivers::capture_kind(start);
  if (kind != receivers::CaptureKind::None) return run_capture(path, kind, report);
  return run_edi(path, report);
}

Status Replayer::run_capture(const std::string& path, receivers::CaptureKind kind, const Report& report) {
  if (!settings_) {
    Result<std::pair<as2::Settings, as4::Settings>> loaded = load_settings_();
    if (!loaded.is_ok()) return Status::invalid(Code::Configuration, loaded.status().message());
    settings_ = std::move(loaded.value());
  }
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  struct stat st {};
  if (f.fd < 0 || ::fstat(f.fd, &st) != 0) return os_error(path, "cannot open");
  if (static_cast<uint64_t>(st.st_size) > kMaxCaptureBytes)
    return Status::invalid(path + ": a capture larger than 1 GiB");
  std::string bytes;
  Status read = read_at(f.fd, 0, static_cast<size_t>(st.st_size), &bytes, path);
  if (!read.is_ok()) return read;
  std::string recorded;
  Result<http::HttpRequest> request = receivers::read_capture(bytes, &recorded);
  Line line;
  line.file = path;
  if (!request.is_ok()) {
    line.outcome = Outcome::Rejected;
    line.detail = request.status().message();
    report(line);
    return Status::ok();
  }
  bytes.clear();
  bytes.shrink_to_fit();
  // A capture the gateway attributed to a partner is that partner's, whatever
  // its headers say (unless the operator names another with --partner).
  receivers::Context context = c_;
  if (!context.expected_partner && !recorded.empty()) context.expected_partner = recorded;
  http::HttpAnswer answer;
  if (kind == receivers::CaptureKind::As2) {
    as2::As2Protocol protocol(settings_->first);
    answer = receivers::Pipeline(context, store_, protocol).receive(request.value());
  } else {
    as4::As4Protocol protocol(settings_->second);
    answer = receivers::Pipeline(context, store_, protocol).receive(request.value());
  }
  line.partner = answer.partner;
  line.outcome = answer.outcome;
  line.detail = partner_text(answer.detail, 500);
  if (!answer.partner.empty() && !answer.transport_id.empty())
    line.message_id =
        (kind == receivers::CaptureKind::As2 ? store::MessageKey::as2(answer.partner, answer.transport_id)
                                             : store::MessageKey::as4(answer.partner, answer.transport_id))
            .message_id;
  line.answer = std::move(answer);
  report(line);
  return Status::ok();
}

Status Replayer::run_edi(const std::string& path, const Report& report) {
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0) return os_error(path, "cannot open");
  gate::Arrival arrival;
  arrival.transport = "replay";
  arrival.transport_id = path;
  arrival.expected_partner = c_.expected_partner;
  // --partner: its files may hold only what it may send. Without: each
  // interchange is the partner's whose sender id it carries.
  arrival.sender = c_.expected_partner ? c_.partners->find(*c_.expected_partner) : nullptr;
  arrival.ours = c_.ours;
  bool any = false;
  Status failure;
  std::string bytes;  // one interchange at a time
  edi::Parser parser(
      edi::ParseOptions{},
      [&](edi::Interchange&& found) {
        any = true;
        if (!failure.is_ok()) return;
        // The parser has moved past these bytes: read them again, alone, so
        // that spans are relative to the interchange and memory stays bounded.
        Status s = read_at(f.fd, found.span.offset, found.span.length, &bytes, path);
        if (!s.is_ok()) {
          failure = s;
          return;
        }
        edi::ParseResult again = edi::parse(bytes);
        if (again.interchanges.empty()) return;  // cannot happen: the same bytes parsed once
        gate::InterchangeWork work = gate::prepare_interchange(again.interchanges[0], bytes, *c_.partners, arrival);
        gate::InterchangeResult r = gate::admit_interchange(*c_.gate, store_, work, arrival);
        report({path, r.partner_id, r.message_id, r.outcome, r.detail, r.documents, std::nullopt});
      },
      [&](edi::EnvelopeError&& e) {
        any = true;
        report({path, "", "", Outcome::Rejected, std::string(edi::code_name(e.code)) + ": " + e.text, 0, std::nullopt});
      });
  // One buffer for every file of the run: a fresh one was zeroed per file.
  std::vector<char>& buf = buffer_;
  if (buf.size() != kChunk) buf.resize(kChunk);
  size_t have = 0;
  while (failure.is_ok()) {
    if (buf.size() - have < kChunk / 2) buf.resize(buf.size() * 2);  // a long segment
    ssize_t n = ::read(f.fd, buf.data() + have, buf.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return os_error(path, "cannot read");
    have += static_cast<size_t>(n);
    const bool eof = n == 0;
    const size_t used = parser.feed(std::string_view(buf.data(), have), eof);
    if (eof) break;
    std::memmove(buf.data(), buf.data() + used, have - used);
    have -= used;
    if (buf.size() > kChunk && have < kChunk / 2) buf.resize(kChunk);
  }
  if (!failure.is_ok()) return failure;
  if (!any) report({path, "", "", Outcome::Rejected, "no interchange found (empty file?)", 0, std::nullopt});
  return Status::ok();
}

}  // namespace edihub::replay
