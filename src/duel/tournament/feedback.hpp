#pragma once
// What a teacher hands each student after a tournament: `feedback/NAME.txt`
// (and the same text in index.html), and `tasks.csv`, a row per single move
// and game of every entrant (docs/tournament.md, "The files in DIR").
//
// Why from the results document alone: the document is computed from the
// journal, and the journal is the truth, so a resumed run writes the same
// feedback byte for byte. Everything a student needs to see is in it: the
// position of each single move (as the input.txt it was given), what the
// program wrote in output.txt, the reason it lost the point, each game's
// moves (replayed here to show them in the course's notation beside the
// PDN numbers), and a failed compile's whole message.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace duel::tournament {

// The feedback of `student` (an entry of doc["students"]) as text.
[[nodiscard]] std::string feedback_text(const nlohmann::json& doc, const nlohmann::json& student);

// The file name of a student's feedback under DIR/feedback/: the name with
// '/' made '_' (a Duel agent's spec may hold one), then ".txt".
[[nodiscard]] std::string feedback_file(const std::string& name);

// tasks.csv: a header, then a row per single move and game of every
// entrant (RFC 4180 quoting).
[[nodiscard]] std::string tasks_csv(const nlohmann::json& doc);

// `text` in double quotes with every control character, backslash and
// quote escaped as C does (`\r`, `\t`, `\n`, `\x00`), so that what a
// program wrote can be read exactly.
[[nodiscard]] std::string quoted(const std::string& text);

// A move of a game in the course's notation (`E c3 d4`, a jump as `J g7 e5,
// J e5 c3`) with its PDN numbers beside (`(11x18)`), replayed from `start`
// ("" = the start of the game `game`); other games' moves as they are.
[[nodiscard]] std::vector<std::string> course_moves(const std::string& game,
                                                    const std::string& start,
                                                    const std::vector<std::string>& moves);

}  // namespace duel::tournament
