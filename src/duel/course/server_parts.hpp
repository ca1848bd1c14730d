#pragma once
// Small helpers the course server's files share (server.cpp, teacher.cpp):
// paths, numbers and cookies read from a request, files read whole, plain
// answers, and a folder zipped for a download.
#include <archive.h>
#include <archive_entry.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "duel/core/file.hpp"
#include "duel/core/result.hpp"
#include "duel/course/course.hpp"
#include "duel/serve/http_types.hpp"

namespace duel::course::parts {
namespace fs = std::filesystem;
using nlohmann::json;
using serve::error_response;
using serve::json_response;
using serve::Request;
using serve::Response;

inline std::string link_for(const Config& c, const std::string& token) {
  std::string base = c.url.empty() ? "http://127.0.0.1:8080" : c.url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/course/#token=" + token;
}

inline std::optional<std::int64_t> number(const std::string& s) {
  if (s.empty() || s.size() > 18) return std::nullopt;
  std::int64_t v = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

inline std::string cookie(const Request& r, const std::string& name) {
  const auto it = r.headers.find("cookie");
  if (it == r.headers.end()) return "";
  std::istringstream in(it->second);
  std::string item;
  while (std::getline(in, item, ';')) {
    const auto a = item.find_first_not_of(' ');
    if (a == std::string::npos) continue;
    item = item.substr(a);
    if (item.rfind(name + "=", 0) == 0) return item.substr(name.size() + 1);
  }
  return "";
}

inline Result<json> body_json(const Request& r) {
  json j = json::parse(r.body, nullptr, false);
  if (!j.is_object()) return fail("the request needs a JSON object as its body");
  return j;
}

// A zip of a folder's files (libarchive), for the teacher's download.
inline std::string zip_folder(const fs::path& dir, const std::string& top) {
  std::string out;
  const std::unique_ptr<archive, int (*)(archive*)> a(archive_write_new(), &archive_write_free);
  archive_write_set_format_zip(a.get());
  archive_write_open(
      a.get(), &out, nullptr,
      [](archive*, void* cls, const void* buf, size_t n) -> la_ssize_t {
        static_cast<std::string*>(cls)->append(static_cast<const char*>(buf), n);
        return static_cast<la_ssize_t>(n);
      },
      nullptr);
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (!e.is_regular_file()) continue;
    const std::string data = read_own_file(e.path(), 0, 64 << 20).value_or("");
    const std::unique_ptr<archive_entry, void (*)(archive_entry*)> entry(archive_entry_new(),
                                                                         &archive_entry_free);
    archive_entry_set_pathname(entry.get(), (top + "/" + e.path().filename().string()).c_str());
    archive_entry_set_size(entry.get(), static_cast<la_int64_t>(data.size()));
    archive_entry_set_filetype(entry.get(), AE_IFREG);
    archive_entry_set_perm(entry.get(), 0644);
    archive_write_header(a.get(), entry.get());
    archive_write_data(a.get(), data.data(), data.size());
  }
  archive_write_close(a.get());
  return out;
}

inline Response text_response(int status, std::string body,
                              std::string type = "text/plain; charset=utf-8") {
  Response out;
  out.status = status;
  out.content_type = std::move(type);
  out.body = std::move(body);
  return out;
}

}  // namespace duel::course::parts
