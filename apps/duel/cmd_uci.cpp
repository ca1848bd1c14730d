// duel uci: Duel as a UCI engine for the 5x5 chess games on stdin/stdout
// (the protocol logic is src/duel/uci/server.cpp; docs/uci.md describes it).
#include <iostream>

#include "common.hpp"
#include "duel/uci/server.hpp"

namespace duel::cli {

Command add_uci(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "uci", "Speak UCI on stdin/stdout for gardner, gardner-cs3243 and minichess-comp472");
  return {sub, [] {
            // A GUI reads our lines as they come: no tie to stdin's buffering.
            std::cin.tie(nullptr);
            uci::Server server(std::cout);
            server.run(std::cin);
            return 0;
          }};
}

}  // namespace duel::cli
