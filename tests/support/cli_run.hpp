#pragma once
// Runs the built `duel` binary (DUEL_BIN) as users do: arguments, text on
// stdin, in a fresh scratch directory; returns the exit status, stdout,
// stderr and every file the run left in that directory.
//
// Why: the CLI tests check what people and other tools see, so they go
// through the real binary and its real exit status, never through main().
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace duel::test_support {

struct CliRun {
  int status = -1;
  std::string out;
  std::string err;
  std::map<std::string, std::string> files;  // path relative to the scratch directory -> text
};

[[nodiscard]] inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs `duel ARGS` with `input` on stdin, in a scratch directory removed after.
[[nodiscard]] inline CliRun duel(const std::string& args, const std::string& input = "") {
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path dir = fs::temp_directory_path() /
                       ("duel-cli-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::create_directories(dir);
  std::ofstream(dir / "in") << input;
  const std::string cmd =
      "cd '" + dir.string() + "' && '" + DUEL_BIN + "' " + args + " < in > out 2> err";
  const int raw = std::system(cmd.c_str());
  CliRun r{WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(dir / "out"), slurp(dir / "err"), {}};
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const std::string name = fs::relative(entry.path(), dir).string();
    if (name != "in" && name != "out" && name != "err") r.files[name] = slurp(entry.path());
  }
  fs::remove_all(dir);
  return r;
}

}  // namespace duel::test_support
