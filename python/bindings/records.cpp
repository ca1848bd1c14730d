// The C++ half of `duel.pgn` (python/duel/pgn.py, docs/python.md "Game
// records"): games read from PGN (the 5x5 chess games) and PDN (checkers)
// text by the C++ parsers, and written by the C++ writers, so Python reads
// and writes exactly what `duel play --pgn/--pdn` and `duel arena` do.
//
// Why private functions and not classes: the record object python-chess
// users expect (headers, mainline, end) is plain Python; only the parsing
// and writing, which must match the CLI's, cross into C++.
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "bindings.hpp"
#include "duel/games/checkers/pdn.hpp"
#include "duel/games/minichess/pgn.hpp"
#include "duel/play/screen.hpp"
#include "moves.hpp"

namespace duel::python {
namespace {

namespace ck = games::checkers;
namespace mc = games::minichess;

using Tags = std::vector<std::pair<std::string, std::string>>;

// One game read: its tags in order, start, moves and result token.
using RawRecord = std::tuple<Tags, State, std::vector<Move>, std::string>;

template <class S>
RawRecord raw_record(Tags tags, const S& start, const std::vector<typename S::Move>& moves,
                     std::string result) {
  std::vector<Move> described;
  S s = start;
  for (const auto& m : moves) {
    described.push_back(describe(s, m));
    s = s.result(m);
  }
  if (result.empty()) result = "*";  // parse_pdn's "no result token"
  return {std::move(tags), State{registry::AnyGame(start)}, std::move(described),
          std::move(result)};
}

// PDN when a `[GameType]` tag names English draughts (21, possibly followed
// by PDN's ",colour,size..." fields); none when there is no such tag.
std::optional<bool> game_type_is_checkers(std::string_view text) {
  const auto at = text.find("[GameType");
  if (at == std::string_view::npos) return std::nullopt;
  const auto q1 = text.find('"', at);
  const auto q2 = q1 == std::string_view::npos ? q1 : text.find('"', q1 + 1);
  if (q2 == std::string_view::npos) return false;
  const std::string_view value = text.substr(q1 + 1, q2 - q1 - 1);
  return value == "21" || value.rfind("21,", 0) == 0;
}

std::vector<RawRecord> read_pdn(std::string_view text, const ck::State& like) {
  auto games = ck::parse_pdn_games(text, like.draw_limit_plies());
  if (!games) throw_bad_input(games.error());
  std::vector<RawRecord> out;
  for (auto& g : *games) out.push_back(raw_record(std::move(g.tags), g.start, g.moves, g.result));
  return out;
}

template <class Rules>
RawRecord pgn_record_of(mc::PgnGame<Rules>& g, const mc::State<Rules>* like = nullptr) {
  mc::State<Rules> start = g.start;
  if constexpr (!Rules::kTurnCapKey.empty()) {
    if (like != nullptr) start = start.with_max_turns(like->max_turns());
  }
  return raw_record(std::move(g.tags), start, g.moves, std::move(g.result));
}

// The games of `text` under `like`'s rule set and draw limit.
template <class Rules>
std::vector<RawRecord> read_pgn_as(std::string_view text, const mc::State<Rules>& like) {
  auto games = mc::parse_pgn_as<Rules>(text, like.draw_limit_plies() / Rules::kPliesPerLimitUnit);
  if (!games) throw_bad_input(games.error());
  std::vector<RawRecord> out;
  for (auto& one : *games) out.push_back(pgn_record_of(one, &like));
  return out;
}

// Every game of `text`. With `game`, as that game (PGN or PDN as it records,
// its draw limit); without, PDN when a [GameType "21"] says so, else PGN
// with each game's rule set from its [Variant] (gardner without one).
std::vector<RawRecord> read_records(const std::string& text, const py::object& game) {
  if (game.is_none()) {
    if (const auto checkers = game_type_is_checkers(text)) {
      if (!*checkers) {
        throw_bad_input("PDN: [GameType] is not 21 (English draughts), the only one Duel reads");
      }
      return read_pdn(text, ck::State());
    }
    auto games = mc::parse_pgn(text);
    if (!games) throw_bad_input(games.error());
    std::vector<RawRecord> out;
    for (auto& any : *games) {
      out.push_back(std::visit([](auto& g) { return pgn_record_of(g); }, any));
    }
    return out;
  }
  const Game g =
      py::isinstance<py::str>(game) ? load_game(game.cast<std::string>()) : game.cast<Game>();
  return std::visit(
      [&](const auto& like) -> std::vector<RawRecord> {
        using S = std::decay_t<decltype(like)>;
        if constexpr (S::kRecordFormat == games::RecordFormat::pdn) {
          return read_pdn(text, like);
        } else if constexpr (S::kRecordFormat == games::RecordFormat::pgn) {
          return read_pgn_as(text, like);
        } else {
          throw_bad_input(fmt::format(
              "read: {} has no record format (PGN: the 5x5 chess games; PDN: checkers)", S::kName));
        }
      },
      g.start);
}

[[nodiscard]] bool known_result(std::string_view r, games::RecordFormat f) {
  if (r == "1-0" || r == "0-1" || r == "1/2-1/2" || r == "*") return true;
  // PDN's other results (match points), which parse_pdn reads too.
  return f == games::RecordFormat::pdn && (r == "2-0" || r == "0-2" || r == "1-1");
}

// The record's text as the C++ writer makes it: `moves` (any form result()
// reads) played from `start`.
// `result` by default from the end's utility (Player 1 first), "*" before
// the end.
std::string write_record(const State& start, const std::vector<py::object>& moves,
                         const std::optional<std::string>& given, const Tags& tags) {
  return std::visit(
      [&](const auto& s) -> std::string {
        using S = std::decay_t<decltype(s)>;
        if constexpr (S::kRecordFormat == games::RecordFormat::none) {
          throw_bad_input(fmt::format(
              "write(): {} has no record format (PGN: the 5x5 chess games; PDN: checkers)",
              S::kName));
        } else {
          if (given && !known_result(*given, S::kRecordFormat)) {
            throw_bad_input(
                fmt::format("write(): result='{}' is not 1-0, 0-1, 1/2-1/2 or *", *given));
          }
          std::vector<typename S::Move> played;
          std::vector<std::string> texts;
          S at = s;
          for (std::size_t i = 0; i < moves.size(); ++i) {
            auto m = read_python_move(at, moves[i], "write()");
            if (!m) throw_bad_input(fmt::format("write(): move {}: {}", i + 1, m.error()));
            played.push_back(*m);
            texts.push_back(at.move_text(*m));
            at = at.result(*m);
          }
          std::string result = given ? *given : "*";
          if (!given && at.is_terminal()) result = play::result_token<S>(at.utility());
          if constexpr (S::kRecordFormat == games::RecordFormat::pgn) {
            return mc::pgn_text(s, played, result, tags);
          } else {
            return ck::pdn_text(s, texts, result, tags);
          }
        }
      },
      start.state);
}

}  // namespace

void bind_records(py::module_& m) {
  m.def("_read_records", &read_records, py::arg("text"), py::arg("game") = py::none(),
        "duel.pgn's reader: every game of a PGN or PDN text as (tags, start, moves,\n"
        "result). Use duel.pgn.read_games.");
  m.def("_write_record", &write_record, py::arg("start"), py::arg("moves"), py::arg("result"),
        py::arg("tags"), "duel.pgn's writer. Use duel.pgn.write.");
}

}  // namespace duel::python
