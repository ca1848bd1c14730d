// Seed 003's input.txt / output.txt, read and written (see protocol.hpp).
#include "duel/games/checkers/protocol.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "duel/core/text.hpp"

namespace duel::games::checkers::protocol {
namespace {

[[nodiscard]] std::string upper(std::string_view s) {
  std::string out;
  for (const char c : s) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// The non-blank lines of `text`, trimmed (the seed's own examples wrap and
// space lines freely; CRLF files are common from Windows editors).
[[nodiscard]] std::vector<std::string_view> content_lines(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const auto end = text.find('\n');
    const std::string_view line = trim(text.substr(0, end));
    if (!line.empty()) out.push_back(line);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return out;
}

// Everything but spaces, lower case: two move texts compare equal when they
// name the same lines whatever the spacing.
[[nodiscard]] std::string squeezed(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if (std::isspace(static_cast<unsigned char>(c)) == 0) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

}  // namespace

Result<Input> parse_input(std::string_view text, int draw_limit) {
  const auto bad = [](std::string_view why) { return fail(fmt::format("input.txt: {}", why)); };
  const auto lines = content_lines(text);
  if (lines.size() < 3) {
    return bad("expected SINGLE or GAME, BLACK or WHITE, the seconds left, then 8 board lines");
  }
  Input in;
  const std::string mode = upper(lines[0]);
  if (mode == "SINGLE") {
    in.mode = Mode::Single;
  } else if (mode == "GAME") {
    in.mode = Mode::Game;
  } else {
    return bad(fmt::format("line 1 is '{}', not SINGLE or GAME", lines[0]));
  }
  const std::string colour = upper(lines[1]);
  if (colour != "BLACK" && colour != "WHITE") {
    return bad(fmt::format("line 2 is '{}', not BLACK or WHITE", lines[1]));
  }
  const std::string_view time = lines[2];
  double seconds = 0.0;
  const auto [end, ec] = std::from_chars(time.data(), time.data() + time.size(), seconds);
  if (ec != std::errc() || end != time.data() + time.size() || !std::isfinite(seconds) ||
      seconds <= 0.0) {
    return bad(fmt::format("line 3 is '{}', not a number of seconds > 0", time));
  }
  in.seconds = seconds;
  if (lines.size() != 11) {
    return bad(fmt::format("expected 8 board lines after the time, found {}", lines.size() - 3));
  }
  std::string board;
  for (std::size_t row = 0; row < 8; ++row) {
    const std::string_view line = lines[3 + row];
    if (line.size() != 8 || line.find_first_not_of(".bBwW") != std::string_view::npos) {
      return bad(fmt::format("board line {} is '{}', not 8 characters of .bBwW", row + 1, line));
    }
    board += std::string(line) + ' ';
  }
  board += colour;
  auto state = State::parse(board, draw_limit);
  if (!state) {
    // The parser quotes the whole position; the board is already in the
    // file, so keep only its reason.
    const std::string& e = state.error();
    const auto colon = e.rfind("': ");
    return bad(colon == std::string::npos ? e : e.substr(colon + 3));
  }
  in.state = *state;
  return in;
}

std::string input_text(Mode mode, double seconds, const State& state) {
  // Milliseconds as the seed's examples print them; a time too small for
  // that still reads as more than zero, since zero would be malformed.
  const std::string time =
      seconds >= 0.001 ? fmt::format("{:.3f}", seconds) : fmt::format("{:.3e}", seconds);
  std::string board = state.board_lines();
  if (!board.empty() && board.back() == '\n') board.pop_back();
  return fmt::format("{}\n{}\n{}\n{}\n", mode == Mode::Single ? "SINGLE" : "GAME",
                     state.to_move() == Player::First ? "BLACK" : "WHITE", time, board);
}

std::optional<std::string> format_error(std::string_view text) {
  constexpr std::string_view kForm =
      "the hand-out's format is 'E c3 d4' for a move and one 'J c3 e5' line per jump: capital E "
      "or J, lower-case squares a1 to h8, one space between";
  if (text.empty()) return "output.txt is empty";
  int number = 0;
  while (!text.empty()) {
    ++number;
    const auto end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (line.empty()) {
      return fmt::format("line {} is blank: output.txt holds one move a line and nothing else",
                         number);
    }
    // Shown cut short; fail() escapes its control characters.
    const std::string shown(line.substr(0, 40));
    if (line.back() == '\r') {
      return fmt::format("line {} '{}' ends in a carriage return (CRLF): lines end in a newline",
                         number, shown);
    }
    const auto square = [&](std::size_t i) {
      return line[i] >= 'a' && line[i] <= 'h' && line[i + 1] >= '1' && line[i + 1] <= '8';
    };
    if (line.size() != 7 || (line[0] != 'E' && line[0] != 'J') || line[1] != ' ' ||
        line[4] != ' ' || !square(2) || !square(5)) {
      return fmt::format("line {} '{}': {}", number, shown, kForm);
    }
  }
  return std::nullopt;
}

Result<Move> parse_output(const State& state, std::string_view text, Reading reading) {
  if (reading == Reading::Strict) {
    if (auto e = format_error(text)) return fail(fmt::format("output.txt {}", *e));
  }
  const auto lines = content_lines(text);
  if (lines.empty()) return fail("output.txt is empty");
  std::string joined;
  for (const auto line : lines) {
    const char kind = static_cast<char>(std::toupper(static_cast<unsigned char>(line[0])));
    if ((kind != 'E' && kind != 'J') || split(line).size() != 3) {
      return fail(fmt::format("output.txt line '{}' is not like 'E c3 d4' or 'J c3 e5'", line));
    }
    joined += std::string(line) + ' ';
  }
  auto move = state.parse_move(joined);
  if (!move) return fail(fmt::format("output.txt: {}", move.error()));
  // The seed wants every jump on its own line: a from-to short form of a
  // multi-jump, which parse_move accepts from people, is not a valid output.
  if (squeezed(state.seed_text(*move)) != squeezed(joined)) {
    std::string expected = state.seed_text(*move);
    for (char& c : expected) {
      if (c == '\n') c = ';';
    }
    return fail(fmt::format("output.txt: '{}' must list every jump as 'J from to' (expected {})",
                            trim(joined), expected));
  }
  return *move;
}

std::string output_text(const State& state, const Move& m) {
  return state.seed_text(m) + '\n';
}

}  // namespace duel::games::checkers::protocol
