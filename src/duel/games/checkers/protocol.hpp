#pragma once
// Seed 003's agent file protocol (RULES.md §5): `input.txt` (mode, colour,
// seconds left, 8 board lines) and `output.txt` (`E from to`, or one
// `J from to` line per jump). One implementation for both sides: `duel
// homework` reads inputs and writes outputs, the referee writes inputs and
// reads outputs.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "duel/core/result.hpp"
#include "duel/games/checkers/checkers.hpp"

namespace duel::games::checkers::protocol {

enum class Mode : std::uint8_t { Single, Game };

struct Input {
  Mode mode = Mode::Single;
  double seconds = 0.0;  // play time left, > 0
  State state;           // the board with the side to play to move
};

// Reads `input.txt`. Lenient where the seed's own examples are (blank lines,
// spaces, CRLF, any case for SINGLE/GAME/BLACK/WHITE); strict about the board
// (8 rows of 8 of `.bBwW`, pieces on dark squares, at most 12 a side) and the
// time (a finite number > 0). Errors are one line saying what is wrong.
[[nodiscard]] Result<Input> parse_input(std::string_view text,
                                        int draw_limit = State::kLimitDefault);

// Writes `input.txt` for the side to move in `state`.
[[nodiscard]] std::string input_text(Mode mode, double seconds, const State& state);

// How `output.txt` is read.
// - Course, the default: as the course's referee read it (RULES.md §6a,
//   akkkkka/CSCI561_HW2_21Spr@5bb41ac:referenceAI_TA/src/main/Input.java and
//   Step.java): lines end at LF, CR or CRLF; blank lines are dropped; each
//   line is trimmed and lowercased and split on runs of whitespace into
//   exactly 3 parts: `e` or `j`, then two squares a1..h8. A simple move has
//   one step, the steps of a move are of one kind, and the move equals one
//   legal move step for step. So `E B6 C5`, tabs, trailing spaces, CRLF and
//   blank lines are all accepted, as they were in the course's grading.
// - Strict: the hand-out's format to the letter: capital `E` or `J`, a
//   space, two lower-case squares with one space between, one move a line
//   ending in a newline (the last may lack it), nothing else: no blank line,
//   no carriage return, no other spaces.
enum class Reading : std::uint8_t { Course, Strict };

// "course" or "strict" (the CLI's, the exec spec's and the journal's words).
[[nodiscard]] std::string_view reading_name(Reading r) noexcept;
[[nodiscard]] std::optional<Reading> reading_of(std::string_view name) noexcept;

// Where `text` leaves the form `reading` accepts, in words that quote the
// line and say what is accepted ("line 1 'e d6 e5': ..."), or none. A form
// that reads is not yet a legal move (parse_output checks that).
[[nodiscard]] std::optional<std::string> format_error(std::string_view text, Reading reading);

// Reads `output.txt`: lines in the form `reading` accepts, and only a
// complete legal move of `state`, step for step (a jump sequence cut short
// or a from-to short form of a multi-jump is rejected).
[[nodiscard]] Result<Move> parse_output(const State& state, std::string_view text,
                                        Reading reading = Reading::Course);

// The text of `output.txt` for `m` (ends with a newline).
[[nodiscard]] std::string output_text(const State& state, const Move& m);

}  // namespace duel::games::checkers::protocol
