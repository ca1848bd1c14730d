// duel course: the course server and its teacher's commands
// (docs/course-server.md), run by the program `duel-course` beside this one
// (the HTTP, SQLite and archive libraries stay out of `duel`, as
// cmd_serve.cpp explains for duel-serve).
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "common.hpp"

namespace duel::cli {

Command add_course(CLI::App& app) {
  CLI::App* sub =
      app.add_subcommand("course",
                         "The course server: new DIR (from a roster), serve DIR, token DIR STUDENT "
                         "(docs/course-server.md; duel course --help)");
  sub->prefix_command();
  sub->set_help_flag();
  return {sub, [sub] {
            std::error_code ec;
            const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
            const std::string program = (self.parent_path() / "duel-course").string();
            std::vector<std::string> args = {program};
            for (const auto& a : sub->remaining()) args.push_back(a);
            std::vector<char*> argv;
            argv.reserve(args.size() + 1);
            for (auto& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            ::execv(program.c_str(), argv.data());
            std::cerr << "duel: course: cannot run " << program << ": " << std::strerror(errno)
                      << " (it is built beside duel)\n";
            return 1;
          }};
}

}  // namespace duel::cli
