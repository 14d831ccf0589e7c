#include "src/http/reader.h"

#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/string_body.hpp>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "parsers/mime/entity.h"
#include "src/common/partner_text.h"

namespace edihub::http {

namespace bhttp = boost::beast::http;

namespace {
std::string_view sv(boost::beast::string_view v) { return {v.data(), v.size()}; }
}  // namespace

struct RequestReader::Impl {
  bhttp::request_parser<bhttp::string_body> parser;
};

RequestReader::RequestReader(const ReaderLimits& limits)
    : impl_(std::make_unique<Impl>()), max_head_bytes_(limits.max_head_bytes) {
  // The head limit is ours, not Beast's: Beast refuses an incomplete head by
  // the size of the buffer it is given and a complete one by its own size, so
  // the same request could pass whole and be refused in pieces (the
  // http_request fuzz target found one). Beast's bound only backs ours up.
  impl_->parser.header_limit(static_cast<std::uint32_t>(
      std::min<size_t>(limits.max_head_bytes + 65536, std::numeric_limits<std::uint32_t>::max())));
  impl_->parser.body_limit(limits.max_body_bytes);
  impl_->parser.eager(false);  // stop at the end of the head
}

RequestReader::~RequestReader() = default;

void RequestReader::fail(int status, const std::string& why) {
  failure_ = text_answer(status, why, Outcome::Rejected);
  failure_.close = true;
}

void RequestReader::take_head() {
  const auto& m = impl_->parser.get();
  request_.method = std::string(m.method_string());
  request_.target = std::string(m.target());
  for (const auto& f : m) request_.headers.emplace_back(std::string(f.name_string()), std::string(f.value()));
  head_taken_ = true;
}

size_t RequestReader::feed(std::string_view data, State* state) {
  auto& p = impl_->parser;
  size_t used = 0;
  while (true) {
    boost::beast::error_code ec;
    size_t n = 0;
    try {
      n = p.put(boost::asio::const_buffer(data.data() + used, data.size() - used), ec);
    } catch (const std::length_error&) {  // Beast's fields hold at most 64 KiB per name or value
      fail(431, "request line and headers larger than the limit");
      *state = State::Failed;
      return used;
    }
    if (!head_taken_) request_.head.append(data.data() + used, n);
    used += n;
    if (ec == bhttp::error::need_more) {
      // All that waits is head: over the limit already, whatever comes next.
      if (!head_taken_ && request_.head.size() + (data.size() - used) > max_head_bytes_) {
        fail(431, "request line and headers larger than the limit");
        *state = State::Failed;
        return used;
      }
      *state = State::NeedMore;
      return used;
    }
    if (ec) {
      if (ec == bhttp::error::body_limit) {
        fail(413, "body larger than the limit");
      } else if (ec == bhttp::error::header_limit) {
        fail(431, "request line and headers larger than the limit");
      } else if (ec == bhttp::error::bad_content_length) {
        fail(400,
             "malformed Content-Length: one decimal length, not negative, not two that differ, "
             "not together with Transfer-Encoding");
      } else if (ec == bhttp::error::bad_transfer_encoding) {
        fail(400, "malformed Transfer-Encoding (or together with Content-Length)");
      } else {
        fail(400, "malformed request: " + ec.message());
      }
      *state = State::Failed;
      return used;
    }
    if (p.is_header_done() && !head_taken_) {
      if (request_.head.size() > max_head_bytes_) {
        fail(431, "request line and headers larger than the limit");
        *state = State::Failed;
        return used;
      }
      take_head();
      // Only chunked is a transfer coding a request may use here: anything
      // else would leave the body's end unknown (and the next request with it).
      const auto te = p.get().find(bhttp::field::transfer_encoding);
      if (te != p.get().end() && !mime::iequals(sv(te->value()), "chunked")) {
        fail(400, "Transfer-Encoding '" + partner_text(sv(te->value()), 64) + "' is not supported (only chunked)");
        *state = State::Failed;
        return used;
      }
      p.eager(true);
      *state = p.is_done() ? State::Done : State::Head;
      if (*state == State::Done) request_.body = std::move(p.get().body());
      return used;
    }
    if (p.is_done()) {
      request_.body = std::move(p.get().body());
      *state = State::Done;
      return used;
    }
    if (used == data.size()) {
      *state = State::NeedMore;
      return used;
    }
  }
}

bool RequestReader::expects_continue() const {
  const auto& m = impl_->parser.get();
  auto it = m.find(bhttp::field::expect);
  return it != m.end() && mime::iequals(sv(it->value()), "100-continue");
}

bool RequestReader::keep_alive() const { return impl_->parser.get().keep_alive(); }

std::optional<uint64_t> RequestReader::content_length() const {
  auto n = impl_->parser.content_length();
  if (!n) return std::nullopt;
  return static_cast<uint64_t>(*n);
}

size_t RequestReader::body_bytes() const {
  return head_taken_ && request_.body.empty() ? impl_->parser.get().body().size() : request_.body.size();
}

std::string_view reason_phrase(int status) { return sv(bhttp::obsolete_reason(static_cast<bhttp::status>(status))); }

Result<HttpRequest> read_request(std::string_view bytes, const ReaderLimits& limits) {
  RequestReader reader(limits);
  RequestReader::State state = RequestReader::State::NeedMore;
  size_t used = 0;
  while (true) {
    used += reader.feed(bytes.substr(used), &state);
    if (state == RequestReader::State::Failed) return Status::invalid(reader.failure().detail);
    if (state == RequestReader::State::Done) return std::move(reader.request());
    if (state == RequestReader::State::NeedMore && used >= bytes.size()) {
      // The capture ends where the sender stopped: the body is what there is.
      return Status::invalid("the request is truncated");
    }
  }
}

}  // namespace edihub::http
