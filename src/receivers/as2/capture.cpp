#include "src/receivers/as2/capture.h"

#include <Poco/UUIDGenerator.h>

#include <ctime>
#include <filesystem>
#include <fstream>

#include "parsers/mime/entity.h"

namespace edihub::as2 {

std::string write_capture(const HttpRequest& request) {
  return join_headers(request.headers) + "\r\n" + request.body;
}

std::optional<HttpRequest> read_capture(std::string_view bytes) {
  mime::Entity e;
  mime::Limits limits;
  if (mime::parse_entity(bytes, &e, limits) || e.find("AS2-From") == nullptr) return std::nullopt;
  HttpRequest r;
  for (const auto& h : e.headers) r.headers.emplace_back(std::string(h.name), h.value);
  r.body = std::string(e.body);
  return r;
}

std::optional<HttpRequest> read_as4_capture(std::string_view bytes) {
  if (bytes.rfind("Content-Type:", 0) != 0 ||
      bytes.find("http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/") == std::string_view::npos)
    return std::nullopt;
  mime::Entity e;
  if (mime::parse_entity(bytes, &e) || e.find("Content-Type") == nullptr) return std::nullopt;
  HttpRequest r;
  for (const auto& h : e.headers) r.headers.emplace_back(std::string(h.name), h.value);
  r.body = std::string(e.body);
  return r;
}

Result<std::string> archive_capture(const std::string& dir, const HttpRequest& request) {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char day[32], stamp[32];
  std::strftime(day, sizeof day, "%Y/%m/%d", &tm);
  std::strftime(stamp, sizeof stamp, "%H%M%S", &tm);
  const std::filesystem::path folder = std::filesystem::path(dir) / day;
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) return Status::transient("archive: cannot create " + folder.string() + ": " + ec.message());
  const std::string name = std::string(stamp) + "-" + Poco::UUIDGenerator::defaultGenerator().createRandom().toString() + ".as2";
  const std::filesystem::path file = folder / name;
  std::ofstream out(file, std::ios::binary);
  const std::string bytes = write_capture(request);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return Status::transient("archive: cannot write " + file.string());
  return file.string();
}

}  // namespace edihub::as2
