// duel: the command-line front end. Every subcommand lives in its own file;
// bad input of any kind ends with one line on stderr and exit status 2.
#include <cstdio>
#include <exception>
#include <iostream>

#include "common.hpp"

namespace {

int run(int argc, char** argv) {
  CLI::App app{"Duel: adversarial search, referee and arena for two-player board games", "duel"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "duel 0.1.0");
  std::vector<duel::cli::Command> commands = {
      duel::cli::add_play(app),      duel::cli::add_search(app),  duel::cli::add_perft(app),
      duel::cli::add_solve(app),     duel::cli::add_table(app),   duel::cli::add_arena(app),
      duel::cli::add_games(app),     duel::cli::add_bench(app),   duel::cli::add_homework(app),
      duel::cli::add_calibrate(app), duel::cli::add_referee(app), duel::cli::add_uci(app),
      duel::cli::add_tune(app),      duel::cli::add_serve(app),   duel::cli::add_soak(app),
  };
  if (argc == 1) {
    std::cerr << app.help();
    return duel::cli::kBadInput;
  }
  if (argv[1][0] != '-') {
    std::string known;
    bool found = false;
    for (const auto& c : commands) {
      known += (known.empty() ? "" : ", ") + c.app->get_name();
      found = found || c.app->get_name() == argv[1];
    }
    if (!found) {
      return duel::cli::bad_input(std::string("unknown command '") + argv[1] +
                                  "' (known: " + known + ")");
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version: printed, status 0
  } catch (const CLI::ParseError& e) {
    return duel::cli::bad_input(e.what());
  }
  try {
    for (const auto& c : commands) {
      if (c.app->parsed()) return c.run();
    }
  } catch (const std::exception& e) {
    std::cerr << "duel: internal error: " << e.what() << '\n';
    return 1;
  }
  return duel::cli::bad_input("no command given (try --help)");
}

}  // namespace

// Nothing escapes main: an exception while the commands are set up (out of
// memory, say) is reported like one thrown while a command runs.
int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (...) {
    std::fputs("duel: internal error\n", stderr);
    return 1;
  }
}
