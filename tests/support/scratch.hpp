#pragma once
// A scratch folder of a test's own under the temporary directory, made
// empty and removed at the end.
//
// Why: tests that run programs or tournaments need a folder no other test
// (or run of the suite) shares; the process id and a counter make it so.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace duel::test_support {

struct Scratch {
  std::filesystem::path dir;
  explicit Scratch(const std::string& prefix = "duel-test") {
    static int n = 0;
    dir = std::filesystem::temp_directory_path() /
          (prefix + "-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
};

}  // namespace duel::test_support
