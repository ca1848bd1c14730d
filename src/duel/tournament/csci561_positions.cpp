// Seed 003's single-move grading: "Your agent will play 10 single moves,
// each worth one point." The hand-out does not publish its ten boards, so
// these test what it says a correct agent must do, each citing the sentence
// (seed 003, RULES.md §5). Times are the hand-out's example times.
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "duel/core/spec.hpp"
#include "duel/core/text.hpp"
#include "duel/games/checkers/checkers.hpp"
#include "duel/tournament/tournament.hpp"

namespace duel::tournament {

const std::vector<SinglePosition>& default_singles() {
  static const std::vector<SinglePosition> kSet = {
      {"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", 30.0,
       "seed 003: \"Black opens the game\" (the start, 30.0 s: \"30.0 seconds for single moves\")"},
      {"W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15", 100.0,
       "seed 003 example: \"the start of the game, after black has made the first move\", "
       "100.0 s"},
      {"B:W18:B1,14", 30.0, "seed 003: \"If a jump is possible ... it is mandatory\" (14x23)"},
      {"B:W18,26:B14", 30.0,
       "seed 003: \"the blue piece cannot stop after making the jump\" (14x23x30 in full)"},
      {"B:W15,23:B1,K26", 100.0,
       "seed 003 example 1: \"black can only move backwards because the piece in d2 has been "
       "crowned\" (J d2 f4, J f4 d6)"},
      {"W:W5,22:B10,12", 6.6,
       "seed 003 example 2 (6.6 s): \"a white piece reaching the kings row ... crowned\""},
      {"W:W10,K29:B7,K26", 23.33,
       "RULES.md §5: \"A man that reaches the far row is crowned and the move ends there\" "
       "(23.33 s, seed 003 example 3)"},
      {"B:W18,19,26,27:B15", 30.0,
       "seed 003: \"it can either continue jumping right ... or choose to go left\" (two jump "
       "sequences)"},
      {"W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15", 0.01,
       "seed 003: \"your agent might be given only a very short amount of time (e.g., ... 0.01 "
       "seconds)\""},
      {"B:W9,13,14:B1,5", 30.0,
       "seed 003: \"All the opponent's pieces are blocked in some way\": one piece can move "
       "(1-6)"},
  };
  return kSet;
}

Result<std::vector<SinglePosition>> read_positions(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return fail(fmt::format("--positions: cannot read {}", file.string()));
  std::vector<SinglePosition> out;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::string_view text = trim(line);
    if (text.empty() || text.front() == '#') continue;
    SinglePosition p;
    if (const auto hash = text.find('#'); hash != std::string_view::npos) {
      p.source = std::string(trim(text.substr(hash + 1)));
      text = trim(text.substr(0, hash));
    }
    const auto space = text.find(' ');
    const auto seconds = parse_number(text.substr(0, space));
    if (space == std::string_view::npos || !seconds || !(*seconds > 0.0) || *seconds > 1e6) {
      return fail(
          fmt::format("--positions: line {}: expected SECONDS FEN, e.g. '30 B:W21,22:B1'", number));
    }
    p.seconds = *seconds;
    p.fen = std::string(trim(text.substr(space + 1)));
    if (auto s = games::checkers::State::parse(p.fen); !s) {
      return fail(fmt::format("--positions: line {}: {}", number, s.error()));
    } else if (s->is_terminal()) {
      return fail(fmt::format("--positions: line {}: the game is over there", number));
    }
    if (p.source.empty()) p.source = fmt::format("{} line {}", file.filename().string(), number);
    out.push_back(std::move(p));
  }
  if (out.empty()) return fail(fmt::format("--positions: {} holds no position", file.string()));
  return out;
}

}  // namespace duel::tournament
