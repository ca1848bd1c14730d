// Micro-benchmarks of a Gardner search's hot parts: the n1 network (its
// output layers alone, and a search-like walk with incremental sums), move
// generation and making moves, on positions from random playouts.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "duel/core/rng.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/games/minichess/net_eval.hpp"

namespace {

using duel::games::minichess::GardnerState;
namespace n1 = duel::games::minichess::n1;

// Positions from random playouts of up to 40 plies (a fixed seed), each
// with its children: the order in which a search meets relatives.
const std::vector<GardnerState>& positions() {
  static const std::vector<GardnerState> kPositions = [] {
    std::vector<GardnerState> out;
    duel::Rng rng(2026);
    while (out.size() < 4096) {
      GardnerState s;
      for (int ply = 0; ply < 40 && !s.is_terminal(); ++ply) {
        GardnerState::Moves moves;
        s.actions(moves);
        out.push_back(s);
        for (const auto& m : moves) out.push_back(s.result(m));
        s = s.result(moves[rng.below(moves.size())]);
      }
    }
    return out;
  }();
  return kPositions;
}

// n1 on the positions in playout order, each `repeat` times in a row (with
// the kept first-layer sums). Once each (n1_walk): incremental sums from a
// near relative, as in a search. 64 times each (n1_output): the sums are
// kept, so this times the clipping and the second and third layers alone.
// With the instructions the processor has best, and with the baseline's
// (what a processor without AVX2 runs).
void n1_forward(benchmark::State& state, std::size_t repeat, n1::Isa isa) {
  const auto& net = n1::net<duel::games::minichess::Gardner>();
  const auto& all = positions();
  n1::Accumulators acc;
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& s = all[(i++ / repeat) % all.size()];
    benchmark::DoNotOptimize(acc.forward(net, n1::pieces_of(s.position()), s.to_move(), isa));
  }
}
const n1::Isa kBest = n1::has_avx2() ? n1::Isa::Avx2 : n1::Isa::Baseline;
BENCHMARK_CAPTURE(n1_forward, n1_output, std::size_t{64}, kBest);
BENCHMARK_CAPTURE(n1_forward, n1_walk, std::size_t{1}, kBest);
BENCHMARK_CAPTURE(n1_forward, n1_output_baseline, std::size_t{64}, n1::Isa::Baseline);
BENCHMARK_CAPTURE(n1_forward, n1_walk_baseline, std::size_t{1}, n1::Isa::Baseline);

void gardner_actions(benchmark::State& state) {
  const auto& all = positions();
  std::size_t i = 0;
  for (auto _ : state) {
    GardnerState::Moves moves;
    all[i++ % all.size()].actions(moves);
    benchmark::DoNotOptimize(moves.size());
  }
}
BENCHMARK(gardner_actions);

// Every move of a position made (the search makes each child this way).
void gardner_result(benchmark::State& state) {
  const auto& all = positions();
  std::size_t i = 0;
  std::int64_t made = 0;
  for (auto _ : state) {
    const auto& s = all[i++ % all.size()];
    GardnerState::Moves moves;
    s.actions(moves);
    for (const auto& m : moves) benchmark::DoNotOptimize(s.result(m));
    made += static_cast<std::int64_t>(moves.size());
  }
  state.SetItemsProcessed(made);
}
BENCHMARK(gardner_result);

void gardner_is_terminal(benchmark::State& state) {
  const auto& all = positions();
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(all[i++ % all.size()].is_terminal());
}
BENCHMARK(gardner_is_terminal);

}  // namespace
