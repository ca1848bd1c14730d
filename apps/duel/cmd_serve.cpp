// duel serve: the web page and its JSON API on a local HTTP server
// (src/duel/serve/, docs/serve.md).
//
// Why a second program: the server links an HTTP library, and Debian's
// builds load a TLS library and more with it (cpp-httplib's, the server's
// library before, doubled the start-up CPU time of every `duel` command:
// about 6 ms more on a busy 2-core machine).
// Seed 003's agent program (`duel homework`) may have 0.01 s of CPU for a
// whole move, so `duel` itself stays without it: this command checks the
// flags and then runs `duel-serve` from the same folder in its place (exec:
// the same process, so signals and the exit status are the server's own).
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "common.hpp"
#include "serve_flags.hpp"

namespace duel::cli {
namespace {

// Runs duel-serve with the flags as given here (checked already; it has
// the same flags and defaults, serve_flags.hpp), so a flag added there
// needs no edit here.
int hand_over(const CLI::App& sub) {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) {
    std::cerr << "duel: serve: cannot find this program's folder: " << ec.message() << '\n';
    return 1;
  }
  const std::string server = (self.parent_path() / "duel-serve").string();
  std::vector<std::string> args = {server};
  for (const CLI::Option* opt : sub.get_options()) {
    for (const std::string& value : opt->results()) {
      args.push_back(opt->get_name());
      args.push_back(value);
    }
  }
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::cout.flush();
  ::execv(server.c_str(), argv.data());
  std::cerr << "duel: serve: cannot run " << server << ": " << std::strerror(errno)
            << " (it is built beside duel)\n";
  return 1;
}

}  // namespace

Command add_serve(CLI::App& app) {
  auto o = std::make_shared<serve::RunOptions>();
  CLI::App* sub = app.add_subcommand(
      "serve", "Serve the web page and its JSON API (docs/serve.md) until SIGINT/SIGTERM");
  add_serve_flags(*sub, *o);
  return {sub, [o, sub] { return hand_over(*sub); }};
}

}  // namespace duel::cli
