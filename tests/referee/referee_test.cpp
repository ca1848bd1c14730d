// The checkers referee (seed 003's master game playing agent) against
// hostile agent programs: each loses with the right reason, the referee
// finishes, and nothing the agent started is left running. Then a whole
// match between two legal scripted agents, checked move by move.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../support/cli_run.hpp"
#include "duel/core/clock.hpp"
#include "duel/games/checkers/checkers.hpp"
#include "duel/games/checkers/pdn.hpp"
#include "duel/referee/process.hpp"
#include "duel/referee/referee.hpp"
#include "duel/referee/spawn.hpp"

namespace {

namespace fs = std::filesystem;
using duel::games::checkers::State;
using duel::test_support::CliRun;
using duel::test_support::duel;
using duel::test_support::slurp;

// A scratch directory for the agents' scripts, removed at the end.
class Scratch {
 public:
  Scratch() {
    static int counter = 0;
    m_dir = fs::temp_directory_path() /
            ("duel-referee-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(m_dir);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(m_dir, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  [[nodiscard]] const fs::path& dir() const { return m_dir; }
  // Writes an executable shell script and returns its absolute path.
  [[nodiscard]] std::string script(const std::string& name, const std::string& body) const {
    const fs::path p = m_dir / name;
    std::ofstream(p) << "#!/bin/sh\n" << body << '\n';
    fs::permissions(p, fs::perms::owner_all);
    return p.string();
  }

 private:
  fs::path m_dir;
};

[[nodiscard]] bool process_gone(int pid) {
  return pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH;
}

[[nodiscard]] int read_pid(const fs::path& p) {
  try {
    return std::stoi(slurp(p));
  } catch (...) {
    return -1;
  }
}

// A legal agent without any search: plays the moves of a game worked out
// here, one file per move and colour, counting its moves in playdata.txt
// (so it also checks that the referee deletes playdata.txt between games).
struct ScriptedGame {
  std::string command;
  std::vector<std::string> moves;  // standard notation, as the referee reports them
};

[[nodiscard]] ScriptedGame scripted_agent(const Scratch& s, const State& start) {
  ScriptedGame g;
  State state = start;
  int counts[2] = {0, 0};
  for (int ply = 0; !state.is_terminal(); ++ply) {
    State::Moves moves;
    state.actions(moves);
    const auto& m = moves[static_cast<std::size_t>(ply * 7) % moves.size()];
    const bool black = state.to_move() == duel::Player::First;
    const fs::path dir = s.dir() / "moves" / (black ? "BLACK" : "WHITE");
    fs::create_directories(dir);
    std::ofstream(dir / (std::to_string(counts[black ? 0 : 1]++) + ".txt"))
        << state.seed_text(m) << '\n';
    g.moves.push_back(state.move_text(m));
    state = state.result(m);
  }
  g.command = s.script("scripted.sh",
                       "c=$(sed -n 2p input.txt)\n"
                       "n=$(cat playdata.txt 2>/dev/null || echo 0)\n"
                       "cp '" +
                           (s.dir() / "moves").string() +
                           "'/$c/$n.txt output.txt\n"
                           "echo $((n + 1)) > playdata.txt");
  return g;
}

// Runs one game with `hostile` as agent 0 (Black, to move first) against a
// legal agent, and returns the game's JSON.
[[nodiscard]] nlohmann::json one_game(const Scratch& s, const std::string& hostile,
                                      const std::string& extra = "--time 2") {
  const ScriptedGame legal = scripted_agent(s, State());
  const CliRun r = duel("referee checkers --json --quiet --games 1 " + extra + " --agent '" +
                        hostile + "' --agent '" + legal.command + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << r.out;
  if (j.is_discarded() || !j.contains("games") || j["games"].size() != 1) return {};
  EXPECT_EQ(j["agents"][0]["losses"], 1);
  EXPECT_EQ(j["agents"][1]["wins"], 1);
  return j["games"][0];
}

void expect_loss(const nlohmann::json& g, const std::string& reason, const std::string& needle) {
  ASSERT_TRUE(g.is_object());
  EXPECT_EQ(g["reason"], reason) << g.dump();
  EXPECT_EQ(g["winner"], 1) << g.dump();
  EXPECT_EQ(g["black"], 0);
  EXPECT_EQ(g["plies"], 0);
  EXPECT_NE(g["detail"].get<std::string>().find(needle), std::string::npos) << g.dump();
}

// The documented JSON shape, and every game replays under the rules to the
// ending it reports.
void check_match_json(const nlohmann::json& j, int games, const State& start) {
  ASSERT_TRUE(j.contains("games") && j.contains("agents")) << j.dump();
  ASSERT_EQ(j["games"].size(), static_cast<std::size_t>(games));
  ASSERT_EQ(j["agents"].size(), 2u);
  int decided = 0;
  int drawn = 0;
  for (int i = 0; i < games; ++i) {
    const auto& g = j["games"][static_cast<std::size_t>(i)];
    EXPECT_EQ(g["black"], i % 2);
    EXPECT_TRUE(g["winner"].is_null() || g["winner"] == 0 || g["winner"] == 1) << g.dump();
    EXPECT_TRUE(g["plies"].is_number_integer());
    ASSERT_EQ(g["time_left"].size(), 2u);
    ASSERT_EQ(g["moves"].size(), g["plies"].get<std::size_t>());
    State s = start;
    for (const auto& m : g["moves"]) {
      const auto move = s.parse_move(m.get<std::string>());
      ASSERT_TRUE(move.ok()) << move.error();
      s = s.result(*move);
    }
    const std::string reason = g["reason"];
    if (reason == "no-moves") {
      EXPECT_EQ(s.ending(), duel::games::checkers::Ending::NoMoves);
      // The side to move at the end lost.
      const int loser = (s.to_move() == duel::Player::First) ? i % 2 : 1 - i % 2;
      EXPECT_EQ(g["winner"], 1 - loser);
    } else {
      ASSERT_TRUE(reason == "draw-clock" || reason == "repetition") << reason;
      EXPECT_EQ(s.ending(), reason == "draw-clock" ? duel::games::checkers::Ending::DrawClock
                                                   : duel::games::checkers::Ending::Repetition);
      // A draw by rule goes to the agent with more time left.
      const double t0 = g["time_left"][0];
      const double t1 = g["time_left"][1];
      if (t0 == t1) {
        EXPECT_TRUE(g["winner"].is_null());
      } else {
        EXPECT_EQ(g["winner"], t0 > t1 ? 0 : 1);
      }
    }
    EXPECT_GT(g["time_left"][0].get<double>(), 0.0);
    EXPECT_GT(g["time_left"][1].get<double>(), 0.0);
    ++(g["winner"].is_null() ? drawn : decided);
  }
  const auto& a = j["agents"];
  EXPECT_EQ(a[0]["wins"].get<int>() + a[1]["wins"].get<int>(), decided);
  EXPECT_EQ(a[0]["wins"], a[1]["losses"]);
  EXPECT_EQ(a[0]["losses"], a[1]["wins"]);
  EXPECT_EQ(a[0]["draws"], drawn);
  EXPECT_EQ(a[1]["draws"], drawn);
  for (const auto& agent : a) {
    EXPECT_EQ(agent["wins"].get<int>() + agent["draws"].get<int>() + agent["losses"].get<int>(),
              games);
  }
}

TEST(Referee, CrashingAgentLoses) {
  Scratch s;
  expect_loss(one_game(s, s.script("crash.sh", "kill -SEGV $$")), "crash", "SIGSEGV");
  expect_loss(one_game(s, s.script("exit.sh", "echo 'E b6 a5' > output.txt\nexit 3")), "crash",
              "exit status 3");
}

TEST(Referee, SleepingAgentIsKilledAtTheWallLimit) {
  Scratch s;
  duel::WallClock clock;
  const auto g =
      one_game(s, s.script("sleep.sh", "sleep 60"), "--time 1 --wall-factor 1 --wall-slack 0.5");
  expect_loss(g, "killed", "wall-clock limit 1.500 s");
  EXPECT_LT(clock.seconds(), 20.0);
}

TEST(Referee, BusyAgentLosesOnTimeIncludingItsChildren) {
  Scratch s;
  // The wall limit is far off: this is about CPU time, even on a busy machine.
  const auto g =
      one_game(s, s.script("busy.sh", "while :; do :; done"), "--time 0.5 --wall-factor 50");
  expect_loss(g, "time", "with 0.500 s left");
  EXPECT_LE(g["time_left"][0].get<double>(), 0.0);
  // Two busy children and a parent that only waits: their CPU is its CPU.
  const auto kids = one_game(
      s, s.script("kids.sh", "sh -c 'while :; do :; done' &\nsh -c 'while :; do :; done' &\nwait"),
      "--time 0.5 --wall-factor 50");
  expect_loss(kids, "time", "with 0.500 s left");
}

TEST(Referee, SilentGarbageAndIllegalOutputsLose) {
  Scratch s;
  expect_loss(one_game(s, s.script("silent.sh", "echo thinking")), "no-output", "no output.txt");
  expect_loss(one_game(s, s.script("garbage.sh", "echo 'hello world' > output.txt")), "bad-output",
              "hello world");
  expect_loss(one_game(s, s.script("empty.sh", ": > output.txt")), "bad-output", "empty");
  expect_loss(one_game(s, s.script("fifo.sh", "mkfifo output.txt")), "bad-output",
              "not a regular file");
  // a3 is White's: Black has no piece there.
  expect_loss(one_game(s, s.script("illegal.sh", "echo 'E a3 b4' > output.txt")), "illegal-move",
              "no piece of yours");
}

// output.txt read as the course's referee read it (RULES.md §6a): a legal
// move in another case, spacing or line ending is taken by default (and by
// the deprecated --lenient, the same reading), and is a bad output with
// --strict, the hand-out's letter.
TEST(Referee, OutputIsReadAsTheCourseReadIt) {
  Scratch s;
  // Black's b6-a5 is legal at the start; only the form differs from the letter.
  for (const auto& [name, text] : std::vector<std::pair<std::string, std::string>>{
           {"lower.sh", "printf 'e b6 a5\\n' > output.txt"},
           {"upper.sh", "printf 'E B6 A5\\n' > output.txt"},
           {"crlf.sh", "printf 'E b6 a5\\r\\n' > output.txt"},
           {"blank.sh", "printf 'E b6 a5\\n\\n' > output.txt"}}) {
    const auto g = one_game(s, s.script(name, text), "--time 2 --strict");
    expect_loss(g, "bad-output",
                name == "crlf.sh"    ? "carriage return"
                : name == "blank.sh" ? "line 2 is blank"
                                     : "the hand-out's format");
    for (const std::string flag : {"", " --lenient"}) {
      const ScriptedGame legal = scripted_agent(s, State());
      const CliRun r =
          duel("referee checkers --json --quiet --games 1 --time 2" + flag + " --agent '" +
               s.script("l" + name, text + "\nexit 0") + "' --agent '" + legal.command + "'");
      ASSERT_EQ(r.status, 0) << r.err;
      const auto j = nlohmann::json::parse(r.out);
      EXPECT_GE(j["games"][0]["plies"].get<int>(), 1) << name << flag << ": " << j.dump();
    }
  }
  // The deprecated flag cannot be mixed with the one it is not.
  EXPECT_EQ(duel("referee checkers --strict --lenient --agent a --agent b").status, 2);
}

// The course charged user CPU time (/usr/bin/time -f "%U"); user+sys is an
// option. Both parts are reported for every move.
TEST(Referee, ChargesUserTimeByDefaultAndReportsBoth) {
  Scratch s;
  const ScriptedGame legal = scripted_agent(s, State());
  // A busy loop in user space, then a legal first move.
  const std::string busy = s.script(
      "busy.sh", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo 'E b6 a5' > output.txt");
  for (const std::string cpu : {"user", "user+sys"}) {
    // --cpu-tick 0: the charge exactly as measured (the course's 10 ms ticks
    // are tests/referee/course_charge_test.cpp's).
    const CliRun r =
        duel("referee checkers --json --quiet --games 1 --time 20 --cpu-tick 0 --cpu " + cpu +
             " --agent '" + busy + "' --agent '" + legal.command + "'");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["cpu"], cpu);
    const auto& g = j["games"][0];
    ASSERT_GE(g["cpu"].size(), 1U) << g.dump();
    const double charged = g["cpu"][0];
    const double user = g["user"][0];
    const double system = g["system"][0];
    EXPECT_GT(user, 0.0);
    EXPECT_GE(system, 0.0);
    EXPECT_NEAR(charged, cpu == "user" ? user : user + system, 1e-5) << g.dump();
  }
  const CliRun bad = duel("referee checkers --cpu wall --agent a --agent b");
  EXPECT_EQ(bad.status, 2);
}

TEST(Referee, PartialJumpSequenceIsIllegal) {
  Scratch s;
  // Black's man on 14 must jump 18 and then 26 (14x23x30): one jump is not a move.
  const std::string fen = "B:W18,26:B14";
  const auto start = State::parse(fen);
  ASSERT_TRUE(start.ok()) << start.error();
  State::Moves moves;
  start->actions(moves);
  ASSERT_EQ(moves.size(), 1u);
  const std::string full = start->seed_text(moves[0]);
  const std::string first_jump = full.substr(0, full.find('\n'));
  ASSERT_NE(first_jump, full);
  const auto partial = one_game(s, s.script("partial.sh", "echo '" + first_jump + "' > output.txt"),
                                "--time 2 --start " + fen);
  expect_loss(partial, "illegal-move", "must continue");

  // The whole sequence wins at once: White has nothing left.
  std::string printf_text;
  for (const char c : full) printf_text += c == '\n' ? std::string("\\n") : std::string(1, c);
  const CliRun r = duel("referee checkers --json --quiet --games 1 --start " + fen +
                        " --agent \"printf '" + printf_text + "\\n' > output.txt\" --agent false");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["games"][0]["reason"], "no-moves");
  EXPECT_EQ(j["games"][0]["winner"], 0);
  EXPECT_EQ(j["games"][0]["plies"], 1);
  EXPECT_EQ(j["games"][0]["moves"][0], start->move_text(moves[0]));
}

TEST(Referee, NothingTheAgentStartsOutlivesItsTurn) {
  Scratch s;
  const fs::path p = s.dir();
  // A plain background child, one in its own session, one orphaned at once
  // by a double fork (its parent exits before any poll can see it), and a
  // busy one: none survives the turn.
  const std::string body = "sleep 60 & echo $! > '" + (p / "a.pid").string() + "'\n" +
                           "setsid sleep 60 & echo $! > '" + (p / "b.pid").string() + "'\n" +
                           "( setsid sleep 60 & echo $! > '" + (p / "c.pid").string() + "' ) &\n" +
                           "( sh -c 'while :; do :; done' & echo $! > '" + (p / "d.pid").string() +
                           "' ) &\nsleep 0.2\necho 'E b6 a5' > output.txt";
  // b6-a5 is legal for Black; White (the scripted agent) then crashes on purpose.
  // Unboxed: this is the process tracker --no-sandbox relies on (a boxed
  // program could not write the pid files here; tests/referee/box_test.cpp).
  const CliRun r =
      duel("referee checkers --json --quiet --games 1 --time 5 --no-sandbox --agent '" +
           s.script("spawner.sh", body) + "' --agent 'kill -9 $$'");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["games"][0]["plies"], 1);
  EXPECT_EQ(j["games"][0]["winner"], 0);
  EXPECT_EQ(j["games"][0]["reason"], "crash");
  for (const char* f : {"a.pid", "b.pid", "c.pid", "d.pid"}) {
    const int pid = read_pid(p / f);
    EXPECT_TRUE(process_gone(pid)) << f << " " << pid << " still runs";
    if (pid > 0 && !process_gone(pid)) ::kill(pid, SIGKILL);
  }
}

TEST(Referee, RunAgentReapsWhatItKillsAndChargesChildren) {
  Scratch s;
  duel::referee::RunSpec spec;
  spec.dir = s.dir();
  spec.command =
      "setsid sh -c 'echo $$ > kid.pid; exec sleep 60' &\n"
      "sh -c 'while :; do :; done' &\nsleep 0.5\nexit 4";
  spec.cpu_limit = 0.0;
  spec.wall_limit = 10.0;
  const auto r = duel::referee::run_agent(spec);
  EXPECT_EQ(r.stop, duel::referee::Stop::Exited) << r.describe();
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_EQ(r.leftovers, 2);
  EXPECT_GT(r.cpu_seconds, 0.02);  // the busy child ran for a while
  const int kid = read_pid(s.dir() / "kid.pid");
  // Gone, not even a zombie: this process (a subreaper) reaped it.
  EXPECT_FALSE(fs::exists("/proc/" + std::to_string(kid))) << kid;

  spec.command = "while :; do :; done";
  spec.cpu_limit = 0.2;
  spec.wall_limit = 30.0;
  const auto busy = duel::referee::run_agent(spec);
  EXPECT_EQ(busy.stop, duel::referee::Stop::CpuLimit) << busy.describe();
  EXPECT_GE(busy.cpu_seconds, 0.2);
  EXPECT_LT(busy.cpu_seconds, 1.0);

  spec.dir = s.dir() / "missing";
  const auto missing = duel::referee::run_agent(spec);
  EXPECT_EQ(missing.stop, duel::referee::Stop::SpawnFailed);
  EXPECT_NE(missing.describe().find("missing"), std::string::npos) << missing.describe();
}

// A command of plain words runs without a shell; anything a shell would
// read otherwise goes through /bin/sh -c, as before.
TEST(Referee, CommandsOfPlainWordsRunWithoutAShell) {
  using duel::referee::detail::direct_words;
  EXPECT_EQ(direct_words("python3 homework.py"),
            (std::vector<std::string>{"python3", "homework.py"}));
  EXPECT_EQ(direct_words("'/opt/my duel/duel' homework --agent 'engine:time=1,hash=16'"),
            (std::vector<std::string>{"/opt/my duel/duel", "homework", "--agent",
                                      "engine:time=1,hash=16"}));
  for (const char* shell : {"ulimit -v 100000; ./homework", "kill -SEGV $$", "sleep 9 &", "a > b",
                            "FOO=1 ./homework", "echo \"x\"", "'open", "'a'b"}) {
    EXPECT_TRUE(direct_words(shell).empty()) << shell;
  }
  Scratch s;
  duel::referee::RunSpec spec;
  spec.dir = s.dir();
  spec.out_log = s.dir() / "out.log";
  spec.command = "sh -c 'echo $PPID'";  // run directly: its parent is this process
  EXPECT_TRUE(duel::referee::run_agent(spec).clean_exit());
  EXPECT_EQ(slurp(s.dir() / "out.log"), std::to_string(::getpid()) + "\n");
  spec.command = "no-such-program-anywhere";  // not found: the shell says so
  const auto missing = duel::referee::run_agent(spec);
  EXPECT_EQ(missing.exit_code, 127) << missing.describe();
}

// Output goes through pipes: what a program says is logged whole up to
// the limit; a flood past it is stopped (output-limit) with bounded logs;
// a child still holding the pipe when the program ends neither hangs the
// run nor outlives it; a folder past the disk limit is stopped too.
TEST(Referee, OutputAndFolderLimits) {
  Scratch s;
  duel::referee::RunSpec spec;
  spec.dir = s.dir();
  spec.out_log = s.dir() / "out.log";
  spec.err_log = s.dir() / "err.log";
  spec.wall_limit = 20.0;
  spec.output_limit = std::uint64_t{1} << 20;
  spec.log_limit = spec.output_limit;
  spec.command = "echo hello; echo oops >&2";
  const auto said = duel::referee::run_agent(spec);
  EXPECT_TRUE(said.clean_exit()) << said.describe();
  EXPECT_EQ(slurp(s.dir() / "out.log"), "hello\n");
  EXPECT_EQ(slurp(s.dir() / "err.log"), "oops\n");

  spec.command = "head -c 8000000 /dev/zero; echo done > finished";
  const auto flood = duel::referee::run_agent(spec);
  EXPECT_EQ(flood.stop, duel::referee::Stop::OutputLimit) << flood.describe();
  EXPECT_FALSE(fs::exists(s.dir() / "finished"));
  EXPECT_LE(fs::file_size(s.dir() / "out.log"), std::uintmax_t{1} << 21);

  spec.command = "sleep 30 & echo started";
  duel::WallClock clock;
  const auto holder = duel::referee::run_agent(spec);
  EXPECT_TRUE(holder.clean_exit()) << holder.describe();
  EXPECT_EQ(holder.leftovers, 1);
  EXPECT_LT(clock.seconds(), 5.0);

  spec.output_limit = 0;
  spec.disk_limit = std::uint64_t{4} << 20;
  spec.command = "head -c 16000000 /dev/zero > big";
  const auto disk = duel::referee::run_agent(spec);
  EXPECT_EQ(disk.stop, duel::referee::Stop::DiskLimit) << disk.describe();
  EXPECT_GT(disk.disk_bytes, spec.disk_limit);
}

TEST(Referee, LegalMatchRunsToTheEndWithConsistentResults) {
  Scratch s;
  const ScriptedGame legal = scripted_agent(s, State());
  duel::WallClock clock;
  const CliRun r = duel("referee checkers --json --quiet --games 2 --time 20 --agent '" +
                        legal.command + "' --agent '" + legal.command + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  check_match_json(j, 2, State());
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(j["games"][static_cast<std::size_t>(i)]["moves"], legal.moves) << "game " << i;
  }
  EXPECT_EQ(j["agents"][0]["cmd"], legal.command);
  std::cerr << "legal match: " << legal.moves.size() << " plies a game, " << clock.seconds()
            << " s\n";
}

TEST(Referee, ThisBinaryAsBothAgents) {
  // duel:SPEC is `duel homework --agent SPEC`; a small position keeps it short.
  const std::string fen = "B:W21,22,23,26,27:B6,7,9,10,12";
  const CliRun r =
      duel("referee checkers --json --quiet --games 2 --time 30 --start " + fen +
           " --agent duel:first --agent duel:random:seed=3 --calibrate 'duel:--seconds 0.05'" +
           " --pdnout games.pdn");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  check_match_json(j, 2, *State::parse(fen));
  // --pdnout: every game as PDN, replaying to the same moves and result.
  ASSERT_EQ(r.files.count("games.pdn"), 1u);
  const std::string pdn = r.files.at("games.pdn");
  const auto second = pdn.find("[Event", 1);
  ASSERT_NE(second, std::string::npos) << pdn;
  for (int g = 0; g < 2; ++g) {
    const auto game =
        ::duel::games::checkers::parse_pdn(g == 0 ? pdn.substr(0, second) : pdn.substr(second));
    ASSERT_TRUE(game.ok()) << game.error();
    const auto& jg = j["games"][static_cast<std::size_t>(g)];
    EXPECT_EQ(game->moves.size(), jg["plies"].get<std::size_t>());
    EXPECT_EQ(game->start.to_text(), State::parse(fen)->to_text());
    const std::string expected = jg["winner"].is_null()        ? "1/2-1/2"
                                 : jg["winner"] == jg["black"] ? "1-0"
                                                               : "0-1";
    EXPECT_EQ(game->result, expected);
  }
  EXPECT_EQ(j["agents"][0]["cmd"], "duel:first");
  EXPECT_EQ(j["agents"][0]["calibration"].get<std::string>().rfind("ok", 0), 0u) << j.dump();
  EXPECT_FALSE(j["agents"][1].contains("calibration"));
}

TEST(Referee, InterruptKillsTheRunningAgentAndStops) {
  Scratch s;
  const std::string agent =
      s.script("sleeper.sh", "echo $$ > '" + (s.dir() / "agent.pid").string() + "'\nexec sleep 60");
  const std::string bin = DUEL_BIN;
  // Unboxed, so that the test can see the agent's pid (box_test.cpp: boxed).
  std::vector<std::string> args = {bin,   "referee",      "checkers", "--json", "--quiet", "--time",
                                   "100", "--no-sandbox", "--agent",  agent,    "--agent", agent};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 1, (s.dir() / "out.json").c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&files, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  ASSERT_EQ(posix_spawn(&pid, bin.c_str(), &files, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&files);
  duel::WallClock clock;
  while (!fs::exists(s.dir() / "agent.pid") && clock.seconds() < 10.0) ::usleep(10000);
  ::usleep(50000);
  ::kill(pid, SIGINT);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_LT(clock.seconds(), 10.0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  const auto j = nlohmann::json::parse(slurp(s.dir() / "out.json"));
  EXPECT_EQ(j["cancelled"], true);
  EXPECT_EQ(j["games"][0]["reason"], "cancelled");
  EXPECT_TRUE(j["games"][0]["winner"].is_null());
  const int agent_pid = read_pid(s.dir() / "agent.pid");
  EXPECT_TRUE(process_gone(agent_pid)) << agent_pid;
}

TEST(Referee, TextOutputCalibrationAndKeptWorkdir) {
  Scratch s;
  const std::string fen = "B:W21,22,23,26,27:B6,7,9,10,12";
  const ScriptedGame legal = scripted_agent(s, *State::parse(fen));
  const fs::path work = s.dir() / "work";
  const CliRun r =
      duel("referee checkers --games 1 --time 20 --start " + fen + " --workdir '" + work.string() +
           "' --agent '" + legal.command + "' --agent '" + legal.command +
           "' --calibrate 'echo fast > calibration.txt' --calibrate -");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("game 1: black agent 0, winner "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("agent 0 (" + legal.command + "): "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("agent 1 ("), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("calibrate agent 0: ok"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(work / "agent0" / "calibration.txt"), "fast\n");
  EXPECT_FALSE(fs::exists(work / "agent1" / "calibration.txt"));
  EXPECT_TRUE(fs::exists(work / "agent0" / "input.txt"));
  EXPECT_NE(slurp(work / "agent0" / "stdout.log").find("--- game 1, ply 1, Black"),
            std::string::npos);
}

TEST(Referee, BadCommandLines) {
  const auto bad = [](const std::string& args, const std::string& needle) {
    const CliRun r = duel("referee " + args);
    EXPECT_EQ(r.status, 2) << args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << args << "\n" << r.err;
  };
  bad("chess --agent true --agent true", "only checkers");
  bad("nqueens --agent true --agent true", "only checkers");
  bad("checkers --agent true", "exactly two");
  bad("checkers --agent true --agent true --agent true", "exactly two");
  bad("checkers --agent true --agent true --time 0", "--time");
  bad("checkers --agent true --agent true --time -3", "--time");
  bad("checkers --agent true --agent true --start nonsense", "--fen: checkers: position");
  bad("checkers --agent true --agent true --games 0", "--games");
  bad("checkers:draw-plies=0 --agent true --agent true", "draw-plies");
  // One grammar for agents: Duel's own run as programs with duel:.
  bad("checkers --agent first --agent true",
      "is Duel's agent, not a program; run it as --agent "
      "duel:first");
  bad("checkers --agent true --agent random:seed=3", "--agent duel:random:seed=3");
}

}  // namespace
