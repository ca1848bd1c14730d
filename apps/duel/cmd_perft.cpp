// duel perft GAME DEPTH: counts the move paths of length DEPTH (a rules check).
#include <memory>

#include "common.hpp"
#include "duel/core/clock.hpp"
#include "duel/games/game.hpp"

namespace duel::cli {
namespace {

struct PerftOptions {
  std::string game;
  std::string state;
  int depth = 1;
  bool divide = false;
};

template <class S>
std::uint64_t perft(const S& s, int depth) {
  if (depth == 0) return 1;
  if (s.is_terminal()) return 0;
  typename S::Moves moves;
  s.actions(moves);
  if (depth == 1) return moves.size();
  std::uint64_t total = 0;
  for (const auto& m : moves) total += perft(s.result(m), depth - 1);
  return total;
}

template <class S>
int run_perft(const S& start, const PerftOptions& o) {
  WallClock clock;
  std::uint64_t total = 0;
  if (o.divide && !start.is_terminal()) {
    typename S::Moves moves;
    start.actions(moves);
    for (const auto& m : moves) {
      const std::uint64_t n = perft(start.result(m), o.depth - 1);
      std::cout << start.move_text(m) << ": " << n << '\n';
      total += n;
    }
  } else {
    total = perft(start, o.depth);
  }
  std::cerr << fmt::format("perft {} depth {}: {:.3f} s\n", start.spec(), o.depth, clock.seconds());
  std::cout << total << '\n';
  return 0;
}

}  // namespace

Command add_perft(CLI::App& app) {
  auto o = std::make_shared<PerftOptions>();
  CLI::App* sub = app.add_subcommand("perft", "Count move paths of a given depth (rules check)");
  sub->add_option("game", o->game, "Game spec")->required();
  sub->add_option("depth", o->depth, "Depth in plies")->required()->check(CLI::Range(1, 64));
  sub->add_option("--state,--fen", o->state, "Position in the game's text form");
  sub->add_flag("--divide", o->divide, "Print the count below each first move");
  return {sub, [o] {
            return with_game(o->game, o->state, [&](const auto& s) { return run_perft(s, *o); });
          }};
}

}  // namespace duel::cli
