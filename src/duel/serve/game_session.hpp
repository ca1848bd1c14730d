#pragma once
// One game of `duel serve` for one game type: its positions and record, its
// seats, the program that may be thinking about it on a thread of its own,
// and the pages that watch it.
//
// Why this shape: a search can take a minute, and pages watch it, stop it,
// move elsewhere or delete the game meanwhile. So each game has one mutex,
// held only for short reads and writes (never during a search); the search
// thread works on a copy of the position and plays its move under the mutex
// when it is done, unless the game was closed meanwhile. In a game made
// with players that thread goes on with the next program's move, so a game
// between programs plays itself whether or not a page is open. Every change
// is posted to the watching pages' feeds under the same mutex, so each page
// sees the changes in the order they happened.
#include <condition_variable>
#include <variant>

#include "duel/serve/analysis.hpp"
#include "duel/serve/game_base.hpp"
#include "duel/serve/session.hpp"
#include "duel/serve/session_parts.hpp"

namespace duel::serve {

template <games::PlayableGame S>
class GameSession final : public Session, GameBase<S> {
  using Base = GameBase<S>;
  using Base::changed_locked;
  using Base::end_early_locked;
  using Base::last_report_locked;
  using Base::m_agent;
  using Base::m_budget;
  using Base::m_closed;
  using Base::m_draw_offer;
  using Base::m_ending;
  using Base::m_failure;
  using Base::m_feeds;
  using Base::m_id;
  using Base::m_made;
  using Base::m_moves;
  using Base::m_mutex;
  using Base::m_names;
  using Base::m_paused;
  using Base::m_progress;
  using Base::m_reused;
  using Base::m_running;
  using Base::m_seats;
  using Base::m_states;
  using Base::m_stop;
  using Base::m_takeback_offer;
  using Base::m_thinking;
  using Base::m_turn_from;
  using Base::m_used;
  using Base::m_waiting;
  using Base::m_wake;
  using Base::not_seated;
  using Base::over_locked;
  using Base::play_locked;
  using Base::post_locked;
  using Base::post_search_locked;
  using Base::prune_feeds_locked;
  using Base::record_locked;
  using Base::refuse_locked;
  using Base::search_locked;
  using Base::seconds_since;
  using Base::stale_locked;
  using Base::takeback_plies_locked;
  using Base::touch;
  using Base::view_locked;

 public:
  using Move = typename S::Move;

  GameSession(std::string id, S start, std::shared_ptr<TableBudget> budget, Seats seats = {},
              std::array<std::string, 2> names = {})
      : Base(std::move(id), std::move(start), std::move(budget), std::move(seats),
             std::move(names)) {}
  ~GameSession() override { close(); }

  // A recorded game's moves (an imported PGN or PDN), played before the game
  // is shown to anyone; `ending` is the record's result where the rules do
  // not end the game (a resignation, an agreed draw).
  void load(const std::vector<Move>& moves, const std::optional<EarlyEnd>& ending) {
    std::lock_guard lock(m_mutex);
    for (const Move& m : moves) play_locked(m, 0.0, std::nullopt);
    if (!m_states.back().is_terminal()) m_ending = ending;
  }
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

  Response move(std::string_view text, std::optional<long long> ply,
                std::string_view seat) override {
    std::lock_guard lock(m_mutex);
    if (auto busy = refuse_locked("a move")) return *busy;
    if (auto why = refuse_text("move", text, 64); !why.empty()) return error_response(400, why);
    if (m_seats.seated) {
      if (!ply) return error_response(400, "the body needs \"ply\": the moves played so far");
      const auto side = index(m_states.back().to_move());
      const auto holder = m_seats.side_of(seat);
      // A page behind the game sends the seat its old board had to move.
      if (holder && *ply != static_cast<long long>(m_moves.size())) return stale_locked(*ply);
      if (!over_locked() && (m_seats.program(side) || holder != std::optional<std::size_t>(side))) {
        return error_response(
            403, fmt::format("it is {}'s move and this page does not hold {} seat",
                             S::kSideNames[side], m_seats.program(side) ? "a person's" : "that"));
      }
    }
    if (ply && *ply != static_cast<long long>(m_moves.size())) return stale_locked(*ply);
    if (m_ending)
      return error_response(400, fmt::format("the game is over ({})", m_ending->reason));
    const S& now = m_states.back();
    auto m = registry::legal_move(now, text);
    if (!m) return error_response(400, m.error());
    play_locked(*m, seconds_since(m_turn_from), std::nullopt);
    m_paused = false;  // a person's move asks for the reply, even after Stop
    start_programs_locked();
    return json_response(200, view_locked(m_moves.size()));
  }

  Response undo(int plies, std::string_view seat) override {
    std::lock_guard lock(m_mutex);
    if (auto busy = refuse_locked("undo")) return *busy;
    if (m_seats.seated && !m_seats.side_of(seat)) return not_seated();
    if (m_moves.empty()) return error_response(400, "no move to undo");
    if (m_seats.seated) {
      const auto holder = m_seats.side_of(seat);
      const auto other = 1 - *holder;
      if (m_seats.human(*holder) && m_seats.human(other)) {
        // Between two seats of people: the other side must accept.
        if (m_takeback_offer != other) {
          m_takeback_offer = *holder;
          changed_locked();
          return json_response(202, view_locked(m_moves.size()));
        }
        plies = takeback_plies_locked(other);
      } else if (m_seats.human(*holder)) {
        // Against a program: at once; before the person's first move, the
        // program's first move (it then waits for go).
        plies = std::max(1, takeback_plies_locked(*holder));
      }
      m_paused = !m_seats.human(index(m_states[m_moves.size() - plies].to_move()));
    }
    if (plies < 1 || static_cast<std::size_t>(plies) > m_moves.size()) {
      return error_response(
          400, fmt::format("plies: {} is not in 1..{} (the moves played)", plies, m_moves.size()));
    }
    for (int i = 0; i < plies; ++i) {
      m_moves.pop_back();
      m_states.pop_back();
    }
    m_ending.reset();
    m_draw_offer.reset();
    m_takeback_offer.reset();
    m_turn_from = Clock::now();
    changed_locked();
    return json_response(200, view_locked(m_moves.size()));
  }

  Response start_agent(std::string_view spec) override {
    if (auto why = check_agent<S>(spec); !why.empty()) return error_response(400, why);
    std::lock_guard lock(m_mutex);
    if (auto busy = refuse_locked("an agent")) return *busy;
    if (m_seats.seated) {
      return error_response(409, "this game's programs are run by the server: use go and stop");
    }
    if (over_locked()) return error_response(400, "the game is over");
    if (auto refused = start_locked(std::string(spec), false)) {
      return error_response(refused->status, refused->text);
    }
    return json_response(202, view_locked(m_moves.size()));
  }

  Response stop(std::string_view seat) override {
    std::lock_guard lock(m_mutex);
    if (m_closed) return error_response(404, "no such game");
    if (m_seats.seated && !m_seats.side_of(seat)) return not_seated();
    m_stop.store(true);
    if (m_seats.seated) m_paused = true;
    m_wake.notify_all();
    touch();
    changed_locked();
    return json_response(200, search_locked());
  }

  Response go(std::string_view seat) override {
    std::lock_guard lock(m_mutex);
    if (auto busy = refuse_locked("go")) return *busy;
    if (!m_seats.seated) return error_response(400, "go: this game has no players to run");
    if (!m_seats.side_of(seat)) return not_seated();
    m_paused = false;
    start_programs_locked();
    changed_locked();
    return json_response(200, view_locked(m_moves.size()));
  }

  Response resign(std::string_view seat) override {
    std::lock_guard lock(m_mutex);
    if (m_closed) return error_response(404, "no such game");
    const auto holder = m_seats.side_of(seat);
    if (!holder) return not_seated();
    if (over_locked()) return error_response(400, "the game is over");
    const int payoff = *holder == 0 ? -1 : 1;
    end_early_locked(EarlyEnd{result_token(payoff),
                              fmt::format("{} resigned", S::kSideNames[*holder]), payoff,
                              play::Ending::Abandoned});
    return json_response(200, view_locked(m_moves.size()));
  }

  Response draw(std::string_view seat) override {
    std::lock_guard lock(m_mutex);
    if (m_closed) return error_response(404, "no such game");
    const auto holder = m_seats.side_of(seat);
    if (!holder) return not_seated();
    if (over_locked()) return error_response(400, "the game is over");
    const std::size_t other = 1 - *holder;
    if (m_seats.program(other)) {
      const agents::SearchReport* last = last_report_locked(other);
      if (!program_accepts_draw(last, other)) {
        return error_response(
            409, fmt::format("{} ({}) declines the draw: {}", S::kSideNames[other],
                             m_seats.players[other],
                             last ? "its score says it is not behind" : "it has not searched yet"));
      }
    } else if (m_draw_offer != other) {
      m_draw_offer = *holder;
      changed_locked();
      return json_response(202, view_locked(m_moves.size()));
    }
    end_early_locked(EarlyEnd{"1/2-1/2", "draw agreed", 0, play::Ending::Adjudicated});
    return json_response(200, view_locked(m_moves.size()));
  }

  Json search() override {
    std::lock_guard lock(m_mutex);
    touch();
    return search_locked();
  }

  Response analyse(std::optional<long long> ply, double seconds, std::size_t lines,
                   std::string_view seat) override {
    std::optional<S> state;
    std::size_t at = 0;
    {
      std::lock_guard lock(m_mutex);
      if (m_closed) return error_response(404, "no such game");
      if (m_seats.seated && !m_seats.side_of(seat)) return not_seated();
      touch();
      at = ply ? static_cast<std::size_t>(*ply) : m_moves.size();
      if (at > m_moves.size()) {
        return error_response(
            400, fmt::format("ply: {} is not in 0..{} (the moves played)", at, m_moves.size()));
      }
      if (m_states[at].is_terminal()) {
        return error_response(400, "the game is over in that position: nothing to analyse");
      }
      state = m_states[at];
    }
    const long long mb = m_budget->reserve(kAnalysisHashMb);
    if (mb == 0) {
      return error_response(503, m_budget->full());
    }
    // Without the game's lock: a running analysis is stopped and joined,
    // and its thread takes that lock to post.
    m_analyst.start(
        *state, at, seconds, lines,
        [this](Json found) {
          std::lock_guard lock(m_mutex);
          if (m_closed) return;
          m_analysis = std::move(found);
          post_locked(&Feed::post_analysis, [&] { return m_analysis.dump(); });
        },
        m_budget, mb);
    return json_response(202, Json{{"analysing", true}, {"ply", at}});
  }

  Json analysis() override {
    std::lock_guard lock(m_mutex);
    touch();
    return m_analysis;
  }

  Response record(std::string_view format) override {
    std::lock_guard lock(m_mutex);
    touch();
    return record_response<S>(record_locked(), m_states.front(), m_id, format, m_made);
  }

  std::shared_ptr<Feed> subscribe() override {
    auto feed = std::make_shared<Feed>();
    std::lock_guard lock(m_mutex);
    touch();
    if (m_closed) {
      feed->end();
      return feed;
    }
    prune_feeds_locked();
    m_feeds.push_back(feed);
    feed->post_view(view_locked(m_moves.size()).dump());
    if (!m_agent.empty()) feed->post_search(search_locked().dump());
    return feed;
  }

  Json summary() override {
    std::lock_guard lock(m_mutex);
    prune_feeds_locked();
    return {{"id", m_id},
            {"game", m_states.front().spec()},
            {"names", m_names},
            {"agents", m_seats.seated ? Json(m_seats.players) : Json(nullptr)},
            {"ply", m_moves.size()},
            {"terminal", over_locked()},
            {"thinking", m_thinking},
            {"viewers", m_feeds.size()}};
  }

  bool may_delete(std::string_view seat) override {
    std::lock_guard lock(m_mutex);
    return !m_seats.seated || m_seats.side_of(seat).has_value();
  }

  void begin() override {
    std::lock_guard lock(m_mutex);
    start_programs_locked();
  }

  void close() override {
    std::jthread worker;
    std::array<Kept, 2> kept;
    std::vector<std::weak_ptr<Feed>> feeds;
    {
      std::lock_guard lock(m_mutex);
      m_closed = true;
      m_stop.store(true);
      m_wake.notify_all();
      worker = std::move(m_worker);
      kept = std::move(m_kept);
      feeds.swap(m_feeds);
    }
    for (auto& w : feeds) {
      if (auto f = w.lock()) f->end();
    }
    m_analyst.stop();
    if (worker.joinable()) worker.join();
    for (auto& k : kept) drop_kept(k);
  }

  std::optional<Clock::time_point> idle_from() override {
    std::lock_guard lock(m_mutex);
    prune_feeds_locked();
    if (m_thinking || !m_feeds.empty()) return std::nullopt;
    return m_used;
  }

 private:
  // An agent kept for its side's next move: the spec asked for (empty:
  // none, and nothing held), the spec it runs and its table's MB.
  struct Kept {
    std::string spec;
    std::string run;
    std::unique_ptr<agents::Agent<S>> agent;
    long long mb = 0;
  };
  // An agent ready to think: made or kept, its table's MB held.
  struct Ready {
    std::unique_ptr<agents::Agent<S>> agent;
    long long held = 0;
  };

  // Frees a kept agent, then gives its table and its place back.
  void drop_kept(Kept& k) {
    k.agent.reset();
    m_budget->release(std::exchange(k.mb, 0));
    if (!k.spec.empty()) m_budget->give_back_keep();
    k = Kept{};
  }

  // An agent of `spec` for the side to move: its kept one if the spec is
  // the same (any other spec replaces it), else a new one within the
  // tables' budget. Why not when none can be had.
  std::variant<Ready, Refusal> ready_locked(const std::string& spec) {
    Kept& kept = m_kept[static_cast<std::size_t>(index(m_states.back().to_move()))];
    Ready out;
    std::string run = spec;  // the spec that runs (its table may be shrunk)
    m_reused = kept.agent && kept.spec == spec;
    if (m_reused) {
      out.agent = std::move(kept.agent);
      run = kept.run;
      out.held = std::exchange(kept.mb, 0);
    } else {
      drop_kept(kept);
      const long long want = table_mb(spec);
      out.held = m_budget->reserve(want);
      if (want > 0 && out.held == 0) {
        return Refusal{503, m_budget->full()};
      }
      if (out.held < want) run = with_table(spec, out.held);
      std::istringstream no_input;
      std::ostringstream no_output;
      registry::AgentContext ctx{m_agent_runs++, &no_input, &no_output};
      auto made = registry::make_agent<S>(run, ctx);
      if (!made) {
        m_budget->release(out.held);
        return Refusal{400, made.error()};
      }
      out.agent = std::move(*made);
    }
    drop_kept(kept);  // its agent and MB, if reused, went to the new search
    m_agent = spec;
    m_running = run;
    return out;
  }

  // Starts `spec` thinking for the side to move on the game's thread; why
  // not if it cannot. With `wait`, a table the budget cannot give yet is
  // waited for on that thread (a game between programs goes on once a
  // search elsewhere ends) instead of refused.
  std::optional<Refusal> start_locked(const std::string& spec, bool wait) {
    auto ready = ready_locked(spec);
    std::optional<Ready> first;
    if (auto* refused = std::get_if<Refusal>(&ready)) {
      if (!wait || refused->status != 503) return *refused;
    } else {
      first = std::get<Ready>(std::move(ready));
    }
    // The last search's thread has played its move (thinking is false): it
    // only unwinds now, without this lock.
    if (m_worker.joinable()) m_worker.join();
    begin_think_locked();
    m_worker = std::jthread(
        [this, first = std::move(first)]() mutable { run_programs(std::move(first)); });
    return std::nullopt;
  }

  void begin_think_locked() {
    m_stop.store(false);
    m_thinking = true;
    m_progress = SearchProgress{};
    m_progress.root = m_states.back().to_move();
    m_failure.clear();
    m_turn_from = Clock::now();
    changed_locked();
  }

  // In a game with players: the program to move starts thinking, unless
  // the game is over or paused.
  void start_programs_locked() {
    if (!m_seats.seated || m_paused || m_closed || m_thinking || over_locked()) return;
    const auto side = static_cast<std::size_t>(index(m_states.back().to_move()));
    if (!m_seats.program(side)) return;
    if (auto refused = start_locked(m_seats.players[side], true)) {
      m_failure = refused->text;
      m_paused = true;
      changed_locked();
    }
  }

  // Ends the game's thread's turn without a move (closed, paused, ended).
  void stand_down_locked() {
    m_thinking = false;
    m_waiting.clear();
    if (!m_closed) changed_locked();
  }

  // The game's thread: one program's move, then (with players) the next
  // program's while programs are to move.
  void run_programs(std::optional<Ready> ready) {
    yield_to_pages();
    while (true) {
      // Step 1. The agent, once the tables' budget has room for it.
      while (!ready) {
        std::unique_lock lock(m_mutex);
        if (m_closed || m_paused || m_ending) return stand_down_locked();
        const auto side = static_cast<std::size_t>(index(m_states.back().to_move()));
        auto next = ready_locked(m_seats.players[side]);
        if (auto* got = std::get_if<Ready>(&next)) {
          ready = std::move(*got);
          m_waiting.clear();
          break;
        }
        const Refusal refused = std::get<Refusal>(next);
        if (refused.status != 503) {
          m_failure = refused.text;
          m_paused = true;
          return stand_down_locked();
        }
        if (m_waiting.empty()) {
          m_waiting = refused.text;
          m_agent = m_running = m_seats.players[side];  // the view names who waits
          changed_locked();
        }
        m_wake.wait_for(lock, std::chrono::milliseconds(250),
                        [&] { return m_stop.load() || m_closed; });
      }
      // Step 2. Between two programs, the pause a person watches by.
      if (m_seats.seated && m_seats.delay_ms > 0 && m_seats.program(0) && m_seats.program(1)) {
        std::unique_lock lock(m_mutex);
        m_wake.wait_for(lock, std::chrono::milliseconds(m_seats.delay_ms),
                        [&] { return m_stop.load() || m_closed; });
        if (m_closed || m_paused || m_ending) {
          ready->agent.reset();
          m_budget->release(std::exchange(ready->held, 0));
          return stand_down_locked();
        }
      }
      // Step 3. The move.
      think(std::move(ready->agent), ready->held);
      ready.reset();
      // Step 4. The next program's, if it is one's turn.
      std::lock_guard lock(m_mutex);
      if (!m_closed && m_seats.seated && !m_paused && !over_locked() && m_failure.empty() &&
          m_seats.program(static_cast<std::size_t>(index(m_states.back().to_move())))) {
        begin_think_locked();
        continue;
      }
      return stand_down_locked();
    }
  }

  // One move: the agent works on its own copy of the position and touches
  // the game only under the lock, to report and to move. The agent is kept
  // for the side's next move if the budget allows; otherwise it (and its
  // table) is freed after the lock is let go, and then its MB given back.
  void think(std::unique_ptr<agents::Agent<S>> agent_in, long long held) {
    // Destroyed in reverse: the agent first, then its MB released.
    HeldTable table{*m_budget, held};
    std::unique_ptr<agents::Agent<S>> agent = std::move(agent_in);
    S state = [&] {
      std::lock_guard lock(m_mutex);
      return m_states.back();
    }();
    agents::SearchHooks hooks;
    hooks.stop = &m_stop;
    hooks.on_iteration = [this, &state](const search::SearchInfo& info) {
      auto words = line_notation(state, info.pv);
      std::lock_guard lock(m_mutex);
      m_progress = SearchProgress{info.depth,   info.value,          info.exact,
                                  info.pv,      std::move(words),    info.nodes,
                                  info.seconds, info.nodes_by_depth, state.to_move()};
      post_search_locked(false);
    };
    hooks.on_nodes = [this](std::uint64_t nodes, double seconds) {
      std::lock_guard lock(m_mutex);
      m_progress.nodes = nodes;
      m_progress.seconds = seconds;
      post_search_locked(false);
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
    touch();
    if (m_closed || m_ending) return;
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
      post_search_locked(true);
      return;
    }
    const auto side = static_cast<std::size_t>(index(state.to_move()));
    if (!m_seats.seated) m_names[side] = m_running;
    post_search_locked(true);
    play_locked(*move, took, std::move(report));
    if (m_kept[side].spec.empty() && m_budget->take_keep()) {
      m_kept[side] = Kept{m_agent, m_running, std::move(agent), std::exchange(table.mb, 0)};
    }
  }

  std::array<Kept, 2> m_kept;      // by side: the agent that moved last for it
  std::uint64_t m_agent_runs = 0;  // seeds each agent differently
  Json m_analysis = nullptr;       // the last analysis asked for
  Analyst<S> m_analyst;            // joined before the members its posts use are gone
  std::jthread m_worker;           // last: joined before the members it uses are gone
};

}  // namespace duel::serve
