// duel-serve: the program behind `duel serve` (apps/duel/cmd_serve.cpp says
// why it is a program of its own). Same flags, same messages.
#include <exception>
#include <iostream>

#include "../duel/serve_flags.hpp"

int main(int argc, char** argv) {
  CLI::App app{"Serve Duel's web page and its JSON API (docs/serve.md)", "duel serve"};
  duel::serve::RunOptions options;
  duel::cli::add_serve_flags(app, options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "duel: serve: " << e.what() << '\n';
    return 2;
  }
  try {
    return duel::serve::run(options);
  } catch (const std::exception& e) {
    std::cerr << "duel: serve: internal error: " << e.what() << '\n';
    return 1;
  }
}
