#pragma once
// Runs the built `duel` binary (DUEL_BIN) as users do: arguments, text on
// stdin, in a fresh scratch directory; returns the exit status, stdout,
// stderr and every file the run left in that directory.
//
// Why: the CLI tests check what people and other tools see, so they go
// through the real binary and its real exit status, never through main().
#include <sys/resource.h>
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
  double cpu_seconds = 0.0;                  // user + system time of the run (the shell included)
};

[[nodiscard]] inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs `duel ARGS` with `input` on stdin, in a scratch directory removed
// after, which holds `files` (path -> text) before the run.
[[nodiscard]] inline CliRun duel(const std::string& args, const std::string& input = "",
                                 const std::map<std::string, std::string>& files = {}) {
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path dir = fs::temp_directory_path() /
                       ("duel-cli-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::create_directories(dir);
  std::ofstream(dir / "in") << input;
  for (const auto& [name, text] : files) std::ofstream(dir / name) << text;
  const std::string cmd =
      "cd '" + dir.string() + "' && '" + DUEL_BIN + "' " + args + " < in > out 2> err";
  const auto children_cpu = [] {
    rusage u{};
    getrusage(RUSAGE_CHILDREN, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
  };
  const double cpu_before = children_cpu();
  const int raw = std::system(cmd.c_str());
  CliRun r{WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(dir / "out"), slurp(dir / "err"), {}};
  r.cpu_seconds = children_cpu() - cpu_before;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const std::string name = fs::relative(entry.path(), dir).string();
    if (name != "in" && name != "out" && name != "err") r.files[name] = slurp(entry.path());
  }
  fs::remove_all(dir);
  return r;
}

}  // namespace duel::test_support
