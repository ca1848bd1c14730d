#pragma once
// Exact solving: the engine searched to the end of the game (no heuristic
// anywhere), then the principal variation rebuilt move by move.
//
// Why rebuild: transposition-table answers cut the engine's own PV short, and
// a symmetry-reduced key stores moves in another frame, so the line is found
// again by asking which child keeps the proven value (cheap: the table is warm).
#include <vector>

#include "duel/search/searcher.hpp"

namespace duel::search {

// The proven value of a child seen one ply higher up.
[[nodiscard]] constexpr Value one_ply_up(Value v) noexcept {
  if (is_win(v)) return v - 1;
  if (is_loss(v)) return v + 1;
  return v;
}

// `engine` is an engine without heuristic (games::make_solver).
template <GameState S>
SearchResult<typename S::Move> solve(const S& root, Searcher<S>& engine, const Limits& limits) {
  auto out = engine.search(root, limits);
  if (!out.exact) return out;
  // Step 1. Walk down: at each position take a move whose child, solved,
  // gives back the position's value.
  std::vector<typename S::Move> pv;
  S s = root;
  Value target = out.value;
  Limits child_limits;
  child_limits.time = limits.time;
  child_limits.stop = limits.stop;
  const std::vector<typename S::Move> engine_line = out.pv;
  bool on_engine_line = true;
  while (!s.is_terminal()) {
    typename S::Moves moves;
    s.actions(moves);
    // Try the engine's own line first: usually it is already right.
    if (on_engine_line && pv.size() < engine_line.size()) {
      for (auto& m : moves) {
        if (m == engine_line[pv.size()]) {
          std::swap(m, moves[0]);
          break;
        }
      }
    }
    bool found = false;
    for (const auto& m : moves) {
      const S child = s.result(m);
      const auto r = engine.search(child, child_limits);
      if (!r.exact) return out;  // out of time: keep the engine's own line
      if (one_ply_up(r.value) == target) {
        on_engine_line =
            on_engine_line && pv.size() < engine_line.size() && m == engine_line[pv.size()];
        pv.push_back(m);
        s = child;
        target = r.value;
        found = true;
        break;
      }
    }
    if (!found) return out;  // cannot happen for an exact value; keep what we have
  }
  out.pv = std::move(pv);
  if (!out.pv.empty()) out.best = out.pv.front();
  return out;
}

}  // namespace duel::search
