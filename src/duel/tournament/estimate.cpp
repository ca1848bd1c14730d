#include "duel/tournament/estimate.hpp"

namespace duel::tournament {

void Estimate::planned(const TaskCost& cost) {
  Kind& k = m_kinds[cost.game ? 1 : 0];
  k.left += 1.0;
  k.left_clock += cost.clock;
}

void Estimate::finished(const TaskCost& cost, double seconds) {
  Kind& k = m_kinds[cost.game ? 1 : 0];
  ++k.done;
  k.seconds += seconds;
  k.done_clock += cost.clock;
  k.left = k.left > 1.0 ? k.left - 1.0 : 0.0;
  k.left_clock = k.left_clock > cost.clock ? k.left_clock - cost.clock : 0.0;
}

void Estimate::later(const TaskCost& cost, double count) {
  m_later = cost;
  m_later_count = count > 0.0 ? count : 0.0;
}

std::optional<double> Estimate::seconds_left() const {
  if (m_kinds[0].done + m_kinds[1].done == 0) return std::nullopt;
  // Step 1. Each kind's remaining tasks (the later rounds' added), priced.
  std::array<Kind, 2> kinds = m_kinds;
  Kind& extra = kinds[m_later.game ? 1 : 0];
  extra.left += m_later_count;
  extra.left_clock += m_later_count * m_later.clock;
  double total = 0.0;
  for (std::size_t i = 0; i < 2; ++i) {
    const Kind& k = kinds[i];
    if (k.left <= 0.0) continue;
    // Step 2. Seen: its own seconds a clock second when both sides of the
    // ratio are known, else its seconds a task.
    if (k.done > 0) {
      total += k.done_clock > 0.0 && k.left_clock > 0.0 ? k.seconds / k.done_clock * k.left_clock
                                                        : k.seconds / k.done * k.left;
      continue;
    }
    // Step 3. Not seen yet: the other kind's seconds a clock second, or
    // (no clocks) its seconds a task.
    const Kind& o = kinds[1 - i];
    total += o.done_clock > 0.0 && k.left_clock > 0.0 ? o.seconds / o.done_clock * k.left_clock
                                                      : o.seconds / o.done * k.left;
  }
  return total / m_parallel;
}

std::vector<std::size_t> interleaved(const std::vector<bool>& is_game) {
  // Each kind's tasks in their order; at each step the kind that is the
  // furthest behind its share of the run so far goes next.
  std::array<std::vector<std::size_t>, 2> of;
  for (std::size_t i = 0; i < is_game.size(); ++i) of[is_game[i] ? 1 : 0].push_back(i);
  std::vector<std::size_t> out;
  out.reserve(is_game.size());
  std::array<std::size_t, 2> taken{};
  while (out.size() < is_game.size()) {
    // Kind k's share after one more: (taken[k] + 1) / size[k]; the smaller goes.
    const bool singles_done = taken[0] == of[0].size();
    const bool game_due =
        taken[1] < of[1].size() && (taken[1] + 1) * of[0].size() < (taken[0] + 1) * of[1].size();
    const std::size_t k = singles_done || game_due ? 1 : 0;
    out.push_back(of[k][taken[k]++]);
  }
  return out;
}

}  // namespace duel::tournament
