// duel egdb build|stats|probe (docs/cli.md): the counts printed, a probe's
// line, and bad input as one line on stderr with exit status 2.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
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
  EXPECT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(p.out, "Black to move: win\n");
  expect_bad_input("egdb build chess --pieces 3 --out " + d, "only checkers");
  expect_bad_input("egdb build checkers --pieces 9 --out " + d, "--pieces");
  expect_bad_input("egdb build checkers --pieces 2 --out " + d + "/" + "checkers-0.1-0.1.egdb/x",
                   "cannot make directory");
  expect_bad_input("egdb probe checkers " + d + " --fen B:W21,22,23,24:B1", "beyond the tables");
  expect_bad_input("egdb probe checkers " + d + "/none --fen B:W26:B22", "no such directory");
  fs::resize_file(dir / "checkers-1.1-0.1.egdb", 70);
  expect_bad_input("egdb stats checkers " + d, "truncated");
  fs::remove_all(dir);
}

}  // namespace
