// `exec:` agents: checkers programs run through seed 003's file protocol
// inside an arena game. A good program plays; a crashing, silent, lying or
// sleeping one loses its game with the reason, and nothing is left running.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "../support/cli_run.hpp"
#include "duel/agents/exec_agent.hpp"
#include "duel/arena/arena.hpp"
#include "duel/core/file.hpp"
#include "duel/games/checkers/protocol.hpp"
#include "duel/registry/agents.hpp"

namespace duel::agents {
namespace {

namespace fs = std::filesystem;
using games::checkers::State;

struct Scratch {
  fs::path dir;
  Scratch() {
    dir = fs::temp_directory_path() /
          ("duel-exec-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    fs::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  static int& counter() {
    static int n = 0;
    return n;
  }
  // An executable shell script; returns its path.
  [[nodiscard]] std::string script(const std::string& name, const std::string& body) const {
    const fs::path p = dir / name;
    std::ofstream(p) << "#!/bin/sh\n" << body;
    fs::permissions(p, fs::perms::owner_all);
    return p.string();
  }
};

play::MatchRecord<State> one_game(const std::string& a, const std::string& b, double timeout = 0) {
  auto x = registry::make_agent<State>(a).value();
  auto y = registry::make_agent<State>(b).value();
  return play::play_match<State>(State(), {x.get(), y.get()}, {timeout, 0, {}});
}

TEST(ExecAgent, SpecErrorsAreOneLine) {
  const auto err = [](const std::string& spec) {
    const auto r = registry::make_agent<State>(spec);
    EXPECT_FALSE(r.ok()) << spec;
    return r.ok() ? std::string() : r.error();
  };
  EXPECT_NE(err("exec:protocol=csci561").find("cmd="), std::string::npos);
  EXPECT_NE(err("exec:cmd=/no/such/agent").find("no program '/no/such/agent'"), std::string::npos);
  EXPECT_NE(err("exec:cmd=/bin/true,protocol=uci").find("protocol"), std::string::npos);
  EXPECT_NE(err("exec:cmd=/bin/true,time=0").find("time"), std::string::npos);
  EXPECT_NE(err("exec:cmd=/bin/true,colour=red").find("colour"), std::string::npos);
  // reading=course|strict (protocol.hpp); lenient=, its old name, still reads.
  EXPECT_NE(err("exec:cmd=/bin/true,reading=loose").find("reading"), std::string::npos);
  EXPECT_NE(err("exec:cmd=/bin/true,reading=strict,lenient=true").find("not lenient= too"),
            std::string::npos);
  for (const char* ok : {"reading=course", "reading=strict", "lenient=true", "lenient=false"}) {
    EXPECT_TRUE(registry::make_agent<State>(std::string("exec:cmd=/bin/true,") + ok).ok()) << ok;
  }
  // duel:SPEC, the referee's way to name Duel's agents, means SPEC here.
  EXPECT_EQ(registry::make_agent<State>("duel:first").value()->name(), "first");
  EXPECT_EQ(registry::make_agent<State>("duel:minimax:depth=2").value()->name(), "minimax");
  const auto chess = registry::make_agent<games::minichess::GardnerState>("exec:cmd=/bin/true");
  ASSERT_FALSE(chess.ok());
  EXPECT_NE(chess.error().find("checkers only"), std::string::npos);
}

TEST(ExecAgent, AProgramThatPlaysTheFirstMoveItIsGiven) {
  // A protocol agent in shell: it answers Black's opening move `E f6 e5`
  // (seed 003's squares; 11-15 in PDN's numbers, which the record uses) and
  // crashes on its next run, so the game shows both a legal external move
  // and a loss by crash.
  Scratch s;
  const std::string agent = s.script("agent.sh",
                                     "if [ -f played ]; then exit 3; fi\n"
                                     "touch played\n"
                                     "echo 'E f6 e5' > output.txt\n");
  const auto record = one_game("exec:cmd=" + agent + ",time=5", "first");
  ASSERT_GE(record.moves.size(), 2u) << record.reason;
  EXPECT_EQ(record.moves[0].text, "11-15");
  EXPECT_EQ(record.ending, play::Ending::Abandoned);
  EXPECT_EQ(record.payoff, -1);  // the program was Player 1 (Black) and crashed
  EXPECT_NE(record.reason.find("crash: exit status 3"), std::string::npos) << record.reason;
}

// A submission folder as it arrives: `dir=` copies it into the program's
// home, so a command naming its files relatively runs (seed 003 runs
// `python3 homework.py` in the student's folder). The copy is the agent's:
// the folder itself is left as it was.
TEST(ExecAgent, RunsInACopyOfItsSubmissionFolder) {
  Scratch s;
  const fs::path folder = s.dir / "student";
  fs::create_directories(folder / "lib");
  std::ofstream(folder / "lib" / "move.txt") << "E f6 e5\n";
  std::ofstream(folder / "homework.sh") << "cat lib/move.txt > output.txt\ntouch ran\n";
  const auto record = one_game("exec:cmd=sh homework.sh,time=5,dir=" + folder.string(), "first");
  ASSERT_GE(record.moves.size(), 1U) << record.reason;
  EXPECT_EQ(record.moves[0].text, "11-15");
  EXPECT_FALSE(fs::exists(folder / "ran"));
  EXPECT_FALSE(fs::exists(folder / "output.txt"));
  const auto bad = registry::make_agent<State>("exec:cmd=sh homework.sh,dir=/no/such/folder");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("is not a folder"), std::string::npos) << bad.error();
}

// Seed 003: "In case of a draw, the agent with more remaining play time
// wins", in the arena as in the referee. Black's king makes the 50th ply
// without a capture (a draw by the rules) after burning CPU; White, who
// never moved, has more time left.
TEST(ExecAgent, ADrawGoesToTheProgramWithMoreTimeLeft) {
  Scratch s;
  const std::string black =
      s.script("black.sh",
               "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; echo 'E b8 a7' > output.txt\n");
  const std::string white = s.script("white.sh", "exit 3\n");
  auto x = registry::make_agent<State>("exec:cmd=" + black + ",time=5").value();
  auto y = registry::make_agent<State>("exec:cmd=" + white + ",time=5").value();
  const auto start = State::parse("B:WK32:BK1 49").value();
  play::MatchOptions options;
  options.tie_to_more_time = true;
  const auto record = play::play_match<State>(start, {x.get(), y.get()}, options);
  ASSERT_EQ(record.moves.size(), 1U) << record.reason;
  EXPECT_EQ(record.ending, play::Ending::Rules);
  EXPECT_EQ(record.payoff, -1) << record.reason;
  EXPECT_NE(record.reason.find("White wins: 50 plies without a capture or crowning, with more "
                               "time left (5.000 s to "),
            std::string::npos)
      << record.reason;
  // Without the course's rule (Duel's own agents keep no game clock) it is a draw.
  options.tie_to_more_time = false;
  x = registry::make_agent<State>("exec:cmd=" + black + ",time=5").value();
  EXPECT_EQ(play::play_match<State>(start, {x.get(), y.get()}, options).payoff, 0);
}

TEST(ExecAgent, HostileProgramsLoseTheirGameWithTheReason) {
  Scratch s;
  const std::string pidfile = (s.dir / "pid").string();
  struct Case {
    std::string body;
    std::string reason;
  };
  const std::vector<Case> cases = {
      {"exit 1\n", "crash"},
      // Its last words on stderr come with the reason (a relative path that
      // is not there in its own directory, the usual mistake).
      {"echo 'first line' >&2\necho 'Cannot find module agent.mjs' >&2\nexit 1\n",
       "crash: exit status 1 (stderr: Cannot find module agent.mjs)"},
      {"true\n", "no-output"},
      {"echo 'X 1 2' > output.txt\n", "bad-output"},
      {"echo 'E b2 c3' > output.txt\n", "illegal-move"},
      // Sleeps far past its time: killed at the wall limit; a busy loop: CPU.
      {"echo $$ > " + pidfile + "\nsleep 100\n", "killed"},
      {"echo $$ > " + pidfile + "\nwhile :; do :; done\n", "time"},
  };
  for (const auto& c : cases) {
    const std::string agent = s.script("hostile.sh", c.body);
    const auto start = std::chrono::steady_clock::now();
    const auto record = one_game("random", "exec:cmd=" + agent + ",time=0.3");
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(record.ending, play::Ending::Abandoned) << c.body;
    EXPECT_EQ(record.payoff, 1) << c.body;  // Player 2 lost
    EXPECT_NE(record.reason.find(c.reason), std::string::npos) << c.body << record.reason;
    EXPECT_LT(took, 5.0) << c.body;  // 0.3 s CPU, wall limit 2 x 0.3 + 1 s
    if (const auto pid = read_file(pidfile)) {
      EXPECT_NE(::kill(std::stoi(*pid), 0), 0) << "left running: " << c.body;
      fs::remove(pidfile);
    }
  }
}

TEST(ExecAgent, TheGameClockRunsDownOverMoves) {
  // A program that burns ~0.05 s a move before answering, and a clock for
  // the whole game of 3.5 times what one move costs it here (at least
  // 0.2 s): it plays some moves, runs out and loses on time. The cost is
  // measured first because the machine sets it: a sanitizer build's start
  // alone took 0.36 s of CPU on one test machine and far less on another.
  Scratch s;
  const std::string agent =
      s.script("slow.sh",
               "end=$(( $(date +%s%N) + 50000000 )); while [ $(date +%s%N) -lt $end ]; do :; done\n"
               "exec " DUEL_BIN " homework --agent first\n");
  const std::string in =
      games::checkers::protocol::input_text(games::checkers::protocol::Mode::Game, 100, State());
  const auto one_move = test_support::run_program({agent}, "", {{"input.txt", in}});
  ASSERT_EQ(one_move.status, 0) << one_move.err;
  const double clock = std::max(0.2, 3.5 * one_move.cpu_seconds);
  // Unboxed: the program runs Duel from the build tree, which a box does not show.
  const auto record =
      one_game("exec:cmd=" + agent + ",sandbox=off,time=" + std::to_string(clock), "random");
  EXPECT_EQ(record.ending, play::Ending::Abandoned) << record.reason;
  EXPECT_NE(record.reason.find("time"), std::string::npos) << record.reason;
  EXPECT_GE(record.moves.size(), 2u) << "it played some moves first; a move cost "
                                     << one_move.cpu_seconds << " s, the clock " << clock;
}

}  // namespace
}  // namespace duel::agents

namespace {
using duel::test_support::duel;

TEST(ExecAgentCli, DuelHomeworkInATournamentOnTwoThreads) {
  // `duel:SPEC` runs this binary's homework: a full checkers game through the
  // files, twice with colours swapped, two games at once.
  const auto r = duel(
      "arena checkers --agent exec:cmd=duel:alphabeta:depth=2,time=60 --agent random "
      "--games 4 --concurrency 2 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["games"], 4);
  EXPECT_GE(j["wins"].get<int>(), 3) << r.out;  // depth 2 against random
}

}  // namespace
