// The box (src/duel/box, docs/box.md) as `duel referee` runs a program in
// it: what the program cannot see or reach, and the budgets that end its
// move with their reason. Each hostile program plays the legal opening
// move b6-a5 only when every attack it tried failed, and exits with its
// own status otherwise, so a broken box shows as a crash naming the attack.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "../support/cli_run.hpp"
#include "../support/scratch.hpp"
#include "duel/box/box.hpp"

namespace {

namespace fs = std::filesystem;
using duel::test_support::CliRun;
using duel::test_support::duel;
using duel::test_support::Scratch;

// A program folder of its own (shown read-only in its box) holding `body`
// as agent.sh, readable by all so the box runs under a uid of its own.
std::string agent(const Scratch& s, const std::string& name, const std::string& body) {
  const fs::path dir = s.dir / name;
  fs::create_directories(dir);
  const fs::path script = dir / "agent.sh";
  std::ofstream(script) << "#!/bin/sh\n" << body << "\n";
  fs::permissions(script, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
  return script.string();
}

// One game of the program against an agent that never moves; its JSON.
nlohmann::json one_game(const std::string& program, const std::string& options = "") {
  const CliRun r = duel("referee checkers --json --quiet --games 1 --time 10 " + options +
                        " --agent '" + program + "' --agent 'exit 1'");
  EXPECT_EQ(r.status, 0) << r.err;
  return nlohmann::json::parse(r.out, nullptr, false);
}

class Box : public ::testing::Test {
 protected:
  void SetUp() override {
    if (auto ok = ::duel::box::check(); !ok) GTEST_SKIP() << ok.error();
  }
};

TEST_F(Box, AProgramSeesNothingButItsFolderAndReachesNoOne) {
  Scratch s("duel-box-test");
  // Step 1. What it must not reach: a secret beside its folder, the test's
  // environment, a listening socket on loopback, the folder above its own.
  fs::create_directories(s.dir / "secret");
  std::ofstream(s.dir / "secret" / "answers.txt") << "the teacher's answers\n";
  ::setenv("DUEL_BOX_TEST_SECRET", "hunter2", 1);
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(listener, 4), 0);
  socklen_t len = sizeof addr;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
  const int port = ntohs(addr.sin_port);
  // Step 2. The program: each line an attack, its own exit status if it works.
  const std::string body = "cat '" + (s.dir / "secret" / "answers.txt").string() + "' && exit 3\n" +
                           "echo x > '" + (s.dir / "planted.txt").string() + "' && exit 4\n" +
                           "[ -z \"$DUEL_BOX_TEST_SECRET\" ] || exit 5\n"
                           "[ \"$(id -u)\" != 0 ] || exit 6\n"
                           "[ \"$HOME\" = \"$PWD\" ] || exit 7\n"
                           "[ $(ls /proc | grep -c '^[0-9]') -lt 10 ] || exit 8\n"
                           "[ $(ls /proc/self/fd | wc -l) -le 4 ] || exit 9\n"
                           "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", " +
                           std::to_string(port) +
                           "), 1)' 2>/dev/null && exit 10\n"
                           "ls /root /home /etc/shadow >/dev/null 2>&1 && exit 11\n"
                           "echo 'E b6 a5' > output.txt";
  const auto j = one_game(agent(s, "hostile", body));
  ::unsetenv("DUEL_BOX_TEST_SECRET");
  // Step 3. Every attack failed: it moved, and nothing reached the test.
  EXPECT_EQ(j["games"][0]["plies"], 1) << j.dump();
  EXPECT_EQ(j["games"][0]["winner"], 0) << j.dump();
  EXPECT_EQ(j["sandbox"], true);
  EXPECT_FALSE(fs::exists(s.dir / "planted.txt"));
  EXPECT_LT(::accept(listener, nullptr, nullptr), 0) << "a boxed program connected";
  ::close(listener);
}

TEST_F(Box, MemoryOverTheLimitLosesTheMoveWithThatReason) {
  Scratch s("duel-box-test");
  const auto j = one_game(agent(s, "hog",
                                "python3 -c 'x = bytearray(400 << 20); print(len(x))'\n"
                                "echo 'E b6 a5' > output.txt"),
                          "--memory 128");
  EXPECT_EQ(j["games"][0]["reason"], "memory-limit") << j.dump();
  EXPECT_NE(j["games"][0]["detail"].get<std::string>().find("memory limit 128 MiB"),
            std::string::npos)
      << j.dump();
}

TEST_F(Box, ProcessesOverTheLimitLoseTheMoveWithThatReason) {
  Scratch s("duel-box-test");
  const auto j =
      one_game(agent(s, "forker",
                     "for i in $(seq 40); do sleep 30 & done; wait; echo 'E b6 a5' > output.txt"),
               "--processes 16");
  EXPECT_EQ(j["games"][0]["reason"], "process-limit") << j.dump();
  EXPECT_NE(j["games"][0]["detail"].get<std::string>().find("process limit 16"), std::string::npos)
      << j.dump();
}

// A game keeps one box for each program (docs/box.md, "One box a game"):
// its /tmp lasts the game, but nothing a move started outlives the move,
// and the CPU of a process the move left running on its own is charged.
TEST_F(Box, AGameKeepsOneBoxAndNothingOfAMoveOutlivesIt) {
  Scratch s("duel-box-test");
  const fs::path first = fs::path(DUEL_SOURCE_DIR) / "tests/data/class561/s01-first-py/homework.py";
  // Move 1 leaves a daemon and an orphan that burns 1 s of user CPU, and
  // waits (sleeping) until the orphan is done; later moves check what is left.
  const std::string body =
      "n=$(cat moves 2>/dev/null || echo 0); n=$((n + 1)); echo $n > moves\n"
      "if [ $n = 1 ]; then\n"
      "  echo kept > /tmp/kept\n"
      "  setsid sh -c 'echo $$ > daemon.pid; exec sleep 1000' &\n"
      "  setsid python3 -c 'import os\nwhile os.times().user < 1.0: pass\n"
      "open(\"burnt\", \"w\")' &\n"
      "  while [ ! -e burnt ]; do sleep 0.01; done\n"
      "else\n"
      "  [ \"$(cat /tmp/kept)\" = kept ] || exit 3\n"
      "  kill -0 \"$(cat daemon.pid)\" 2>/dev/null && exit 4\n"
      "  grep -qx sleep /proc/[0-9]*/comm && exit 5\n"
      "fi\n"
      "exec python3 \"$(dirname \"$0\")/homework.py\"";
  const std::string program = agent(s, "keeper", body);
  fs::copy_file(first, s.dir / "keeper" / "homework.py");
  const CliRun r = duel("referee checkers --json --quiet --games 1 --time 20 --agent '" + program +
                        "' --agent '/usr/bin/python3 " + first.string() + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  const auto& game = j["games"][0];
  // It played to the end; a check that failed would be a crash.
  EXPECT_NE(game["reason"], "crash") << game.dump();
  EXPECT_GT(game["plies"].get<int>(), 4) << game.dump();
  // It is charged the orphan's second (s01's own moves take about 15 ms
  // each, docs/BENCHMARKS.md).
  EXPECT_GE(game["user"][0].get<double>(), 1.0) << game.dump();
}

TEST_F(Box, NoSandboxRunsWithOurRightsAndSaysSo) {
  Scratch s("duel-box-test");
  const std::string planted = (s.dir / "planted.txt").string();
  const auto j = one_game(
      agent(s, "plain", "echo x > '" + planted + "'; echo 'E b6 a5' > output.txt"), "--no-sandbox");
  EXPECT_EQ(j["sandbox"], false);
  EXPECT_EQ(j["games"][0]["plies"], 1) << j.dump();
  EXPECT_TRUE(fs::exists(planted));
}

}  // namespace
