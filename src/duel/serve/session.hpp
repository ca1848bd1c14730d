#pragma once
// One game of `duel serve`: its positions, its record, and the agent that
// may be thinking about it on a thread of its own.
//
// Why this shape: a search can take a minute, and the page polls its
// progress and may stop it, move elsewhere or delete the game meanwhile. So
// each game has one mutex, held only for short reads and writes (never
// during a search); the search thread works on a copy of the position and
// plays its move under the mutex when it is done, unless the game was
// deleted meanwhile. Stopping is an atomic flag the search polls.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "duel/agents/agent.hpp"
#include "duel/core/clock.hpp"
#include "duel/core/result.hpp"
#include "duel/play/game_record.hpp"
#include "duel/play/match.hpp"
#include "duel/play/record_io.hpp"
#include "duel/registry/agents.hpp"
#include "duel/registry/any_game.hpp"
#include "duel/serve/http_types.hpp"
#include "duel/serve/notation.hpp"
#include "duel/serve/table_budget.hpp"
#include "duel/serve/view.hpp"

namespace duel::serve {

using Clock = std::chrono::steady_clock;

// The longest an agent may think about one move, in seconds.
inline constexpr double kMaxAgentSeconds = 60.0;
// The largest transposition table an engine agent may ask for (`hash=`).
inline constexpr long long kMaxHashMb = 256;
// The most search threads an engine agent may ask for (`threads=`): the
// server's games share its cores, and each thread holds one at full load.
inline constexpr long long kMaxAgentThreads = 2;

// Why `text`, a move or spec of `what` from a request, is refused before
// it is parsed: over `max` bytes, or a byte that is not printable ASCII
// (no game's move or spec has one). Empty when it may be parsed.
[[nodiscard]] std::string refuse_text(std::string_view what, std::string_view text,
                                      std::size_t max);

// Bad input in an agent spec that make_agent would accept but the server
// refuses: programs started on the server (`human`, `uci`, `exec`), a time
// over kMaxAgentSeconds, a table over kMaxHashMb, more than kMaxAgentThreads
// threads. Empty when it may run.
[[nodiscard]] std::string refuse_agent(std::string_view spec);

// An agent spec whose kind the server does not run for `game` (of the
// `kinds` the game has): the message naming those it runs; empty if known.
[[nodiscard]] std::string unknown_agent(std::string_view spec, std::string_view game,
                                        const std::vector<registry::AgentKind>& kinds);

// The agent kinds the server runs for the game `start` belongs to:
// `[{"kind", "example", "about"}]`.
[[nodiscard]] Json agent_kinds(const registry::AnyGame& start);

// The MB of transposition table an agent spec asks for: `hash=` (or the
// engine's default) for `engine`, 0 for agents without a table.
[[nodiscard]] long long table_mb(std::string_view spec);
// `spec` with its table set to `mb` MB.
[[nodiscard]] std::string with_table(std::string_view spec, long long mb);

// A game as the server holds it: every method locks the game's mutex.
class Session {
 public:
  virtual ~Session() = default;
  [[nodiscard]] virtual Json view() = 0;
  // The view of the position after the first `ply` moves (400 past them).
  virtual Response position(long long ply) = 0;
  virtual Response move(std::string_view text) = 0;
  virtual Response undo(int plies) = 0;
  virtual Response start_agent(std::string_view spec) = 0;
  virtual Response stop() = 0;
  [[nodiscard]] virtual Json search() = 0;
  virtual Response record(std::string_view format) = 0;
  // Stops the search without playing its move and waits for its thread;
  // later calls answer 404. Called without any lock of the server held.
  virtual void close() = 0;
  // When it was last asked about; nullopt while an agent thinks.
  [[nodiscard]] virtual std::optional<Clock::time_point> idle_from() = 0;
};

// The live or last search's progress, as GET .../search shows it.
struct SearchProgress {
  int depth = 0;
  Value value = 0;
  bool exact = false;
  std::vector<std::string> pv;
  std::vector<std::string> pv_notation;  // the same line as people write it
  std::uint64_t nodes = 0;
  double seconds = 0.0;
  std::vector<std::uint64_t> nodes_by_depth;  // after each iteration, and when the move is made
  Player root = Player::First;                // the side to move where the search began
};

template <games::PlayableGame S>
class GameSession final : public Session {
 public:
  using Move = typename S::Move;

  GameSession(std::string id, S start, std::shared_ptr<TableBudget> budget)
      : m_id(std::move(id)), m_states{std::move(start)}, m_budget(std::move(budget)) {}
  ~GameSession() override { close(); }
  GameSession(const GameSession&) = delete;
  GameSession& operator=(const GameSession&) = delete;

  Json view() override {
    std::lock_guard lock(m_mutex);
    touch();
    return view_locked(m_moves.size());
  }

  Response position(long long ply) override {
    std::lock_guard lock(m_mutex);
    if (m_closed) return error_response(404, "no such game");
    touch();
    if (ply < 0 || static_cast<std::size_t>(ply) > m_moves.size()) {
      return error_response(
          400, fmt::format("ply: {} is not in 0..{} (the moves played)", ply, m_moves.size()));
    }
    return json_response(200, view_locked(static_cast<std::size_t>(ply)));
  }

  Response move(std::string_view text) override {
    std::lock_guard lock(m_mutex);
    if (auto busy = refuse_locked("a move")) return *busy;
    if (auto why = refuse_text("move", text, 64); !why.empty()) return error_response(400, why);
    const S& now = m_states.back();
    auto m = registry::legal_move(now, text);
    if (!m) return error_response(400, m.error());
    play_locked(*m, seconds_since(m_turn_from), std::nullopt);
    return json_response(200, view_locked(m_moves.size()));
  }

  Response undo(int plies) override {
    std::lock_guard lock(m_mutex);
    if (auto busy = refuse_locked("undo")) return *busy;
    if (m_moves.empty()) return error_response(400, "no move to undo");
    if (plies < 1 || static_cast<std::size_t>(plies) > m_moves.size()) {
      return error_response(
          400, fmt::format("plies: {} is not in 1..{} (the moves played)", plies, m_moves.size()));
    }
    for (int i = 0; i < plies; ++i) {
      m_moves.pop_back();
      m_states.pop_back();
    }
    m_turn_from = Clock::now();
    return json_response(200, view_locked(m_moves.size()));
  }

  Response start_agent(std::string_view spec) override {
    if (auto why = refuse_text("agent", spec, 200); !why.empty()) return error_response(400, why);
    if (auto why = refuse_agent(spec); !why.empty()) return error_response(400, why);
    if (auto why = unknown_agent(spec, S::kName, registry::agent_kinds<S>()); !why.empty()) {
      return error_response(400, why);
    }
    std::lock_guard lock(m_mutex);
    if (auto busy = refuse_locked("an agent")) return *busy;
    if (m_states.back().is_terminal()) return error_response(400, "the game is over");
    // The side's kept agent plays again if the spec is the same; any other
    // spec replaces it.
    Kept& kept = m_kept[static_cast<std::size_t>(index(m_states.back().to_move()))];
    std::unique_ptr<agents::Agent<S>> agent;
    std::string run = std::string(spec);  // the spec that runs (its table may be shrunk)
    long long held = 0;                   // its table's MB, held against the budget
    m_reused = kept.agent && kept.spec == spec;
    if (m_reused) {
      agent = std::move(kept.agent);
      run = kept.run;
      held = std::exchange(kept.mb, 0);
    } else {
      drop_kept(kept);
      const long long want = table_mb(spec);
      held = m_budget->reserve(want);
      if (want > 0 && held == 0) {
        return error_response(
            503, fmt::format("the engines' tables use all of the server's {} MB: stop a search, "
                             "delete a game or wait",
                             m_budget->total()));
      }
      if (held < want) run = with_table(spec, held);
      std::istringstream no_input;
      std::ostringstream no_output;
      registry::AgentContext ctx{m_agent_runs++, &no_input, &no_output};
      auto made = registry::make_agent<S>(run, ctx);
      if (!made) {
        m_budget->release(held);
        return error_response(400, made.error());
      }
      agent = std::move(*made);
    }
    drop_kept(kept);  // its agent and MB, if reused, went to the new search
    // The last search's thread has played its move (thinking is false): it
    // only unwinds now, without this lock.
    if (m_worker.joinable()) m_worker.join();
    m_stop.store(false);
    m_thinking = true;
    m_agent = std::string(spec);
    m_running = run;
    m_progress = SearchProgress{};
    m_progress.root = m_states.back().to_move();
    m_failure.clear();
    m_turn_from = Clock::now();
    m_worker =
        std::jthread([this, agent = std::move(agent), held, state = m_states.back()]() mutable {
          think(std::move(agent), held, state);
        });
    return json_response(202, view_locked(m_moves.size()));
  }

  Response stop() override {
    std::lock_guard lock(m_mutex);
    if (m_closed) return error_response(404, "no such game");
    m_stop.store(true);
    touch();
    return json_response(200, search_locked());
  }

  Json search() override {
    std::lock_guard lock(m_mutex);
    touch();
    return search_locked();
  }

  Response record(std::string_view format) override {
    std::lock_guard lock(m_mutex);
    touch();
    const play::MatchRecord<S> rec = record_locked();
    const std::string name = fmt::format("duel-{}-{}", S::kName, m_id);
    const auto file = [&](std::string body, std::string_view type, std::string_view ext) {
      Response r{200, std::string(type), std::move(body), {}};
      r.headers.emplace_back("Content-Disposition",
                             fmt::format("attachment; filename=\"{}.{}\"", name, ext));
      return r;
    };
    if (format == "json")
      return file(play::to_json(rec).dump(2) + "\n", "application/json", "json");
    if (format == "trace") {
      std::ostringstream out;
      play::write_trace(out, rec);
      return file(out.str(), "text/plain; charset=utf-8", "txt");
    }
    if (format != "pgn" && format != "pdn") {
      return error_response(400, fmt::format("format: {} is not one of pgn, pdn, trace, json",
                                             quote_input(format, 20)));
    }
    if constexpr (S::kRecordFormat != games::RecordFormat::none) {
      if (format == play::format_name(S::kRecordFormat)) {
        play::RecordTags tags = {{"Event", "duel serve"}};
        for (auto& side : play::side_tags<S>(rec.agents)) tags.push_back(std::move(side));
        constexpr bool kPgn = S::kRecordFormat == games::RecordFormat::pgn;
        return file(play::game_record(rec, m_states.front(), tags),
                    kPgn ? "application/x-chess-pgn" : "text/plain; charset=utf-8", format);
      }
    }
    const std::string_view own = play::format_name(S::kRecordFormat);
    return error_response(400, fmt::format("format: {} has no {} record (it has {}{}trace, json)",
                                           S::kName, format, own, own.empty() ? "" : ", "));
  }

  void close() override {
    std::jthread worker;
    std::array<Kept, 2> kept;
    {
      std::lock_guard lock(m_mutex);
      m_closed = true;
      m_stop.store(true);
      worker = std::move(m_worker);
      kept = std::move(m_kept);
    }
    if (worker.joinable()) worker.join();
    for (auto& k : kept) drop_kept(k);
  }

  std::optional<Clock::time_point> idle_from() override {
    std::lock_guard lock(m_mutex);
    if (m_thinking) return std::nullopt;
    return m_used;
  }

 private:
  void touch() { m_used = Clock::now(); }

  // 404 once closed, 409 while an agent thinks.
  std::optional<Response> refuse_locked(std::string_view what) {
    if (m_closed) return error_response(404, "no such game");
    touch();
    if (m_thinking) {
      return error_response(
          409, fmt::format("{} while the agent '{}' is thinking: stop it or wait", what, m_agent));
    }
    return std::nullopt;
  }

  void play_locked(const Move& m, double seconds, std::optional<agents::SearchReport> report) {
    const S& now = m_states.back();
    const Player mover = now.to_move();
    m_moves.push_back(play::MoveRecord<S>{mover, m, now.move_text(m), seconds, std::move(report)});
    m_states.push_back(now.result(m));
    m_turn_from = Clock::now();
  }

  [[nodiscard]] static double seconds_since(Clock::time_point from) {
    return std::chrono::duration<double>(Clock::now() - from).count();
  }

  // An agent kept for its side's next move: the spec asked for (empty:
  // none, and nothing held), the spec it runs and its table's MB.
  struct Kept {
    std::string spec;
    std::string run;
    std::unique_ptr<agents::Agent<S>> agent;
    long long mb = 0;
  };

  // Frees a kept agent, then gives its table and its place back.
  void drop_kept(Kept& k) {
    k.agent.reset();
    m_budget->release(std::exchange(k.mb, 0));
    if (!k.spec.empty()) m_budget->give_back_keep();
    k = Kept{};
  }

  // The search thread: the agent works on its own copy of the position and
  // touches the game only under the lock, to report and to move. The agent
  // is kept for the side's next move if the budget allows; otherwise it (and
  // its table) is freed after the lock is let go, and then its MB given back.
  void think(std::unique_ptr<agents::Agent<S>> agent_in, long long held, const S& state) {
    // Destroyed in reverse: the agent first, then its MB released.
    struct Held {
      TableBudget& budget;
      long long mb;
      ~Held() { budget.release(mb); }
    } table{*m_budget, held};
    std::unique_ptr<agents::Agent<S>> agent = std::move(agent_in);
    agents::SearchHooks hooks;
    hooks.stop = &m_stop;
    hooks.on_iteration = [this, &state](const search::SearchInfo& info) {
      auto words = line_notation(state, info.pv);
      std::lock_guard lock(m_mutex);
      m_progress = SearchProgress{info.depth,   info.value,          info.exact,
                                  info.pv,      std::move(words),    info.nodes,
                                  info.seconds, info.nodes_by_depth, state.to_move()};
    };
    hooks.on_nodes = [this](std::uint64_t nodes, double seconds) {
      std::lock_guard lock(m_mutex);
      m_progress.nodes = nodes;
      m_progress.seconds = seconds;
    };
    agent->set_hooks(std::move(hooks));
    WallClock clock;
    const std::optional<Move> move = agent->choose(state, agents::MoveClock{kMaxAgentSeconds});
    const double took = clock.seconds();
    std::optional<agents::SearchReport> report;
    if (const auto* r = agent->last_report()) report = *r;
    const std::string failure = agent->failure();
    agent->set_hooks({});  // the hooks name this game's members
    std::lock_guard lock(m_mutex);
    m_thinking = false;
    touch();
    if (m_closed) return;
    if (report) {
      m_progress = SearchProgress{report->depth,
                                  report->value,
                                  report->exact,
                                  report->pv,
                                  line_notation(state, report->pv),
                                  report->stats.nodes(),
                                  took,
                                  report->stats.depth_counts(),
                                  state.to_move()};
    } else {
      m_progress.seconds = took;
    }
    typename S::Moves legal;
    state.actions(legal);
    bool ok = false;
    for (const auto& m : legal) ok = ok || (move && m == *move);
    if (!ok) {
      m_failure = fmt::format("the agent '{}' gave no legal move{}", m_agent,
                              failure.empty() ? "" : ": " + failure);
      return;
    }
    const auto side = static_cast<std::size_t>(index(state.to_move()));
    m_names[side] = m_running;
    play_locked(*move, took, std::move(report));
    if (m_kept[side].spec.empty() && m_budget->take_keep()) {
      m_kept[side] = Kept{m_agent, m_running, std::move(agent), std::exchange(table.mb, 0)};
    }
  }

  Json search_locked() const {
    Json info = nullptr;
    if (!m_agent.empty()) {
      const auto& p = m_progress;
      info = {{"depth", p.depth},
              {"value", to_points(p.value)},
              {"score", p.value},
              {"exact", p.exact},
              {"pv", p.pv},
              {"pv_notation", p.pv_notation},
              {"score_text", score_words(p.value, p.exact, p.root, S::kSideNames, score_unit<S>())},
              {"unit", score_unit<S>().name},
              {"nodes", p.nodes},
              {"nps", p.seconds > 0 ? static_cast<double>(p.nodes) / p.seconds : 0.0},
              {"seconds", p.seconds},
              {"nodes_by_depth", p.nodes_by_depth}};
    }
    Json out = {{"thinking", m_thinking},
                {"agent", m_running.empty() ? Json(nullptr) : Json(m_running)},
                {"kept", m_reused},
                {"info", std::move(info)}};
    if (!m_failure.empty()) out["error"] = m_failure;
    return out;
  }

  Json move_json(const S& s, const Move& m) const {
    return {
        {"text", s.move_text(m)}, {"notation", notation_of(s, m)}, {"squares", squares_of(s, m)}};
  }

  // Each side's time so far (its moves' seconds: a person's from the end of
  // the move before, a program's its search) and the turn running now.
  Json clock_locked() const {
    std::array<double, 2> used{};
    for (const auto& m : m_moves) used[static_cast<std::size_t>(index(m.player))] += m.seconds;
    const bool over = m_states.back().is_terminal();
    return {{"used", used}, {"turn", over ? 0.0 : seconds_since(m_turn_from)}};
  }

  // The view of the position after `ply` moves: the live one (ply = all
  // moves played) offers its legal moves; an earlier one only shows.
  Json view_locked(std::size_t ply) const {
    const S& s = m_states[ply];
    const bool live = ply + 1 == m_states.size();
    Json moves = Json::array();
    if (live && !s.is_terminal()) {
      typename S::Moves legal;
      s.actions(legal);
      for (const auto& m : legal) moves.push_back(move_json(s, m));
    }
    Json history = Json::array();
    Json notation = Json::array();
    for (std::size_t i = 0; i < m_moves.size(); ++i) {
      history.push_back(m_moves[i].text);
      notation.push_back(notation_of(m_states[i], m_moves[i].move));
    }
    const bool over = s.is_terminal();
    Json v = {{"id", m_id},
              {"game", std::string(S::kName)},
              {"spec", s.spec()},
              {"position", s.to_text()},
              {"to_move", number(s.to_move())},
              {"players", S::kSideNames},
              {"terminal", over},
              {"result", over ? Json(result_token(s.utility())) : Json(nullptr)},
              {"reason", over ? Json(reason_of(s)) : Json(nullptr)},
              {"check", check_of(s)},
              {"last_move", nullptr},
              {"history", std::move(history)},
              {"notation", std::move(notation)},
              {"first_to_move", number(m_states.front().to_move())},
              {"ply", ply},
              {"live", live},
              {"clock", clock_locked()},
              {"thinking", m_thinking},
              {"agent", m_thinking ? Json(m_running) : Json(nullptr)},
              {"board", board_of(s)},
              {"marks", marks_of(s)},
              {"moves", std::move(moves)}};
    if (ply > 0) v["last_move"] = move_json(m_states[ply - 1], m_moves[ply - 1].move);
    return v;
  }

  // The game so far as play/ records it; an unfinished game is written as
  // such (PGN and PDN "*").
  play::MatchRecord<S> record_locked() const {
    play::MatchRecord<S> rec;
    rec.game = m_states.front().spec();
    rec.start = m_states.front().to_text();
    rec.agents = m_names;
    rec.moves = m_moves;
    rec.final_state = m_states.back();
    if (rec.final_state.is_terminal()) {
      rec.payoff = rec.final_state.utility();
      rec.reason = play::rules_reason(rec.final_state);
    } else {
      rec.reason = "unfinished";
    }
    for (const auto& m : m_moves) rec.seconds += m.seconds;
    return rec;
  }

  const std::string m_id;
  std::mutex m_mutex;
  std::vector<S> m_states;  // the start, then the position after each move
  std::vector<play::MoveRecord<S>> m_moves;
  std::array<std::string, 2> m_names = {"person", "person"};  // who played each side last
  Clock::time_point m_used = Clock::now();
  Clock::time_point m_turn_from = Clock::now();  // the last move, undo or agent start
  bool m_closed = false;
  bool m_thinking = false;
  std::string m_agent;    // the running or last agent's spec, as asked for
  std::string m_running;  // ... as it runs (its table shrunk to the budget)
  std::string m_failure;
  SearchProgress m_progress;
  std::shared_ptr<TableBudget> m_budget;
  std::array<Kept, 2> m_kept;      // by side: the agent that moved last for it
  bool m_reused = false;           // the running or last agent was kept from its side's last move
  std::uint64_t m_agent_runs = 0;  // seeds each agent differently
  std::atomic<bool> m_stop{false};
  std::jthread m_worker;  // last: joined before the members it uses are gone
};

}  // namespace duel::serve
