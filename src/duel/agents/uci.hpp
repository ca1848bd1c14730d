#pragma once
// The `uci:` agent: any UCI engine (Fairy-Stockfish, say) playing one of the
// three 5x5 chess games (docs/uci.md).
//
// Why this shape: the protocol (start, handshake, options, variant check,
// `go` under a deadline, `stop`, kill) knows nothing of our states and lives
// in `UciEngine` (uci.cpp), built on `Subprocess`; the template `UciAgent`
// only turns states into `position fen ... moves ...` and the engine's
// `bestmove` back into a move, checked by the state's own parser. The agent
// gives up (returns nothing, with `failure()` saying why) rather than ever
// inventing a move for an engine that failed.
#include <cctype>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "duel/agents/agent.hpp"
#include "duel/agents/chess_opponents.hpp"
#include "duel/core/clock.hpp"
#include "duel/core/result.hpp"
#include "duel/core/spec.hpp"
#include "duel/core/subprocess.hpp"

namespace duel::agents {

// Step 1. Settings from the spec.

enum class UciLimit : std::uint8_t { MoveTime, Depth, Nodes };

struct UciSettings {
  std::vector<std::string> argv;  // `cmd` split on spaces: the program and its arguments
  std::string variant;            // sent as UCI_Variant unless "chess"
  UciLimit limit = UciLimit::MoveTime;
  long long amount = 100;  // milliseconds, plies or nodes
  // `setoption name N value V`, in this order (variants= first).
  std::vector<std::pair<std::string, std::string>> options;
  // The engine runs in a box (`duel box`, docs/box.md) unless sandbox=off:
  // an engine may be a class's submission.
  bool sandbox = true;
};

// The engine's name for one of our 5x5 chess games ("gardner-cs3243" ->
// "cs3243"); empty for any other game.
[[nodiscard]] std::string_view uci_default_variant(std::string_view game);

// Checks every key of a `uci:` spec for the game `game` (its kName), so that
// a typo fails before any game starts; the engine itself starts later.
[[nodiscard]] Result<UciSettings> parse_uci_spec(const Spec& spec, std::string_view game);

// Step 2. Pure pieces of the protocol (tested without an engine).

// `position fen FEN` or `position fen FEN moves M1 M2 ...`.
[[nodiscard]] std::string uci_position_command(std::string_view fen,
                                               const std::vector<std::string>& moves);

// What the engine's `info` lines said so far (the last value of each field).
struct UciInfo {
  std::optional<int> depth;
  std::optional<int> cp;    // centipawns, side to move's view
  std::optional<int> mate;  // moves to mate (negative: being mated), side to move's view
  std::optional<std::uint64_t> nodes;
  std::vector<std::string> pv;
};
// Folds one line into `info` ("info depth 3 score cp 36 nodes 79 pv e2e3
// ..."); `info string` and other lines are ignored.
void read_uci_info(std::string_view line, UciInfo& info);
// The score on Duel's scale, side to move's view: 100 cp = one pawn =
// minichess::kE0Scale (so 100 cp reads 1.00 like e0), mate in N moves =
// win_in(2N - 1), mated in N = loss_in(2N).
[[nodiscard]] std::optional<Value> uci_score(const UciInfo& info);

// When to send `stop` and when to give up on a `go`, in seconds after the
// `go` is sent, and the `go` command itself.
struct UciGoPlan {
  std::string command;  // "go movetime 80", "go depth 6", "go nodes 10000"
  double stop_after = 0.0;
  double give_up_after = 0.0;
};
// `clock_limit` is the move's limit (0 = none), `elapsed` what this move
// already spent (starting the engine). With a limit the engine is stopped
// at budget_for()'s share of it and given up 0.5 s after the limit; without,
// a movetime search is stopped after max(10 s, 20 x movetime), a depth or
// nodes search after 60 s, and given up 0.5 s later.
[[nodiscard]] UciGoPlan plan_uci_go(const UciSettings& settings, double clock_limit,
                                    double elapsed);

// Step 3. One engine process and the protocol over it.

class UciEngine {
 public:
  using Deadline = Subprocess::Deadline;

  struct Reply {
    std::string bestmove;  // the word after `bestmove`, unchecked
    UciInfo info;
    double seconds = 0.0;  // from `go` to `bestmove`
    bool stopped = false;  // we had to send `stop`
  };

  explicit UciEngine(UciSettings settings) : m_settings(std::move(settings)) {}
  UciEngine(const UciEngine&) = delete;
  UciEngine& operator=(const UciEngine&) = delete;
  ~UciEngine() { shut_down(); }

  // Starts the engine if it is not running: `uci`/`uciok`, the options,
  // UCI_Variant (checked: the engine must list or confirm it), `isready`.
  [[nodiscard]] bool start(Deadline deadline);
  // `ucinewgame` and `isready`/`readyok`.
  [[nodiscard]] bool new_game(Deadline deadline);
  // `position` then `go` as planned; nothing when the engine failed.
  [[nodiscard]] std::optional<Reply> go(const std::string& position, const UciGoPlan& plan);
  // `quit`, 0.2 s to exit, then SIGKILL to its process group.
  void shut_down();
  // Records why the engine failed, shuts it down and returns false.
  bool fail(std::string why);

  [[nodiscard]] bool running() const noexcept { return m_process != nullptr; }
  [[nodiscard]] const std::string& failure() const noexcept { return m_failure; }
  [[nodiscard]] const std::string& engine_name() const noexcept { return m_engine_name; }
  [[nodiscard]] const UciSettings& settings() const noexcept { return m_settings; }

 private:
  // Reads lines until one equals `word`, passing each to `seen`.
  template <class F>
  bool wait_for(std::string_view word, Deadline deadline, F&& seen);
  bool send(const std::string& line, Deadline deadline);
  // Why the engine stopped talking: "exited with status 1" or similar.
  std::string gone();

  UciSettings m_settings;
  std::unique_ptr<Subprocess> m_process;
  std::filesystem::path m_home;  // a boxed engine's folder, removed with it
  std::string m_failure;
  std::string m_engine_name;  // from `id name`
};

// Step 4. The agent.

template <ChessState S>
class UciAgent final : public Agent<S> {
 public:
  using Move = typename S::Move;

  explicit UciAgent(UciSettings settings) : m_engine(std::move(settings)) {
    const std::string& program = m_engine.settings().argv.front();
    m_name = "uci:" + program.substr(program.rfind('/') + 1);
  }

  std::optional<Move> choose(const S& state, const MoveClock& clock) override {
    WallClock started;
    m_failure.clear();
    m_scored = false;
    m_report = SearchReport{};
    m_report.algorithm = "uci";
    // Step 1. The engine, started on first use. Under a move limit the
    // start counts towards the move; without one it gets 10 s.
    const double startup = clock.limit > 0 ? clock.limit + 0.5 : 10.0;
    const auto deadline =
        Subprocess::Clock::now() + std::chrono::duration_cast<Subprocess::Clock::duration>(
                                       std::chrono::duration<double>(startup));
    if (!m_start_failure.empty()) {  // new_game() tried; a later move tries again
      std::string why = std::move(m_start_failure);
      m_start_failure.clear();
      return give_up(std::move(why));
    }
    const bool fresh = !m_engine.running();
    if (fresh && !m_engine.start(deadline)) return give_up(m_engine.failure());
    // Step 2. The game so far: the moves since the first position seen, or
    // a new start when this state does not follow from our last move.
    if (fresh || !follows(state)) {
      m_start_fen = state.to_text();
      m_moves.clear();
      if (!m_engine.new_game(deadline)) return give_up(m_engine.failure());
    }
    // Step 3. Search and check the answer with our own rules.
    const auto plan = plan_uci_go(m_engine.settings(), clock.limit, started.seconds());
    const auto reply = m_engine.go(uci_position_command(m_start_fen, m_moves), plan);
    if (!reply) return give_up(m_engine.failure());
    const std::string& word = reply->bestmove;
    if (word == "(none)" || word == "0000") {
      return give_up(fmt::format("the engine has no move (bestmove {})", word));
    }
    if (!looks_like_move(word)) {
      return give_up(fmt::format("unreadable bestmove '{}' from the engine", word));
    }
    const auto move = state.parse_move(word);
    if (!move) return give_up(fmt::format("illegal move '{}' from the engine", word));
    report(state, *reply, *move);
    m_moves.push_back(state.move_text(*move));
    m_after = state.result(*move);
    return *move;
  }

  [[nodiscard]] std::string name() const override { return m_name; }
  // Only a move the engine gave a score for has a report: a report's value
  // is read as a score (arena adjudication), and 0 would be a false "even".
  [[nodiscard]] const SearchReport* last_report() const override {
    return m_failure.empty() && m_scored ? &m_report : nullptr;
  }
  [[nodiscard]] std::string failure() const override { return m_failure; }
  // Starts the engine now, off any move's clock (starting Fairy-Stockfish
  // takes 0.1-0.9 s, docs/uci.md); a failure is reported by the next choose().
  void new_game() override {
    m_after.reset();
    m_start_failure.clear();
    if (m_engine.running()) return;
    const auto deadline = Subprocess::Clock::now() + std::chrono::seconds(10);
    if (!m_engine.start(deadline)) m_start_failure = m_engine.failure();
  }

 private:
  // True when `a` and `b` are the same position (the key alone could collide).
  static bool same(const S& a, const S& b) {
    return a.key() == b.key() && a.to_move() == b.to_move() && a.to_text() == b.to_text();
  }

  // Whether `state` is the position after our last move, or one move after
  // it; that move then joins the list the engine is sent.
  bool follows(const S& state) {
    if (!m_after) return false;
    if (same(*m_after, state)) return true;
    typename S::Moves moves;
    m_after->actions(moves);
    for (const auto& m : moves) {
      if (same(m_after->result(m), state)) {
        m_moves.push_back(m_after->move_text(m));
        return true;
      }
    }
    return false;
  }

  // A word shaped like a UCI move (letters, digits, letters, digits, then at
  // most one letter), whether or not it is legal: tells an illegal move from
  // garbage in the failure message.
  static bool looks_like_move(std::string_view w) {
    std::size_t i = 0;
    const auto run = [&](auto pred) {
      const std::size_t from = i;
      while (i < w.size() && pred(static_cast<unsigned char>(w[i]))) ++i;
      return i > from;
    };
    const auto alpha = [](unsigned char c) { return std::isalpha(c) != 0; };
    const auto digit = [](unsigned char c) { return std::isdigit(c) != 0; };
    if (!run(alpha) || !run(digit) || !run(alpha) || !run(digit)) return false;
    if (i < w.size() && alpha(static_cast<unsigned char>(w[i]))) ++i;
    return i == w.size() && w.size() <= 8;
  }

  std::optional<Move> give_up(std::string why) {
    m_failure = std::move(why);
    m_engine.shut_down();  // a failed engine is not trusted with the next game
    m_after.reset();
    return std::nullopt;
  }

  void report(const S& state, const UciEngine::Reply& reply, const Move& move) {
    m_report.depth = reply.info.depth.value_or(0);
    m_scored = false;
    if (const auto v = uci_score(reply.info)) {
      // The engine speaks for the side to move; records are from First's view.
      m_report.value = for_player(*v, state.to_move());
      m_report.exact = reply.info.mate.has_value();
      m_scored = true;
    }
    m_report.complete = !reply.stopped;
    // Only the legal prefix of the engine's line is kept.
    S s = state;
    for (const auto& text : reply.info.pv) {
      if (s.is_terminal()) break;
      const auto m = s.parse_move(text);
      if (!m) break;
      m_report.pv.push_back(s.move_text(*m));
      s = s.result(*m);
    }
    if (m_report.pv.empty() || m_report.pv.front() != state.move_text(move)) {
      m_report.pv.assign(1, state.move_text(move));  // a line that does not start with the move
    }
    // A UCI engine reports one node count for the whole search: it is kept
    // in the root slot so that nodes() and nodes per second are right.
    m_report.stats.by_depth[0] = reply.info.nodes.value_or(0);
    m_report.stats.max_depth = 0;
    m_report.stats.seconds = reply.seconds;
  }

  UciEngine m_engine;
  std::string m_name;
  std::string m_failure;
  std::string m_start_failure;  // why new_game() could not start the engine
  SearchReport m_report;
  bool m_scored = false;             // m_report is from the last move, with a score
  std::string m_start_fen;           // the first position of this game we saw
  std::vector<std::string> m_moves;  // played since then (UCI)
  std::optional<S> m_after;          // the position after our last move
};

}  // namespace duel::agents
