// The UCI engine loop of `duel uci` (server.hpp): commands in, lines out, the
// search on a thread of its own.
#include "duel/uci/server.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <condition_variable>
#include <exception>
#include <istream>
#include <mutex>
#include <new>
#include <ostream>
#include <sstream>
#include <thread>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "duel/core/result.hpp"
#include "duel/core/spec.hpp"
#include "duel/core/text.hpp"
#include "duel/games/engines.hpp"
#include "duel/games/game.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/search/options.hpp"

namespace duel::uci {
namespace {

namespace mc = games::minichess;

// The position being played, in one of the three rule sets; its alternative
// is always the one UCI_Variant names.
using Chess = std::variant<mc::GardnerState, mc::Cs3243State, mc::Comp472State>;

// UCI_Variant's values (our game names, in Chess's order) and the names
// Fairy-Stockfish's variants.ini gives the same rule sets.
struct VariantName {
  std::string_view name;
  std::string_view alias;
};
constexpr std::array<VariantName, 3> kVariants = {{
    {mc::Gardner::kName, "gardner"},
    {mc::Cs3243::kName, "cs3243"},
    {mc::Comp472::kName, "comp472"},
}};
static_assert(std::variant_size_v<Chess> == kVariants.size());

constexpr std::size_t kHashDefault = 64;
constexpr std::size_t kHashMax = search::kMaxHashMb;
constexpr int kThreadsDefault = 1;
constexpr int kThreadsMax = search::kMaxThreads;
// Tables up to this size are touched when made (at `isready`), so a timed
// search pays no page faults; bigger ones fill lazily rather than stall.
constexpr std::size_t kPrefaultMaxMb = 256;
// `go perft` runs on the command thread, without a stop: keep it short.
constexpr int kPerftMaxDepth = 7;

[[nodiscard]] Chess start_of(std::size_t variant) {
  switch (variant) {
    case 1: return mc::Cs3243State{};
    case 2: return mc::Comp472State{};
    default: return mc::GardnerState{};
  }
}

[[nodiscard]] std::string lower(std::string_view s) {
  std::string out;
  for (const char c : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

[[nodiscard]] std::string join(const std::vector<std::string_view>& words, std::size_t from,
                               std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to && i < words.size(); ++i) {
    if (!out.empty()) out += ' ';
    out += words[i];
  }
  return out;
}

// Quoted input shown on one line whatever it holds (control characters escaped).
[[nodiscard]] std::string one_line(std::string_view text) {
  return fail(std::string(text)).message;
}

// Searches one game with one heuristic; made per (variant, Eval, Hash, Threads) and
// kept between `go`s, so the transposition table carries over moves.
class AnyEngine {
 public:
  virtual ~AnyEngine() = default;
  virtual void new_game() = 0;
  // Searches `root` (of this searcher's game), printing `info` lines through
  // `emit`; returns the `bestmove ...` line.
  virtual std::string search(const Chess& root, const search::Limits& limits,
                             const LineSink& emit) = 0;
  // The `bestmove` line when the search itself failed: the first legal move.
  static std::string fallback(const Chess& root) {
    return std::visit(
        [](const auto& s) {
          typename std::decay_t<decltype(s)>::Moves moves;
          s.actions(moves);
          return "bestmove " + (moves.empty() ? std::string("(none)") : s.move_text(moves[0]));
        },
        root);
  }
};

template <class S>
class RuleSetEngine final : public AnyEngine {
 public:
  explicit RuleSetEngine(games::SearcherPtr<S> engine) : m_engine(std::move(engine)) {}
  void new_game() override { m_engine->new_game(); }

  std::string search(const Chess& root_any, const search::Limits& limits,
                     const LineSink& emit) override {
    const S& root = std::get<S>(root_any);
    // Step 1. A finished game: Stockfish's answer to a position with no move.
    if (root.is_terminal()) {
      const Value v = for_player(terminal_value(root.utility(), 0), root.to_move());
      emit(fmt::format("info depth 0 score {}", v == 0 ? "cp 0" : "mate 0"));
      emit(fmt::format("info string game over: {}", mc::ending_text(root.ending())));
      return "bestmove (none)";
    }
    // Step 2. One `info` line per completed iteration, from the mover's view.
    const auto on_info = [&](const search::SearchInfo& info,
                             const std::vector<typename S::Move>& pv) {
      const Value v = for_player(info.value, root.to_move());
      const auto ms = static_cast<long long>(info.seconds * 1000.0);
      const auto nps =
          info.seconds > 0
              ? static_cast<std::uint64_t>(static_cast<double>(info.nodes) / info.seconds)
              : std::uint64_t{0};
      std::string line = fmt::format("info depth {} score {} nodes {} nps {} time {}", info.depth,
                                     score_text(v), info.nodes, nps, ms);
      if (!pv.empty()) {
        line += " pv";
        S s = root;
        for (const auto& m : pv) {
          line += ' ' + s.move_text(m);
          s = s.result(m);
        }
      }
      emit(line);
    };
    const auto r = m_engine->search(root, limits, on_info);
    // Step 3. The answer, with the expected reply when the line has one.
    if (!r.best) return fallback(root_any);
    std::string out = "bestmove " + root.move_text(*r.best);
    if (r.pv.size() >= 2 && r.pv[0] == *r.best) {
      out += " ponder " + root.result(*r.best).move_text(r.pv[1]);
    }
    return out;
  }

 private:
  games::SearcherPtr<S> m_engine;
};

// What `go` asked for, once its words are read.
struct GoRequest {
  int depth = 0;
  std::uint64_t nodes = 0;
  long long movetime = -1;
  std::array<long long, 2> time = {-1, -1};  // by Player index: wtime, btime
  std::array<long long, 2> inc = {0, 0};
  long long movestogo = 0;
  bool infinite = false;
  bool ponder = false;
  int perft = 0;
};

// Reads the words after `go`; a one-line error for anything malformed.
Result<GoRequest> parse_go(const std::vector<std::string_view>& w) {
  static constexpr std::array<std::string_view, 13> kKeywords = {
      "searchmoves", "ponder", "wtime", "btime",    "winc",     "binc", "movestogo",
      "depth",       "nodes",  "mate",  "movetime", "infinite", "perft"};
  const auto is_keyword = [](std::string_view s) {
    return std::find(kKeywords.begin(), kKeywords.end(), s) != kKeywords.end();
  };
  GoRequest g;
  for (std::size_t i = 1; i < w.size(); ++i) {
    const std::string_view key = w[i];
    if (key == "infinite") {
      g.infinite = true;
      continue;
    }
    if (key == "ponder") {
      g.ponder = true;
      continue;
    }
    if (key == "searchmoves") {
      // Accepted and not used: the engine searches every move.
      while (i + 1 < w.size() && !is_keyword(w[i + 1])) ++i;
      continue;
    }
    if (!is_keyword(key)) return fail(fmt::format("go: unknown word '{}'", key));
    if (i + 1 >= w.size()) return fail(fmt::format("go: '{}' needs a number", key));
    const std::string_view text = w[++i];
    const auto n = parse_integer(text);
    if (!n) return fail(fmt::format("go: '{}' needs a whole number, not '{}'", key, text));
    const long long v = *n;
    const auto positive = [&]() -> Result<long long> {
      if (v < 1) return fail(fmt::format("go: '{}' must be at least 1, not {}", key, v));
      return v;
    };
    if (key == "wtime" || key == "btime") {
      g.time[key == "wtime" ? 0 : 1] = std::max(0LL, v);  // some GUIs send a negative time left
    } else if (key == "winc" || key == "binc") {
      g.inc[key == "winc" ? 0 : 1] = std::max(0LL, v);
    } else if (key == "movestogo") {
      g.movestogo = std::max(0LL, v);
    } else if (key == "movetime") {
      g.movetime = std::max(0LL, v);
    } else if (key == "depth" || key == "mate" || key == "perft") {
      const auto d = positive();
      if (!d) return fail(d.error());
      // `mate N` looks for a mate in N moves: 2N - 1 plies find it.
      const long long plies = key == "mate" ? 2 * std::min(*d, 1000LL) - 1 : *d;
      const int capped = static_cast<int>(std::min<long long>(plies, search::kMaxDepth));
      if (key == "perft") {
        if (*d > kPerftMaxDepth) {
          return fail(fmt::format("go: perft depth at most {}, not {}", kPerftMaxDepth, *d));
        }
        g.perft = capped;
      } else {
        g.depth = capped;
      }
    } else if (key == "nodes") {
      const auto n2 = positive();
      if (!n2) return fail(n2.error());
      g.nodes = static_cast<std::uint64_t>(*n2);
    }
  }
  return g;
}

}  // namespace

double time_budget(const GoClock& clock) noexcept {
  if (clock.time_ms < 0) return 0.0;
  const double left = static_cast<double>(clock.time_ms) / 1000.0;
  const double inc = static_cast<double>(std::max(0LL, clock.inc_ms)) / 1000.0;
  const double moves = static_cast<double>(std::max(clock.movestogo, 20LL));
  const double planned = left / moves + 0.8 * inc;
  // The margin covers what the engine's clock does not see: reading the
  // command, starting the thread, printing bestmove, the GUI's own lag.
  const double margin = 0.030 + 0.05 * left;
  const double cap = 0.5 * std::max(0.0, left - margin);
  return std::max(0.001, std::min(planned, cap));
}

std::string score_text(Value v) {
  if (is_proven(v)) {
    const int plies = plies_to_end(v);
    return fmt::format("mate {}", v > 0 ? (plies + 1) / 2 : -(plies / 2));
  }
  return fmt::format("cp {}", static_cast<long long>(mc::to_centipawns(v)));
}

struct Server::Impl {
  explicit Impl(LineSink s) : sink(std::move(s)) {}

  LineSink sink;
  std::mutex out_mutex;

  // Options and the position: touched by the command thread only.
  std::size_t variant = 0;
  std::size_t hash_mb = kHashDefault;
  int threads = kThreadsDefault;
  std::string eval = std::string(kEvalDefault);  // each variant's own default heuristic
  Chess position = start_of(0);
  std::unique_ptr<AnyEngine> searcher;  // made on demand; used by the search thread while busy

  // The search thread and how to end it.
  std::thread thread;
  std::atomic<bool> stop{false};
  std::atomic<bool> done{true};
  std::mutex wait_mutex;
  std::condition_variable wait_cv;

  void emit(const std::string& line) {
    const std::lock_guard lock(out_mutex);
    sink(line);
  }
  void info_string(std::string_view text) { emit("info string " + one_line(text)); }

  // A spin option of the searcher (Hash, Threads): a whole number of `unit`
  // from 1 to `max`; a bad value changes nothing, a new one drops the
  // searcher, which is made per value.
  template <class T>
  void set_spin(std::string_view name, std::string_view unit, const std::string& value, T max,
                T& field) {
    const auto n = parse_integer(value);
    if (!n || *n < 1 || *n > static_cast<long long>(max)) {
      info_string(
          fmt::format("{}: '{}' is not a whole number of {} from 1 to {}", name, value, unit, max));
      return;
    }
    if (static_cast<T>(*n) != field) searcher.reset();
    field = static_cast<T>(*n);
  }

  [[nodiscard]] bool busy() const { return thread.joinable() && !done.load(); }

  // Ends the search (its bestmove is printed) and joins its thread.
  void stop_search() {
    if (!thread.joinable()) return;
    {
      const std::lock_guard lock(wait_mutex);
      stop = true;
    }
    wait_cv.notify_all();
    thread.join();
  }

  // Joins a search that has ended by itself; false if one is still running.
  bool idle() {
    if (busy()) return false;
    if (thread.joinable()) thread.join();
    return true;
  }

  // The heuristic names as `var` list items: `default` (the variant's own
  // default: n1 in gardner and cs3243, e3 in comp472) first.
  static constexpr std::string_view kEvalDefault = "default";
  [[nodiscard]] static std::vector<std::string> eval_names() {
    std::vector<std::string> out{std::string(kEvalDefault)};
    const std::string names = games::heuristic_names<mc::GardnerState>();
    for (const auto word : split(names)) {
      std::string name(word);
      if (!name.empty() && name.back() == ',') name.pop_back();
      out.push_back(name);
    }
    return out;
  }

  AnyEngine* ensure_searcher() {
    if (searcher) return searcher.get();
    const auto make = [&](std::size_t mb) {
      std::visit(
          [&](const auto& s) {
            using S = std::decay_t<decltype(s)>;
            search::EngineOptions options;
            options.hash_mb = mb;
            options.threads = threads;
            options.prefault = mb <= kPrefaultMaxMb;
            const auto build = [&](std::string_view name) {
              auto engine = games::make_engine<S>(name, 0, options);
              if (!engine) return false;
              searcher = std::make_unique<RuleSetEngine<S>>(std::move(*engine));
              return true;
            };
            // Every name reaching here is in Gardner's list; one that this
            // variant does not offer (n1 in COMP 472, which has no network)
            // falls back to the variant's default, and says so.
            const bool named = eval != kEvalDefault;
            if (named && build(eval)) return;
            if (named) {
              info_string(fmt::format("Eval: '{}' is not offered in {}; using {}", eval, S::kName,
                                      games::default_heuristic<S>()));
            }
            (void)build(games::default_heuristic<S>());
          },
          position);
    };
    try {
      make(hash_mb);
    } catch (const std::bad_alloc&) {
      info_string(fmt::format("cannot allocate a Hash table of {} MB; using 16 MB", hash_mb));
      hash_mb = 16;
      make(hash_mb);
    }
    return searcher.get();
  }

  // Step 1. The commands that answer at once.
  void cmd_uci() {
    emit(fmt::format("id name Duel {}", kVersion));
    emit("id author the Duel developers");
    std::string variants;
    for (const auto& v : kVariants) variants += fmt::format(" var {}", v.name);
    emit(fmt::format("option name UCI_Variant type combo default {}{}", kVariants[0].name,
                     variants));
    emit(fmt::format("option name Hash type spin default {} min 1 max {}", kHashDefault, kHashMax));
    emit(fmt::format("option name Threads type spin default {} min 1 max {}", kThreadsDefault,
                     kThreadsMax));
    std::string evals;
    for (const auto& e : eval_names()) evals += " var " + e;
    emit(fmt::format("option name Eval type combo default {}{}", kEvalDefault, evals));
    emit("uciok");
  }

  void cmd_setoption(const std::vector<std::string_view>& w) {
    if (!idle()) {
      info_string("setoption ignored while searching: send stop first");
      return;
    }
    // Step 1. `setoption name <words> [value <words>]`; names ignore case.
    if (w.size() < 3 || lower(w[1]) != "name") {
      info_string("setoption: expected 'setoption name <option> value <value>'");
      return;
    }
    std::size_t at_value = 2;
    while (at_value < w.size() && lower(w[at_value]) != "value") ++at_value;
    const std::string name = join(w, 2, at_value);
    const std::string key = lower(name);
    const std::string value = join(w, at_value + 1, w.size());
    const std::string value_key = lower(value);
    if (key != "uci_variant" && key != "hash" && key != "threads" && key != "eval") {
      info_string(
          fmt::format("unknown option: {} (known: UCI_Variant, Hash, Threads, Eval)", name));
      return;
    }
    if (value.empty()) {
      info_string(fmt::format("setoption: option {} needs a value", name));
      return;
    }
    // Step 2. Each option checks its value; a bad one changes nothing.
    if (key == "uci_variant") {
      for (std::size_t i = 0; i < kVariants.size(); ++i) {
        if (value_key == kVariants[i].name || value_key == kVariants[i].alias) {
          if (i != variant) searcher.reset();
          variant = i;
          position = start_of(i);
          // Fairy-Stockfish confirms a variant it knows this way; UCI clients
          // (our `uci:` agent among them) take the line as "it knows it".
          info_string(fmt::format("variant {} files 5 ranks 5", value));
          return;
        }
      }
      info_string(fmt::format(
          "UCI_Variant: unknown variant '{}' (known: gardner, gardner-cs3243, minichess-comp472)",
          value));
    } else if (key == "hash") {
      set_spin("Hash", "MB", value, kHashMax, hash_mb);
    } else if (key == "threads") {
      set_spin("Threads", "threads", value, kThreadsMax, threads);
    } else {
      const auto names = eval_names();
      if (std::find(names.begin(), names.end(), value_key) == names.end()) {
        info_string(fmt::format("Eval: unknown heuristic '{}' (known: {}, {})", value, kEvalDefault,
                                games::heuristic_names<mc::GardnerState>()));
        return;
      }
      if (value_key != eval) searcher.reset();
      eval = value_key;
    }
  }

  void cmd_position(const std::vector<std::string_view>& w) {
    // Step 1. The base position: the variant's start or a FEN.
    if (w.size() < 2 || (w[1] != "startpos" && w[1] != "fen")) {
      info_string("position: expected 'position startpos|fen <FEN> [moves ...]'");
      return;
    }
    std::size_t i = 2;
    if (w[1] == "fen") {
      while (i < w.size() && w[i] != "moves") ++i;
      if (i == 2) {
        info_string("position: 'fen' needs a FEN");
        return;
      }
    }
    if (i < w.size() && w[i] != "moves") {
      info_string(fmt::format("position: expected 'moves' after startpos, not '{}'", w[i]));
      return;
    }
    const std::string fen = join(w, 2, i);
    // Step 2. Apply the moves to a copy; the position changes only if all are legal.
    std::visit(
        [&](const auto& current) {
          using S = std::decay_t<decltype(current)>;
          S s;
          if (w[1] == "fen") {
            auto parsed = S::from_fen(fen);
            if (!parsed) {
              info_string("position: " + parsed.error());
              return;
            }
            s = *parsed;
          }
          for (std::size_t k = i + 1; k < w.size(); ++k) {
            const auto m = s.parse_move(w[k]);
            if (!m) {
              info_string(fmt::format("position: move {} ('{}'): {}; position unchanged", k - i,
                                      w[k], m.error()));
              return;
            }
            s = s.result(*m);  // keeps the repetition history (gardner)
          }
          position = s;
        },
        position);
  }

  void cmd_go(const std::vector<std::string_view>& w) {
    auto req = parse_go(w);
    if (!req) {
      info_string(req.error());
      return;
    }
    stop_search();  // a new `go` while searching: the old one answers first
    if (req->perft > 0) {
      perft(req->perft);
      return;
    }
    // Step 1. Limits: depth and nodes as given; time from movetime and the clock.
    search::Limits limits;
    limits.stop = &stop;
    limits.depth = req->depth;
    limits.nodes = req->nodes;
    const bool wait_for_stop = req->infinite || req->ponder;
    if (!wait_for_stop) {
      const int me = std::visit([](const auto& s) { return index(s.to_move()); }, position);
      const auto mine = static_cast<std::size_t>(me);
      // A clock for the other side only means ours has run out (as in
      // Stockfish): answer at once rather than search without limit.
      const bool clocks = req->time[0] >= 0 || req->time[1] >= 0;
      const GoClock clock{clocks ? std::max(0LL, req->time[mine]) : -1, req->inc[mine],
                          req->movestogo};
      double seconds =
          req->movetime >= 0 ? std::max(0.001, static_cast<double>(req->movetime) / 1000.0) : 0.0;
      if (const double budget = time_budget(clock); budget > 0) {
        seconds = seconds > 0 ? std::min(seconds, budget) : budget;
      }
      limits.time = seconds;
    }
    // Step 2. The search thread: info lines, then (after `stop` when
    // infinite) exactly one bestmove.
    AnyEngine* s = ensure_searcher();
    stop = false;
    done = false;
    thread = std::thread([this, s, limits, wait_for_stop, root = position] {
      std::string best;
      try {
        best = s->search(root, limits, [this](const std::string& line) { emit(line); });
      } catch (const std::exception& e) {
        info_string(fmt::format("search failed: {}", e.what()));
        best = AnyEngine::fallback(root);
      }
      if (wait_for_stop) {
        std::unique_lock lock(wait_mutex);
        wait_cv.wait(lock, [this] { return stop.load(); });
      }
      emit(best);
      done = true;
    });
  }

  void perft(int depth) {
    std::visit(
        [&](const auto& s) {
          std::uint64_t total = 0;
          for (const auto& [m, n] : mc::divide(s, depth)) {
            emit(fmt::format("{}: {}", s.move_text(m), n));
            total += n;
          }
          emit("");
          emit(fmt::format("Nodes searched: {}", total));
        },
        position);
  }

  void display() {
    std::visit(
        [&](const auto& s) {
          std::istringstream board(s.render());
          for (std::string line; std::getline(board, line);) emit(line);
          emit("Fen: " + s.to_text());
        },
        position);
  }

  // Step 2. One command line.
  bool handle(std::string_view line) {
    const auto w = split(line);
    if (w.empty()) return true;  // Stockfish ignores empty lines too
    const std::string_view cmd = w[0];
    if (cmd == "quit") {
      stop_search();
      return false;
    }
    if (cmd == "uci") {
      cmd_uci();
    } else if (cmd == "isready") {
      // Make the table now (the GUI waits for readyok), not in the clock's time.
      if (idle()) ensure_searcher();
      emit("readyok");
    } else if (cmd == "ucinewgame") {
      if (!idle()) {
        info_string("ucinewgame ignored while searching: send stop first");
      } else if (searcher) {
        searcher->new_game();
      }
    } else if (cmd == "setoption") {
      cmd_setoption(w);
    } else if (cmd == "position") {
      cmd_position(w);
    } else if (cmd == "go") {
      cmd_go(w);
    } else if (cmd == "stop" || cmd == "ponderhit") {
      // ponderhit: `go ponder` is searched like `go infinite`, so the
      // answer is due now.
      stop_search();
    } else if (cmd == "d") {
      display();
    } else if (cmd == "debug" || cmd == "register") {
      // Accepted; nothing to switch or register.
    } else {
      info_string(fmt::format("unknown command: {}", trim(line)));
    }
    return true;
  }
};

Server::Server(LineSink sink) : m_impl(std::make_unique<Impl>(std::move(sink))) {}

Server::Server(std::ostream& out)
    : Server([&out](const std::string& line) { out << line << '\n'
                                                   << std::flush; }) {}

Server::~Server() {
  m_impl->stop_search();
}

bool Server::handle(std::string_view line) {
  return m_impl->handle(line);
}

void Server::run(std::istream& in) {
  std::string line;
  while (std::getline(in, line)) {
    if (!handle(line)) return;
  }
  handle("quit");  // end of input: stop the search, join it
}

void Server::wait_search() {
  if (m_impl->thread.joinable()) m_impl->thread.join();
}

}  // namespace duel::uci
