// The Texel tuner (tune/texel.hpp), heuristic e3's features
// (games/minichess/linear_eval.hpp) and `duel tune`: the tuner recovers a
// known linear model from its own predictions, e3 is colour-symmetric and
// starts as e2, and the command's bad input is one line with status 2.
// Whether the tuned e3 plays better is an arena question (docs/tuning.md).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "../support/cli_run.hpp"
#include "../support/minichess_positions.hpp"
#include "duel/core/rng.hpp"
#include "duel/games/checkers/linear_eval.hpp"
#include "duel/games/minichess/linear_eval.hpp"
#include "duel/tune/texel.hpp"

namespace duel {
namespace {

using test_support::CliRun;

// Step 1. The tuner on synthetic data: rows of small random features whose
// labels are sigmoid(K w* · f) for known w* and K, so w* has error 0.
struct Synthetic {
  tune::Dataset data{6};
  std::vector<double> truth = {120.0, -45.0, 30.0, 250.0, 8.0, 0.0};
  double k = 0.01;
};

Synthetic synthetic(int rows, std::uint64_t seed) {
  Synthetic s;
  Rng rng(seed);
  for (int r = 0; r < rows; ++r) {
    std::vector<double> f(6, 0.0);
    for (int i = 0; i < 5; ++i)
      f[static_cast<std::size_t>(i)] = static_cast<double>(rng.between(-3, 3));
    f[3] /= 2.0;  // a fractional feature, as e3's capture gains in pawns
    // Feature 5 never occurs: its weight cannot be fitted and must stay.
    double e = 0.0;
    for (int i = 0; i < 6; ++i)
      e += s.truth[static_cast<std::size_t>(i)] * f[static_cast<std::size_t>(i)];
    s.data.add(f, tune::sigmoid(s.k * e));
  }
  return s;
}

TEST(Texel, RecoversKnownWeightsFromTheirPredictions) {
  const Synthetic s = synthetic(3000, 7);
  std::vector<double> w = {100.0, 0.0, 0.0, 200.0, 0.0, 17.0};  // a rough start
  tune::TexelOptions o;
  o.iterations = 1500;
  o.learning_rate = 2.0;
  o.k = s.k;
  const tune::TexelReport r = tune::fit(s.data, w, o);
  EXPECT_GT(r.error_before, 1e-3);
  EXPECT_LT(r.error_after, 1e-6);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_NEAR(w[i], s.truth[i], 1.0) << "weight " << i;
  EXPECT_EQ(w[5], 17.0);  // never seen: untouched
}

TEST(Texel, FitsTheScaleAndIsDeterministic) {
  const Synthetic s = synthetic(2000, 11);
  EXPECT_NEAR(tune::fit_scale(s.data, s.truth), s.k, 1e-5);
  // With the scale fitted to the start, the same data gives the same bits.
  std::vector<double> a = {100.0, 0.0, 0.0, 200.0, 0.0, 0.0};
  std::vector<double> b = a;
  tune::TexelOptions o;
  o.iterations = 200;
  const auto ra = tune::fit(s.data, a, o);
  const auto rb = tune::fit(s.data, b, o);
  EXPECT_EQ(a, b);
  EXPECT_EQ(ra.k, rb.k);
  EXPECT_LT(ra.error_after, ra.error_before);
}

// Step 2. e3 on positions from random games of every rule set.
namespace mc = games::minichess;

// The non-terminal positions of 40 random games of at most 60 plies.
template <class S, class F>
int on_random_positions(std::uint64_t seed, F&& f) {
  return test_support::on_random_positions<S>(seed, 40, 60, std::forward<F>(f));
}

template <class S>
void expect_symmetric_and_in_range(std::uint64_t seed) {
  const mc::E3 e3;
  const int n = on_random_positions<S>(seed, [&](const S& s) {
    const auto flipped = S::from_fen(test_support::flip_fen(s.to_text()),
                                     s.draw_limit_plies() / S::RuleSet::kPliesPerLimitUnit);
    ASSERT_TRUE(flipped.ok()) << s.to_text();
    const auto f = mc::e3::features(s);
    const auto g = mc::e3::features(*flipped);
    for (int i = 0; i < mc::e3::kFeatures; ++i) {
      ASSERT_EQ(g[static_cast<std::size_t>(i)], -f[static_cast<std::size_t>(i)])
          << mc::e3::feature_name(i) << " " << s.to_text();
    }
    const Value v = e3(s);
    ASSERT_EQ(e3(*flipped), -v) << s.to_text();
    // Play sums fixed-point integers, the tuner doubles: the same value to
    // within the rounding of the weights (1/1024 centipawn each) and the cut
    // to a whole Value (towards zero, as e1's and e2's).
    const double cp = mc::e3::centipawns(s, mc::e3::tuned_weights<typename S::RuleSet>());
    ASSERT_NEAR(v, std::clamp(cp * mc::kE0Scale / 100.0, -1e9, 1e9), 1.5) << s.to_text();
    ASSERT_LE(std::abs(v), search::clamp_estimate(kUnit)) << s.to_text();
  });
  EXPECT_GT(n, 400);
}

TEST(E3, ColourFlipNegatesEveryFeatureAndTheEvalAndStaysInRange) {
  expect_symmetric_and_in_range<mc::GardnerState>(1);
  expect_symmetric_and_in_range<mc::Cs3243State>(2);
  expect_symmetric_and_in_range<mc::Comp472State>(3);
}

// The starting weights are e2's terms: the tuner's "error before" is e2's.
template <class S>
void expect_start_is_e2(std::uint64_t seed) {
  using Rules = typename S::RuleSet;
  const mc::E2 e2;
  on_random_positions<S>(seed, [&](const S& s) {
    const double cp = mc::e3::centipawns(s, mc::e3::start_weights<Rules>());
    // e2 rounds towards zero in a few places (a capture's 9/10, the clock):
    // a few centipawns.
    ASSERT_NEAR(cp * mc::kE0Scale / 100.0, e2(s), 4.0) << s.to_text();
  });
}

TEST(E3, StartingWeightsAreE2) {
  expect_start_is_e2<mc::GardnerState>(4);
  expect_start_is_e2<mc::Cs3243State>(5);
  expect_start_is_e2<mc::Comp472State>(6);
}

// Pawn structure, counted square by square: e3 counts it with file masks.
TEST(E3, PawnStructureMatchesACountSquareBySquare) {
  on_random_positions<mc::GardnerState>(7, [](const mc::GardnerState& s) {
    const auto& p = s.position();
    std::array<int, 2> doubled{};
    std::array<int, 2> isolated{};
    std::array<std::array<int, 2>, mc::kRanks> passed{};
    for (int side = 0; side < 2; ++side) {
      const auto us = static_cast<Player>(side);
      const mc::Bitboard own = p.pieces(us, mc::Piece::Pawn);
      const mc::Bitboard enemy = p.pieces(other(us), mc::Piece::Pawn);
      const auto on_file = [](mc::Bitboard b, int f) {
        int n = 0;
        for (int r = 0; r < mc::kRanks; ++r) n += (b >> mc::square(f, r)) & 1U;
        return n;
      };
      for (int f = 0; f < mc::kFiles; ++f) {
        const int n = on_file(own, f);
        if (n > 1) doubled[static_cast<std::size_t>(side)] += n - 1;
        const int next = (f > 0 ? on_file(own, f - 1) : 0) + (f < 4 ? on_file(own, f + 1) : 0);
        if (next == 0) isolated[static_cast<std::size_t>(side)] += n;
      }
      for (int sq = 0; sq < mc::kSquares; ++sq) {
        if (((own >> sq) & 1U) == 0) continue;
        bool free = true;
        for (int other_sq = 0; other_sq < mc::kSquares; ++other_sq) {
          const int df = mc::file_of(other_sq) - mc::file_of(sq);
          const int ahead = (mc::rank_of(other_sq) - mc::rank_of(sq)) * (side == 0 ? 1 : -1);
          if (((enemy >> other_sq) & 1U) != 0 && df >= -1 && df <= 1 && ahead > 0) free = false;
        }
        const int rank = side == 0 ? mc::rank_of(sq) : mc::kRanks - 1 - mc::rank_of(sq);
        if (free) ++passed[static_cast<std::size_t>(rank)][static_cast<std::size_t>(side)];
      }
    }
    const auto f = mc::e3::features(s);
    ASSERT_EQ(f[mc::e3::kDoubled], doubled[0] - doubled[1]) << s.to_text();
    ASSERT_EQ(f[mc::e3::kIsolated], isolated[0] - isolated[1]) << s.to_text();
    for (int r = 0; r < mc::kRanks; ++r) {
      const auto& n = passed[static_cast<std::size_t>(r)];
      ASSERT_EQ(f[static_cast<std::size_t>(mc::e3::kPassed + r)], n[0] - n[1]) << s.to_text();
    }
  });
}

// The threat and king-danger terms on positions counted by hand (each
// term White's count minus Black's).
TEST(E3, ThreatTermsMatchPositionsCountedByHand) {
  struct Case {
    const char* fen;
    std::array<int, 12> want;  // hanging, pawn, minor, rook, push threat: the mover's (White's),
                               // the other's; king danger, passed free
  };
  const std::array<Case, 3> cases = {{
      // Black's knight attacks b2, which nothing defends; b2-b3 would attack
      // the knight from a square Black does not hold; Black's knight and rook
      // attack d1 and d2 beside White's king: 2 squares x 2 attackers.
      {"k2r1/2n2/5/1P3/4K w - - 0 1", {0, 0, 0, 0, 1, -1, 0, 0, 0, 0, -4, 1}},
      // c3 attacks the queen and the rook; the knight attacks the rook; only
      // White's rook hangs; d4 beside Black's king is attacked by 3 pieces,
      // b1 and b2 beside White's by the queen.
      {"4k/1q1r1/2P2/3RN/K4 w - - 0 1", {0, 2, 1, 0, 0, -1, 0, 0, 0, 0, 1, 1}},
      // The rook attacks the queen and the queen the rook, neither defended;
      // the rook attacks e4 and e5 beside Black's king, the queen three squares
      // beside White's.
      {"3k1/5/1q2R/5/K4 w - - 0 1", {1, 0, 0, 1, 0, -1, 0, 0, 0, 0, -1, 0}},
  }};
  for (const Case& c : cases) {
    const auto s = mc::GardnerState::from_fen(c.fen);
    ASSERT_TRUE(s.ok()) << c.fen;
    const auto f = mc::e3::features(*s);
    for (int i = 0; i < static_cast<int>(c.want.size()); ++i) {
      EXPECT_EQ(f[static_cast<std::size_t>(mc::e3::kHanging + i)],
                c.want[static_cast<std::size_t>(i)])
          << mc::e3::feature_name(mc::e3::kHanging + i) << " " << c.fen;
    }
  }
}

TEST(E3, SelectableByNameInEveryRuleSet) {
  EXPECT_TRUE(games::with_heuristic<mc::GardnerState>("e3", 0, [](auto) {}));
  EXPECT_TRUE(games::with_heuristic<mc::Cs3243State>("e3", 0, [](auto) {}));
  EXPECT_TRUE(games::with_heuristic<mc::Comp472State>("e3", 0, [](auto) {}));
}

// Step 3. `duel tune` from the command line.
int lines(const std::string& s) {
  return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

void expect_bad_input(const std::string& args, const std::string& needle,
                      const std::map<std::string, std::string>& files = {}) {
  const CliRun r = test_support::duel(args, "", files);
  EXPECT_EQ(r.status, 2) << args << "\nstderr: " << r.err;
  EXPECT_EQ(lines(r.err), 1) << args << "\nstderr: " << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << args << "\nstderr: " << r.err;
}

const std::string kGame =
    R"({"game":"gardner","start":"rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1","moves":[{"move":"b2b3"},)"
    R"({"move":"a4a3"}],"payoff":0})";

TEST(TuneCli, BadInputIsOneLine) {
  expect_bad_input("tune gardner --records missing.jsonl", "cannot read missing.jsonl");
  expect_bad_input("tune chess --records g.jsonl", "unknown game 'chess'", {{"g.jsonl", kGame}});
  expect_bad_input("tune nqueens:n=8,variant=2 --records g.jsonl",
                   "only the 5x5 chess rule sets (e3) and checkers (tuned)", {{"g.jsonl", kGame}});
  expect_bad_input("tune checkers --records g.jsonl", "line 1: a game of 'gardner', not checkers",
                   {{"g.jsonl", kGame}});
  expect_bad_input("tune gardner --records g.jsonl", "g.jsonl line 3: not valid JSON",
                   {{"g.jsonl", kGame + "\n\n{\"game\": oops\n"}});
  expect_bad_input("tune gardner --records g.jsonl", "line 1: ply 2: ",
                   {{"g.jsonl", R"({"game":"gardner","start":"rnbqk/ppppp/5/PPPPP/RNBQK w - - )"
                                R"(0 1","moves":[{"move":"b2b3"},{"move":"b2b3"}],"payoff":1})"}});
  expect_bad_input("tune gardner-cs3243 --records g.jsonl", "not gardner-cs3243",
                   {{"g.jsonl", kGame}});
  expect_bad_input("tune gardner --records g.jsonl", "no \"payoff\"",
                   {{"g.jsonl", R"({"game":"gardner","start":"5/5/5/5/5 w - - 0 1","moves":[]})"}});
  expect_bad_input("tune gardner --records g.jsonl --iterations 5", "no positions to tune on",
                   {{"g.jsonl", kGame}});
}

TEST(TuneCli, LeavesOutForfeitedGames) {
  // The same game twice, once ended by the rules and once forfeited (an
  // agent that gave up): only the first one's positions count.
  std::string forfeit = kGame;
  forfeit.insert(forfeit.size() - 1, R"(,"ending":"abandoned")");
  const std::string played = R"({"ending":"rules",)" + kGame.substr(1);
  const CliRun r = test_support::duel(
      "tune gardner --records g.jsonl --skip-plies 0 --validation 0 --iterations 5 --json", "",
      {{"g.jsonl", played + "\n" + forfeit + "\n"}});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["games"], 1) << r.out;
  EXPECT_EQ(j["forfeited_games"], 1) << r.out;
  EXPECT_EQ(j["positions"], 2) << r.out;  // the two quiet plies of the played game
  std::string bad = kGame;
  bad.insert(bad.size() - 1, R"(,"ending":7)");
  expect_bad_input("tune gardner --records g.jsonl", "line 1: \"ending\" is not text",
                   {{"g.jsonl", bad}});
}

TEST(TuneCli, ScoreWeightBlendsTheReportedScoresAndStartChoosesTheStart) {
  // Games of two searching engines (every move reports a value), tuned with
  // the target's score share 0, 1 and 0.5 and no steps, so each error is the
  // starting weights' against other targets.
  std::string command =
      "arena gardner --agent engine:depth=1 --agent engine:depth=1,eval=e1 --games 8 "
      "--openings random:plies=6 --seed 5 --records g.jsonl --json >/dev/null";
  for (const char* w : {"0", "1", "0.5"}) {
    command += std::string(" && '" DUEL_BIN "' tune gardner --records g.jsonl --skip-plies 0 ") +
               "--validation 0 --iterations 0 --json --score-weight " + w + " > w" + w + ".json";
  }
  command += " && '" DUEL_BIN
             "' tune gardner --records g.jsonl --skip-plies 0 --validation 0 --iterations 0 "
             "--json --start tuned > tuned.json";
  const CliRun r = test_support::duel(command, "");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto parsed = [&](const std::string& name) {
    return nlohmann::json::parse(r.files.count(name) != 0 ? r.files.at(name) : "", nullptr, false);
  };
  const auto results = parsed("w0.json");
  const auto scores = parsed("w1.json");
  const auto half = parsed("w0.5.json");
  ASSERT_FALSE(results.is_discarded() || scores.is_discarded() || half.is_discarded());
  EXPECT_EQ(results["scored"], 0);
  EXPECT_GT(scores["scored"].get<int>(), 0);
  EXPECT_EQ(scores["scored"], scores["fitted"]);
  EXPECT_EQ(half["scored"], scores["scored"]);
  // K is fitted to the results whatever the targets.
  EXPECT_DOUBLE_EQ(results["k"].get<double>(), scores["k"].get<double>());
  // The targets are linear in the weight, so the error at 0.5 is the mean of
  // the errors at 0 and 1 less a quarter of mean((score - result)^2) > 0.
  const double e0 = results["error_before"].get<double>();
  const double e1 = scores["error_before"].get<double>();
  EXPECT_NE(e0, e1);
  EXPECT_LT(half["error_before"].get<double>(), (e0 + e1) / 2);
  // --start tuned begins from the weights this build plays, not e2's terms.
  const auto tuned = parsed("tuned.json");
  ASSERT_FALSE(tuned.is_discarded());
  EXPECT_NE(tuned["error_before"].get<double>(), e0);
  expect_bad_input("tune gardner --records g.jsonl --start e9", "--start", {{"g.jsonl", kGame}});
  expect_bad_input("tune gardner --records g.jsonl --score-weight 1.5", "--score-weight",
                   {{"g.jsonl", kGame}});
}

TEST(TuneCli, WritesItsRuleSetsBlockAndKeepsTheOthers) {
  // Random games make the data; --out names a header holding another rule
  // set's block, which must survive.
  const std::string other = "// BEGIN minichess-comp472\n// kept\n// END minichess-comp472\n";
  const std::string header =
      "#pragma once\nnamespace duel::games::minichess::e3 {\n\n" + other + "\n}\n";
  const CliRun r = test_support::duel(
      "arena gardner --agent random:seed=1 --agent random:seed=2 --games 4 --records g.jsonl "
      "--json >/dev/null && '" DUEL_BIN
      "' tune gardner --records g.jsonl --iterations 20 "
      "--validation 2 --out w.hpp",
      "", {{"w.hpp", header}});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string w = r.files.count("w.hpp") != 0 ? r.files.at("w.hpp") : "";
  EXPECT_NE(w.find("inline constexpr Weights kWeights<Gardner> = {"), std::string::npos) << w;
  EXPECT_NE(w.find("// Written by: duel tune gardner --records g.jsonl --iterations 20 --rate 1 "
                   "--l2 1e-08 --skip-plies 4 --validation 2"),
            std::string::npos)
      << w;
  EXPECT_LT(w.find("// END gardner"), w.find(other)) << w;
  EXPECT_NE(r.err.find("4 games"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("K = "), std::string::npos) << r.err;
}

TEST(TuneCli, SelectChoosesThePositionsByTheMovePlayedOrByQuiescence) {
  // A rook takes a queen a pawn defends, the pawn takes back, a king steps:
  // two of the three positions had a capture played. By the move played
  // (the default) only the last counts; resolved, all three do, the first
  // two by where their quiescence ends (the exchange played out).
  const std::string game =
      R"({"game":"gardner","start":"4k/1p3/2q2/4K/2R2 w - - 0 1","moves":[{"move":"c1c3"},)"
      R"({"move":"b4c3"},{"move":"e2e1"}],"payoff":1})";
  // The same start, where White steps aside instead: a quiet move played
  // while quiescence would take the queen.
  const std::string aside =
      R"({"game":"gardner","start":"4k/1p3/2q2/4K/2R2 w - - 0 1","moves":[{"move":"e2d1"}],)"
      R"("payoff":0})";
  const std::string base =
      "tune gardner --records g.jsonl --skip-plies 0 --validation 0 --json --iterations 0";
  const auto run = [&](const std::string& records, const std::string& select) {
    const CliRun r = test_support::duel(base + select, "", {{"g.jsonl", records}});
    EXPECT_EQ(r.status, 0) << select << ": " << r.err;
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r.out;
    return j;
  };
  const auto played = run(game, "");
  EXPECT_EQ(played["positions"], 1) << played;
  EXPECT_EQ(played["resolved"], 0) << played;
  const auto resolved = run(game, " --select resolved");
  EXPECT_EQ(resolved["positions"], 3) << resolved;
  EXPECT_EQ(resolved["resolved"], 2) << resolved;
  EXPECT_EQ(resolved["ended_in_quiescence"], 0) << resolved;
  // All three end in the same position (White has given a rook for the
  // queen and is to move), so the error is that one row's, three times: the
  // same as the quiet position's alone.
  EXPECT_DOUBLE_EQ(resolved["error_before"].get<double>(), played["error_before"].get<double>());
  // With the second game: the move played counts its start (quiet move),
  // quiet does not (quiescence takes the queen), resolved counts its end.
  const std::string both = game + "\n" + aside + "\n";
  EXPECT_EQ(run(both, "")["positions"], 2);
  EXPECT_EQ(run(both, " --select quiet")["positions"], 1);
  EXPECT_EQ(run(both, " --select resolved")["positions"], 4);
  // The header names the option; a bad one is one line.
  const CliRun header = test_support::duel(
      "tune gardner --records g.jsonl --skip-plies 0 --validation 0 --iterations 0 --select quiet",
      "", {{"g.jsonl", game}});
  ASSERT_EQ(header.status, 0) << header.err;
  EXPECT_NE(header.out.find("--skip-plies 0 --validation 0 --select quiet\n"), std::string::npos)
      << header.out;
  expect_bad_input("tune gardner --records g.jsonl --select all", "--select", {{"g.jsonl", game}});
}

TEST(TuneCli, PositionsOutWritesEveryPositionTaken) {
  // Two games of random agents; every position taken is one line, held out
  // or not, with its result, its mover's score (none: random agents report
  // none) and the draw clock's scale.
  const CliRun r = test_support::duel(
      "arena gardner --agent random:seed=1 --agent random:seed=2 --games 2 --records g.jsonl "
      "--json >/dev/null && '" DUEL_BIN
      "' tune gardner --records g.jsonl --iterations 0 --validation 2 --json "
      "--positions-out p.jsonl",
      "");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto summary = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(summary.is_discarded()) << r.out;
  const std::string dump = r.files.count("p.jsonl") != 0 ? r.files.at("p.jsonl") : "";
  EXPECT_EQ(lines(dump), summary["positions"].get<int>()) << dump;
  int held_out = 0;
  std::istringstream in(dump);
  for (std::string line; std::getline(in, line);) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << line;
    EXPECT_TRUE(mc::GardnerState{}.from_text(j["fen"].get<std::string>()).ok()) << line;
    EXPECT_TRUE(j["score"].is_null()) << line;
    EXPECT_GT(j["scale"].get<double>(), 0.0) << line;
    EXPECT_LE(j["scale"].get<double>(), 1.0) << line;
    held_out += j["held_out"].get<bool>() ? 1 : 0;
  }
  EXPECT_EQ(held_out, summary["held_out"].get<int>());
  expect_bad_input("tune gardner --records g.jsonl --positions-out /no/such/dir/p.jsonl",
                   "--positions-out: cannot write", {{"g.jsonl", kGame}});
}

// Checkers: `tuned`'s header is written whole (one block), only positions
// with no capture to make are taken, and a header of another kind is not
// overwritten.
TEST(TuneCli, CheckersWritesTunedsWeightsFromQuietPositions) {
  const CliRun r = test_support::duel(
      "arena checkers --agent random:seed=1 --agent random:seed=2 --games 4 --records g.jsonl "
      "--json >/dev/null && '" DUEL_BIN
      "' tune checkers --records g.jsonl --iterations 20 --validation 2 --out w.hpp "
      "--positions-out p.jsonl",
      "");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string w = r.files.count("w.hpp") != 0 ? r.files.at("w.hpp") : "";
  EXPECT_NE(w.find("namespace duel::games::checkers::linear {"), std::string::npos) << w;
  EXPECT_NE(w.find("inline constexpr Weights kWeights = {"), std::string::npos) << w;
  EXPECT_NE(w.find("// runaway men\n"), std::string::npos) << w;
  EXPECT_NE(w.find("// Written by: duel tune checkers --records g.jsonl --iterations 20"),
            std::string::npos)
      << w;
  EXPECT_NE(r.err.find("4 games"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("with a capture to make"), std::string::npos) << r.err;
  const std::string dump = r.files.count("p.jsonl") != 0 ? r.files.at("p.jsonl") : "";
  EXPECT_GT(lines(dump), 20) << dump;
  std::istringstream in(dump);
  for (std::string line; std::getline(in, line);) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << line;
    const auto s = games::checkers::State::parse(j["fen"].get<std::string>());
    ASSERT_TRUE(s.ok()) << line;
    EXPECT_TRUE(s->is_quiet()) << line;
    EXPECT_EQ(j["scale"].get<double>(), 1.0) << line;
  }
  // A header of another kind is not overwritten; resolving by quiescence is chess's.
  ASSERT_EQ(r.files.count("g.jsonl"), 1U);
  const std::string e3 = "#pragma once\nnamespace duel::games::minichess::e3 {\n}\n";
  expect_bad_input("tune checkers --records g.jsonl --out w.hpp",
                   "is not a checkers weights header",
                   {{"g.jsonl", r.files.at("g.jsonl")}, {"w.hpp", e3}});
  expect_bad_input("tune checkers --records g.jsonl --select resolved", "--select resolved",
                   {{"g.jsonl", r.files.at("g.jsonl")}});
}

}  // namespace
}  // namespace duel
