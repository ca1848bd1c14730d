#pragma once
// The state of one game of `duel serve` and what is read or changed of it
// under its lock: positions and moves, seats, offers and an early end, the
// view and the record, the pages' feeds. game_session.hpp adds the threads
// (the programs' moves, analyses) and the requests.
//
// Why apart: the session's requests and its threads are about when things
// change; this is what they change, kept in one place under one mutex.
#include <atomic>
#include <chrono>
#include <condition_variable>

#include "duel/serve/session.hpp"
#include "duel/serve/session_parts.hpp"

namespace duel::serve {

template <games::PlayableGame S>
class GameBase {
 protected:
  using Move = typename S::Move;

  GameBase(std::string id, S start, std::shared_ptr<TableBudget> budget, Seats seats,
           std::array<std::string, 2> names)
      : m_id(std::move(id)),
        m_states{std::move(start)},
        m_budget(std::move(budget)),
        m_seats(std::move(seats)) {
    for (std::size_t s = 0; s < 2; ++s) {
      m_names[s] = !names[s].empty() ? names[s] : m_seats.human(s) ? "person" : m_seats.players[s];
    }
  }

  void touch() { m_used = Clock::now(); }

  [[nodiscard]] bool over_locked() const { return m_ending || m_states.back().is_terminal(); }

  static Response not_seated() {
    return error_response(403, "this page holds no seat of this game: it may only watch");
  }

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

  // A move made for a position that is no longer the game's: 409 with the
  // game as it is now and why in `refused` (`error` stays the view's own:
  // a program's failure).
  Response stale_locked(long long ply) {
    Json body = view_locked(m_moves.size());
    body["refused"] = fmt::format(
        "the game moved on: your move was for the position after {} moves, and {} have been "
        "played; here is the game now",
        ply, m_moves.size());
    return json_response(409, body);
  }

  // The plies that give `side` its move back: to before its last move.
  [[nodiscard]] int takeback_plies_locked(std::size_t side) const {
    for (std::size_t n = m_moves.size(); n > 0; --n) {
      if (static_cast<std::size_t>(index(m_moves[n - 1].player)) == side) {
        return static_cast<int>(m_moves.size() - (n - 1));
      }
    }
    return 0;
  }

  [[nodiscard]] const agents::SearchReport* last_report_locked(std::size_t side) const {
    for (auto it = m_moves.rbegin(); it != m_moves.rend(); ++it) {
      if (static_cast<std::size_t>(index(it->player)) == side && it->report) return &*it->report;
    }
    return nullptr;
  }

  void end_early_locked(EarlyEnd end) {
    m_stop.store(true);
    m_wake.notify_all();
    m_ending = std::move(end);
    m_draw_offer.reset();
    m_takeback_offer.reset();
    changed_locked();
  }

  void play_locked(const Move& m, double seconds, std::optional<agents::SearchReport> report) {
    const S& now = m_states.back();
    const Player mover = now.to_move();
    m_moves.push_back(play::MoveRecord<S>{mover, m, now.move_text(m), seconds, std::move(report)});
    m_states.push_back(now.result(m));
    m_turn_from = Clock::now();
    m_draw_offer.reset();
    m_takeback_offer.reset();
    changed_locked();
  }

  [[nodiscard]] static double seconds_since(Clock::time_point from) {
    return std::chrono::duration<double>(Clock::now() - from).count();
  }

  // Drops the feeds of pages gone away.
  void prune_feeds_locked() {
    std::erase_if(m_feeds, [](const auto& w) { return w.expired(); });
  }

  // One document to every watching page through `post` (Feed::post_view,
  // ...); `text()` is made once, and only if a page watches.
  template <class Text>
  void post_locked(void (Feed::*post)(std::string), Text text) {
    prune_feeds_locked();
    if (m_feeds.empty()) return;
    const std::string made = text();
    for (const auto& w : m_feeds) {
      if (auto f = w.lock()) ((*f).*post)(made);
    }
  }

  // Something every page must see happened: the live view to every feed.
  void changed_locked() {
    ++m_version;
    m_at = wall_ms();
    post_locked(&Feed::post_view, [&] { return view_locked(m_moves.size()).dump(); });
  }

  // The search's progress to every feed, at most every 100 ms unless `now`.
  void post_search_locked(bool now) {
    const auto t = Clock::now();
    if (!now && t - m_search_posted < std::chrono::milliseconds(100)) return;
    m_search_posted = t;
    post_locked(&Feed::post_search, [&] { return search_locked().dump(); });
  }

  Json search_locked() const {
    Json info = nullptr;
    if (!m_agent.empty()) info = progress_json<S>(m_progress);
    Json out = {{"thinking", m_thinking},
                {"agent", m_running.empty() ? Json(nullptr) : Json(m_running)},
                {"kept", m_reused},
                {"info", std::move(info)}};
    if (!m_failure.empty()) out["error"] = m_failure;
    return out;
  }

  // Each side's time so far (its moves' seconds: a person's from the end of
  // the move before, a program's its search) and the turn running now.
  Json clock_locked() const {
    std::array<double, 2> used{};
    for (const auto& m : m_moves) used[static_cast<std::size_t>(index(m.player))] += m.seconds;
    return {{"used", used}, {"turn", over_locked() ? 0.0 : seconds_since(m_turn_from)}};
  }

  // The view of the position after `ply` moves: the live one (ply = all
  // moves played) offers its legal moves; an earlier one only shows.
  Json view_locked(std::size_t ply) const {
    const S& s = m_states[ply];
    const bool live = ply + 1 == m_states.size();
    Json v = position_json(s, m_states, m_moves, ply);
    const bool ended = live && m_ending.has_value();
    if (live && !ended && !s.is_terminal()) v["moves"] = legal_moves_json(s);
    if (ended) {
      v["terminal"] = true;
      v["result"] = m_ending->result;
      v["reason"] = m_ending->reason;
    }
    const auto side = [](const std::optional<std::size_t>& who) {
      return who ? Json(*who + 1) : Json(nullptr);
    };
    v["id"] = m_id;
    v["live"] = live;
    v["clock"] = clock_locked();
    v["thinking"] = m_thinking;
    v["agent"] = m_thinking ? Json(m_running) : Json(nullptr);
    v["seated"] = m_seats.seated;
    v["agents"] = m_seats.seated ? Json(m_seats.players) : Json(nullptr);
    v["names"] = m_names;
    v["delay"] = m_seats.delay_ms;
    v["paused"] = m_paused;
    v["offers"] = {{"draw", side(m_draw_offer)}, {"takeback", side(m_takeback_offer)}};
    v["error"] = m_failure.empty() ? Json(nullptr) : Json(m_failure);
    v["waiting"] = m_waiting.empty() ? Json(nullptr) : Json(m_waiting);
    v["version"] = m_version;
    v["at"] = m_at;
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
    if (m_ending) {
      rec.payoff = m_ending->payoff;
      rec.ending = m_ending->kind;
      rec.reason = m_ending->reason;
    } else if (rec.final_state.is_terminal()) {
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
  std::condition_variable m_wake;  // the pause between programs ends early
  std::vector<S> m_states;         // the start, then the position after each move
  std::vector<play::MoveRecord<S>> m_moves;
  std::shared_ptr<TableBudget> m_budget;
  const Seats m_seats;
  std::array<std::string, 2> m_names;  // each side's player, as records name them
  const std::chrono::system_clock::time_point m_made = std::chrono::system_clock::now();
  Clock::time_point m_used = Clock::now();
  Clock::time_point m_turn_from = Clock::now();  // the last move, undo or agent start
  Clock::time_point m_search_posted{};
  bool m_closed = false;
  bool m_thinking = false;
  bool m_paused = false;  // with players: the programs wait for go
  std::optional<EarlyEnd> m_ending;
  std::optional<std::size_t> m_draw_offer;      // the side offering a draw
  std::optional<std::size_t> m_takeback_offer;  // the side asking to take back
  std::vector<std::weak_ptr<Feed>> m_feeds;
  std::uint64_t m_version = 0;  // changes so far
  long long m_at = wall_ms();   // the last change, ms since the epoch
  std::string m_agent;          // the running or last agent's spec, as asked for
  std::string m_running;        // ... as it runs (its table shrunk to the budget)
  std::string m_failure;
  std::string m_waiting;  // why a program's move waits (the tables' budget is used up)
  SearchProgress m_progress;
  std::atomic<bool> m_stop{false};
  bool m_reused = false;  // the running or last agent was kept from its side's last move
};

}  // namespace duel::serve
