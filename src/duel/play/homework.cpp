// `duel homework` / `duel calibrate` (see homework.hpp).
#include "duel/play/homework.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>
#include <system_error>
#include <tuple>

#include <unistd.h>

#include <fmt/format.h>

#include "duel/core/clock.hpp"
#include "duel/core/file.hpp"
#include "duel/core/spec.hpp"
#include "duel/core/text.hpp"
#include "duel/games/engines.hpp"
#include "duel/registry/agents.hpp"

namespace duel::play {
namespace fs = std::filesystem;
using games::checkers::Move;
using games::checkers::State;
namespace protocol = games::checkers::protocol;
// The one-ply fallback's heuristic: the linear one, which allocates nothing
// and costs a few dozen nanoseconds (the default, n1, keeps a 4 MiB cache).
using FallbackHeuristic = games::checkers::Tuned;

namespace {

// Writes `text` to `p` whole or not at all: a referee that reads the file
// the moment the process ends never sees half a move.
[[nodiscard]] bool write_file(const fs::path& p, const std::string& text) {
  const fs::path tmp = p.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out << text;
    if (!out.flush()) return false;
  }
  std::error_code ec;
  fs::rename(tmp, p, ec);
  return !ec;
}

[[nodiscard]] std::optional<double> parse_double(std::string_view s) {
  double v = 0.0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// Same pieces on the same squares with the same side to move.
[[nodiscard]] bool same_board(const State& a, const State& b) {
  return a.to_move() == b.to_move() && a.board_lines() == b.board_lines();
}

// No time to search: the best move one ply deep by `tuned`, an immediate
// win first (microseconds, so 0.01 s left is still a move).
[[nodiscard]] Move one_ply_choice(const State& s, const State::Moves& legal) {
  const FallbackHeuristic eval;
  const int sign = s.to_move() == Player::First ? 1 : -1;
  Move best = legal[0];
  long long best_score = 0;
  bool first = true;
  for (const Move& m : legal) {
    const State next = s.result(m);
    long long score = 0;
    if (next.is_terminal()) {
      score = static_cast<long long>(next.utility()) * sign * kUnit * 4;
    } else {
      score = static_cast<long long>(eval(next)) * sign;
    }
    if (first || score > best_score) {
      best = m;
      best_score = score;
      first = false;
    }
  }
  return best;
}

}  // namespace

Result<Calibration> parse_calibration(std::string_view text) {
  Calibration c;
  std::istringstream in{std::string(text)};
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    const auto tokens = split(line);
    if (tokens.empty() || tokens[0].front() == '#') continue;
    const auto v = tokens.size() == 2 ? parse_double(tokens[1]) : std::nullopt;
    if (!v || *v < 0 || *v > 1e12) {
      return fail(fmt::format("calibration.txt line {}: '{}' is not 'key number'", n, trim(line)));
    }
    if (tokens[0] == "startup_cpu") {
      c.startup_cpu = std::min(*v, 1.0);
    } else if (tokens[0] == "exit_cpu") {
      c.exit_cpu = std::min(*v, 1.0);
    } else if (tokens[0] == "alloc_seconds_per_mb") {
      c.alloc_seconds_per_mb = std::min(*v, 0.1);
    } else if (tokens[0] == "nodes_per_second") {
      c.nodes_per_second = *v;
    }  // other keys: from a later version, ignored
  }
  c.measured = true;
  return c;
}

std::string calibration_text(const Calibration& c) {
  return fmt::format(
      "# duel calibrate: this machine's costs, read by duel homework\n"
      "startup_cpu {:.6f}\nexit_cpu {:.6f}\nalloc_seconds_per_mb {:.8f}\nnodes_per_second {:.0f}\n",
      c.startup_cpu, c.exit_cpu, c.alloc_seconds_per_mb, c.nodes_per_second);
}

bool is_dead_draw(const State& s) noexcept {
  const auto& p = s.position();
  if ((p.men(Player::First) | p.men(Player::Second)) != 0) return false;
  const int first = std::popcount(p.kings(Player::First));
  return first <= 3 && first == std::popcount(p.kings(Player::Second));
}

MovePlan plan_move(protocol::Mode mode, double seconds, double cpu_used, int own_moves, int legal,
                   const Calibration& c, bool dead_draw) {
  MovePlan plan;
  // What is left once this run's start-up and exit are paid, with a margin
  // for the operating system's accounting (it charges in ticks).
  const double reserve = c.exit_cpu + 0.003 + 0.01 * seconds;
  const double available = seconds - std::max(cpu_used, c.startup_cpu) - reserve;
  double limit = 0.0;
  if (mode == protocol::Mode::Single) {
    // Seed 003: a single move may use its whole time; keep a fifth back.
    limit = std::min(available * 0.8, 60.0);
  } else {
    // A game: spread the time over the moves still to come, assumed to be
    // many early on and at least 8 however long the game runs (so the clock
    // shrinks geometrically and never runs out), and never more than half
    // of what is left on one move.
    const int to_go = std::max(8, 30 - own_moves / 2);
    limit = std::min(seconds / to_go, available * 0.5);
    if (dead_draw) limit /= 8;
  }
  if (legal <= 1 || limit < 0.01) {
    plan.instant = true;
    return plan;
  }
  // The table costs CPU to touch; spend at most 3% of the move on it.
  const double affordable = 0.03 * limit / std::max(c.alloc_seconds_per_mb, 1e-7);
  const auto mb = static_cast<std::size_t>(std::clamp(affordable, 1.0, 256.0));
  plan.hash_mb = std::bit_floor(mb);
  plan.limit = limit - static_cast<double>(plan.hash_mb) * c.alloc_seconds_per_mb;
  if (plan.limit < 0.01) plan.instant = true;
  return plan;
}

// The agent spec for this move: a searching agent given no limit of its own
// searches for the planned time (a spec's own default, the engine's 1 s,
// would ignore the plan), and the engine gets a table it can afford.
std::string agent_for_plan(const std::string& spec_text, const MovePlan& plan) {
  const auto spec = Spec::parse(spec_text);
  if (!spec) return spec_text;
  const std::string& kind = spec->name();
  std::string out = spec_text;
  const auto add = [&](const std::string& key_value) {
    out += (out.find(':') == std::string::npos ? ":" : ",") + key_value;
  };
  const bool searches = kind == "engine" || kind == "minimax" || kind == "alphabeta";
  if (searches && !spec->has("time") && !spec->has("depth") && !spec->has("nodes")) {
    add(fmt::format("time={:.6f}", plan.limit));
  }
  if (kind == "engine" && !spec->has("hash")) add(fmt::format("hash={}", plan.hash_mb));
  return out;
}

// An agent spec as `--agent` gives it (`duel:` may lead), parsed.
[[nodiscard]] static Result<Spec> parse_agent_spec(const std::string& text) {
  return Spec::parse(text.starts_with("duel:") ? std::string_view(text).substr(5) : text);
}

bool is_course_reference(const std::string& spec_text) {
  const auto spec = parse_agent_spec(spec_text);
  return spec && spec->name() == "csci561-ta";
}

std::string agent_for_input(const std::string& spec_text, protocol::Mode mode, double seconds) {
  const auto spec = parse_agent_spec(spec_text);
  if (!spec || spec->name() != "csci561-ta") return spec_text;
  std::string out = spec->text();
  const auto add = [&](const std::string& key_value) {
    out += (out.find(':') == std::string::npos ? ":" : ",") + key_value;
  };
  if (!spec->has("mode")) add(mode == protocol::Mode::Single ? "mode=single" : "mode=game");
  // Exactly as written: the course compares the time with 100, 10 and 2.
  if (!spec->has("left")) add(fmt::format("left={}", seconds));
  return out;
}

std::optional<PlayData> parse_playdata(std::string_view text) {
  PlayData d;
  bool header = false;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    const auto tokens = split(line);
    if (tokens.empty()) continue;
    if (tokens[0] == "duel-playdata" && tokens.size() == 2 && tokens[1] == "1") {
      header = true;
    } else if (tokens[0] == "start" && tokens.size() >= 2) {
      d.start = std::string(trim(std::string_view(line).substr(line.find("start") + 5)));
    } else if (tokens[0] == "moves") {
      for (std::size_t i = 1; i < tokens.size(); ++i) d.moves.emplace_back(tokens[i]);
    } else if (tokens[0] == "own" && tokens.size() == 2) {
      const auto v = parse_double(tokens[1]);
      if (!v || *v < 0 || *v > 100000) return std::nullopt;
      d.own_moves = static_cast<int>(*v);
    } else {
      return std::nullopt;
    }
  }
  if (!header || d.start.empty()) return std::nullopt;
  return d;
}

std::string playdata_text(const PlayData& d) {
  std::string moves;
  for (const auto& m : d.moves) moves += ' ' + m;
  return fmt::format("duel-playdata 1\nstart {}\nown {}\nmoves{}\n", d.start, d.own_moves, moves);
}

State rebuild(const State& board, PlayData& data) {
  const auto fresh = [&] {
    data = PlayData{board.to_text(), {}, 0};
    return board;
  };
  if (data.start.empty()) return fresh();
  auto start = State::parse(data.start, board.draw_limit_plies());
  if (!start) return fresh();
  State s = *start;
  for (const auto& text : data.moves) {
    const auto m = s.parse_move(text);
    if (!m) return fresh();
    s = s.result(*m);
  }
  // The opponent has moved since: exactly one of its moves gives the board.
  State::Moves legal;
  s.actions(legal);
  for (const Move& m : legal) {
    const State next = s.result(m);
    if (same_board(next, board)) {
      data.moves.push_back(s.move_text(m));
      return next;
    }
  }
  return fresh();
}

std::variant<std::string, HomeworkError> run_homework(const HomeworkOptions& o) {
  // Step 1. The input; everything wrong with it is the caller's mistake.
  const auto text = read_file(o.dir / "input.txt");
  if (!text) return HomeworkError{2, fmt::format("cannot read {}", (o.dir / "input.txt").string())};
  auto input = protocol::parse_input(*text);
  if (!input) return HomeworkError{2, input.error()};
  if (const auto agent_spec = Spec::parse(o.agent); !agent_spec) {
    return HomeworkError{2, agent_spec.error()};
  }
  Calibration cal;
  if (const auto ctext = read_file(o.dir / "calibration.txt")) {
    if (auto parsed = parse_calibration(*ctext)) {
      cal = *parsed;
    } else if (o.verbose) {
      std::cerr << "homework: " << parsed.error() << " (defaults used)\n";
    }
  }

  // Step 2. The exact state: in a game, rebuilt from playdata.txt.
  PlayData data;
  if (input->mode == protocol::Mode::Game) {
    if (const auto ptext = read_file(o.dir / "playdata.txt")) {
      if (auto parsed = parse_playdata(*ptext)) data = *parsed;
    }
  }
  const State s = rebuild(input->state, data);
  State::Moves legal;
  s.actions(legal);
  if (legal.empty()) {
    return HomeworkError{1, fmt::format("{} has no legal move: the game is lost",
                                        s.to_move() == Player::First ? "BLACK" : "WHITE")};
  }

  // Step 3. The plan, then the move.
  const MovePlan plan =
      plan_move(input->mode, input->seconds, process_cpu_seconds(), data.own_moves,
                static_cast<int>(legal.size()), cal, is_dead_draw(s));
  // The course's reference keeps to its own depth rule at any time left.
  const bool course_reference = is_course_reference(o.agent);
  Move move = legal[0];
  if (legal.size() == 1) {
    // Forced (often a capture): no thinking needed.
  } else if (plan.instant && !course_reference) {
    move = one_ply_choice(s, legal);
  } else {
    auto agent = registry::make_agent<State>(
        course_reference ? agent_for_input(o.agent, input->mode, input->seconds)
                         : agent_for_plan(o.agent, plan));
    if (!agent) return HomeworkError{2, agent.error()};
    if ((*agent)->is_human()) return HomeworkError{2, "homework plays an AI agent, not 'human'"};
    const auto chosen = (*agent)->choose(s, agents::MoveClock{plan.limit});
    if (chosen) move = *chosen;
    if (o.verbose) {
      if (const auto* r = (*agent)->last_report()) {
        std::cerr << fmt::format("homework: {} depth {} nodes {} in {:.3f} s\n", r->algorithm,
                                 r->depth, r->stats.nodes(), r->stats.seconds);
      }
    }
  }
  if (o.verbose) {
    std::cerr << fmt::format(
        "homework: {} {:.3f} s left, plan {:.3f} s{}, hash {} MB, cpu {:.3f} s\n",
        input->mode == protocol::Mode::Single ? "SINGLE" : "GAME", input->seconds, plan.limit,
        plan.instant ? " (instant)" : "", plan.hash_mb, process_cpu_seconds());
  }

  // Step 4. The answer, then the record for the next move.
  if (!write_file(o.dir / "output.txt", protocol::output_text(s, move))) {
    return HomeworkError{1, fmt::format("cannot write {}", (o.dir / "output.txt").string())};
  }
  if (input->mode == protocol::Mode::Game) {
    data.moves.push_back(s.move_text(move));
    ++data.own_moves;
    (void)write_file(o.dir / "playdata.txt", playdata_text(data));
  }
  return s.move_text(move);
}

Calibration calibrate(double seconds) {
  Calibration c;
  c.measured = true;
  // What the process had used before this point: loading and start-up, the
  // same for every run of the binary. Doubled: runs differ.
  c.startup_cpu = std::max(0.004, 2.0 * process_cpu_seconds());

  // Touching a table's pages, per megabyte.
  {
    CpuClock clock;
    constexpr std::size_t kMb = 64;
    search::EngineOptions options;
    options.hash_mb = kMb;
    options.prefault = true;
    const auto engine = games::make_engine<State>("", 0, options);
    c.alloc_seconds_per_mb = std::max(1e-6, 1.5 * clock.seconds() / static_cast<double>(kMb));
  }

  // Writing the two files a move leaves behind.
  {
    CpuClock clock;
    const fs::path dir = fs::temp_directory_path();
    const fs::path p = dir / fmt::format("duel-calibrate-{}.txt", static_cast<long>(::getpid()));
    for (int i = 0; i < 10; ++i) (void)write_file(p, std::string(200, 'x'));
    std::error_code ec;
    fs::remove(p, ec);
    c.exit_cpu = std::max(0.001, 3.0 * clock.seconds() / 10.0);
  }

  // The engine's speed on the start position (information for people).
  {
    search::EngineOptions options;
    options.hash_mb = 16;
    const auto engine = games::make_engine<State>("", 0, options);
    search::Limits limits;
    limits.time = std::max(0.05, seconds);
    const auto r = (*engine)->search(State{}, limits);
    c.nodes_per_second =
        r.stats.seconds > 0 ? static_cast<double>(r.stats.nodes()) / r.stats.seconds : 0.0;
  }
  return c;
}

}  // namespace duel::play
