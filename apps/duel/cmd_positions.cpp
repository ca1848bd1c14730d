// duel positions PATH... [-o FILE]: the course's input.txt files (folders
// searched for them, or the files themselves) made into a `--positions`
// file for `duel tournament csci561` (docs/tournament.md).
#include <fstream>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "common.hpp"
#include "duel/tournament/tournament.hpp"

namespace duel::cli {
namespace {

struct PositionsArgs {
  std::vector<std::string> roots;
  std::string out;  // empty: stdout
};

int run_positions(const PositionsArgs& a) {
  const std::vector<std::filesystem::path> roots(a.roots.begin(), a.roots.end());
  const auto text = tournament::positions_from_inputs(roots);
  if (!text) return bad_input(text.error());
  if (a.out.empty()) {
    std::cout << *text;
    return 0;
  }
  std::ofstream file(a.out, std::ios::trunc);
  if (!(file << *text) || !file.flush()) {
    return bad_input(fmt::format("positions: cannot write {}", a.out));
  }
  return 0;
}

}  // namespace

Command add_positions(CLI::App& app) {
  auto a = std::make_shared<PositionsArgs>();
  CLI::App* sub = app.add_subcommand(
      "positions",
      "Make a tournament --positions file from the course's input.txt files (SECONDS FEN # PATH)");
  sub->add_option("path", a->roots, "Folders searched for input.txt (or input files)")->required();
  sub->add_option("-o,--out", a->out, "Write here (default: stdout)");
  return {sub, [a] { return run_positions(*a); }};
}

}  // namespace duel::cli
