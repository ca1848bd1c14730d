// duel: the command-line front end. Every subcommand lives in its own file;
// bad input of any kind ends with one line on stderr and exit status 2.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common.hpp"
#include "duel/box/keeper.hpp"
#include "duel/games/checkers/egdb.hpp"

namespace {

// Every command by the name it is run with. Only the command named on the
// command line is set up (its options built): seed 003's referee may give
// `duel homework` 0.01 s of CPU for a whole run, and building every
// command's options costs more start-up than the move itself.
struct Entry {
  const char* name;
  duel::cli::Command (*add)(CLI::App&);
};
constexpr Entry kCommands[] = {
    {"play", duel::cli::add_play},           {"search", duel::cli::add_search},
    {"perft", duel::cli::add_perft},         {"solve", duel::cli::add_solve},
    {"table", duel::cli::add_table},         {"arena", duel::cli::add_arena},
    {"games", duel::cli::add_games},         {"bench", duel::cli::add_bench},
    {"homework", duel::cli::add_homework},   {"calibrate", duel::cli::add_calibrate},
    {"referee", duel::cli::add_referee},     {"uci", duel::cli::add_uci},
    {"tune", duel::cli::add_tune},           {"serve", duel::cli::add_serve},
    {"soak", duel::cli::add_soak},           {"tournament", duel::cli::add_tournament},
    {"task", duel::cli::add_task},           {"egdb", duel::cli::add_egdb},
    {"positions", duel::cli::add_positions}, {"box", duel::cli::add_box},
    {"course", duel::cli::add_course},
};

// The checkers endgame tables the engine probes: the directory DUEL_EGDB
// names, when set (docs/egdb.md). `duel egdb` itself builds and reads
// tables by its own arguments.
int load_engine_tables(std::string_view command) {
  const char* dir = std::getenv("DUEL_EGDB");
  if (dir == nullptr || *dir == '\0' || command == "egdb") return 0;
  using duel::games::checkers::egdb::Egdb;
  auto tables = Egdb::load(dir);
  if (!tables) return duel::cli::bad_input("DUEL_EGDB: " + tables.error());
  duel::games::checkers::egdb::set_engine_tables(std::make_shared<const Egdb>(std::move(*tables)));
  return 0;
}

// `duel` alone: where to start, three commands to try, and status 0 (a
// person asking, not bad input); `duel --help` has the whole list.
constexpr std::string_view kStartHere =
    "Duel: play, search and referee two-player board games. Start here:\n"
    "  duel play gardner --white human --black engine:time=1   play 5x5 chess "
    "against the engine\n"
    "  duel search checkers --time 1                           the engine's best "
    "move and score\n"
    "  duel games                                              every game, its "
    "heuristics and agents\n"
    "More: duel --help, duel COMMAND --help, docs/cli.md\n";

int run(int argc, char** argv) {
  // Inside a kept box (docs/box.md): not a command people run.
  if (argc > 1 && std::string_view(argv[1]) == "box-keeper") {
    return duel::box::keeper_main(argc, argv);
  }
  CLI::App app{"Duel: adversarial search, referee and arena for two-player board games", "duel"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("duel 0.1.0 (build ") + duel::kBuildId + ")");
  const std::string_view first = argc > 1 ? argv[1] : "";
  std::vector<duel::cli::Command> commands;
  for (const auto& e : kCommands) {
    if (first == e.name) commands.push_back(e.add(app));
  }
  if (argc == 1) {
    std::cout << kStartHere;
    return 0;
  }
  if (commands.empty() && first.starts_with('-')) {
    for (const auto& e : kCommands) commands.push_back(e.add(app));  // for --help
  }
  if (commands.empty()) {
    std::string known;
    for (const auto& e : kCommands) known += (known.empty() ? "" : ", ") + std::string(e.name);
    return duel::cli::bad_input(std::string("unknown command '") + argv[1] + "' (known: " + known +
                                ")");
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version: printed, status 0
  } catch (const CLI::ParseError& e) {
    return duel::cli::bad_input(e.what());
  }
  if (const int status = load_engine_tables(first); status != 0) return status;
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
