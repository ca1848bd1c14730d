#pragma once
#include <algorithm>
#include <mutex>
#include <string>

#include <fmt/format.h>

namespace duel::serve {

// The engine tables of all games, server-wide: a memory budget in MB that
// every thinking or kept engine holds its table against, and how many
// agents may be kept between moves. An engine kept by its game keeps its
// table and its move ordering for the next move instead of allocating and
// clearing a new table each time.
//
// Why: each game may ask for up to kMaxHashMb, and six games at 256 MB held
// 1.67 GB. Past the budget a new engine gets the MB that are left (its
// table shrinks) or, with less than 1 MB left, is refused (503).
class TableBudget {
 public:
  TableBudget(long long mb, int kept_agents) : m_total(mb), m_kept_left(kept_agents) {}
  // The MB granted for a table of `want` MB (`want` itself if it fits,
  // else what is left); 0, and nothing held, when not even 1 MB is left.
  [[nodiscard]] long long reserve(long long want) {
    std::lock_guard lock(m_mutex);
    const long long granted = std::min(want, m_total - m_used);
    if (want > 0 && granted < 1) return 0;
    m_used += std::max(0LL, granted);
    return std::max(0LL, granted);
  }
  void release(long long mb) {
    std::lock_guard lock(m_mutex);
    m_used -= mb;
  }
  // True, and one fewer left, if an agent may be kept.
  [[nodiscard]] bool take_keep() {
    std::lock_guard lock(m_mutex);
    if (m_kept_left <= 0) return false;
    --m_kept_left;
    return true;
  }
  void give_back_keep() {
    std::lock_guard lock(m_mutex);
    ++m_kept_left;
  }
  [[nodiscard]] long long total() const { return m_total; }
  // The 503 line when not even 1 MB is left.
  [[nodiscard]] std::string full() const {
    return fmt::format(
        "the engines' tables use all of the server's {} MB: stop a search, delete a game or wait",
        m_total);
  }

 private:
  std::mutex m_mutex;
  const long long m_total;
  long long m_used = 0;
  int m_kept_left;
};

// MB of `budget` held by a search while it lives, given back when it ends
// (after what is declared after it, the agent and its table, is freed).
struct HeldTable {
  TableBudget& budget;
  long long mb;
  HeldTable(TableBudget& b, long long held) : budget(b), mb(held) {}
  HeldTable(const HeldTable&) = delete;
  HeldTable& operator=(const HeldTable&) = delete;
  ~HeldTable() { budget.release(mb); }
};

}  // namespace duel::serve
