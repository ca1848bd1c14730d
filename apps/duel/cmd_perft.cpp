// duel perft GAME DEPTH: counts the move paths of length DEPTH (a rules check).
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common.hpp"
#include "duel/core/clock.hpp"
#include "duel/core/file.hpp"
#include "duel/games/checkers/protocol.hpp"
#include "duel/games/game.hpp"

namespace duel::cli {
namespace {

struct PerftOptions {
  std::string game;
  std::string state;
  std::string board;  // a file in seed 003's input.txt form (checkers)
  int depth = 1;
  bool divide = false;
  bool dedupe = false;
  bool json = false;
};

// The generic count: every action of the game is a move path.
template <class S>
std::uint64_t count_paths(const S& s, int depth) {
  if (depth == 0) return 1;
  if (s.is_terminal()) return 0;
  typename S::Moves moves;
  s.actions(moves);
  if (depth == 1) return moves.size();
  std::uint64_t total = 0;
  for (const auto& m : moves) total += count_paths(s.result(m), depth - 1);
  return total;
}

// A game whose perft counts something else than its action list (the chess
// rule sets count legal moves only, as Fairy-Stockfish does) provides its own
// `perft` and `divide`, found by argument-dependent lookup.
template <class S>
concept HasOwnPerft = requires(const S& s) {
  { perft(s, 1) } -> std::convertible_to<std::uint64_t>;
  divide(s, 1);
};

// A game where different paths can make the same change (checkers: two jump
// routes with the same start, end and captures) may also count them merged,
// for `--dedupe`.
template <class S>
concept HasDedupePerft = requires(const S& s) {
  { perft_dedupe(s, 1) } -> std::convertible_to<std::uint64_t>;
  divide_dedupe(s, 1);
};

// Prints the split by first move (if asked), the time and the total, or
// with --json one document of them; the counts come from `count` (a game's
// own perft) or `split` (its divide).
template <class S, class Count, class Split>
int report(const S& start, const PerftOptions& o, std::string_view kind, Count count, Split split) {
  WallClock clock;
  std::uint64_t total = 0;
  nlohmann::json divided = nlohmann::json::array();
  if (o.divide) {
    for (const auto& [m, n] : split()) {
      if (o.json) {
        divided.push_back({{"move", start.move_text(m)}, {"nodes", n}});
      } else {
        std::cout << start.move_text(m) << ": " << n << '\n';
      }
      total += n;
    }
  } else {
    total = count();
  }
  const double seconds = clock.seconds();
  if (o.json) {
    nlohmann::json j = {{"game", start.spec()}, {"state", start.to_text()}, {"depth", o.depth},
                        {"dedupe", o.dedupe},   {"nodes", total},           {"seconds", seconds}};
    if (o.divide) j["divide"] = divided;
    std::cout << j.dump() << '\n';
    return 0;
  }
  std::cerr << fmt::format("perft {} depth {}{}: {:.3f} s\n", start.spec(), o.depth, kind, seconds);
  std::cout << total << '\n';
  return 0;
}

template <class S>
int run_perft(const S& start, const PerftOptions& o) {
  if (o.dedupe) {
    if constexpr (HasDedupePerft<S>) {
      return report(
          start, o, " (deduplicated)", [&] { return perft_dedupe(start, o.depth); },
          [&] { return divide_dedupe(start, o.depth); });
    } else {
      return bad_input(
          fmt::format("perft --dedupe: {} has no duplicate move paths to merge (only checkers has)",
                      start.spec()));
    }
  }
  if constexpr (HasOwnPerft<S>) {
    return report(
        start, o, "", [&] { return perft(start, o.depth); },
        [&] { return divide(start, o.depth); });
  } else {
    // The generic count: every action's subtree, in action order.
    const auto split = [&] {
      std::vector<std::pair<typename S::Move, std::uint64_t>> out;
      if (start.is_terminal()) return out;
      typename S::Moves moves;
      start.actions(moves);
      for (const auto& m : moves) out.emplace_back(m, count_paths(start.result(m), o.depth - 1));
      return out;
    };
    return report(
        start, o, "", [&] { return count_paths(start, o.depth); }, split);
  }
}

// --board FILE: the position of an agent's input.txt (so any agent input can
// be counted), as the text `--fen` takes; a file of board lines only works
// too.
Result<std::string> board_file_state(const std::string& game, const std::string& state,
                                     const std::string& path) {
  const auto spec = Spec::parse(game);
  if (!spec || spec->name() != games::checkers::State::kName) {
    return fail(
        fmt::format("--board reads checkers boards (seed 003's input.txt), not '{}'", game));
  }
  if (!state.empty()) return fail("give --board or --fen, not both");
  const auto file = read_file(path);
  if (!file) return fail(fmt::format("--board: cannot read {}", path));
  const std::string& text = *file;
  const auto input = games::checkers::protocol::parse_input(text);
  if (input) return input->state.to_text();
  // Not an input.txt: the board lines alone, if they read as a position.
  const std::string head = text.substr(0, text.find_first_of(" \t\r\n"));
  if (head == "SINGLE" || head == "GAME")
    return fail(fmt::format("--board {}: {}", path, input.error()));
  return text;
}

}  // namespace

Command add_perft(CLI::App& app) {
  auto o = std::make_shared<PerftOptions>();
  CLI::App* sub = app.add_subcommand("perft", "Count move paths of a given depth (rules check)");
  sub->add_option("game", o->game, "Game spec")->required();
  sub->add_option("depth", o->depth, "Depth in plies")->required()->check(CLI::Range(1, 64));
  sub->add_option("--fen,--state", o->state, "Position in the game's text form");
  sub->add_option("--board", o->board,
                  "Checkers: a file in seed 003's input.txt form (or just its 8 board lines)");
  sub->add_flag("--divide", o->divide, "Print the count below each first move");
  sub->add_flag("--dedupe", o->dedupe,
                "Merge jump paths with the same start, end and captures (checkers)");
  sub->add_flag("--json", o->json,
                "One JSON document: game, state, depth, dedupe, nodes, seconds (and divide)");
  return {sub, [o] {
            std::string state = o->state;
            if (!o->board.empty()) {
              auto text = board_file_state(o->game, o->state, o->board);
              if (!text) return bad_input(text.error());
              state = *text;
            }
            return with_game(o->game, state, [&](const auto& s) { return run_perft(s, *o); });
          }};
}

}  // namespace duel::cli
