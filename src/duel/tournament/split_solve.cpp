#include "duel/tournament/split_solve.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include <sys/resource.h>

#include <fmt/format.h>

#include "duel/agents/search_agents.hpp"
#include "duel/games/engines.hpp"
#include "duel/search/concepts.hpp"
#include "duel/search/solve.hpp"
#include "duel/tournament/cluster.hpp"

namespace duel::tournament {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// The best payoff a side can get: a win of it cannot be bettered, so its
// siblings need not be solved. Games say so by `max_payoff()`; the rest
// score ±1.
template <class S>
[[nodiscard]] Value best_payoff(const S& s) {
  if constexpr (requires { s.max_payoff(); }) {
    return s.max_payoff();
  } else {
    return 1;
  }
}

template <games::PlayableGame S>
class SplitSolver {
 public:
  SplitSolver(const S& root, const SplitOptions& o) : m_options(o) {
    m_nodes.emplace_back(root, -1, 0, "");
  }

  Result<SplitResult> run(const OnSplitProgress& progress) {
    const auto started = std::chrono::steady_clock::now();
    expand();
    // Step 1. The positions at the split, each once; terminal ones decided.
    std::vector<json> docs;
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
      const Node& n = m_nodes[i];
      if (n.state.is_terminal()) continue;
      if (!n.children.empty()) continue;
      auto [it, fresh] = m_task_of_key.try_emplace(n.state.key(), static_cast<int>(m_tasks.size()));
      if (fresh) {
        m_tasks.push_back(Task{static_cast<int>(i), {}, {}});
        docs.push_back(task_doc(static_cast<int>(i), it->second));
      }
      m_tasks[static_cast<std::size_t>(it->second)].leaves.push_back(static_cast<int>(i));
      m_nodes[i].task = it->second;
    }
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
      if (m_nodes[i].state.is_terminal()) {
        resolve(static_cast<int>(i), terminal_value(m_nodes[i].state.utility(), 0), -1, false);
      }
    }
    SplitResult out;
    out.positions = static_cast<int>(m_nodes.size());
    out.tasks = static_cast<int>(m_tasks.size());

    // Step 2. The tasks on the cluster, combined as they end.
    if (!m_nodes[0].resolved) {
      const ScratchDir work("duel-solve");
      if (work.dir.empty()) return fail("--scheduler: cannot make a folder");
      auto cluster =
          Cluster::connect({m_options.scheduler, work.dir, false, m_options.worker_duel});
      if (!cluster) return fail(cluster.error());
      std::vector<const json*> todo;
      todo.reserve(docs.size());
      for (const auto& d : docs) todo.push_back(&d);
      std::set<int> open;
      for (int t = 0; t < out.tasks; ++t) open.insert(t);
      std::string error;
      auto ran = (*cluster)->run(
          todo,
          [&](const json& entry) -> Cluster::Reply {
            const int t = std::stoi(entry.value("key", "-1"));
            if (t < 0 || t >= out.tasks || entry.value("kind", "") != "solve" ||
                !entry.value("exact", false)) {
              error = fmt::format("cluster: task {} was not solved ({})", t,
                                  entry.value("detail", entry.dump().substr(0, 200)));
              return {false, {}};
            }
            open.erase(t);
            ++out.solved;
            out.nodes += entry.value("nodes", std::uint64_t{0});
            out.task_max_rss_kb = std::max(out.task_max_rss_kb, entry.value("max_rss_kb", 0L));
            Task& task = m_tasks[static_cast<std::size_t>(t)];
            task.pv = entry.value("pv", std::vector<std::string>{});
            for (const int leaf : task.leaves)
              resolve(leaf, entry["value"].get<Value>(), -1, false);
            // Once the root is decided no task is needed: the run ends with
            // the cluster still there for the line's last task.
            Cluster::Reply reply;
            for (auto it = open.begin(); it != open.end();) {
              if (needed(*it)) {
                ++it;
                continue;
              }
              reply.cancel.push_back(std::to_string(*it));
              ++out.cancelled;
              it = open.erase(it);
            }
            if (progress) {
              progress(fmt::format("{} of {} subtrees solved, {} not needed, {} nodes", out.solved,
                                   out.tasks, out.cancelled, out.nodes));
            }
            return reply;
          },
          nullptr);
      if (!error.empty()) return fail(error);
      if (!ran) return fail(ran.error());
      if (!m_nodes[0].resolved) return fail("cluster: the subtrees ended without a value");

      // Step 3. The line: down the tree, then the leaf's own task's line;
      // a leaf that shares its task with a mirror image is solved once more,
      // as itself, for a line in its own moves.
      const int leaf = line_leaf(out.pv);
      if (!m_nodes[static_cast<std::size_t>(leaf)].state.is_terminal()) {
        const Task& task =
            m_tasks[static_cast<std::size_t>(m_nodes[static_cast<std::size_t>(leaf)].task)];
        if (task.node == leaf) {
          out.pv.insert(out.pv.end(), task.pv.begin(), task.pv.end());
        } else {
          const json doc = task_doc(leaf, out.tasks);
          std::vector<std::string> tail;
          auto again = (*cluster)->run(
              {&doc},
              [&](const json& entry) -> Cluster::Reply {
                if (entry.value("kind", "") == "solve") {
                  out.nodes += entry.value("nodes", std::uint64_t{0});
                  tail = entry.value("pv", std::vector<std::string>{});
                }
                return {};
              },
              nullptr);
          if (!again) return fail(again.error());
          if (tail.empty()) return fail("cluster: the line's last subtree was not solved");
          out.pv.insert(out.pv.end(), tail.begin(), tail.end());
        }
      }
    } else {
      (void)line_leaf(out.pv);
    }
    out.value = m_nodes[0].value;
    out.shortest = !m_nodes[0].cut;
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return out;
  }

 private:
  struct Node {
    Node(S s, int p, int d, std::string m)
        : state(std::move(s)), parent(p), depth(d), move(std::move(m)) {}
    S state;
    int parent = -1;
    int depth = 0;
    std::string move;  // from the parent
    std::vector<int> children;
    int task = -1;
    bool resolved = false;
    bool cut = false;  // decided by a win whose siblings were not all solved (here or below)
    Value value = 0;   // First's view, from this position
    int via = -1;      // the child that gave the value
  };
  struct Task {
    int node = -1;  // the position it solves
    std::vector<int> leaves;
    std::vector<std::string> pv;
  };

  // The driver's tree: `split` plies, in the engine's order where the game
  // hints one, siblings of equal key once.
  void expand() {
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
      if (m_nodes[i].depth >= m_options.split || m_nodes[i].state.is_terminal()) continue;
      const S state = m_nodes[i].state;
      typename S::Moves moves;
      state.actions(moves);
      std::vector<typename S::Move> ordered(moves.begin(), moves.end());
      if constexpr (search::HasOrderHint<S>) {
        std::stable_sort(ordered.begin(), ordered.end(), [&](const auto& a, const auto& b) {
          return state.order_hint(a) > state.order_hint(b);
        });
      }
      std::set<std::uint64_t> seen;
      for (const auto& m : ordered) {
        S child = state.result(m);
        if (!seen.insert(child.key()).second) continue;
        m_nodes[i].children.push_back(static_cast<int>(m_nodes.size()));
        m_nodes.emplace_back(std::move(child), static_cast<int>(i), m_nodes[i].depth + 1,
                             state.move_text(m));
      }
    }
  }

  [[nodiscard]] json task_doc(int node, int key) const {
    const S& s = m_nodes[static_cast<std::size_t>(node)].state;
    return {{"key", std::to_string(key)},
            {"kind", "solve"},
            {"game", s.spec()},
            {"start", s.to_text()},
            {"hash", m_options.hash_mb}};
  }

  // Node `i` has value `v`; its parent is decided when that settles it.
  void resolve(int i, Value v, int via, bool cut) {
    Node& n = m_nodes[static_cast<std::size_t>(i)];
    if (n.resolved) return;
    n.resolved = true;
    n.value = v;
    n.via = via;
    n.cut = cut;
    if (n.parent < 0) return;
    const Node& p = m_nodes[static_cast<std::size_t>(n.parent)];
    if (p.resolved) return;
    const bool first = p.state.to_move() == Player::First;
    const Value up = search::one_ply_up(v);
    if (!m_options.all_subtrees && is_proven(up) && (first ? up > 0 : up < 0) &&
        std::abs(proven_payoff(up)) == best_payoff(p.state)) {
      const bool siblings_open = std::any_of(p.children.begin(), p.children.end(), [&](int c) {
        return !m_nodes[static_cast<std::size_t>(c)].resolved;
      });
      if (siblings_open) {
        resolve(n.parent, up, i, true);
        return;
      }
    }
    std::optional<Value> best;
    int best_child = -1;
    bool any_cut = false;
    for (const int c : p.children) {
      const Node& child = m_nodes[static_cast<std::size_t>(c)];
      if (!child.resolved) return;
      any_cut = any_cut || child.cut;
      const Value cv = search::one_ply_up(child.value);
      if (!best || (first ? cv > *best : cv < *best)) {
        best = cv;
        best_child = c;
      }
    }
    resolve(n.parent, *best, best_child, any_cut);
  }

  // A task is needed while one of its positions has no decided ancestor.
  [[nodiscard]] bool needed(int t) const {
    for (const int leaf : m_tasks[static_cast<std::size_t>(t)].leaves) {
      bool open = true;
      for (int a = leaf; a >= 0 && open; a = m_nodes[static_cast<std::size_t>(a)].parent) {
        open = !m_nodes[static_cast<std::size_t>(a)].resolved;
      }
      if (open) return true;
    }
    return false;
  }

  // The moves from the root down the deciding children; returns the last node.
  int line_leaf(std::vector<std::string>& pv) const {
    int i = 0;
    while (m_nodes[static_cast<std::size_t>(i)].via >= 0) {
      i = m_nodes[static_cast<std::size_t>(i)].via;
      pv.push_back(m_nodes[static_cast<std::size_t>(i)].move);
    }
    return i;
  }

  const SplitOptions& m_options;
  std::vector<Node> m_nodes;
  std::vector<Task> m_tasks;
  std::map<std::uint64_t, int> m_task_of_key;
};

}  // namespace

Result<SplitResult> solve_split(const registry::AnyGame& root, const SplitOptions& options,
                                const OnSplitProgress& progress) {
  if (options.split < 1) return fail("--split: at least 1 ply");
  return std::visit(
      [&](const auto& s) {
        SplitSolver<std::decay_t<decltype(s)>> solver(s, options);
        return solver.run(progress);
      },
      root);
}

json solve_task(const json& task) {
  const std::string key = task.value("key", "");
  auto game = registry::make_game(task.value("game", ""), task.value("start", ""));
  if (!game) return {{"key", key}, {"kind", "error"}, {"detail", game.error()}};
  return std::visit(
      [&](const auto& start) -> json {
        using S = std::decay_t<decltype(start)>;
        search::EngineOptions options;
        options.hash_mb = task.value("hash", std::size_t{256});
        options.first_depth = kMaxPly;  // no heuristic: to the end at once
        const auto engine = games::make_solver<S>(options);
        const auto r = search::solve(start, *engine, search::Limits{});
        rusage usage{};
        ::getrusage(RUSAGE_SELF, &usage);
        return {{"key", key},
                {"max_rss_kb", usage.ru_maxrss},
                {"kind", "solve"},
                {"exact", r.exact},
                {"value", r.value},
                {"pv", agents::pv_text(start, r.pv)},
                {"nodes", r.stats.nodes()},
                {"seconds", r.stats.seconds}};
      },
      *game);
}

}  // namespace duel::tournament
