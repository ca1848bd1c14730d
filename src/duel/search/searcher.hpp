#pragma once
// A search of one game behind a virtual interface: the engine, plain minimax
// or plain alpha-beta, whatever its heuristic.
//
// Why: the searches are templates over the game and the heuristic, and each
// pair is compiled once, in its game's own translation unit
// (games/engines.hpp). Everything above (agents, the CLI, the server, the
// Python module) holds a `Searcher<S>` and compiles no search: one virtual
// call a search, nothing per node.
#include <functional>
#include <vector>

#include "duel/search/concepts.hpp"
#include "duel/search/limits.hpp"

namespace duel::search {

template <GameState S>
class Searcher {
 public:
  using Move = typename S::Move;
  using Result = SearchResult<Move>;
  // After each finished iteration (the engine): its figures and line.
  using InfoFn = std::function<void(const SearchInfo&, const std::vector<Move>& pv)>;

  Searcher() = default;
  Searcher(const Searcher&) = delete;
  Searcher& operator=(const Searcher&) = delete;
  Searcher(Searcher&&) = delete;
  Searcher& operator=(Searcher&&) = delete;
  virtual ~Searcher() = default;

  // A search of `root` under `limits` (plain searches cut off at
  // `limits.depth`, 0 = the end of the game).
  virtual Result search(const S& root, const Limits& limits, const InfoFn& on_info) = 0;
  Result search(const S& root, const Limits& limits) { return search(root, limits, InfoFn{}); }
  // Forget what was learned (a new game).
  virtual void new_game() {}
  // The line a full-window capture quiescence from `s` plays (the engine in
  // games with captures to resolve; empty elsewhere). The tuner takes its
  // positions with it (docs/tuning.md).
  virtual std::vector<Move> quiescence_line(const S& s) {
    (void)s;
    return {};
  }
};

}  // namespace duel::search
