#pragma once
// Search statistics: what the seeds' tables and traces print.
//
// Why: every search fills the same record, so the COMP 472 trace, the N-Queens
// tables and the CLI print from one place, and tests can compare searches by
// the nodes they visit.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "duel/core/types.hpp"

namespace duel::search {

inline constexpr int kStatsDepths = 128;  // deeper plies are counted in the last slot
inline constexpr int kCutoffDepths = 32;  // engine cut-offs by depth left; deeper in the last slot

struct SearchStats {
  std::array<std::uint64_t, kStatsDepths> by_depth{};  // nodes by depth, root = 0
  int max_depth = -1;                                  // deepest ply visited
  std::uint64_t interior = 0;                          // nodes whose children were searched
  std::uint64_t leaves = 0;         // terminal, cut-off (heuristic) or table-answered nodes
  std::uint64_t evaluations = 0;    // heuristic calls
  std::uint64_t cutoffs = 0;        // beta cut-offs (alpha-beta family)
  std::uint64_t first_cutoffs = 0;  // of those, on the first move searched (ordering quality)
  // The engine's cut-offs (full-width search, not quiescence) by the depth
  // left at the node, and those at nodes where the table gave a move to try
  // first: where the ordering loses its first-move share.
  std::array<std::uint64_t, kCutoffDepths> cutoffs_by_depth{};
  std::array<std::uint64_t, kCutoffDepths> first_cutoffs_by_depth{};
  std::uint64_t table_move_cutoffs = 0;
  std::uint64_t table_move_first_cutoffs = 0;
  std::uint64_t tt_probes = 0;
  std::uint64_t tt_hits = 0;
  double seconds = 0.0;

  // A beta cut-off of the engine's, `depth_left` plies above the horizon,
  // by the first move searched or not, at a node with a table move or not.
  void cutoff(int depth_left, bool first, bool table_move) noexcept {
    const auto slot = static_cast<std::size_t>(std::clamp(depth_left, 0, kCutoffDepths - 1));
    ++cutoffs;
    ++cutoffs_by_depth[slot];
    if (table_move) ++table_move_cutoffs;
    if (!first) return;
    ++first_cutoffs;
    ++first_cutoffs_by_depth[slot];
    if (table_move) ++table_move_first_cutoffs;
  }

  void visit(int ply) noexcept {
    const int slot = ply < kStatsDepths ? ply : kStatsDepths - 1;
    ++by_depth[static_cast<std::size_t>(slot)];
    if (ply > max_depth) max_depth = ply;
  }
  [[nodiscard]] std::uint64_t nodes() const noexcept {
    std::uint64_t n = 0;
    for (auto c : by_depth) n += c;
    return n;
  }
  // Average branching factor: children searched per interior node.
  [[nodiscard]] double branching_factor() const noexcept {
    const auto n = nodes();
    return interior == 0 ? 0.0 : static_cast<double>(n - 1) / static_cast<double>(interior);
  }
  // Share of beta cut-offs made by the first move searched (1 = perfect ordering).
  [[nodiscard]] double first_cutoff_share() const noexcept {
    return cutoffs == 0 ? 0.0 : static_cast<double>(first_cutoffs) / static_cast<double>(cutoffs);
  }
  // The engine's cut-offs and first-move cut-offs by depth left, up to the
  // deepest depth with one (empty when there are none).
  [[nodiscard]] std::vector<std::uint64_t> cutoff_depth_counts(bool first_only) const {
    const auto& counts = first_only ? first_cutoffs_by_depth : cutoffs_by_depth;
    std::size_t end = 0;
    for (std::size_t d = 0; d < cutoffs_by_depth.size(); ++d) {
      if (cutoffs_by_depth[d] != 0) end = d + 1;
    }
    return {counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(end)};
  }
  [[nodiscard]] double nodes_per_second() const noexcept {
    return seconds > 0 ? static_cast<double>(nodes()) / seconds : 0.0;
  }
  // Nodes by depth as a list up to the deepest ply visited.
  [[nodiscard]] std::vector<std::uint64_t> depth_counts() const {
    const int last = max_depth < kStatsDepths ? max_depth : kStatsDepths - 1;
    return {by_depth.begin(), by_depth.begin() + (last + 1)};
  }
  // What was counted since `earlier`, a copy of this record taken before
  // (the engine's last iteration). Seconds are left to the caller.
  [[nodiscard]] SearchStats since(const SearchStats& earlier) const noexcept {
    SearchStats d;
    for (std::size_t i = 0; i < by_depth.size(); ++i) {
      d.by_depth[i] = by_depth[i] - earlier.by_depth[i];
      if (d.by_depth[i] != 0) d.max_depth = static_cast<int>(i);
    }
    d.interior = interior - earlier.interior;
    d.leaves = leaves - earlier.leaves;
    d.evaluations = evaluations - earlier.evaluations;
    d.cutoffs = cutoffs - earlier.cutoffs;
    d.first_cutoffs = first_cutoffs - earlier.first_cutoffs;
    for (std::size_t i = 0; i < cutoffs_by_depth.size(); ++i) {
      d.cutoffs_by_depth[i] = cutoffs_by_depth[i] - earlier.cutoffs_by_depth[i];
      d.first_cutoffs_by_depth[i] = first_cutoffs_by_depth[i] - earlier.first_cutoffs_by_depth[i];
    }
    d.table_move_cutoffs = table_move_cutoffs - earlier.table_move_cutoffs;
    d.table_move_first_cutoffs = table_move_first_cutoffs - earlier.table_move_first_cutoffs;
    d.tt_probes = tt_probes - earlier.tt_probes;
    d.tt_hits = tt_hits - earlier.tt_hits;
    return d;
  }
  SearchStats& operator+=(const SearchStats& o) noexcept {
    for (std::size_t i = 0; i < by_depth.size(); ++i) by_depth[i] += o.by_depth[i];
    if (o.max_depth > max_depth) max_depth = o.max_depth;
    interior += o.interior;
    leaves += o.leaves;
    evaluations += o.evaluations;
    cutoffs += o.cutoffs;
    first_cutoffs += o.first_cutoffs;
    for (std::size_t i = 0; i < cutoffs_by_depth.size(); ++i) {
      cutoffs_by_depth[i] += o.cutoffs_by_depth[i];
      first_cutoffs_by_depth[i] += o.first_cutoffs_by_depth[i];
    }
    table_move_cutoffs += o.table_move_cutoffs;
    table_move_first_cutoffs += o.table_move_first_cutoffs;
    tt_probes += o.tt_probes;
    tt_hits += o.tt_hits;
    seconds += o.seconds;
    return *this;
  }
};

}  // namespace duel::search
