#pragma once
// A whole text file, read once: agent files (input.txt, playdata.txt,
// calibration.txt) and boards given by path.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace duel {

// The file's bytes, or nothing when it cannot be opened.
[[nodiscard]] inline std::optional<std::string> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A file a boxed program could have replaced (its logs, in its folder):
// read only when it is a regular file, never through a link, from byte
// `from`, at most `limit` bytes; nothing when it is not such a file.
[[nodiscard]] inline std::optional<std::string> read_own_file(const std::filesystem::path& p,
                                                              std::uint64_t from = 0,
                                                              std::uint64_t limit = 1 << 20) {
  const int fd = ::open(p.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::optional<std::string> out;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    out.emplace();
    char buf[65536];
    auto at = static_cast<off_t>(from);
    ssize_t n = 0;
    while (out->size() < limit && (n = ::pread(fd, buf, sizeof buf, at)) > 0) {
      out->append(buf, static_cast<std::size_t>(n));
      at += n;
    }
    if (out->size() > limit) out->resize(limit);
  }
  ::close(fd);
  return out;
}

// Appends `text` to `p`, never through a link; false when it cannot.
[[nodiscard]] inline bool append_own_file(const std::filesystem::path& p, const std::string& text) {
  const int fd = ::open(p.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

}  // namespace duel
