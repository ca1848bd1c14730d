// `duel play` at a real terminal (a pseudo-terminal from forkpty): a person
// types a move after the prompt appears and reads the echo, the turned
// board and the result as people write them.
//
// Why a pty and not a pipe: the person's side of `duel play` is a terminal,
// and the test should see what a person sees, typed when the prompt is
// shown; every wait is for output to arrive (a generous deadline, never a
// sleep), so a slow machine makes the test slower, not flaky.
#include <gtest/gtest.h>

#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <vector>

namespace {

// One `duel ARGS...` on a pseudo-terminal: what it printed so far (carriage
// returns dropped), and the person's keyboard.
class Terminal {
 public:
  explicit Terminal(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {DUEL_BIN};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> raw;
    for (auto& a : argv) raw.push_back(a.data());
    raw.push_back(nullptr);
    m_pid = ::forkpty(&m_fd, nullptr, nullptr, nullptr);
    if (m_pid == 0) {
      ::execv(raw[0], raw.data());
      ::_exit(127);
    }
  }
  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;
  ~Terminal() {
    if (m_fd >= 0) ::close(m_fd);
    if (m_pid > 0) {
      ::kill(m_pid, SIGKILL);  // this test's own child, by its id
      int status = 0;
      ::waitpid(m_pid, &status, 0);
    }
  }

  [[nodiscard]] bool started() const { return m_pid > 0 && m_fd >= 0; }

  // Reads until `text` has appeared at or after position `from` of the
  // output, or the deadline passes or the program closes the terminal.
  // Where it appeared, or npos.
  std::size_t wait_for(const std::string& text, std::size_t from = 0) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (m_seen.find(text, from) == std::string::npos) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return std::string::npos;
      pollfd p{m_fd, POLLIN, 0};
      const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) return std::string::npos;
      char buf[4096];
      const ssize_t n = ::read(m_fd, buf, sizeof buf);
      if (n <= 0) return m_seen.find(text, from);  // EIO: it exited
      for (ssize_t i = 0; i < n; ++i) {
        if (buf[i] != '\r') m_seen += buf[i];
      }
    }
    return m_seen.find(text, from);
  }

  void type(const std::string& line) {
    const std::string keys = line + "\n";
    ASSERT_EQ(::write(m_fd, keys.data(), keys.size()), static_cast<ssize_t>(keys.size()));
  }

  [[nodiscard]] const std::string& seen() const { return m_seen; }

 private:
  pid_t m_pid = -1;
  int m_fd = -1;
  std::string m_seen;
};

constexpr std::size_t kNot = std::string::npos;
constexpr const char* kWhitePrompt = "White to move (? lists moves, quit or exit gives up)> ";
constexpr const char* kBlackPrompt = "Black to move (? lists moves, quit or exit gives up)> ";

TEST(Terminal, AMoveTypedInSanIsEchoedInSan) {
  Terminal t({"play", "gardner", "--white", "human", "--black", "first"});
  ASSERT_TRUE(t.started());
  ASSERT_NE(t.wait_for(kWhitePrompt), kNot) << t.seen();
  t.type("Nc3");
  const std::size_t echo = t.wait_for("1. White plays ");
  ASSERT_NE(echo, kNot) << t.seen();
  ASSERT_NE(t.wait_for("\n", echo), kNot) << t.seen();
  // The knight b1-c3 in the notation typed, not UCI's b1c3.
  EXPECT_EQ(t.seen().find("1. White plays Nc3 (", echo), echo) << t.seen();
  EXPECT_EQ(t.seen().find("b1c3"), kNot) << t.seen();
  // `?` lists the legal moves in SAN too.
  const std::size_t reply = t.wait_for("2. Black plays ");
  ASSERT_NE(reply, kNot) << t.seen();
  const std::size_t asked = t.wait_for(kWhitePrompt, reply);
  ASSERT_NE(asked, kNot) << t.seen();
  t.type("?");
  const std::size_t list = t.wait_for("legal moves: ", asked);
  ASSERT_NE(list, kNot) << t.seen();
  ASSERT_NE(t.wait_for("\n", list), kNot) << t.seen();
  const std::string moves = t.seen().substr(list, t.seen().find('\n', list) - list);
  // The rook a1 can go to b1 once the knight has left (Gardner start, RULES.md §1).
  EXPECT_NE(moves.find(" Rb1"), kNot) << moves;
  EXPECT_EQ(moves.find("a1b1"), kNot) << moves;
  t.type("quit");
  EXPECT_NE(t.wait_for("Result: 0-1 Black wins: White gave up"), kNot) << t.seen();
}

TEST(Terminal, APersonAsBlackSeesRankOneAtTheTop) {
  // The Gardner start (RULES.md §1: White R a1 N b1 B c1 Q d1 K e1) turned
  // half a circle: rank 1 on top, read from file e to file a.
  Terminal t({"play", "gardner", "--white", "first", "--black", "human"});
  ASSERT_TRUE(t.started());
  ASSERT_NE(t.wait_for(kBlackPrompt), kNot) << t.seen();
  const std::string& s = t.seen();
  EXPECT_NE(s.find("  +-----------+\n1 | K Q B N R |\n2 | P P P P P |\n"), kNot) << s;
  EXPECT_NE(s.find("5 | k q b n r |\n  +-----------+\n    e d c b a\n"), kNot) << s;
  EXPECT_EQ(s.find("5 | r n b q k |"), kNot) << s;
  t.type("quit");
  EXPECT_NE(t.wait_for("Result: 1-0 White wins: Black gave up"), kNot) << t.seen();

  // --no-flip keeps the game's own drawing, rank 5 on top.
  Terminal plain({"play", "gardner", "--white", "first", "--black", "human", "--no-flip"});
  ASSERT_TRUE(plain.started());
  ASSERT_NE(plain.wait_for(kBlackPrompt), kNot) << plain.seen();
  EXPECT_NE(plain.seen().find("  +-----------+\n5 | r n b q k |\n"), kNot) << plain.seen();
  plain.type("quit");
  EXPECT_NE(plain.wait_for("Result: "), kNot) << plain.seen();
}

TEST(Terminal, AMateTypedReadsOneNil) {
  // Black's king e5, White's king e3 and queen b1: Qb5 checks along rank 5,
  // the king's d4 and e4 are the white king's, d5 the queen's: mate.
  Terminal t({"play", "gardner", "--fen", "4k/5/4K/5/1Q3 w - - 0 1", "--white", "human", "--black",
              "first"});
  ASSERT_TRUE(t.started());
  ASSERT_NE(t.wait_for(kWhitePrompt), kNot) << t.seen();
  t.type("Qb5");
  ASSERT_NE(t.wait_for("Result: 1-0 White wins by checkmate\n"), kNot) << t.seen();
  EXPECT_NE(t.seen().find("1. White plays Qb5# ("), kNot) << t.seen();
  EXPECT_EQ(t.seen().find("payoff"), kNot) << t.seen();
}

TEST(Terminal, CheckersEchoesNumbersAndTurnsTheBoardForBlack) {
  // Black moves first and is drawn at the top (standard squares 1-4 on rank
  // 8), so a person playing Black sees rank 1 on top, squares 32-29 first.
  Terminal t({"play", "checkers", "--black", "human", "--white", "first"});
  ASSERT_TRUE(t.started());
  ASSERT_NE(t.wait_for(kBlackPrompt), kNot) << t.seen();
  EXPECT_NE(
      t.seen().find("    h g f e d c b a\n  +-----------------+\n1 |   w   w   w   w | 1   32-29"),
      kNot)
      << t.seen();
  t.type("11-15");
  ASSERT_NE(t.wait_for("1. Black plays 11-15 ("), kNot) << t.seen();
  const std::size_t reply = t.wait_for("2. White plays ");
  ASSERT_NE(reply, kNot) << t.seen();
  ASSERT_NE(t.wait_for(kBlackPrompt, reply), kNot) << t.seen();
  t.type("quit");
  // PDN's convention: the first side of the token is Black's.
  EXPECT_NE(t.wait_for("Result: 0-1 White wins: Black gave up"), kNot) << t.seen();
}

}  // namespace
