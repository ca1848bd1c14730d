// Seed 003's input.txt / output.txt, read and written (see protocol.hpp).
#include "duel/games/checkers/protocol.hpp"

#include <algorithm>
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

[[nodiscard]] std::string lower(std::string_view s) {
  std::string out;
  for (const char c : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
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

// What the course's referee accepts, said in every message about a line.
constexpr std::string_view kCourseForm =
    "the course reads one 'E c3 d4' line for a move, or one 'J c3 e5' line per jump (any case, "
    "any spacing, blank lines skipped)";

// The hand-out's letter (Reading::Strict): words to follow "output.txt ".
[[nodiscard]] std::optional<std::string> strict_error(std::string_view text) {
  constexpr std::string_view kForm =
      "the hand-out's format is 'E c3 d4' for a move and one 'J c3 e5' line per jump: capital E "
      "or J, lower-case squares a1 to h8, one space between";
  if (text.empty()) return "is empty";
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

// Java's String.isBlank and trim, as the course's referee used them: blank
// is all whitespace (Character.isWhitespace); trim drops every character up
// to ' ' from both ends.
[[nodiscard]] bool java_blank(std::string_view s) noexcept {
  return std::ranges::all_of(s, [](char c) {
    return std::isspace(static_cast<unsigned char>(c)) != 0 || (c >= 0x1c && c <= 0x1f);
  });
}
[[nodiscard]] std::string_view java_trim(std::string_view s) noexcept {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
  return s;
}

struct CourseSteps {
  std::string steps;                 // the seed's text: `E c3 d4`, or `J a b` lines joined by '\n'
  std::optional<std::string> error;  // words to follow "output.txt "
};

// output.txt as the course's referee read it (RULES.md §6a; the course's
// Input.readOutputFile and Step): lines split at LF, CR or CRLF (Java's
// Files.lines), blank ones dropped, each trimmed and lowercased and split on
// runs of whitespace into `e|j from to`; one E step, or J steps only.
[[nodiscard]] CourseSteps course_steps(std::string_view text) {
  CourseSteps out;
  char first_kind = 0;
  int number = 0;
  while (!text.empty()) {
    // Step 1. The next line and its number in the file, blank ones skipped.
    ++number;
    const auto end = text.find_first_of("\r\n");
    const std::string_view raw = text.substr(0, end);
    std::size_t skip = end == std::string_view::npos ? text.size() : end + 1;
    if (end != std::string_view::npos && text[end] == '\r' && end + 1 < text.size() &&
        text[end + 1] == '\n') {
      ++skip;
    }
    text.remove_prefix(skip);
    if (java_blank(raw)) continue;

    // Step 2. Its three parts: the kind and two squares.
    const std::string_view line = java_trim(raw);
    const std::string shown(line.substr(0, 40));
    const std::string low = lower(line);
    const auto parts = split(low);
    const auto bad = [&](std::string_view why) {
      out.error = fmt::format("line {} '{}': {}; {}", number, shown, why, kCourseForm);
      return out;
    };
    if (parts.size() != 3) {
      return bad(fmt::format("{} part{}, not 3", parts.size(), parts.size() == 1 ? "" : "s"));
    }
    if (parts[0] != "e" && parts[0] != "j") {
      return bad(fmt::format("'{}' is neither E nor J", parts[0]));
    }
    for (const auto square : {parts[1], parts[2]}) {
      if (square.size() != 2 || square[0] < 'a' || square[0] > 'h' || square[1] < '1' ||
          square[1] > '8') {
        return bad(fmt::format("'{}' is not a square a1 to h8", square));
      }
    }

    // Step 3. One kind a move; a simple move has one step.
    const char kind = parts[0][0];
    if (first_kind == 'e') return bad("a simple move (E) has only one step");
    if (first_kind != 0 && kind != first_kind)
      return bad("a jump's steps are all J (E is a move of one step)");
    first_kind = kind;
    if (!out.steps.empty()) out.steps += '\n';
    out.steps += fmt::format("{} {} {}", kind == 'e' ? 'E' : 'J', parts[1], parts[2]);
  }
  if (first_kind == 0) out.error = fmt::format("holds no move (empty or blank): {}", kCourseForm);
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
  // As the course's referee wrote it (RULES.md §6a's logs: `300`, `285.37`,
  // `299.986050844193`): no trailing zeros, so `int(line)` of a whole
  // number works as it did there; to the microsecond. A time too small for
  // that still reads as more than zero, since zero would be malformed.
  std::string time;
  if (seconds >= 1e-6) {
    time = fmt::format("{:.6f}", seconds);
    while (time.back() == '0') time.pop_back();
    if (time.back() == '.') time.pop_back();
  } else {
    time = fmt::format("{:.3e}", seconds);
  }
  std::string board = state.board_lines();
  if (!board.empty() && board.back() == '\n') board.pop_back();
  return fmt::format("{}\n{}\n{}\n{}\n", mode == Mode::Single ? "SINGLE" : "GAME",
                     state.to_move() == Player::First ? "BLACK" : "WHITE", time, board);
}

std::string_view reading_name(Reading r) noexcept {
  return r == Reading::Strict ? "strict" : "course";
}

std::optional<Reading> reading_of(std::string_view name) noexcept {
  if (name == "course") return Reading::Course;
  if (name == "strict") return Reading::Strict;
  return std::nullopt;
}

std::optional<std::string> format_error(std::string_view text, Reading reading) {
  if (reading == Reading::Strict) {
    if (auto e = strict_error(text)) return e;
  }
  return course_steps(text).error;
}

Result<Move> parse_output(const State& state, std::string_view text, Reading reading) {
  // Step 1. The form `reading` accepts, then the steps as the course read them.
  if (auto e = format_error(text, reading)) return fail(fmt::format("output.txt {}", *e));
  const std::string steps = course_steps(text).steps;

  // Step 2. One legal move equal to them step for step (RULES.md §6a).
  Moves moves;
  state.actions(moves);
  for (const auto& m : moves) {
    if (state.seed_text(m) == steps) return m;
  }

  // Step 3. None: why, in the rules' words. parse_move also takes a
  // multi-jump's from-to short form, which is not a valid output.
  auto move = state.parse_move(steps);
  if (!move) return fail(fmt::format("output.txt: {}", move.error()));
  std::string expected = state.seed_text(*move);
  std::ranges::replace(expected, '\n', ';');
  std::string given = steps;
  std::ranges::replace(given, '\n', ';');
  return fail(fmt::format("output.txt: '{}' must list every jump as 'J from to' (expected {})",
                          given, expected));
}

std::string output_text(const State& state, const Move& m) {
  return state.seed_text(m) + '\n';
}

}  // namespace duel::games::checkers::protocol
