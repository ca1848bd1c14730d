// Seed 003's file protocol (RULES.md §5): input.txt read leniently where the
// seed's own examples are loose and strictly where a board could be wrong;
// output.txt read as the course's referee read it (RULES.md §6a), or with
// --strict to the hand-out's letter; either way only a legal move step for
// step.
#include <gtest/gtest.h>

#include <string>

#include "duel/games/checkers/protocol.hpp"

namespace duel::games::checkers::protocol {
namespace {

const std::string kStartBoard =
    ".b.b.b.b\nb.b.b.b.\n.b.b.b.b\n........\n........\nw.w.w.w.\n.w.w.w.w\nw.w.w.w.\n";

// Black (moving down) on d6 must jump c5 and then c3: d6-b4-d2.
const std::string kDoubleJump =
    "........\n........\n...b....\n..w.....\n........\n..w.....\n........\n........\n";

std::string input(std::string_view head) {
  return std::string(head) + kStartBoard;
}

TEST(Protocol, ReadsTheSeedsInput) {
  const auto in = parse_input(input("SINGLE\nBLACK\n100.0\n"));
  ASSERT_TRUE(in.ok()) << in.error();
  EXPECT_EQ(in->mode, Mode::Single);
  EXPECT_DOUBLE_EQ(in->seconds, 100.0);
  EXPECT_EQ(in->state.board_lines(), State().board_lines());
  EXPECT_EQ(in->state.to_move(), Player::First);

  const auto game = parse_input(input("GAME\nWHITE\n0.01\n"));
  ASSERT_TRUE(game.ok()) << game.error();
  EXPECT_EQ(game->mode, Mode::Game);
  EXPECT_EQ(game->state.to_move(), Player::Second);
  EXPECT_DOUBLE_EQ(game->seconds, 0.01);
}

TEST(Protocol, ToleratesBlankLinesCrlfAndCase) {
  // The seed's own examples put blank lines between the header lines.
  std::string text = "single\r\n\r\nBlack\r\n\r\n 23.33 \r\n";
  for (const char c : kStartBoard) text += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const auto in = parse_input(text);
  ASSERT_TRUE(in.ok()) << in.error();
  EXPECT_DOUBLE_EQ(in->seconds, 23.33);
}

TEST(Protocol, RejectsMalformedInputWithOneLine) {
  const std::string three_rows = ".b.b.b.b\nb.b.b.b.\n.b.b.b.b\n";
  const struct {
    std::string text;
    std::string says;
  } cases[] = {
      {"", "expected SINGLE or GAME"},
      {input("PLAY\nBLACK\n1\n"), "not SINGLE or GAME"},
      {input("GAME\nRED\n1\n"), "not BLACK or WHITE"},
      {input("GAME\nBLACK\n0\n"), "not a number of seconds > 0"},
      {input("GAME\nBLACK\n-3\n"), "not a number of seconds > 0"},
      {input("GAME\nBLACK\nnan\n"), "not a number of seconds > 0"},
      {input("GAME\nBLACK\ninf\n"), "not a number of seconds > 0"},
      {input("GAME\nBLACK\n1.5s\n"), "not a number of seconds > 0"},
      {"GAME\nBLACK\n1\n" + three_rows, "expected 8 board lines after the time, found 3"},
      {input("GAME\nBLACK\n1\n") + "........\n", "expected 8 board lines after the time, found 9"},
      {"GAME\nBLACK\n1\n.b.b.b.bb\n" + kStartBoard.substr(9), "board line 1 is '.b.b.b.bb'"},
      {"GAME\nBLACK\n1\n.b.b.b.x\n" + kStartBoard.substr(9), "not 8 characters of .bBwW"},
      {"GAME\nBLACK\n1\nb.......\n" + kStartBoard.substr(9), "light square a8"},
      {"GAME\nBLACK\n1\n.b.b.b.b\nb.b.b.b.\n.b.b.b.b\nb.b.....\n" + kStartBoard.substr(36),
       "Black has more than 12 pieces"},
      {"GAME\nBLACK\n1\n.w......\n" + kStartBoard.substr(9), "would have been crowned"},
  };
  for (const auto& c : cases) {
    const auto in = parse_input(c.text);
    ASSERT_FALSE(in.ok()) << c.text;
    EXPECT_NE(in.error().find(c.says), std::string::npos) << in.error();
    EXPECT_EQ(in.error().find('\n'), std::string::npos) << in.error();
    EXPECT_EQ(in.error().rfind("input.txt: ", 0), 0U) << in.error();
  }
}

TEST(Protocol, InputTextRoundTrips) {
  const auto s = State::parse("W:WK5,18,26:B1,K14");
  ASSERT_TRUE(s.ok()) << s.error();
  const auto in = parse_input(input_text(Mode::Game, 12.5, *s));
  ASSERT_TRUE(in.ok()) << in.error();
  EXPECT_EQ(in->mode, Mode::Game);
  EXPECT_DOUBLE_EQ(in->seconds, 12.5);
  EXPECT_EQ(in->state.board_lines(), s->board_lines());
  EXPECT_EQ(in->state.to_move(), Player::Second);
  // RULES.md §6a's logs: the course wrote `300`, `285.37`, `299.986050844193`.
  EXPECT_EQ(input_text(Mode::Single, 1, State()), "SINGLE\nBLACK\n1\n" + kStartBoard);
  EXPECT_EQ(input_text(Mode::Game, 300, State()), "GAME\nBLACK\n300\n" + kStartBoard);
  EXPECT_EQ(input_text(Mode::Game, 285.37, State()), "GAME\nBLACK\n285.37\n" + kStartBoard);
  EXPECT_EQ(input_text(Mode::Game, 293.84, State()), "GAME\nBLACK\n293.84\n" + kStartBoard);
  // A sliver of time is still a time > 0, never "0.000".
  const auto sliver = parse_input(input_text(Mode::Game, 0.0004, State()));
  ASSERT_TRUE(sliver.ok()) << sliver.error();
  EXPECT_DOUBLE_EQ(sliver->seconds, 0.0004);
}

TEST(Protocol, ReadsLegalOutput) {
  const State start;
  const auto step = parse_output(start, "E d6 e5\n");
  ASSERT_TRUE(step.ok()) << step.error();
  EXPECT_EQ(start.seed_text(*step), "E d6 e5");
  EXPECT_EQ(output_text(start, *step), "E d6 e5\n");
  EXPECT_TRUE(parse_output(start, "E d6 e5").ok());  // the last line may lack its newline
  EXPECT_TRUE(parse_output(start, "  e D6 E5 \r\n\r\n").ok());

  const auto board = parse_input("SINGLE\nBLACK\n1\n" + kDoubleJump);
  ASSERT_TRUE(board.ok()) << board.error();
  const auto jump = parse_output(board->state, "J d6 b4\nJ b4 d2\n");
  ASSERT_TRUE(jump.ok()) << jump.error();
  EXPECT_EQ(output_text(board->state, *jump), "J d6 b4\nJ b4 d2\n");
}

// Seed 003: "E c3 d4" for a move and one "J c3 e5" line per jump. Strict
// reads it to the letter; every form it refuses here the course accepted
// (RULES.md §6a), so Course reads them all.
TEST(Protocol, StrictReadsToTheHandoutsLetter) {
  const State start;
  const struct {
    std::string text;
    std::string says;
  } cases[] = {
      {"e d6 e5\n", "line 1 'e d6 e5': the hand-out's format"},
      {"E D6 E5\n", "line 1 'E D6 E5': the hand-out's format"},
      {"E d6 e5\r\n", "line 1 'E d6 e5\\x0d' ends in a carriage return (CRLF)"},
      {"\nE d6 e5\n", "line 1 is blank"},
      {"E d6 e5\n\n", "line 2 is blank"},
      {" E d6 e5\n", "the hand-out's format"},
      {"E  d6 e5\n", "the hand-out's format"},
      {"E d6 e5 \n", "the hand-out's format"},
      {"E\td6\te5\n", "the hand-out's format"},
  };
  for (const auto& c : cases) {
    const auto strict = parse_output(start, c.text, Reading::Strict);
    ASSERT_FALSE(strict.ok()) << c.text;
    EXPECT_NE(strict.error().find(c.says), std::string::npos) << c.text << " -> " << strict.error();
    EXPECT_EQ(strict.error().find('\n'), std::string::npos) << strict.error();
    EXPECT_TRUE(format_error(c.text, Reading::Strict).has_value()) << c.text;
    EXPECT_TRUE(parse_output(start, c.text, Reading::Course).ok()) << c.text;
    EXPECT_FALSE(format_error(c.text, Reading::Course).has_value()) << c.text;
  }
  EXPECT_FALSE(format_error("E d6 e5\n", Reading::Strict).has_value());
  EXPECT_FALSE(format_error("J d6 b4\nJ b4 d2\n", Reading::Strict).has_value());
}

TEST(Protocol, RejectsBadOutput) {
  const State start;
  const auto board = parse_input("SINGLE\nBLACK\n1\n" + kDoubleJump);
  ASSERT_TRUE(board.ok()) << board.error();
  const struct {
    const State& state;
    std::string text;
    std::string says;
  } cases[] = {
      {start, "", "holds no move"},
      {start, "\n \n", "holds no move"},
      {start, "hello world", "line 1 'hello world': 2 parts, not 3; the course reads"},
      {start, "E d6", "2 parts, not 3"},
      {start, "11-15", "1 part, not 3"},
      {start, "E d6 e5 f4", "4 parts, not 3"},
      {start, "E d6 e9", "'e9' is not a square a1 to h8"},
      {start, "E d6 c7", "occupied"},
      {start, "E c3 d4", "no piece of yours"},
      {start, "E d6 f4", "not a diagonal neighbour"},
      {board->state, "E d6 e5", "a capture is compulsory"},
      {board->state, "J d6 b4", "the jump must continue"},
      {board->state, "J d6 d2", "must list every jump"},
      {board->state, "J d6 b4\nJ b4 d2\nJ d2 f4", "not a legal jump"},
  };
  for (const auto& c : cases) {
    for (const auto reading : {Reading::Course, Reading::Strict}) {
      const auto m = parse_output(c.state, c.text, reading);
      ASSERT_FALSE(m.ok()) << c.text;
      EXPECT_EQ(m.error().find('\n'), std::string::npos) << m.error();
      if (reading == Reading::Course) {
        EXPECT_NE(m.error().find(c.says), std::string::npos) << c.text << " -> " << m.error();
      }
    }
  }
}

// RULES.md §6a: what the course's referee accepted (Input.readOutputFile,
// Step; 8 students wrote such output and all 80 of their single moves got
// the point) and what it refused, each on a board with one legal answer
// form: the start (E d6 e5 among others) and a double jump (J d6 b4, J b4 d2).
TEST(Protocol, CourseReadsAsTheCoursesReferee) {
  const State start;
  const auto board = parse_input("SINGLE\nBLACK\n1\n" + kDoubleJump);
  ASSERT_TRUE(board.ok()) << board.error();
  const struct {
    const State& state;
    std::string text;
    std::string move;  // the seed's text of the move read
  } accepted[] = {
      {start, "E d6 e5   \n", "E d6 e5"},       // trailing spaces
      {start, "E B6 C5\n", "E b6 c5"},          // upper-case squares
      {start, "e b6 c5\n", "E b6 c5"},          // lower-case kind
      {start, "E\td6\t\te5\n", "E d6 e5"},      // tabs
      {start, "E d6 e5\r\n", "E d6 e5"},        // CRLF
      {start, "E d6 e5\r", "E d6 e5"},          // CR alone ends a line
      {start, "\n\nE d6 e5\n\n\n", "E d6 e5"},  // blank lines
      {start, "  \t E d6 e5\n \n", "E d6 e5"},  // leading spaces, a spaces-only line
      {board->state, "j D6 B4\r\nJ\tb4  d2 \r\n", "J d6 b4\nJ b4 d2"},  // any form, per line
      {board->state, "J d6 b4\rJ b4 d2\r", "J d6 b4\nJ b4 d2"},         // old-Mac CR lines
      {board->state, "J d6 b4\n\n\nJ b4 d2\n", "J d6 b4\nJ b4 d2"},     // blank lines between
  };
  for (const auto& c : accepted) {
    const auto m = parse_output(c.state, c.text, Reading::Course);
    ASSERT_TRUE(m.ok()) << c.text << " -> " << m.error();
    EXPECT_EQ(c.state.seed_text(*m), c.move) << c.text;
    EXPECT_FALSE(format_error(c.text, Reading::Course).has_value()) << c.text;
    EXPECT_FALSE(parse_output(c.state, c.text, Reading::Strict).ok())
        << c.text;  // none is the letter
  }
  // Default: the course's reading (referee, exec agent, tournament).
  EXPECT_TRUE(parse_output(start, "E B6 C5\n").ok());

  const struct {
    const State& state;
    std::string text;
    std::string says;
    bool form;  // refused for its form (bad output), not as an illegal move
  } refused[] = {
      {start, "E d6\n", "line 1 'E d6': 2 parts, not 3", true},
      {start, "E d6 e5 x\n", "line 1 'E d6 e5 x': 4 parts, not 3", true},
      {start, "Ed6 e5\n", "2 parts, not 3", true},
      {start, "X d6 e5\n", "line 1 'X d6 e5': 'x' is neither E nor J", true},
      {start, "M d6 e5\n", "'m' is neither E nor J", true},
      {start, "E d6 e5\nE e5 f4\n", "line 2 'E e5 f4': a simple move (E) has only one step", true},
      {board->state, "J d6 b4\nE b4 d2\n", "line 2 'E b4 d2': a jump's steps are all J", true},
      {board->state, "E d6 b4\nJ b4 d2\n", "a simple move (E) has only one step", true},
      {board->state, "J d6 b4\n", "the jump must continue", false},  // cut short
      {board->state, "E d6 b4\n", "", false},                        // a jump written as E
      {start, "E d6 d5\n", "", false},                               // illegal
      {start, "E c3 d4\n", "no piece of yours", false},              // the other side's move
  };
  for (const auto& c : refused) {
    const auto m = parse_output(c.state, c.text, Reading::Course);
    ASSERT_FALSE(m.ok()) << c.text;
    EXPECT_NE(m.error().find(c.says), std::string::npos) << c.text << " -> " << m.error();
    EXPECT_EQ(m.error().find('\n'), std::string::npos) << m.error();
    EXPECT_EQ(format_error(c.text, Reading::Course).has_value(), c.form) << c.text;
    if (c.form) {  // the message says what the course accepts
      EXPECT_NE(m.error().find("the course reads one 'E c3 d4' line"), std::string::npos)
          << m.error();
    }
    EXPECT_FALSE(parse_output(c.state, c.text, Reading::Strict).ok()) << c.text;
  }
}

TEST(Protocol, ReadingNames) {
  EXPECT_EQ(reading_name(Reading::Course), "course");
  EXPECT_EQ(reading_name(Reading::Strict), "strict");
  EXPECT_EQ(reading_of("course"), Reading::Course);
  EXPECT_EQ(reading_of("strict"), Reading::Strict);
  EXPECT_FALSE(reading_of("lenient").has_value());
}

}  // namespace
}  // namespace duel::games::checkers::protocol
