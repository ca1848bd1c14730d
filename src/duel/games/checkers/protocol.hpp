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

// How `output.txt` is read. Strict, the default, is the hand-out's format
// to the letter, as the course's grader reads it: capital `E` or `J`, a
// space, two lower-case squares with one space between, one move a line
// ending in a newline (the last may lack it), nothing else: no blank line,
// no carriage return, no other spaces. Lenient (practice only) also takes
// any case, extra spaces, CRLF and blank lines.
enum class Reading : std::uint8_t { Strict, Lenient };

// Where `text` leaves the hand-out's format, in the hand-out's words
// ("line 1 'e d6 e5': ..."), or none.
[[nodiscard]] std::optional<std::string> format_error(std::string_view text);

// Reads `output.txt`: lines in the format `reading` asks for, and only a
// complete legal move of `state` (a jump sequence cut short is rejected).
[[nodiscard]] Result<Move> parse_output(const State& state, std::string_view text,
                                        Reading reading = Reading::Strict);

// The text of `output.txt` for `m` (ends with a newline).
[[nodiscard]] std::string output_text(const State& state, const Move& m);

}  // namespace duel::games::checkers::protocol
