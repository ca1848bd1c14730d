// duel egdb build|stats|probe (docs/cli.md): the counts printed, a probe's
// line, and bad input as one line on stderr with exit status 2.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "../support/cli_run.hpp"

namespace {

using duel::test_support::CliRun;
using duel::test_support::duel;
namespace fs = std::filesystem;

void expect_bad_input(const std::string& args, const std::string& needle) {
  const CliRun r = duel(args);
  EXPECT_EQ(r.status, 2) << args << "\nstderr: " << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\nstderr: " << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << args << "\nstderr: " << r.err;
}

TEST(EgdbCli, BuildStatsProbeAndBadInput) {
  const fs::path dir = fs::temp_directory_path() / ("duel-egdb-cli-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const std::string d = dir.string();
  const CliRun b = duel("egdb build checkers --pieces 3 --threads 2 --out " + d);
  ASSERT_EQ(b.status, 0) << b.err;
  // The placements per piece count of "Checkers Is Solved" (Science 2007,
  // Table 1): 2 pieces 6,972, 3 pieces 261,224.
  EXPECT_NE(b.out.find("6972"), std::string::npos) << b.out;
  EXPECT_NE(b.out.find("261224"), std::string::npos) << b.out;
  const CliRun s = duel("egdb stats checkers " + d + " --verify");
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_NE(s.out.find("0.2-0.1"), std::string::npos) << s.out;
  // Black's man on 22 must take White's last piece (22x31).
  const CliRun p = duel("egdb probe checkers " + d + " --fen B:W26:B22");
  const CliRun lone = duel("egdb probe checkers " + d + " --fen W:WK32:BK31,K1");
  EXPECT_EQ(lone.out, "White to move: loss\n");
  EXPECT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(p.out, "Black to move: win\n");
  expect_bad_input("egdb build chess --pieces 3 --out " + d, "only checkers");
  expect_bad_input("egdb build checkers --pieces 9 --out " + d, "--pieces");
  expect_bad_input("egdb build checkers --pieces 2 --out " + d + "/" + "checkers-0.1-0.1.egdb/x",
                   "cannot make directory");
  expect_bad_input("egdb probe checkers " + d + " --fen B:W21,22,23,24:B1", "beyond the tables");
  expect_bad_input("egdb probe checkers " + d + "/none --fen B:W26:B22", "no such directory");
  // The engine's tables (docs/egdb.md, "In play"): Black's king must jump
  // twice (15x22x31) into two kings against one, White to move, a loss for
  // White in the tables (`duel egdb probe` of W:WK32:BK31,K1), which the
  // search takes below the root (a value above 0.16 points; without the
  // tables the heuristic's few hundredths); a directory that does not load
  // stops any command but `duel egdb` with one line.
  const std::string jump = "search checkers --fen B:W18,26,K32:BK15,K1 --depth 1 --json";
  const CliRun plain = duel(jump);
  ::setenv("DUEL_EGDB", d.c_str(), 1);
  const CliRun tabled = duel(jump);
  ::setenv("DUEL_EGDB", (d + "/none").c_str(), 1);
  expect_bad_input("search checkers --depth 1", "DUEL_EGDB");
  ::unsetenv("DUEL_EGDB");
  EXPECT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(tabled.status, 0) << tabled.err;
  EXPECT_NE(tabled.out.find("\"value\":0.2"), std::string::npos) << tabled.out;
  EXPECT_EQ(plain.out.find("\"value\":0.2"), std::string::npos) << plain.out;
  fs::resize_file(dir / "checkers-1.1-0.1.egdb", 70);
  expect_bad_input("egdb stats checkers " + d, "truncated");
  fs::remove_all(dir);
}

}  // namespace
