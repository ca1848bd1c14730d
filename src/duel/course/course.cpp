#include "duel/course/course.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sodium.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "duel/registry/games.hpp"

namespace duel::course {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// Seed 003's program files (docs/tournament.md, "Seed 003 programs") and
// each one's language; calibrate.* must be in the same language.
const std::map<std::string, std::string>& program_files() {
  static const std::map<std::string, std::string> files = {{"homework.py", "Python 3"},
                                                           {"homework.cpp", "C++17"},
                                                           {"homework11.cpp", "C++11"},
                                                           {"homework.java", "Java"},
                                                           {"homework2.py", "Python 2"}};
  return files;
}
std::string extension(const std::string& name) {
  const auto dot = name.rfind('.');
  return dot == std::string::npos ? "" : name.substr(dot);
}

bool valid_utf8_text(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == 0) return false;
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

// The files of a zip (libarchive). Refuses a name with "..", an absolute
// name, links and devices, and more than the caps allow; drops folders and
// macOS's __MACOSX/ and ._ files. A single top folder is taken off.
Result<std::vector<UploadFile>> unzip(const Config& config, const std::string& data) {
  const std::unique_ptr<archive, int (*)(archive*)> a(archive_read_new(), &archive_read_free);
  archive_read_support_format_zip(a.get());
  archive_read_support_format_tar(a.get());
  archive_read_support_filter_gzip(a.get());
  if (archive_read_open_memory(a.get(), data.data(), data.size()) != ARCHIVE_OK) {
    return fail(fmt::format("the zip cannot be read ({})", archive_error_string(a.get())));
  }
  std::vector<UploadFile> out;
  std::int64_t total = 0;
  archive_entry* entry = nullptr;
  while (true) {
    const int rc = archive_read_next_header(a.get(), &entry);
    if (rc == ARCHIVE_EOF) break;
    if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
      return fail(fmt::format("the zip cannot be read ({})", archive_error_string(a.get())));
    }
    const char* raw = archive_entry_pathname(entry);
    const std::string name = raw == nullptr ? "" : raw;
    if (name.empty() || name.front() == '/' || name.find('\\') != std::string::npos) {
      return fail(fmt::format("the zip holds '{}': absolute names are refused", name));
    }
    const std::string& rest = name;
    std::vector<std::string> parts;
    for (std::size_t at = 0; at <= rest.size();) {
      const auto slash = rest.find('/', at);
      const std::string part = rest.substr(at, slash == std::string::npos ? slash : slash - at);
      if (part == "..") return fail(fmt::format("the zip holds '{}': '..' is refused", name));
      if (!part.empty() && part != ".") parts.push_back(part);
      if (slash == std::string::npos) break;
      at = slash + 1;
    }
    const auto type = archive_entry_filetype(entry);
    if (type == AE_IFDIR) continue;
    if (type != AE_IFREG) {
      return fail(fmt::format("the zip holds '{}', which is not a plain file", name));
    }
    if (parts.empty() || parts.front() == "__MACOSX" || parts.back().rfind("._", 0) == 0) {
      continue;
    }
    if (out.size() >= 64) return fail("the zip holds more than 64 files");
    const la_int64_t size = archive_entry_size(entry);
    if (size > config.max_file_bytes || total + size > config.max_upload_bytes) {
      return fail(
          fmt::format("'{}' in the zip is too large (a file at most {} KiB, all at most {} KiB)",
                      name, config.max_file_bytes / 1024, config.max_upload_bytes / 1024));
    }
    std::string body(static_cast<std::size_t>(std::max<la_int64_t>(size, 0)), '\0');
    const la_ssize_t got = archive_read_data(a.get(), body.data(), body.size());
    if (got < 0 || static_cast<std::size_t>(got) != body.size()) {
      return fail(fmt::format("'{}' in the zip cannot be read", name));
    }
    total += size;
    // A single top folder ("hw2/homework.py") is taken off; deeper is kept as
    // a path and then refused by the name check.
    std::string path;
    for (std::size_t k = parts.size() > 1 ? 1 : 0; k < parts.size(); ++k) {
      path += (path.empty() ? "" : "/") + parts[k];
    }
    out.push_back({path, std::move(body)});
  }
  return out;
}

}  // namespace

Kind Config::kind() const {
  if (course == "csci561") return Kind::Csci561;
  if (course == "cs3243") return Kind::Cs3243;
  return Kind::Game;
}

nlohmann::json Config::to_json() const {
  return {{"course", course},
          {"title", title},
          {"url", url},
          {"practice", practice},
          {"grading", grading},
          {"competition", competition},
          {"feedback_seconds", feedback_seconds},
          {"ladder",
           {{"on", ladder},
            {"args", ladder_args},
            {"games", ladder_games},
            {"pair_cap", ladder_pair_cap}}},
          {"uploads",
           {{"max_file_bytes", max_file_bytes},
            {"max_upload_bytes", max_upload_bytes},
            {"per_hour", uploads_per_hour}}}};
}

Result<Config> Config::from_json(const nlohmann::json& j) {
  try {
    auto c = defaults(j.at("course").get<std::string>());
    if (!c) return c;
    Config out = *c;
    out.title = j.value("title", out.title);
    out.url = j.value("url", out.url);
    out.practice = j.value("practice", out.practice);
    out.grading = j.value("grading", out.grading);
    out.competition = j.value("competition", out.competition);
    out.feedback_seconds = j.value("feedback_seconds", out.feedback_seconds);
    if (j.contains("ladder")) {
      const auto& l = j.at("ladder");
      out.ladder = l.value("on", out.ladder);
      out.ladder_args = l.value("args", out.ladder_args);
      out.ladder_games = l.value("games", out.ladder_games);
      out.ladder_pair_cap = l.value("pair_cap", out.ladder_pair_cap);
    }
    if (j.contains("uploads")) {
      const auto& u = j.at("uploads");
      out.max_file_bytes = u.value("max_file_bytes", out.max_file_bytes);
      out.max_upload_bytes = u.value("max_upload_bytes", out.max_upload_bytes);
      out.uploads_per_hour = u.value("per_hour", out.uploads_per_hour);
    }
    if (out.ladder_games < 1 || out.ladder_pair_cap < 1 || out.max_file_bytes < 1 ||
        out.max_upload_bytes < 1 || out.uploads_per_hour < 1 || !(out.feedback_seconds >= 0)) {
      return fail(
          "course.json: the ladder's games and cap, and the upload limits, must be positive");
    }
    return out;
  } catch (const nlohmann::json::exception& e) {
    return fail(fmt::format("course.json: {}", e.what()));
  }
}

Result<Config> Config::defaults(const std::string& course) {
  Config c;
  c.course = course;
  if (course == "csci561") {
    // Feedback at short clocks: the course's ten single moves at 10 s each
    // and two games against the reference at 60 s a side; grading on the
    // hand-out's full terms (docs/tournament.md), the ladder at 60 s.
    c.title = "CSCI-561 checkers";
    c.practice = {"--single-time", "10", "--reference-games", "2", "--time", "60"};
    c.ladder_args = {"--time", "60"};
    return c;
  }
  if (course == "cs3243") {
    // Feedback: the five test cases, a game each ("Testcase 1 - 5" as the
    // hand-out's platform shows them), within its 30 s; grading: 10 each.
    c.title = "CS3243 minichess";
    c.practice = {"--games", "1"};
    c.feedback_seconds = 30;
    c.competition.clear();
    return c;
  }
  auto game = registry::make_game(course);
  if (!game) {
    return fail(
        fmt::format("'{}' is not csci561, cs3243 or a game spec ({})", course, game.error()));
  }
  c.course = std::visit([](const auto& s) { return s.spec(); }, *game);
  if (c.course.rfind("checkers", 0) != 0) {
    return fail(fmt::format(
        "'{}': a course of another game needs its programs' protocol; today students submit seed "
        "003 programs, so a game spec course is checkers (csci561 or checkers:...)",
        course));
  }
  c.title = c.course;
  c.practice = {"--format", "gauntlet", "--agent", "duel:csci561-ta",
                "--games",  "2",        "--time",  "60"};
  c.grading = {"--format", "round-robin"};
  c.ladder_args = {"--time", "60"};
  return c;
}

Result<std::vector<RosterEntry>> read_roster(const std::string& text) {
  // Step 1. RFC 4180 fields, line by line (quoted fields may hold commas,
  // quotes doubled, and newlines).
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  bool any = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
      continue;
    }
    if (c == '"') {
      quoted = true;
      any = true;
    } else if (c == ',') {
      row.push_back(std::move(field));
      field.clear();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (any || !field.empty()) row.push_back(std::move(field));
      rows.push_back(std::move(row));
      row.clear();
      field.clear();
      any = false;
    } else {
      field += c;
      any = true;
    }
  }
  if (quoted) return fail("roster: a quoted field is not closed");
  if (any || !field.empty()) row.push_back(std::move(field));
  if (!row.empty()) rows.push_back(std::move(row));
  // Step 2. The students.
  std::vector<RosterEntry> out;
  std::set<std::string> seen;
  const auto trim = [](const std::string& s) {
    const auto a = s.find_first_not_of(" \t");
    const auto b = s.find_last_not_of(" \t");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
  };
  for (std::size_t n = 0; n < rows.size(); ++n) {
    auto& r = rows[n];
    if (r.empty() || (r.size() == 1 && trim(r[0]).empty())) continue;
    for (auto& f : r) f = trim(f);
    if (n == 0 && lower(r[0]) == "id") continue;  // the header
    if (r.size() != 3) {
      return fail(fmt::format("roster line {}: {} fields; give id, name, e-mail", n + 1, r.size()));
    }
    if (!safe_name(r[0]) || r[0] == "teacher") {
      return fail(fmt::format(
          "roster line {}: id '{}' must be 1-64 letters, digits, '.', '_' or '-' (not 'teacher')",
          n + 1, r[0]));
    }
    if (r[1].empty()) return fail(fmt::format("roster line {}: no name", n + 1));
    if (!seen.insert(r[0]).second) {
      return fail(fmt::format("roster line {}: id '{}' is there twice", n + 1, r[0]));
    }
    out.push_back({r[0], r[1], r[2]});
  }
  if (out.empty()) return fail("roster: no students");
  return out;
}

bool safe_name(const std::string& name) {
  if (name.empty() || name.size() > 64 || name == "." || name == ".." || name.front() == '.') {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::isalnum(c) != 0 || c == '.' || c == '_' || c == '-';
  });
}

std::string expected_files(const Config& config) {
  if (config.kind() == Kind::Cs3243) return "AB.py (or a zip holding it)";
  return "one of homework.py, homework.cpp, homework11.cpp, homework.java (and optionally "
         "calibrate.* in the same language), or a zip of them";
}

Result<CheckedUpload> check_upload(const Config& config, std::vector<UploadFile> files) {
  // Step 1. A zip is its files.
  if (files.size() == 1 &&
      (extension(lower(files[0].name)) == ".zip" || files[0].data.rfind("PK\x03\x04", 0) == 0)) {
    auto inside = unzip(config, files[0].data);
    if (!inside) return fail(inside.error());
    files = std::move(*inside);
  }
  if (files.empty()) return fail(fmt::format("no file: upload {}", expected_files(config)));
  // Step 2. Names, sizes, text.
  std::int64_t total = 0;
  std::set<std::string> names;
  for (const auto& f : files) {
    if (!names.insert(f.name).second) return fail(fmt::format("'{}' is there twice", f.name));
    if (static_cast<std::int64_t>(f.data.size()) > config.max_file_bytes) {
      return fail(fmt::format("{} is {} KiB: a file may be at most {} KiB", f.name,
                              f.data.size() / 1024, config.max_file_bytes / 1024));
    }
    total += static_cast<std::int64_t>(f.data.size());
    if (f.data.empty()) return fail(fmt::format("{} is empty", f.name));
    if (!valid_utf8_text(f.data)) {
      return fail(fmt::format("{} is not a text file (UTF-8, no NUL bytes)", f.name));
    }
  }
  if (total > config.max_upload_bytes) {
    return fail(fmt::format("the upload is {} KiB: at most {} KiB", total / 1024,
                            config.max_upload_bytes / 1024));
  }
  CheckedUpload out;
  if (config.kind() == Kind::Cs3243) {
    if (files.size() != 1 || files[0].name != "AB.py") {
      return fail(
          fmt::format("the hand-out asks for AB.py, alone; got {}", fmt::join(names, ", ")));
    }
    out.language = "Python 3";
    out.files = std::move(files);
    return out;
  }
  // Step 3. Seed 003: one program, and calibrate.* in its language.
  std::string program;
  for (const auto& n : names) {
    if (program_files().count(n) != 0) {
      if (!program.empty()) {
        return fail(fmt::format("two programs ({} and {}): submit one", program, n));
      }
      program = n;
    }
  }
  if (program.empty()) {
    return fail(fmt::format("no program: the hand-out asks for {}; got {}", expected_files(config),
                            fmt::join(names, ", ")));
  }
  const std::string lang_ext = extension(program);
  for (const auto& n : names) {
    if (n == program) continue;
    if (n.rfind("calibrate", 0) == 0 && n.find('/') == std::string::npos) {
      const std::string ext = extension(n);
      if (ext != lang_ext || (n != "calibrate" + ext && n != "calibrate11" + ext)) {
        return fail(fmt::format("{}: calibrate must be in the program's language ({}{})", n,
                                "calibrate", lang_ext));
      }
      continue;
    }
    return fail(
        fmt::format("'{}' is not a file the hand-out names ({})", n, expected_files(config)));
  }
  out.language = program_files().at(program);
  out.files = std::move(files);
  return out;
}

std::string new_token() {
  unsigned char bytes[16];
  randombytes_buf(bytes, sizeof bytes);
  char hex[2 * sizeof bytes + 1];
  sodium_bin2hex(hex, sizeof hex, bytes, sizeof bytes);
  return hex;
}

std::string token_hash(const std::string& token) {
  unsigned char out[crypto_generichash_BYTES];
  crypto_generichash(out, sizeof out, reinterpret_cast<const unsigned char*>(token.data()),
                     token.size(), nullptr, 0);
  char hex[2 * sizeof out + 1];
  sodium_bin2hex(hex, sizeof hex, out, sizeof out);
  return hex;
}

bool same_hash(const std::string& a, const std::string& b) {
  return a.size() == b.size() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

Result<bool> write_file_atomic(const std::filesystem::path& path, const std::string& data,
                               bool secret) {
  const std::string tmp = path.string() + ".tmp";
  const int fd =
      ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, secret ? 0600 : 0644);
  if (fd < 0) return fail(fmt::format("cannot write {}", tmp));
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n <= 0) {
      ::close(fd);
      return fail(fmt::format("cannot write {}", tmp));
    }
    done += static_cast<std::size_t>(n);
  }
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!synced || std::rename(tmp.c_str(), path.c_str()) != 0) {
    return fail(fmt::format("cannot write {}", path.string()));
  }
  return true;
}

}  // namespace duel::course
