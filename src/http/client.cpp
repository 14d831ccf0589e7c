#include "src/http/client.h"

#include <curl/curl.h>

namespace edihub::http {

namespace {

struct Sink {
  std::string* out;
  size_t max;
  bool over = false;
};

size_t collect(char* data, size_t size, size_t count, void* user) {
  auto* sink = static_cast<Sink*>(user);
  const size_t n = size * count;
  if (sink->out->size() + n > sink->max) {
    sink->over = true;
    return 0;  // makes curl stop with a write error
  }
  sink->out->append(data, n);
  return n;
}

}  // namespace

Response post(const std::string& url, const std::string& header_lines, const std::string& body, int timeout_seconds,
              size_t max_answer_bytes) {
  return post_ms(url, header_lines, body, static_cast<int64_t>(timeout_seconds) * 1000, max_answer_bytes);
}

Response post_ms(const std::string& url, const std::string& header_lines, const std::string& body, int64_t timeout_ms,
                 size_t max_answer_bytes) {
  Response r;
  CURL* curl = curl_easy_init();
  if (curl == nullptr) {
    r.error = "curl_easy_init failed";
    return r;
  }
  curl_slist* headers = nullptr;
  size_t pos = 0;
  while (pos < header_lines.size()) {
    size_t end = header_lines.find("\r\n", pos);
    if (end == std::string::npos) end = header_lines.size();
    if (end > pos) headers = curl_slist_append(headers, header_lines.substr(pos, end - pos).c_str());
    pos = end + 2;
  }
  headers = curl_slist_append(headers, "Expect:");
  Sink body_sink{&r.body, max_answer_bytes}, header_sink{&r.headers, 65536};
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);  // the configured URL, nowhere else
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout_ms));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body_sink);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, collect);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &header_sink);
  CURLcode rc = curl_easy_perform(curl);
  if (rc != CURLE_OK) {
    r.error = body_sink.over ? "the answer is larger than " + std::to_string(max_answer_bytes) + " bytes"
                             : curl_easy_strerror(rc);
  } else {
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    r.status = static_cast<int>(status);
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  // Only the final answer's header block (a 100 Continue may precede it).
  if (size_t last = r.headers.rfind("HTTP/"); last != std::string::npos) {
    r.headers = r.headers.substr(last);
    r.headers = r.headers.substr(std::min(r.headers.size(), r.headers.find("\r\n") + 2));
  }
  return r;
}

}  // namespace edihub::http
