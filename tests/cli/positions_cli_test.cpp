// `duel positions PATH... [-o FILE]`: the course's input.txt files made into
// a `--positions` file (docs/tournament.md) that read_positions reads back
// with the same boards and the exact seconds.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "../support/cli_run.hpp"
#include "../support/scratch.hpp"
#include "duel/games/checkers/checkers.hpp"
#include "duel/tournament/tournament.hpp"

namespace {

namespace fs = std::filesystem;
using duel::test_support::CliRun;
using duel::test_support::duel;
using duel::test_support::slurp;

// A test's folder, with files written into it.
struct Folder : duel::test_support::Scratch {
  Folder() : duel::test_support::Scratch("duel-positions") {}
  void write(const fs::path& rel, const std::string& text) const {
    fs::create_directories((dir / rel).parent_path());
    std::ofstream(dir / rel, std::ios::binary) << text;
  }
};

// The course's single moves 1 and 6 (courses/csci561/single-inputs.txt,
// RULES.md §6a): 300 s and 293.84 s.
const std::string kMove1 =
    "SINGLE\nBLACK\n300\n.b.b.b.b\nb.b.b.b.\n.b.b.b.b\n........\n........\nw.w.w.w.\n"
    ".w.w.w.w\nw.w.w.w.\n";
const std::string kMove6 =
    "SINGLE\r\nBLACK\r\n293.84\r\n........\r\n........\r\n...b.b..\r\n..b.....\r\n"
    ".......b\r\nw.......\r\n.w.....w\r\n..w.....\r\n";

TEST(PositionsCli, TurnsInputFilesIntoAPositionsFile) {
  Folder f;
  f.write("class/zed/input.txt", kMove1);
  f.write("class/amy/run1/input.txt", kMove6);
  f.write("class/amy/output.txt", "E b6 a5\n");  // not an input: ignored
  const fs::path out = f.dir / "positions.txt";
  const CliRun r = duel("positions " + (f.dir / "class").string() + " -o " + out.string());
  ASSERT_EQ(r.status, 0) << r.err;
  // Sorted by path: amy/run1 before zed.
  const std::string text = slurp(out);
  const std::string amy = (f.dir / "class" / "amy" / "run1" / "input.txt").string();
  const std::string zed = (f.dir / "class" / "zed" / "input.txt").string();
  EXPECT_EQ(text, "293.84 B:W21,25,28,30:B10,11,14,20 # " + amy + "\n300 " +
                      duel::games::checkers::State().to_text() + " # " + zed + "\n");

  // Read back as --positions reads it: the same seconds to the bit.
  const auto read = duel::tournament::read_positions(out);
  ASSERT_TRUE(read.ok()) << read.error();
  ASSERT_EQ(read->size(), 2U);
  EXPECT_EQ((*read)[0].seconds, 293.84);
  EXPECT_EQ((*read)[0].source, amy);
  EXPECT_EQ((*read)[1].seconds, 300.0);

  // No -o: stdout; a file may be named instead of a folder.
  const CliRun one = duel("positions " + zed);
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.out, "300 " + duel::games::checkers::State().to_text() + " # " + zed + "\n");
}

TEST(PositionsCli, BadInputIsOneLineNamingTheFile) {
  Folder f;
  f.write("class/a/input.txt", kMove1);
  f.write("class/b/input.txt", "SINGLE\nRED\n300\n" + kMove1.substr(17));
  const CliRun r = duel("positions " + (f.dir / "class").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  const std::string b = (f.dir / "class" / "b" / "input.txt").string();
  EXPECT_NE(r.err.find("positions: " + b + ": input.txt: line 2 is 'RED'"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;

  f.write("empty/readme.txt", "nothing here\n");
  const CliRun none = duel("positions " + (f.dir / "empty").string());
  EXPECT_EQ(none.status, 2);
  EXPECT_NE(none.err.find("no input.txt found"), std::string::npos) << none.err;
  const CliRun missing = duel("positions " + (f.dir / "no-such").string());
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("is neither a folder nor a file"), std::string::npos) << missing.err;
}

}  // namespace
