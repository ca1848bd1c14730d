// `duel uci` (src/duel/uci/server.cpp): the UCI protocol as Stockfish and
// Fairy-Stockfish speak it, driven in-process through a line sink and through
// the built binary, and checked against Fairy-Stockfish where it is installed.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "../support/cli_run.hpp"
#include "duel/core/text.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/uci/server.hpp"

namespace duel::uci {
namespace {

namespace mc = games::minichess;
using Clock = std::chrono::steady_clock;

constexpr const char* kFairy = "/usr/games/fairy-stockfish";

// Collects the server's lines; tests wait for a line with a given start.
class Lines {
 public:
  LineSink sink() {
    return [this](const std::string& line) {
      const std::lock_guard lock(m_mutex);
      m_lines.push_back(line);
      m_cv.notify_all();
    };
  }
  // The first line from index `from` on that starts with `prefix`, waiting up
  // to `seconds`; nullopt if none came.
  std::optional<std::string> wait_for(const std::string& prefix, double seconds,
                                      std::size_t from = 0) {
    std::unique_lock lock(m_mutex);
    std::optional<std::string> found;
    m_cv.wait_for(lock, std::chrono::duration<double>(seconds), [&] {
      for (std::size_t i = from; i < m_lines.size(); ++i) {
        if (m_lines[i].rfind(prefix, 0) == 0) {
          found = m_lines[i];
          return true;
        }
      }
      return false;
    });
    return found;
  }
  std::vector<std::string> all() {
    const std::lock_guard lock(m_mutex);
    return m_lines;
  }
  std::size_t size() {
    const std::lock_guard lock(m_mutex);
    return m_lines.size();
  }
  int count(const std::string& prefix) {
    int n = 0;
    for (const auto& l : all()) n += l.rfind(prefix, 0) == 0 ? 1 : 0;
    return n;
  }

 private:
  std::mutex m_mutex;
  std::condition_variable m_cv;
  std::vector<std::string> m_lines;
};

// The move of a `bestmove X [ponder Y]` line.
std::string best_of(const std::string& line) {
  const auto w = split(line);
  return w.size() >= 2 ? std::string(w[1]) : std::string();
}

// The current position's FEN, as the `d` command prints it.
std::string fen_of(Server& server, Lines& lines) {
  const std::size_t from = lines.size();
  server.handle("d");
  const auto fen = lines.wait_for("Fen: ", 1.0, from);
  return fen ? fen->substr(5) : std::string();
}

// Runs `commands` to the end of a `go` whose search stops by itself and
// returns the bestmove line.
std::string search_line(Server& server, Lines& lines, const std::vector<std::string>& commands) {
  const std::size_t from = lines.size();
  for (const auto& c : commands) EXPECT_TRUE(server.handle(c)) << c;
  server.wait_search();
  const auto best = lines.wait_for("bestmove", 0.1, from);
  return best ? *best : std::string();
}

TEST(UciServer, Handshake) {
  Lines lines;
  Server server(lines.sink());
  server.handle("uci");
  server.handle("isready");
  const auto out = lines.all();
  ASSERT_EQ(out.size(), 8U);
  EXPECT_EQ(out[0].rfind("id name Duel ", 0), 0U);
  EXPECT_EQ(out[1], "id author the Duel developers");
  EXPECT_EQ(out[2],
            "option name UCI_Variant type combo default gardner var gardner var gardner-cs3243 "
            "var minichess-comp472");
  EXPECT_EQ(out[3], "option name Hash type spin default 64 min 1 max 16384");
  EXPECT_EQ(out[4], "option name Threads type spin default 1 min 1 max 64");
  // `default` (each variant's own) first, then Gardner's heuristics in its order.
  EXPECT_EQ(
      out[5],
      "option name Eval type combo default default var default var n1 var e3 var e2 var e1 var e0 "
      "var random");
  EXPECT_EQ(out[6], "uciok");
  EXPECT_EQ(out[7], "readyok");
}

// For each variant (by our name and by Fairy-Stockfish's): the start plus
// two moves, `go depth 3` gives info lines for depths 1..3 and a legal move.
template <class S>
void legal_best_after_moves(const std::string& variant_value) {
  Lines lines;
  Server server(lines.sink());
  S s;
  std::string moves;
  for (int i = 0; i < 2; ++i) {
    typename S::Moves legal;
    s.actions(legal);
    ASSERT_FALSE(legal.empty());
    moves += " " + s.move_text(legal[legal.size() / 2]);
    s = s.result(legal[legal.size() / 2]);
  }
  const std::string best =
      search_line(server, lines,
                  {"setoption name UCI_Variant value " + variant_value, "ucinewgame", "isready",
                   "position startpos moves" + moves, "go depth 3"});
  ASSERT_FALSE(best.empty()) << variant_value;
  EXPECT_TRUE(s.parse_move(best_of(best)).ok()) << variant_value << ": " << best;
  EXPECT_EQ(fen_of(server, lines), s.to_text());
  for (int d = 1; d <= 3; ++d) {
    const auto info = lines.wait_for(fmt::format("info depth {} score ", d), 0.1);
    ASSERT_TRUE(info) << variant_value << " depth " << d;
    EXPECT_NE(info->find(" nodes "), std::string::npos) << *info;
    EXPECT_NE(info->find(" nps "), std::string::npos) << *info;
    EXPECT_NE(info->find(" time "), std::string::npos) << *info;
    EXPECT_NE(info->find(" pv "), std::string::npos) << *info;
  }
  EXPECT_EQ(lines.count("bestmove"), 1);
}

TEST(UciServer, EachVariantStartposMovesDepth3) {
  legal_best_after_moves<mc::GardnerState>("gardner");
  legal_best_after_moves<mc::Cs3243State>("gardner-cs3243");
  legal_best_after_moves<mc::Cs3243State>("cs3243");
  legal_best_after_moves<mc::Comp472State>("minichess-comp472");
  legal_best_after_moves<mc::Comp472State>("COMP472");
}

TEST(UciServer, MovetimeAnswersInBoundedWallTime) {
  Lines lines;
  Server server(lines.sink());
  server.handle("isready");  // the table is made here, as a GUI would have it
  const auto start = Clock::now();
  server.handle("position startpos");
  server.handle("go movetime 200");
  const auto best = lines.wait_for("bestmove", 5.0);
  const double took = std::chrono::duration<double>(Clock::now() - start).count();
  ASSERT_TRUE(best);
  EXPECT_TRUE(mc::GardnerState{}.parse_move(best_of(*best)).ok()) << *best;
  // 200 ms asked: the engine starts no iteration after half of it (its
  // soft limit) and stops at it, polling its clock every 8 nodes. The upper
  // bound is generous for a loaded machine, still far below any "hang".
  EXPECT_GE(took, 0.09);
  EXPECT_LT(took, 1.5);
}

TEST(UciServer, InfiniteOnlyEndsWithStopAndIsreadyAnswersMeanwhile) {
  Lines lines;
  Server server(lines.sink());
  server.handle("position startpos moves b2b3");
  server.handle("go infinite");
  ASSERT_TRUE(lines.wait_for("info depth 1 ", 5.0));
  const std::size_t before = lines.size();
  server.handle("isready");
  EXPECT_TRUE(lines.wait_for("readyok", 1.0, before));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(lines.count("bestmove"), 0);
  const auto start = Clock::now();
  server.handle("stop");  // joins the search: bestmove is out when it returns
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 0.5);
  EXPECT_EQ(lines.count("bestmove"), 1);
  const auto best = lines.wait_for("bestmove", 0.1);
  ASSERT_TRUE(best);
  const mc::GardnerState initial;
  const auto after = initial.result(*initial.parse_move("b2b3"));
  EXPECT_TRUE(after.parse_move(best_of(*best)).ok()) << *best;
  server.handle("stop");  // nothing running: no second bestmove
  EXPECT_EQ(lines.count("bestmove"), 1);
}

TEST(UciServer, InfiniteWaitsForStopEvenWhenTheSearchEnds) {
  Lines lines;
  Server server(lines.sink());
  server.handle("position startpos");
  server.handle("go infinite depth 2");  // done in milliseconds, answers only after stop
  ASSERT_TRUE(lines.wait_for("info depth 2 ", 5.0));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(lines.count("bestmove"), 0);
  EXPECT_FALSE(server.handle("quit"));  // quit stops it too
  EXPECT_EQ(lines.count("bestmove"), 1);
}

TEST(UciServer, GoWhileSearchingAnswersTheFirstGoFirst) {
  Lines lines;
  Server server(lines.sink());
  server.handle("go infinite");
  ASSERT_TRUE(lines.wait_for("info depth 1 ", 5.0));
  server.handle("go depth 2");
  server.wait_search();
  EXPECT_EQ(lines.count("bestmove"), 2);
}

TEST(UciServer, ClockBudgetIsAFractionOfTheClock) {
  // Grid over time left, increment and movestogo (ms).
  for (const long long t : {0LL, 1LL, 10LL, 50LL, 100LL, 1000LL, 60000LL, 3600000LL}) {
    for (const long long inc : {0LL, 100LL, 2000LL, 30000LL}) {
      for (const long long mtg : {0LL, 1LL, 2LL, 10LL, 40LL}) {
        const double b = time_budget(GoClock{t, inc, mtg});
        const double left = static_cast<double>(t) / 1000.0;
        EXPECT_GT(b, 0.0);
        // Never more than half of the clock (the 1 ms floor aside).
        EXPECT_LE(b, std::max(0.001, 0.5 * left)) << t << " " << inc << " " << mtg;
        // And never more than the plan: time/20 + 0.8 * increment.
        EXPECT_LE(b, std::max(0.001, left / 20 + 0.8 * static_cast<double>(inc) / 1000.0));
      }
    }
  }
  EXPECT_EQ(time_budget(GoClock{}), 0.0);                        // no clock: no time limit
  EXPECT_DOUBLE_EQ(time_budget(GoClock{60000, 0, 0}), 3.0);      // 60 s / 20
  EXPECT_DOUBLE_EQ(time_budget(GoClock{60000, 1000, 40}), 2.3);  // 60 s / 40 + 0.8 s
}

TEST(UciServer, ClockOfTheSideToMoveIsUsed) {
  Lines lines;
  Server server(lines.sink());
  server.handle("isready");
  // Black to move with 400 ms left: budget min(0.02, ...) s, however much White has.
  server.handle("position startpos moves b2b3");
  const auto start = Clock::now();
  server.handle("go wtime 3600000 btime 400 winc 0 binc 0");
  ASSERT_TRUE(lines.wait_for("bestmove", 5.0));
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 0.4);
  // White to move with 1 s and 40 moves to go: 25 ms, far under the clock.
  const std::size_t from = lines.size();
  server.handle("position startpos");
  const auto start2 = Clock::now();
  server.handle("go wtime 1000 btime 1 movestogo 40");
  ASSERT_TRUE(lines.wait_for("bestmove", 5.0, from));
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start2).count(), 0.5);
  server.wait_search();
  // Only White's clock while Black moves: Black's time is taken as gone.
  const std::size_t from3 = lines.size();
  server.handle("position startpos moves b2b3");
  const auto start3 = Clock::now();
  server.handle("go wtime 60000");
  ASSERT_TRUE(lines.wait_for("bestmove", 5.0, from3));
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start3).count(), 0.4);
  server.wait_search();
}

// `Eval default` is each variant's own default heuristic: a search with it
// visits exactly the nodes of one with that heuristic named (n1 in gardner
// and gardner-cs3243, e3 in minichess-comp472, games::default_heuristic).
TEST(UciServer, EvalDefaultFollowsTheVariant) {
  const auto nodes_of = [](const std::string& variant, const std::string& eval) {
    Lines lines;
    Server server(lines.sink());
    const std::size_t from = lines.size();
    const std::vector<std::string> commands = {"setoption name UCI_Variant value " + variant,
                                               "setoption name Eval value " + eval,
                                               "position startpos", "go depth 5"};
    for (const auto& c : commands) {
      EXPECT_TRUE(server.handle(c)) << c;
    }
    server.wait_search();
    const auto info = lines.wait_for("info depth 5 ", 0.1, from);
    EXPECT_TRUE(info) << variant << " " << eval;
    if (!info) return std::string();
    const auto at = info->find(" nodes ");
    return info->substr(at, info->find(' ', at + 7) - at);
  };
  EXPECT_EQ(nodes_of("gardner", "default"), nodes_of("gardner", "n1"));
  EXPECT_NE(nodes_of("gardner", "default"), nodes_of("gardner", "e3"));
  EXPECT_EQ(nodes_of("gardner-cs3243", "default"), nodes_of("gardner-cs3243", "n1"));
  EXPECT_NE(nodes_of("gardner-cs3243", "default"), nodes_of("gardner-cs3243", "e3"));
  EXPECT_EQ(nodes_of("minichess-comp472", "default"), nodes_of("minichess-comp472", "e3"));
  EXPECT_NE(nodes_of("minichess-comp472", "default"), nodes_of("minichess-comp472", "e2"));
}

// n1 has no network for COMP 472: chosen there, the search says so and
// uses that variant's default instead (same nodes), and still answers.
TEST(UciServer, EvalNotOfferedInTheVariantFallsBackToItsDefault) {
  const auto run = [](const std::string& eval) {
    Lines lines;
    Server server(lines.sink());
    const std::size_t from = lines.size();
    const std::vector<std::string> commands = {"setoption name UCI_Variant value minichess-comp472",
                                               "setoption name Eval value " + eval,
                                               "position startpos", "go depth 4"};
    for (const auto& c : commands) {
      EXPECT_TRUE(server.handle(c)) << c;
    }
    server.wait_search();
    EXPECT_TRUE(lines.wait_for("bestmove ", 1.0, from)) << eval;
    const auto info = lines.wait_for("info depth 4 ", 0.1, from);
    const bool note =
        lines.wait_for("info string Eval: 'n1' is not offered", 0.1, from).has_value();
    if (!info) return std::make_pair(std::string(), note);
    const auto at = info->find(" nodes ");
    return std::make_pair(info->substr(at, info->find(' ', at + 7) - at), note);
  };
  const auto [n1_nodes, n1_note] = run("n1");
  const auto [e3_nodes, e3_note] = run("e3");
  EXPECT_TRUE(n1_note);
  EXPECT_FALSE(e3_note);
  EXPECT_FALSE(n1_nodes.empty());
  EXPECT_EQ(n1_nodes, e3_nodes);
}

TEST(UciServer, BadInputGetsOneInfoStringAndChangesNothing) {
  Lines lines;
  Server server(lines.sink());
  server.handle("position startpos moves b2b3");
  const std::string fen = fen_of(server, lines);
  const std::vector<std::string> bad = {
      "position startpos moves c2c3 a4a3 e1e5",  // the third move is illegal
      "position startpos moves b2b4",            // no double step on 5x5
      "position fen rnbqk/ppppp/5/PPPPP w - - 0 1",
      "position fen",
      "position fen xyz moves b2b3",
      "position",
      "position somewhere",
      "position startpos b2b3",
      "setoption name Foo value 1",
      "setoption name Hash value 0",
      "setoption name Hash value lots",
      "setoption name Threads value 0",
      "setoption name Threads value 65",
      "setoption name Threads value x",
      "setoption name Threads",
      "setoption name UCI_Variant value chess",
      "setoption name Eval value e9",
      "setoption name Eval",
      "setoption value 3",
      "go depth x",
      "go depth 0",
      "go nodes -5",
      "go perft 99",
      "go sideways",
      "garbage",
      "gO depth 3",
      std::string("bad\x01line\x7f"),
  };
  for (const auto& line : bad) {
    const std::size_t from = lines.size();
    EXPECT_TRUE(server.handle(line)) << line;
    const auto out = lines.all();
    ASSERT_EQ(out.size(), from + 1) << line;
    EXPECT_EQ(out[from].rfind("info string ", 0), 0U) << line << " -> " << out[from];
    EXPECT_EQ(out[from].find('\n'), std::string::npos);
    EXPECT_EQ(out[from].find('\x01'), std::string::npos);
  }
  // Empty and blank lines are skipped silently, as Stockfish does.
  for (const std::string line : {"", "   ", "\t", "\r"}) {
    const std::size_t from = lines.size();
    EXPECT_TRUE(server.handle(line));
    EXPECT_EQ(lines.size(), from);
  }
  EXPECT_EQ(fen_of(server, lines), fen);
  EXPECT_EQ(lines.count("bestmove"), 0);
  // Still an engine: a search from the unchanged position.
  const auto best = search_line(server, lines, {"go depth 2"});
  const mc::GardnerState start;
  const auto after = start.result(*start.parse_move("b2b3"));
  EXPECT_TRUE(after.parse_move(best_of(best)).ok()) << best;
  // Names of options ignore case; values of combos too.
  const std::size_t from = lines.size();
  server.handle("setoption name hash value 2");
  server.handle("setoption name threads value 2");
  server.handle("setoption name EVAL value E0");
  EXPECT_EQ(lines.size(), from);
  // A variant is confirmed as Fairy-Stockfish confirms one (UCI clients
  // check for it): one `info string variant NAME ...` line.
  server.handle("setoption name uci_variant value Gardner-CS3243");
  ASSERT_EQ(lines.size(), from + 1);
  EXPECT_EQ(lines.all()[from].rfind("info string variant Gardner-CS3243 ", 0), 0U)
      << lines.all()[from];
}

TEST(UciServer, TerminalPositionsAnswerBestmoveNone) {
  // Positions and answers as Fairy-Stockfish 11.1 gives them (run by hand:
  // `setoption name UCI_Variant value gardner`, `position fen ...`, `go depth 3`):
  // checkmated -> `info depth 0 score mate 0`, stalemated -> `score cp 0`,
  // each followed by `bestmove (none)`.
  struct Case {
    std::string variant;
    std::string position;
    std::string score;
  };
  const std::vector<Case> cases = {
      {"gardner", "fen kQ3/2K2/5/5/5 b - - 1 1", "info depth 0 score mate 0"},
      {"gardner", "fen k4/2Q2/5/5/4K b - - 0 1", "info depth 0 score cp 0"},
      // Threefold repetition: the knights go out and back twice, so the
      // start occurs a third time (the history lives in the state).
      {"gardner", "startpos moves b1c3 b5a3 c3b1 a3b5 b1c3 b5a3 c3b1 a3b5",
       "info depth 0 score cp 0"},
      // COMP 472: Black's king is gone (captured).
      {"comp472", "fen 5/2K2/5/5/1Q3 b - - 0 1", "info depth 0 score mate 0"},
  };
  for (const auto& c : cases) {
    Lines lines;
    Server server(lines.sink());
    const std::string best = search_line(
        server, lines,
        {"setoption name UCI_Variant value " + c.variant, "position " + c.position, "go depth 3"});
    EXPECT_EQ(best, "bestmove (none)") << c.position;
    EXPECT_TRUE(lines.wait_for(c.score, 0.1)) << c.position;
    EXPECT_EQ(lines.count("bestmove"), 1);
  }
  // `go infinite` in a finished game still waits for stop.
  Lines lines;
  Server server(lines.sink());
  server.handle("position fen kQ3/2K2/5/5/5 b - - 1 1");
  server.handle("go infinite");
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(lines.count("bestmove"), 0);
  server.handle("stop");
  EXPECT_EQ(lines.count("bestmove (none)"), 1);
}

TEST(UciServer, ThreadsOptionSearchesWithHelpers) {
  // `setoption name Threads value 2` is taken silently, as Hash is; the
  // mate in one of the next test (b1a1 or b1b5) is still found, and the
  // `nodes` of the info lines add up both threads.
  Lines lines;
  Server server(lines.sink());
  server.handle("setoption name Threads value 2");
  EXPECT_EQ(lines.size(), 0U) << ::testing::PrintToString(lines.all());
  const std::string best =
      search_line(server, lines, {"position fen k4/2K2/5/5/1Q3 w - - 0 1", "go depth 3"});
  EXPECT_TRUE(best_of(best) == "b1a1" || best_of(best) == "b1b5") << best;
  const std::size_t from = lines.size();
  server.handle("setoption name Foo value 1");
  ASSERT_EQ(lines.size(), from + 1);
  EXPECT_EQ(lines.all()[from],
            "info string unknown option: Foo (known: UCI_Variant, Hash, Threads, Eval)");
  // Back to one thread, then a timed search: a legal move inside the time.
  server.handle("setoption name Threads value 1");
  EXPECT_EQ(lines.size(), from + 1);
  server.handle("setoption name Threads value 2");
  const std::string timed = search_line(server, lines, {"position startpos", "go movetime 20"});
  EXPECT_TRUE(mc::GardnerState().parse_move(best_of(timed)).ok()) << timed;
}

TEST(UciServer, MateInOneIsReportedAsMate1WithTheMatingMove) {
  // White Kc4, Qb1; Black Ka5. Fairy-Stockfish 11.1 (`go depth 5`, gardner)
  // prints `score mate 1 ... pv b1a1`; its `go perft 1` lists 18 moves, of
  // which b1a1 and b1b5 mate.
  Lines lines;
  Server server(lines.sink());
  const std::string fen = "k4/2K2/5/5/1Q3 w - - 0 1";
  const std::string best = search_line(server, lines, {"position fen " + fen, "go depth 3"});
  const auto s = mc::GardnerState::from_fen(fen);
  ASSERT_TRUE(s.ok());
  const auto m = s->parse_move(best_of(best));
  ASSERT_TRUE(m.ok()) << best;
  EXPECT_EQ(s->result(*m).ending(), mc::Ending::Checkmate) << best;
  EXPECT_TRUE(best_of(best) == "b1a1" || best_of(best) == "b1b5") << best;
  // The last iteration reports it (a proven mate stops the deepening early:
  // with mate-distance pruning no other line needs a heuristic at depth 2).
  std::optional<std::string> info;
  for (const auto& line : lines.all()) {
    if (line.rfind("info depth ", 0) == 0) info = line;
  }
  ASSERT_TRUE(info && info->find(" score mate 1 ") != std::string::npos)
      << ::testing::PrintToString(lines.all());
  EXPECT_NE(info->find(" pv " + best_of(best)), std::string::npos) << *info;
  // The loser's view: mated after its move and the winner's (2 plies) = `mate -1`,
  // as Stockfish counts moves; one pawn = 100 cp.
  EXPECT_EQ(score_text(-win_in(2)), "mate -1");
  EXPECT_EQ(score_text(win_in(3)), "mate 2");
  EXPECT_EQ(score_text(mc::kE0Scale), "cp 100");  // one pawn
  EXPECT_EQ(score_text(-3 * mc::kE0Scale / 2), "cp -150");
}

TEST(UciServer, PerftMatchesTheGameAndFairyStockfishsFormat) {
  // 18 moves: Fairy-Stockfish 11.1's `go perft 1` on this position (above).
  Lines lines;
  Server server(lines.sink());
  server.handle("position fen k4/2K2/5/5/1Q3 w - - 0 1");
  server.handle("go perft 1");
  const auto out = lines.all();
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(out.back(), "Nodes searched: 18");
  EXPECT_EQ(lines.count("bestmove"), 0);
}

TEST(UciServer, VariantSwitchResetsThePosition) {
  Lines lines;
  Server server(lines.sink());
  server.handle("position startpos moves b2b3");
  server.handle("setoption name UCI_Variant value minichess-comp472");
  EXPECT_EQ(fen_of(server, lines), mc::Comp472State{}.to_text());
  server.handle("setoption name UCI_Variant value gardner");
  EXPECT_EQ(fen_of(server, lines), mc::GardnerState{}.to_text());
  // A gardner FEN with a rook is bad input in COMP 472 (no rooks there).
  server.handle("setoption name UCI_Variant value comp472");
  const std::size_t from = lines.size();
  server.handle("position fen rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1");
  EXPECT_TRUE(lines.wait_for("info string position: ", 0.1, from));
  EXPECT_EQ(fen_of(server, lines), mc::Comp472State{}.to_text());
}

TEST(UciServer, StreamsRunUntilQuitOrEndOfInput) {
  {
    std::istringstream in("uci\nisready\nquit\nisready\n");
    std::ostringstream out;
    Server server(out);
    server.run(in);
    EXPECT_EQ(out.str().find("readyok"), out.str().rfind("readyok"));  // nothing after quit
    EXPECT_NE(out.str().find("uciok\n"), std::string::npos);
  }
  {
    // End of input during a search: it is stopped and still answers once.
    std::istringstream in("position startpos\ngo infinite\n");
    std::ostringstream out;
    Server server(out);
    server.run(in);
    const std::string text = out.str();
    EXPECT_NE(text.find("bestmove "), std::string::npos) << text;
    EXPECT_EQ(text.find("bestmove "), text.rfind("bestmove "));
  }
}

TEST(UciServer, BinarySpeaksUciOnStdinAndStdout) {
  // End of input stops `go infinite` (Stockfish's behaviour); exit status 0.
  const auto r =
      test_support::duel("uci", "uci\nisready\nfoo\nposition startpos moves b2b3\ngo infinite\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("uciok\n"), std::string::npos);
  EXPECT_NE(r.out.find("readyok\n"), std::string::npos);
  EXPECT_NE(r.out.find("info string unknown command: foo\n"), std::string::npos) << r.out;
  const auto at = r.out.find("bestmove ");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_EQ(at, r.out.rfind("bestmove "));
  const auto q = test_support::duel("uci", "quit\n");
  EXPECT_EQ(q.status, 0);
  EXPECT_TRUE(q.out.empty()) << q.out;
}

// Fairy-Stockfish's legal moves (`go perft 1`) for each `position` line, in
// the variant `variant` (its names; cs3243 and comp472 from variants.ini).
std::vector<std::set<std::string>> fairy_moves(const std::string& variant,
                                               const std::vector<std::string>& positions) {
  namespace fs = std::filesystem;
  const auto stamp = std::to_string(::getpid()) + "-" + variant;
  const auto in_path = fs::temp_directory_path() / ("duel-uci-fairy-in-" + stamp);
  const auto out_path = fs::temp_directory_path() / ("duel-uci-fairy-out-" + stamp);
  {
    std::ofstream in(in_path);
    in << "uci\nsetoption name VariantPath value " << DUEL_SOURCE_DIR
       << "/tests/data/fairy-stockfish/variants.ini\nsetoption name UCI_Variant value " << variant
       << "\n";
    for (const auto& p : positions) in << "position " << p << "\ngo perft 1\n";
    in << "quit\n";
  }
  const std::string cmd =
      std::string(kFairy) + " < " + in_path.string() + " > " + out_path.string() + " 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  std::vector<std::set<std::string>> out;
  std::set<std::string> current;
  std::ifstream result(out_path);
  std::string line;
  while (std::getline(result, line)) {
    if (line.rfind("Nodes searched:", 0) == 0) {
      out.push_back(current);
      current.clear();
    } else if (const auto colon = line.find(": ");
               colon != std::string::npos && colon <= 5 && line.find(' ') == colon + 1) {
      current.insert(line.substr(0, colon));
    }
  }
  fs::remove(in_path);
  fs::remove(out_path);
  return out;
}

TEST(UciServer, BestmovesAreLegalForFairyStockfish) {
  if (!std::filesystem::exists(kFairy)) GTEST_SKIP() << kFairy << " is not installed";
  struct Set {
    std::string ours;
    std::string theirs;
    std::vector<std::string> positions;
  };
  const std::vector<Set> sets = {
      {"gardner",
       "gardner",
       {"startpos", "startpos moves b2b3 c4b3 a2b3", "fen k4/2K2/5/5/1Q3 w - - 0 1",
        "fen r3k/1pq2/p1n1p/PP1P1/R2QK w - - 0 12", "startpos moves e2e3 a4a3 b1c3"}},
      {"gardner-cs3243",
       "cs3243",
       {"startpos", "startpos moves c2c3 b4b3", "fen 1nbqk/P1ppp/5/1PPPP/RNBQK b - - 0 5"}},
      {"minichess-comp472",
       "comp472",
       {"startpos", "startpos moves b2b3 d4d3 c2d3", "fen k4/2pp1/5/1PP2/1NBQK b - - 0 3"}},
  };
  for (const auto& set : sets) {
    const auto legal = fairy_moves(set.theirs, set.positions);
    ASSERT_EQ(legal.size(), set.positions.size()) << set.theirs;
    Lines lines;
    Server server(lines.sink());
    server.handle("setoption name UCI_Variant value " + set.ours);
    for (std::size_t i = 0; i < set.positions.size(); ++i) {
      const std::size_t from = lines.size();
      const std::string best =
          search_line(server, lines, {"position " + set.positions[i], "go depth 4"});
      // No bad-input line: the position was accepted as Fairy-Stockfish's.
      for (std::size_t k = from; k < lines.size(); ++k) {
        EXPECT_NE(lines.all()[k].rfind("info string", 0), 0U) << lines.all()[k];
      }
      EXPECT_TRUE(legal[i].count(best_of(best)) == 1)
          << set.ours << " " << set.positions[i] << ": " << best;
    }
  }
}

}  // namespace
}  // namespace duel::uci
