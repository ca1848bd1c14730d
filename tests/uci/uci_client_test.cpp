// The `uci:` agent (docs/uci.md): spec checks, the pure protocol pieces,
// games against the real Fairy-Stockfish in all three 5x5 rule sets (skipped
// when /usr/games/fairy-stockfish is absent), and hostile fake engines
// (small /bin/sh scripts) that must lose their game with a reason and leave
// no process behind.
#include <gtest/gtest.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "duel/agents/uci.hpp"
#include "duel/core/clock.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/games/nqueens/nqueens.hpp"
#include "duel/play/match.hpp"
#include "duel/registry/agents.hpp"

namespace duel::agents {
namespace {

using games::minichess::Comp472State;
using games::minichess::Cs3243State;
using games::minichess::GardnerState;

constexpr const char* kFairy = "/usr/games/fairy-stockfish";
const std::string kVariants =
    std::string(DUEL_SOURCE_DIR) + "/tests/data/fairy-stockfish/variants.ini";

bool have_fairy() {
  return ::access(kFairy, X_OK) == 0;
}

// A fresh directory for one test's scripts and files.
std::filesystem::path temp_dir() {
  static std::atomic<int> counter{0};
  const auto dir = std::filesystem::temp_directory_path() /
                   ("duel-uci-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// Writes an executable /bin/sh script.
std::string script(const std::filesystem::path& dir, const std::string& name,
                   const std::string& body) {
  const auto path = dir / name;
  std::ofstream(path) << "#!/bin/sh\n" << body;
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path.string();
}

// A fake engine that handshakes like a real one (listing UCI_Variant) and
// runs `on_go` (sh commands) for every `go`.
std::string fake_engine(const std::filesystem::path& dir, const std::string& on_go) {
  return script(dir, "engine.sh",
                "while read -r line; do\n"
                "  case \"$line\" in\n"
                "    uci) echo 'id name fake'\n"
                "         echo 'option name UCI_Variant type combo default chess var chess var "
                "gardner'\n"
                "         echo uciok ;;\n"
                "    isready) echo readyok ;;\n"
                "    go*) " +
                    on_go +
                    " ;;\n"
                    "    quit) exit 0 ;;\n"
                    "  esac\n"
                    "done\n");
}

// Processes whose parent is this test process (zombies included).
int children_of_us() {
  int n = 0;
  DIR* dir = ::opendir("/proc");
  if (dir == nullptr) return -1;
  while (const dirent* e = ::readdir(dir)) {
    if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
    // Read with read(2): a process that ends meanwhile (another test's, in
    // ctest -j2) fails the read with ESRCH, which std::filebuf throws on.
    std::string text(512, '\0');
    const int fd =
        ::open((std::string("/proc/") + e->d_name + "/stat").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    const ssize_t got = ::read(fd, text.data(), text.size());
    ::close(fd);
    if (got <= 0) continue;
    text.resize(static_cast<std::size_t>(got));
    const auto close = text.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(text.substr(close + 2));
    char state = 0;
    int ppid = 0;
    rest >> state >> ppid;
    if (ppid == ::getpid()) ++n;
  }
  ::closedir(dir);
  return n;
}

// True once `pid` no longer exists (an orphan's zombie is reaped by init
// within moments, so this waits up to two seconds).
bool gone_soon(pid_t pid) {
  WallClock clock;
  while (clock.seconds() < 2.0) {
    if (::kill(pid, 0) != 0 && errno == ESRCH) return true;
    ::usleep(5000);
  }
  return false;
}

pid_t read_pid(const std::filesystem::path& file) {
  pid_t pid = 0;
  std::ifstream(file) >> pid;
  return pid;
}

template <class S>
std::unique_ptr<Agent<S>> agent(const std::string& spec, std::uint64_t seed = 0) {
  auto a = registry::make_agent<S>(spec, registry::AgentContext{seed});
  EXPECT_TRUE(a.ok()) << spec << ": " << (a.ok() ? "" : a.error());
  return a.ok() ? std::move(*a) : nullptr;
}

template <class S>
std::string spec_error(const std::string& spec) {
  const auto a = registry::make_agent<S>(spec);
  return a.ok() ? std::string("(accepted)") : a.error();
}

// Step 1. Specs.

TEST(UciClient, SpecErrorsAreClear) {
  EXPECT_EQ(spec_error<GardnerState>("uci"),
            "uci: cmd= is required (the engine program, e.g. cmd=/usr/games/fairy-stockfish)");
  EXPECT_EQ(spec_error<GardnerState>("uci:cmd=/no/such/engine"),
            "uci: cmd: '/no/such/engine' does not exist");
  EXPECT_EQ(spec_error<GardnerState>("uci:cmd=no-such-engine-anywhere"),
            "uci: cmd: 'no-such-engine-anywhere' is not in PATH");
  EXPECT_EQ(spec_error<GardnerState>("uci:cmd=" + kVariants),
            "uci: cmd: '" + kVariants + "' is not executable");
  EXPECT_EQ(spec_error<GardnerState>("uci:cmd=/bin/sh,movetime=10,depth=2"),
            "uci: give one of movetime, depth, nodes (got movetime and depth)");
  EXPECT_EQ(spec_error<GardnerState>("uci:cmd=/bin/sh,hash=16"),
            "uci: unknown option 'hash' (known: cmd, variant, variants, movetime, depth, nodes, "
            "sandbox, "
            "option.NAME)");
  EXPECT_EQ(spec_error<GardnerState>("uci:cmd=/bin/sh,depth=0"),
            "uci: depth=0 is out of range 1..1000");
  EXPECT_EQ(spec_error<GardnerState>("uci:cmd=/bin/sh,movetime=fast"),
            "uci: movetime=fast is not a whole number");
  EXPECT_EQ(spec_error<GardnerState>("uci:cmd=/bin/sh,variants=/no/such.ini"),
            "uci: variants file '/no/such.ini' is not a file");
  EXPECT_EQ(spec_error<GardnerState>("uci:cmd=/bin/sh,option.UCI_Variant=chess"),
            "uci: set the variant with variant=, not option.UCI_Variant");
  EXPECT_EQ(spec_error<games::nqueens::State>("uci:cmd=/bin/sh"),
            "agent 'uci' plays the 5x5 chess games only, not nqueens");
  EXPECT_NE(spec_error<GardnerState>("nosuch").find("minimax4, uci"), std::string::npos);
}

TEST(UciClient, SpecDefaultsAndOptionOrder) {
  const auto parse = [](const std::string& text, std::string_view game) {
    return parse_uci_spec(*Spec::parse(text), game);
  };
  const auto g = parse("uci:cmd=/bin/sh -c true", "gardner");
  ASSERT_TRUE(g.ok()) << g.error();
  EXPECT_EQ(g->argv, (std::vector<std::string>{"/bin/sh", "-c", "true"}));
  EXPECT_EQ(g->variant, "gardner");
  EXPECT_EQ(g->limit, UciLimit::MoveTime);
  EXPECT_EQ(g->amount, 100);  // docs/uci.md: no limit given = movetime=100
  EXPECT_EQ(parse("uci:cmd=/bin/sh", "gardner-cs3243")->variant, "cs3243");
  EXPECT_EQ(parse("uci:cmd=/bin/sh", "minichess-comp472")->variant, "comp472");
  const auto o = parse("uci:cmd=/bin/sh,option.Hash=16,nodes=5000,variants=" + kVariants +
                           ",option.Threads=1,variant=chess",
                       "gardner");
  ASSERT_TRUE(o.ok()) << o.error();
  EXPECT_EQ(o->limit, UciLimit::Nodes);
  EXPECT_EQ(o->amount, 5000);
  EXPECT_EQ(o->variant, "chess");
  // variants= first (the variant file before anything else), then option.* as given.
  using Options = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(o->options, (Options{{"VariantPath", kVariants}, {"Hash", "16"}, {"Threads", "1"}}));
}

// Step 2. The pure protocol pieces.

TEST(UciClient, PositionCommand) {
  const std::string start = GardnerState().to_text();
  EXPECT_EQ(start, "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1");
  EXPECT_EQ(uci_position_command(start, {}), "position fen rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1");
  EXPECT_EQ(uci_position_command(start, {"e2e3", "d4e3"}),
            "position fen rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1 moves e2e3 d4e3");
}

TEST(UciClient, InfoLinesAndScores) {
  // A line Fairy-Stockfish 11.1 printed for `go depth 3` from gardner's start.
  UciInfo info;
  read_uci_info(
      "info depth 3 seldepth 3 multipv 1 score cp 36 nodes 79 nps 39500 tbhits 0 time 2 pv e2e3 "
      "d4e3 d2e3 d5d1 e1d1",
      info);
  EXPECT_EQ(info.depth, 3);
  EXPECT_EQ(info.cp, 36);
  EXPECT_FALSE(info.mate.has_value());
  EXPECT_EQ(info.nodes, 79u);
  EXPECT_EQ(info.pv, (std::vector<std::string>{"e2e3", "d4e3", "d2e3", "d5d1", "e1d1"}));
  // 100 cp = one pawn = kE0Scale (uci.hpp): 36 cp -> 18.
  EXPECT_EQ(uci_score(info), 18);
  read_uci_info("info string variant gardner files 5 ranks 5", info);  // ignored
  EXPECT_EQ(info.depth, 3);
  read_uci_info("info depth 5 score mate 2 upperbound nodes 400 pv a1a2", info);
  EXPECT_EQ(info.depth, 5);
  EXPECT_FALSE(info.cp.has_value());
  EXPECT_EQ(uci_score(info), win_in(3));  // mate in 2 moves = 3 plies
  read_uci_info("info score mate -1", info);
  EXPECT_EQ(uci_score(info), loss_in(2));
  EXPECT_FALSE(uci_score(UciInfo{}).has_value());
}

TEST(UciClient, GoPlans) {
  UciSettings s;
  s.argv = {"/bin/true"};
  s.amount = 100;
  // Numbers from plan_uci_go's rules (uci.hpp): no clock, movetime 100 ms:
  // stop after max(10 s, 20 x 0.1 s), give up 0.5 s later.
  auto p = plan_uci_go(s, 0.0, 0.0);
  EXPECT_EQ(p.command, "go movetime 100");
  EXPECT_DOUBLE_EQ(p.stop_after, 10.0);
  EXPECT_DOUBLE_EQ(p.give_up_after, 10.5);
  // Clock 0.5 s, 0.01 s spent starting: budget 0.5 x 0.8 - 0.002 - 0.01 = 0.388 s.
  p = plan_uci_go(s, 0.5, 0.01);
  EXPECT_EQ(p.command, "go movetime 100");
  EXPECT_NEAR(p.stop_after, 0.388, 1e-9);
  EXPECT_NEAR(p.give_up_after, 0.99, 1e-9);  // the limit, less 0.01, + 0.5
  s.amount = 1000;
  EXPECT_EQ(plan_uci_go(s, 0.5, 0.01).command, "go movetime 388");  // fits the clock
  s.limit = UciLimit::Depth;
  s.amount = 7;
  p = plan_uci_go(s, 0.0, 0.0);
  EXPECT_EQ(p.command, "go depth 7");
  EXPECT_DOUBLE_EQ(p.stop_after, 60.0);
  s.limit = UciLimit::Nodes;
  s.amount = 20000;
  EXPECT_EQ(plan_uci_go(s, 0.0, 0.0).command, "go nodes 20000");
}

// Step 3. Fairy-Stockfish in all three rule sets.

template <class S>
play::MatchRecord<S> play(const S& start, Agent<S>& white, Agent<S>& black, double timeout,
                          int max_turns) {
  play::MatchOptions options;
  options.timeout = timeout;
  options.max_turns = max_turns;
  return play::play_match(start, std::array<Agent<S>*, 2>{&white, &black}, options);
}

// Every game ends by the rules or the turn cap, and every uci move carried
// a report from the engine.
template <class S>
void expect_clean_game(const play::MatchRecord<S>& r, Player uci_side) {
  EXPECT_TRUE(r.ending == play::Ending::Rules || r.ending == play::Ending::TurnLimit)
      << play::ending_name(r.ending) << ": " << r.reason;
  for (const auto& m : r.moves) {
    if (m.player != uci_side) continue;
    ASSERT_TRUE(m.report.has_value()) << m.text;
    EXPECT_EQ(m.report->algorithm, "uci");
    EXPECT_FALSE(m.report->pv.empty());
    EXPECT_EQ(m.report->pv.front(), m.text);
  }
}

TEST(UciClient, FairyGardnerGames) {
  if (!have_fairy()) GTEST_SKIP() << kFairy << " is not installed";
  const GardnerState start;
  int plies = 0;
  double seconds = 0;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    auto uci = agent<GardnerState>(std::string("uci:depth=2,cmd=") + kFairy);
    auto rnd = agent<GardnerState>("random", seed);
    const bool uci_white = seed % 2 == 1;
    // No clock: the engine starts at its first move, which may take most of
    // a second on a loaded machine (docs/uci.md).
    const auto r = uci_white ? play(start, *uci, *rnd, 0.0, 60) : play(start, *rnd, *uci, 0.0, 60);
    expect_clean_game(r, uci_white ? Player::First : Player::Second);
    // Depth 2 against random moves: the engine should not lose.
    EXPECT_GE(uci_white ? r.payoff : -r.payoff, 0) << r.reason;
    plies += static_cast<int>(r.moves.size());
    seconds += r.seconds;
  }
  // Against the built-in engine, with a movetime under a clock.
  auto uci = agent<GardnerState>(std::string("uci:movetime=20,cmd=") + kFairy);
  auto eng = agent<GardnerState>("engine:depth=1");
  uci->new_game();  // starts the engine before the clock runs
  const auto r = play(start, *eng, *uci, 1.0, 40);
  expect_clean_game(r, Player::Second);
  ::testing::Test::RecordProperty("plies", plies + static_cast<int>(r.moves.size()));
  ::testing::Test::RecordProperty("seconds_vs_random", std::to_string(seconds));
}

TEST(UciClient, FairyCs3243AndComp472ThroughTheVariantsFile) {
  if (!have_fairy()) GTEST_SKIP() << kFairy << " is not installed";
  const std::string spec = std::string("uci:depth=3,cmd=") + kFairy + ",variants=" + kVariants;
  {
    auto uci = agent<Cs3243State>(spec);
    auto rnd = agent<Cs3243State>("random", 5);
    const auto r = play(Cs3243State(), *uci, *rnd, 0.0, 60);
    expect_clean_game(r, Player::First);
    EXPECT_GE(r.payoff, 0) << r.reason;
  }
  {
    auto uci = agent<Comp472State>(spec);
    auto rnd = agent<Comp472State>("random", 6);
    const auto r = play(Comp472State(), *rnd, *uci, 0.0, 60);
    expect_clean_game(r, Player::Second);
    EXPECT_LE(r.payoff, 0) << r.reason;
  }
}

TEST(UciClient, FairyWithoutTheVariantsFileDoesNotKnowCs3243) {
  if (!have_fairy()) GTEST_SKIP() << kFairy << " is not installed";
  auto uci = agent<Cs3243State>(std::string("uci:depth=1,cmd=") + kFairy);
  auto rnd = agent<Cs3243State>("random");
  const auto r = play(Cs3243State(), *uci, *rnd, 0.0, 10);
  EXPECT_EQ(r.ending, play::Ending::Abandoned);
  EXPECT_EQ(r.reason,
            "White (uci:fairy-stockfish) lost: the engine does not know variant 'cs3243' "
            "(Fairy-Stockfish needs variants=PATH to a variants.ini defining it)");
}

// The engine is told the first position it saw and every move since, and a
// game that does not follow from its last move starts afresh.
TEST(UciClient, PositionsCarryTheMovesSinceTheStart) {
  if (!have_fairy()) GTEST_SKIP() << kFairy << " is not installed";
  const auto dir = temp_dir();
  const auto log = dir / "input.log";
  const std::string wrapper =
      script(dir, "logged.sh", "tee -a '" + log.string() + "' | " + kFairy + "\n");
  // Unboxed: the wrapper logs to the test's folder, which a box would not show.
  auto uci = agent<GardnerState>("uci:depth=1,sandbox=off,cmd=" + wrapper);
  auto rnd = agent<GardnerState>("random", 9);
  const GardnerState start;
  const auto first = play(start, *uci, *rnd, 0.0, 4);
  ASSERT_EQ(first.ending, play::Ending::TurnLimit) << first.reason;
  // Game 2 with the same agent, as Black from another position (Black to
  // move): it must start afresh from there.
  const GardnerState other = start.result(*start.parse_move("b2b3"));
  const auto second = play(other, *rnd, *uci, 0.0, 1);
  ASSERT_EQ(second.ending, play::Ending::TurnLimit) << second.reason;
  uci.reset();  // quit: the log is complete

  std::vector<std::string> lines;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("position", 0) == 0 || line == "ucinewgame") lines.push_back(line);
  }
  std::vector<std::string> expected{"ucinewgame"};
  std::vector<std::string> played;
  for (std::size_t i = 0; i < first.moves.size(); i += 2) {
    expected.push_back(uci_position_command(start.to_text(), played));
    played.push_back(first.moves[i].text);
    if (i + 1 < first.moves.size()) played.push_back(first.moves[i + 1].text);
  }
  expected.push_back("ucinewgame");
  expected.push_back(uci_position_command(other.to_text(), {}));
  EXPECT_EQ(lines, expected);
  std::filesystem::remove_all(dir);
}

TEST(UciClient, GamesOnSeveralThreadsAtOnce) {
  if (!have_fairy()) GTEST_SKIP() << kFairy << " is not installed";
  const int before = children_of_us();
  std::vector<std::thread> threads;
  std::array<play::Ending, 4> endings{};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &endings] {
      auto uci = agent<GardnerState>(std::string("uci:nodes=2000,cmd=") + kFairy);
      auto rnd = agent<GardnerState>("random", static_cast<std::uint64_t>(t));
      endings[static_cast<std::size_t>(t)] = play(GardnerState(), *uci, *rnd, 0.0, 20).ending;
    });
  }
  for (auto& th : threads) th.join();
  for (const auto e : endings) {
    EXPECT_TRUE(e == play::Ending::Rules || e == play::Ending::TurnLimit) << play::ending_name(e);
  }
  EXPECT_EQ(children_of_us(), before);
}

// Step 4. Hostile engines: each loses its game with a reason, nothing stays.

struct Hostile {
  play::MatchRecord<GardnerState> record;
  double seconds = 0;
};

Hostile play_hostile(const std::string& cmd, double timeout, const std::string& extra = "") {
  auto uci = agent<GardnerState>("uci:movetime=50,cmd=" + cmd + extra);
  auto rnd = agent<GardnerState>("random");
  WallClock clock;
  Hostile h{play(GardnerState(), *uci, *rnd, timeout, 20), 0.0};
  uci.reset();
  h.seconds = clock.seconds();
  return h;
}

TEST(UciClient, EngineThatExitsAtOnce) {
  const auto dir = temp_dir();
  const int before = children_of_us();
  const auto h = play_hostile(script(dir, "exit.sh", "exit 3\n"), 1.0);
  EXPECT_EQ(h.record.ending, play::Ending::Abandoned);
  EXPECT_EQ(h.record.payoff, -1);
  EXPECT_EQ(h.record.reason.rfind("White (uci:exit.sh) lost: engine exited with status 3", 0), 0u)
      << h.record.reason;
  EXPECT_EQ(children_of_us(), before);
  std::filesystem::remove_all(dir);
}

TEST(UciClient, NewGameStartsTheEngineAndKeepsItsFailure) {
  const auto dir = temp_dir();
  const int before = children_of_us();
  auto uci = agent<GardnerState>("uci:cmd=" + script(dir, "exit.sh", "exit 4\n"));
  auto rnd = agent<GardnerState>("random");
  uci->new_game();  // the start fails here; the game reports it
  const auto r = play(GardnerState(), *uci, *rnd, 1.0, 20);
  EXPECT_EQ(r.ending, play::Ending::Abandoned);
  EXPECT_EQ(r.reason.rfind("White (uci:exit.sh) lost: engine exited with status 4", 0), 0u)
      << r.reason;
  uci.reset();
  EXPECT_EQ(children_of_us(), before);
  std::filesystem::remove_all(dir);
}

TEST(UciClient, EngineThatExitsOnGo) {
  const auto dir = temp_dir();
  const int before = children_of_us();
  const auto h = play_hostile(fake_engine(dir, "exit 1"), 1.0);
  EXPECT_EQ(h.record.ending, play::Ending::Abandoned);
  EXPECT_EQ(h.record.reason,
            "White (uci:engine.sh) lost: engine exited with status 1 during 'go movetime 50'");
  EXPECT_EQ(children_of_us(), before);
  std::filesystem::remove_all(dir);
}

TEST(UciClient, EngineThatNeverAnswersIsStoppedAndKilled) {
  const auto dir = temp_dir();
  const int before = children_of_us();
  // It ignores `go`, `stop`, `quit`, SIGTERM and the end of its input, and
  // keeps a helper running in its process group.
  const std::string cmd =
      script(dir, "hang.sh",
             "echo $$ > '" + (dir / "pid").string() + "'\n" +
                 "sleep 1000 &\n"
                 "echo $! > '" +
                 (dir / "helper").string() +
                 "'\n"
                 "trap '' TERM INT\n"
                 "while read -r line; do\n"
                 "  case \"$line\" in\n"
                 "    uci) echo 'option name UCI_Variant type string default chess'\n"
                 "         echo uciok ;;\n"
                 "    isready) echo readyok ;;\n"
                 "  esac\n"
                 "done\n"
                 "while :; do sleep 1; done\n");
  // As the referee does (process.cpp), this process becomes a child
  // subreaper: the helper, orphaned when the script dies, comes back to us,
  // and the agent must reap it itself (no zombie left).
  ASSERT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  // Unboxed, so that its pid files land here; the boxed engines of the
  // tests below are reaped with everything they started (children_of_us).
  const auto h = play_hostile(cmd, 0.3, ",sandbox=off");
  EXPECT_EQ(h.record.ending, play::Ending::Abandoned);
  // plan_uci_go: stop at 0.3 x 0.8 - 0.002 = 0.238 s, give up at 0.3 + 0.5
  // s, both less the few ms that starting the engine took.
  const std::string& why = h.record.reason;
  EXPECT_EQ(why.rfind("White (uci:hang.sh) lost: no bestmove within 0.", 0), 0u) << why;
  EXPECT_NE(why.find(" s of 'go movetime 50' ('stop' sent at 0."), std::string::npos) << why;
  EXPECT_NE(why.find("engine killed"), std::string::npos) << why;
  // Given up at 0.8 s, then 0.2 s to quit before the kill.
  EXPECT_LT(h.seconds, 2.0);
  ::testing::Test::RecordProperty("seconds", std::to_string(h.seconds));
  const pid_t pid = read_pid(dir / "pid");
  const pid_t helper = read_pid(dir / "helper");
  ASSERT_GT(pid, 0);
  ASSERT_GT(helper, 0);
  EXPECT_TRUE(gone_soon(pid));
  EXPECT_TRUE(gone_soon(helper));
  EXPECT_EQ(children_of_us(), before);
  std::filesystem::remove_all(dir);
}

TEST(UciClient, EngineThatPlaysAnIllegalMove) {
  const auto dir = temp_dir();
  const int before = children_of_us();
  // a1a5: the rook is blocked by its own pawn on a2.
  const auto h = play_hostile(fake_engine(dir, "echo 'bestmove a1a5'"), 1.0);
  EXPECT_EQ(h.record.ending, play::Ending::Abandoned);
  EXPECT_EQ(h.record.reason, "White (uci:engine.sh) lost: illegal move 'a1a5' from the engine");
  EXPECT_TRUE(h.record.moves.empty());
  EXPECT_EQ(children_of_us(), before);
  std::filesystem::remove_all(dir);
}

TEST(UciClient, EngineThatPrintsGarbage) {
  const auto dir = temp_dir();
  const int before = children_of_us();
  const auto h = play_hostile(
      fake_engine(dir, "echo '%%% \\001 noise'; echo 'info depth x score cp'; echo 'bestmove @@!'"),
      1.0);
  EXPECT_EQ(h.record.ending, play::Ending::Abandoned);
  EXPECT_EQ(h.record.reason,
            "White (uci:engine.sh) lost: unreadable bestmove '@@!' from the engine");
  EXPECT_EQ(children_of_us(), before);
  std::filesystem::remove_all(dir);
}

TEST(UciClient, EngineWithNoMove) {
  const auto dir = temp_dir();
  const auto h = play_hostile(fake_engine(dir, "echo 'bestmove (none)'"), 1.0);
  EXPECT_EQ(h.record.reason,
            "White (uci:engine.sh) lost: the engine has no move (bestmove (none))");
  std::filesystem::remove_all(dir);
}

TEST(UciClient, EngineWithoutTheVariant) {
  const auto dir = temp_dir();
  // The fake lists only chess and gardner.
  const auto h = play_hostile(fake_engine(dir, "echo 'bestmove b2b3'"), 1.0, ",variant=cs3243");
  EXPECT_NE(h.record.reason.find("lost: the engine does not know variant 'cs3243'"),
            std::string::npos)
      << h.record.reason;
  std::filesystem::remove_all(dir);
}

TEST(UciClient, FakeEngineMovesAreTakenWhenLegal) {
  const auto dir = temp_dir();
  // Always b2b3: legal on the first move only, so the second move is illegal.
  const auto h = play_hostile(
      fake_engine(dir,
                  "echo 'info depth 4 score cp -150 nodes 42 pv b2b3 c4c3'; echo 'bestmove b2b3'"),
      1.0);
  ASSERT_GE(h.record.moves.size(), 2u);
  const auto& first = h.record.moves[0];
  EXPECT_EQ(first.text, "b2b3");
  ASSERT_TRUE(first.report.has_value());
  EXPECT_EQ(first.report->depth, 4);
  EXPECT_EQ(first.report->value, -75);  // -150 cp x kE0Scale / 100, White to move
  EXPECT_EQ(first.report->stats.nodes(), 42u);
  EXPECT_EQ(first.report->pv.front(), "b2b3");
  EXPECT_EQ(h.record.reason, "White (uci:engine.sh) lost: illegal move 'b2b3' from the engine");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace duel::agents
