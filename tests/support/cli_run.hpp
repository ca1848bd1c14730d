#pragma once
// Runs the built `duel` binary (DUEL_BIN) as users do: arguments, text on
// stdin, in a fresh scratch directory; returns the exit status, stdout,
// stderr and every file the run left in that directory.
//
// Why: the CLI tests check what people and other tools see, so they go
// through the real binary and its real exit status, never through main().
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace duel::test_support {

struct CliRun {
  int status = -1;
  std::string out;
  std::string err;
  std::map<std::string, std::string> files;  // path relative to the scratch directory -> text
  double cpu_seconds = 0.0;                  // user + system time of the run
  double user_seconds = 0.0;                 // user time alone (what `time` calls user)
};

[[nodiscard]] inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs `argv` (argv[0] is the program's path) in `dir` with stdin from
// dir/in and stdout, stderr to dir/out, dir/err; returns the exit status
// (-1 if killed or not started) and fills the CPU times of that process and
// the children it waited for (wait4's rusage), nothing of this test's own.
inline int spawn_in(const std::filesystem::path& dir, const std::vector<std::string>& argv,
                    CliRun& r) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const std::string in = (dir / "in").string();
  const std::string out = (dir / "out").string();
  const std::string err = (dir / "err").string();
  // posix_spawn, not fork: the child shares this (large) test process's
  // memory until exec instead of copying its page tables, so the CPU time
  // measured is the program's, not the cost of leaving the test binary.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  posix_spawn_file_actions_addopen(&actions, 0, in.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int raw = 0;
  rusage u{};
  while (::wait4(pid, &raw, 0, &u) < 0) {
    if (errno != EINTR) return -1;
  }
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  };
  r.user_seconds = seconds(u.ru_utime);
  r.cpu_seconds = r.user_seconds + seconds(u.ru_stime);
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

// Runs `argv` (the program and its arguments) with `input` on stdin, in a
// scratch directory removed after, which holds `files` (path -> text)
// before the run.
[[nodiscard]] inline CliRun run_program(const std::vector<std::string>& argv,
                                        const std::string& input = "",
                                        const std::map<std::string, std::string>& files = {}) {
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path dir = fs::temp_directory_path() /
                       ("duel-cli-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::create_directories(dir);
  std::ofstream(dir / "in") << input;
  for (const auto& [name, text] : files) std::ofstream(dir / name) << text;
  CliRun r;
  r.status = spawn_in(dir, argv, r);
  r.out = slurp(dir / "out");
  r.err = slurp(dir / "err");
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const std::string name = fs::relative(entry.path(), dir).string();
    if (name != "in" && name != "out" && name != "err") r.files[name] = slurp(entry.path());
  }
  fs::remove_all(dir);
  return r;
}

// Runs `duel ARGS` (ARGS as a shell reads them: quotes work) with `input`
// on stdin; ARGS may go on with more shell (`&& ...`). The CPU times are
// duel's plus the shell's.
[[nodiscard]] inline CliRun duel(const std::string& args, const std::string& input = "",
                                 const std::map<std::string, std::string>& files = {}) {
  return run_program({"/bin/sh", "-c", std::string("'") + DUEL_BIN + "' " + args}, input, files);
}

// Runs `duel` with exactly these arguments and no shell in between, so the
// CPU times are the duel process's alone: what a referee that times the
// agent program (seed 003 uses the Unix `time` command) measures.
[[nodiscard]] inline CliRun duel_exec(std::vector<std::string> args, const std::string& input = "",
                                      const std::map<std::string, std::string>& files = {}) {
  args.insert(args.begin(), DUEL_BIN);
  return run_program(args, input, files);
}

}  // namespace duel::test_support
