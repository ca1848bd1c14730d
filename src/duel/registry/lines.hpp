#pragma once
// The best few lines of a position (the page's analysis: docs/serve.md §
// Analysis), as a multi-PV search shows them: each a first move, its value
// and the line that follows.
//
// Why this way: the engine searches for one best move. The first line is
// its search of the position, with half the time; every other move is then
// searched from the position it leads to, one ply shallower (the same depth
// from the position), on the same table (so the first search's knowledge
// carries over), with the rest of the time shared out. All are then ranked
// by value, so the lines read best first; where two searches disagree by
// their noise, the engine's own choice may come second.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "duel/core/clock.hpp"
#include "duel/registry/search.hpp"

namespace duel::registry {

struct Line {
  std::string move;             // the first move, as the game writes it
  Value value = 0;              // from Player::First's view, as every search reports
  bool exact = false;           // proven
  std::vector<std::string> pv;  // the line, the first move included
};

struct Lines {
  std::vector<Line> lines;  // best first; at most the number asked for
  int depth = 0;            // the first line's search depth
  std::uint64_t nodes = 0;  // every search's
  double seconds = 0.0;
  bool complete = true;  // false when `stop` ended a search early
};

// A proven value one ply further from the root than the search that gave it.
[[nodiscard]] constexpr Value one_ply_up(Value v) noexcept {
  if (!is_proven(v) || v == kDraw) return v;
  return v > 0 ? v - 1 : v + 1;
}

// The best `k` lines of `state` (k >= 1) by the engine, within `req`'s time
// (or depth); `req.stop` ends it early with what it has. The position must
// not be over.
template <games::PlayableGame S>
[[nodiscard]] Result<Lines> top_lines(const S& state, const AlgoRequest& req, std::size_t k) {
  search::EngineOptions options;
  options.hash_mb = req.hash_mb;
  options.threads = 1;
  auto engine = games::make_engine<S>(req.eval, req.seed, options);
  if (!engine) return fail(engine.error());
  WallClock clock;
  // Step 1. The position itself, with half the time when more lines follow.
  search::Limits limits;
  limits.depth = req.depth;
  limits.time = k > 1 ? req.time / 2 : req.time;
  limits.stop = req.stop;
  const auto main = (*engine)->search(state, limits, {});
  Lines out;
  out.depth = main.depth;
  out.nodes = main.stats.nodes();
  out.complete = main.complete;
  if (!main.best) return out;
  out.lines.push_back(
      Line{state.move_text(*main.best), main.value, main.exact, agents::pv_text(state, main.pv)});
  // Step 2. Each other move, one ply shallower, from the position it leads to.
  typename S::Moves legal;
  state.actions(legal);
  std::vector<Line> others;
  std::size_t left = legal.size();
  for (const auto& m : legal) {
    --left;
    if (k < 2 || m == *main.best) continue;
    if (req.stop != nullptr && req.stop->load()) {
      out.complete = false;
      break;
    }
    const double spent = clock.seconds();
    if (req.time > 0 && spent >= req.time) {
      out.complete = false;  // no time left for the rest (0 would mean none)
      break;
    }
    const S child = state.result(m);
    Line line{state.move_text(m), 0, true, {state.move_text(m)}};
    if (child.is_terminal()) {
      line.value = terminal_value(child.utility(), 1);
    } else {
      search::Limits each;
      each.depth = std::max(1, main.depth - 1);
      each.time = req.time > 0
                      ? (req.time - spent) / static_cast<double>(std::max<std::size_t>(1, left + 1))
                      : 0.0;
      each.stop = req.stop;
      const auto r = (*engine)->search(child, each, {});
      out.nodes += r.stats.nodes();
      line.value = one_ply_up(r.value);
      line.exact = r.exact;
      for (auto& text : agents::pv_text(child, r.pv)) line.pv.push_back(std::move(text));
    }
    others.push_back(std::move(line));
  }
  // Step 3. The best of them for the side to move (the engine's choice
  // first among equals).
  for (auto& line : others) out.lines.push_back(std::move(line));
  const bool first = state.to_move() == Player::First;
  std::stable_sort(out.lines.begin(), out.lines.end(), [&](const Line& a, const Line& b) {
    return first ? a.value > b.value : a.value < b.value;
  });
  if (out.lines.size() > k) out.lines.resize(k);
  out.seconds = clock.seconds();
  return out;
}

}  // namespace duel::registry
