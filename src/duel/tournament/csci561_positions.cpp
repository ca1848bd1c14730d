// The SINGLE positions of the CSCI-561 grading: the course's own ten (the
// default), Duel's own set that tests the hand-out's sentences, and files of
// positions (`--positions`, docs/tournament.md).
//
// Why the course's inputs are embedded as input.txt text: that is the form
// the course published them in (RULES.md §6a), so they are read by the same
// parser the programs' files are (protocol::parse_input) and a clean clone,
// which lacks courses/csci561/single-inputs.txt, grades the same ten moves.
#include <algorithm>
#include <array>
#include <cassert>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "duel/core/file.hpp"
#include "duel/core/spec.hpp"
#include "duel/core/text.hpp"
#include "duel/games/checkers/checkers.hpp"
#include "duel/games/checkers/protocol.hpp"
#include "duel/tournament/tournament.hpp"

namespace duel::tournament {
namespace {

// The ten input.txt files of the course's SINGLE moves, as the course's
// master agent wrote them (the same for every student), in its order.
constexpr std::array<std::string_view, 10> kCourseInputs = {
    // single move 1
    "SINGLE\n"
    "BLACK\n"
    "300\n"
    ".b.b.b.b\n"
    "b.b.b.b.\n"
    ".b.b.b.b\n"
    "........\n"
    "........\n"
    "w.w.w.w.\n"
    ".w.w.w.w\n"
    "w.w.w.w.\n",
    // single move 2
    "SINGLE\n"
    "BLACK\n"
    "300\n"
    "........\n"
    "........\n"
    "........\n"
    "......W.\n"
    ".....B..\n"
    "........\n"
    ".b.B....\n"
    "....B...\n",
    // single move 3
    "SINGLE\n"
    "BLACK\n"
    "300\n"
    ".....b.b\n"
    "........\n"
    ".....b.b\n"
    "b.......\n"
    "........\n"
    "b...b...\n"
    ".w.....b\n"
    "B.......\n",
    // single move 4
    "SINGLE\n"
    "WHITE\n"
    "300\n"
    ".b.b.b.b\n"
    "b.......\n"
    "...b...b\n"
    "........\n"
    ".w...w.w\n"
    "..w...w.\n"
    ".....b..\n"
    "..w.B...\n",
    // single move 5
    "SINGLE\n"
    "WHITE\n"
    "300\n"
    ".b.b.b..\n"
    "b.b.b...\n"
    ".b.b.b..\n"
    "........\n"
    "...w....\n"
    "w.w.....\n"
    ".w.w...w\n"
    "w.w...w.\n",
    // single move 6
    "SINGLE\n"
    "BLACK\n"
    "293.84\n"
    "........\n"
    "........\n"
    "...b.b..\n"
    "..b.....\n"
    ".......b\n"
    "w.......\n"
    ".w.....w\n"
    "..w.....\n",
    // single move 7
    "SINGLE\n"
    "WHITE\n"
    "292.24\n"
    "........\n"
    "....b.W.\n"
    "...b...b\n"
    "b.......\n"
    ".w......\n"
    "w.w.....\n"
    ".....B..\n"
    "........\n",
    // single move 8
    "SINGLE\n"
    "WHITE\n"
    "300\n"
    "........\n"
    "..b...W.\n"
    ".....b..\n"
    "w.......\n"
    ".....b.w\n"
    "w.B.....\n"
    ".....b..\n"
    "w.......\n",
    // single move 9
    "SINGLE\n"
    "BLACK\n"
    "300\n"
    "...b....\n"
    "w.b.b...\n"
    "...b...b\n"
    "w...b.b.\n"
    ".w...w..\n"
    "w.....w.\n"
    ".w.w.w..\n"
    "........\n",
    // single move 10
    "SINGLE\n"
    "WHITE\n"
    "300\n"
    "........\n"
    "......b.\n"
    "...W....\n"
    "....W...\n"
    "...w.b..\n"
    "........\n"
    "...B.b.B\n"
    "........\n",
};

constexpr std::string_view kCourseSource =
    "akkkkka/CSCI561_HW2_21Spr@5bb41ac:hw2-resubmit-result/single/log_single_mbiyani.txt";

}  // namespace

std::span<const std::string_view> course_single_inputs() {
  return kCourseInputs;
}

const std::vector<SinglePosition>& default_singles() {
  static const std::vector<SinglePosition> kSet = [] {
    std::vector<SinglePosition> out;
    for (std::size_t i = 0; i < kCourseInputs.size(); ++i) {
      const auto in = games::checkers::protocol::parse_input(kCourseInputs[i]);
      assert(in.ok());  // the embedded texts are tested against the course's file
      out.push_back({in->state.to_text(), in->seconds,
                     fmt::format("{}, single move {}", kCourseSource, i + 1)});
    }
    return out;
  }();
  return kSet;
}

// Duel's own set: the hand-out's sentences about single moves ("Your agent
// will play 10 single moves, each worth one point"), one a position, each
// citing its sentence (seed 003, RULES.md §5). Times are the hand-out's
// example times, none under 2 s: a correct program's interpreter or JVM
// start alone may cost more than the hand-out's 0.01 s example.
const std::vector<SinglePosition>& duel_singles() {
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
      {"W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15", 2.0,
       "seed 003: \"your agent might be given only a very short amount of time\" (2.0 s, "
       "the least of this set; the hand-out's example is 0.01 s)"},
      {"B:W9,13,14:B1,5", 30.0,
       "seed 003: \"All the opponent's pieces are blocked in some way\": one piece can move "
       "(1-6)"},
  };
  return kSet;
}

Result<std::vector<SinglePosition>> named_singles(std::string_view name) {
  if (name == "course") return default_singles();
  if (name == "duel") return duel_singles();
  return fail(fmt::format("--positions: no set named '{}' (course, duel, or a file)", name));
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

Result<std::string> positions_from_inputs(const std::vector<std::filesystem::path>& roots) {
  namespace fs = std::filesystem;
  // Step 1. Every input.txt under the roots (a root may be one), sorted.
  std::vector<fs::path> files;
  for (const auto& root : roots) {
    std::error_code ec;
    if (fs::is_regular_file(root, ec)) {
      files.push_back(root);
      continue;
    }
    if (!fs::is_directory(root, ec)) {
      return fail(fmt::format("positions: {} is neither a folder nor a file", root.string()));
    }
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->path().filename() == "input.txt" && it->is_regular_file(ec)) {
        files.push_back(it->path());
      }
    }
    if (ec) return fail(fmt::format("positions: cannot list {}: {}", root.string(), ec.message()));
  }
  if (files.empty()) return fail("positions: no input.txt found");
  std::ranges::sort(files);

  // Step 2. Each read as a program reads it; a line read_positions reads.
  std::string out;
  for (const auto& file : files) {
    const auto text = read_file(file);
    if (!text) return fail(fmt::format("positions: {}: cannot read it", file.string()));
    auto in = games::checkers::protocol::parse_input(*text);
    if (!in) return fail(fmt::format("positions: {}: {}", file.string(), in.error()));
    if (in->state.is_terminal()) {
      return fail(fmt::format("positions: {}: the game is over there", file.string()));
    }
    // {} is the shortest text that reads back as the same double (293.84).
    out += fmt::format("{} {} # {}\n", in->seconds, in->state.to_text(), file.string());
  }
  return out;
}

}  // namespace duel::tournament
