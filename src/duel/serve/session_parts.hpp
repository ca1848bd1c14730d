#pragma once
// The parts of a game of `duel serve` that need no lock and no thread: the
// view of a position, a search's progress as JSON, the record as a file,
// the checks of an agent spec, and how a game ends off the board.
//
// Why apart from game_session.hpp: these are pure functions of a game's
// values; the session is about who may change them and when.
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "duel/serve/session.hpp"

namespace duel::serve {

// How a game ended off the board: a resignation or an agreed draw.
struct EarlyEnd {
  std::string result;  // "1-0", "0-1", "1/2-1/2"
  std::string reason;  // "White resigned", "draw agreed"
  Value payoff = 0;    // Player 1's: +1, -1, 0
  play::Ending kind = play::Ending::Abandoned;
};

// Lowers the calling thread's priority (nice 10; the threads it starts
// inherit it), for searches: on a machine whose cores the games' searches
// fill, the threads that answer requests and send events to pages still
// run at once (docs/BENCHMARKS.md "Many pages watching live games").
inline void yield_to_pages() {
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);
}

// Why an agent cannot start: the answer's status and its line.
struct Refusal {
  int status = 400;
  std::string text;
};

// Now, in milliseconds since the Unix epoch (the view's `at`: pages on the
// same machine measure a move's delay by it).
[[nodiscard]] inline long long wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Why `spec` may not play `S` on the server; empty when it may.
template <class S>
[[nodiscard]] std::string check_agent(std::string_view spec) {
  if (auto why = refuse_text("agent", spec, 200); !why.empty()) return why;
  if (auto why = refuse_agent(spec); !why.empty()) return why;
  return unknown_agent(spec, S::kName, registry::agent_kinds<S>());
}

// A program offered a draw takes it when its last score does not have it
// ahead (its own view), as a player reads the evaluation; with no score yet
// it declines.
[[nodiscard]] inline bool program_accepts_draw(const agents::SearchReport* last, std::size_t side) {
  if (last == nullptr) return false;
  const Value own = side == 0 ? last->value : -last->value;
  return own <= 0;
}

template <class S>
[[nodiscard]] Json move_json(const S& s, const typename S::Move& m) {
  return {{"text", s.move_text(m)},
          {"notation", games::people_text(s, m)},
          {"squares", squares_of(s, m)}};
}

template <class S>
[[nodiscard]] Json legal_moves_json(const S& s) {
  Json moves = Json::array();
  typename S::Moves legal;
  s.actions(legal);
  for (const auto& m : legal) moves.push_back(move_json(s, m));
  return moves;
}

// The position after `ply` of the game's moves, with the whole game's
// moves (history in the game's text, notation as people write it); no
// legal moves (the session adds them to the live view).
template <class S>
[[nodiscard]] Json position_json(const S& s, const std::vector<S>& states,
                                 const std::vector<play::MoveRecord<S>>& moves, std::size_t ply) {
  Json history = Json::array();
  Json notation = Json::array();
  for (std::size_t i = 0; i < moves.size(); ++i) {
    history.push_back(moves[i].text);
    notation.push_back(games::people_text(states[i], moves[i].move));
  }
  const bool over = s.is_terminal();
  Json v = {{"game", std::string(S::kName)},
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
            {"first_to_move", number(states.front().to_move())},
            {"ply", ply},
            {"board", board_of(s)},
            {"marks", marks_of(s)},
            {"moves", Json::array()}};
  if (ply > 0) v["last_move"] = move_json(states[ply - 1], moves[ply - 1].move);
  return v;
}

// A search's progress as GET .../search's `info` shows it.
template <class S>
[[nodiscard]] Json progress_json(const SearchProgress& p) {
  const games::Score score = games::score_of<S>(p.value, p.exact, p.root);
  return {{"depth", p.depth},
          {"value", to_points(p.value)},
          {"raw_score", p.value},
          {"exact", p.exact},
          {"pv", p.pv},
          {"pv_notation", p.pv_notation},
          {"score", games::score_json(score)},
          {"score_text", score.text},
          {"unit", score.unit},
          {"nodes", p.nodes},
          {"nps", p.seconds > 0 ? static_cast<double>(p.nodes) / p.seconds : 0.0},
          {"seconds", p.seconds},
          {"nodes_by_depth", p.nodes_by_depth}};
}

// The record in `format` (json, trace, or the game's PGN or PDN) as a file
// to download; PGN and PDN carry the game's date and its players' names.
template <class S>
[[nodiscard]] Response record_response(const play::MatchRecord<S>& rec, const S& start,
                                       const std::string& id, std::string_view format,
                                       std::chrono::system_clock::time_point made) {
  const std::string name = fmt::format("duel-{}-{}", S::kName, id);
  const auto file = [&](std::string body, std::string_view type, std::string_view ext) {
    Response r{200, std::string(type), std::move(body), {}, nullptr};
    r.headers.emplace_back("Content-Disposition",
                           fmt::format("attachment; filename=\"{}.{}\"", name, ext));
    return r;
  };
  if (format == "json") return file(play::to_json(rec).dump(2) + "\n", "application/json", "json");
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
      const std::time_t t = std::chrono::system_clock::to_time_t(made);
      std::tm day{};
      gmtime_r(&t, &day);
      play::RecordTags tags = {{"Event", "duel serve"}, {"Date", fmt::format("{:%Y.%m.%d}", day)}};
      for (auto& side : play::side_tags<S>(rec.agents)) tags.push_back(std::move(side));
      constexpr bool kPgn = S::kRecordFormat == games::RecordFormat::pgn;
      return file(play::game_record(rec, start, tags),
                  kPgn ? "application/x-chess-pgn" : "text/plain; charset=utf-8", format);
    }
  }
  const std::string_view own = play::format_name(S::kRecordFormat);
  return error_response(400, fmt::format("format: {} has no {} record (it has {}{}trace, json)",
                                         S::kName, format, own, own.empty() ? "" : ", "));
}

}  // namespace duel::serve
