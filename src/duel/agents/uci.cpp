// The UCI protocol over one engine process, and the `uci:` spec (uci.hpp).
#include "duel/agents/uci.hpp"

#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include <fmt/format.h>

#include "duel/box/box.hpp"
#include "duel/games/minichess/minichess.hpp"
#include "duel/referee/referee.hpp"
#include "duel/search/concepts.hpp"

namespace duel::agents {
namespace {

constexpr std::string_view kKnownKeys =
    "cmd, variant, variants, movetime, depth, nodes, sandbox, option.NAME";
constexpr long long kMaxMoveTime = 3'600'000;  // ms: an hour a move
constexpr long long kMaxDepth = 1000;
constexpr long long kMaxNodes = 1'000'000'000'000'000LL;
constexpr double kGrace = 0.5;            // seconds for `bestmove` after `stop`
constexpr double kQuitGrace = 0.2;        // seconds to exit after `quit`
constexpr double kMoveTimeFloor = 10.0;   // no clock: movetime searches get this at least
constexpr double kMoveTimeFactor = 20.0;  // ... or this many times their movetime
constexpr double kNoClockCap = 60.0;      // no clock: depth and nodes searches

// The words of `text` separated by spaces.
std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    const std::size_t from = i;
    while (i < text.size() && text[i] != ' ') ++i;
    if (i > from) out.emplace_back(text.substr(from, i - from));
  }
  return out;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// A file the engine can read: an absolute path to an existing regular file.
Result<std::string> readable_file(std::string_view what, const std::string& path) {
  std::error_code ec;
  const auto abs = std::filesystem::absolute(path, ec);
  if (ec || !std::filesystem::is_regular_file(abs, ec)) {
    return fail(fmt::format("uci: {} '{}' is not a file", what, path));
  }
  if (!std::ifstream(abs).good()) {
    return fail(fmt::format("uci: {} '{}' cannot be read", what, path));
  }
  return abs.string();
}

std::chrono::steady_clock::duration seconds(double s) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(s));
}

}  // namespace

std::string_view uci_default_variant(std::string_view game) {
  using namespace games::minichess;
  if (game == Gardner::kName) return "gardner";
  if (game == Cs3243::kName) return "cs3243";
  if (game == Comp472::kName) return "comp472";
  return {};
}

Result<UciSettings> parse_uci_spec(const Spec& spec, std::string_view game) {
  UciSettings out;
  // Step 1. Keys: the fixed ones and option.NAME.
  for (const auto& [key, value] : spec.entries()) {
    static constexpr std::string_view kFixed[] = {"cmd",   "variant", "variants", "movetime",
                                                  "depth", "nodes",   "sandbox"};
    const bool fixed = std::find(std::begin(kFixed), std::end(kFixed), key) != std::end(kFixed);
    const bool option = starts_with(key, "option.") && key.size() > 7;
    if (!fixed && !option) {
      return fail(fmt::format("uci: unknown option '{}' (known: {})", key, kKnownKeys));
    }
  }
  // Step 2. The program: it must be there and executable now.
  const auto cmd = spec.get("cmd");
  if (!cmd) {
    return fail("uci: cmd= is required (the engine program, e.g. cmd=/usr/games/fairy-stockfish)");
  }
  out.argv = words(*cmd);
  if (out.argv.empty()) return fail("uci: cmd= names no program");
  if (const auto found = resolve_program(out.argv.front()); !found) {
    return fail(fmt::format("uci: cmd: {}", found.error()));
  }
  const auto sandbox = spec.choice("sandbox", "on", {"on", "off"});
  if (!sandbox) return fail(sandbox.error());
  out.sandbox = *sandbox == "on";
  // Step 3. At most one search limit.
  std::vector<std::string> limits;
  for (const char* k : {"movetime", "depth", "nodes"}) {
    if (spec.has(k)) limits.emplace_back(k);
  }
  if (limits.size() > 1) {
    return fail(fmt::format("uci: give one of movetime, depth, nodes (got {} and {})", limits[0],
                            limits[1]));
  }
  const std::string which = limits.empty() ? "movetime" : limits.front();
  const long long hi = which == "movetime" ? kMaxMoveTime
                       : which == "depth"  ? kMaxDepth
                                           : kMaxNodes;
  const auto amount = spec.integer(which, 100, 1, hi);
  if (!amount) return fail(amount.error());
  out.amount = *amount;
  out.limit = which == "movetime" ? UciLimit::MoveTime
              : which == "depth"  ? UciLimit::Depth
                                  : UciLimit::Nodes;
  // Step 4. The variant, and the options in the order given (variants=
  // first: the variant file must be loaded before any variant is chosen).
  out.variant = spec.get("variant").value_or(std::string(uci_default_variant(game)));
  if (out.variant.find(' ') != std::string::npos) {
    return fail(fmt::format("uci: variant={} is not one word", out.variant));
  }
  if (const auto path = spec.get("variants")) {
    if (spec.has("option.VariantPath")) {
      return fail("uci: variants= and option.VariantPath= name the same option; give one");
    }
    const auto abs = readable_file("variants file", *path);
    if (!abs) return fail(abs.error());
    out.options.emplace_back("VariantPath", *abs);
  }
  for (const auto& [key, value] : spec.entries()) {
    if (!starts_with(key, "option.")) continue;
    std::string name = key.substr(7);
    if (name == "UCI_Variant")
      return fail("uci: set the variant with variant=, not option.UCI_Variant");
    std::string v = value;
    if (name == "VariantPath") {
      const auto abs = readable_file("option.VariantPath", value);
      if (!abs) return fail(abs.error());
      v = *abs;
    }
    out.options.emplace_back(std::move(name), std::move(v));
  }
  return out;
}

std::string uci_position_command(std::string_view fen, const std::vector<std::string>& moves) {
  std::string out = fmt::format("position fen {}", fen);
  if (!moves.empty()) {
    out += " moves";
    for (const auto& m : moves) out += " " + m;
  }
  return out;
}

void read_uci_info(std::string_view line, UciInfo& info) {
  const auto w = words(line);
  if (w.empty() || w[0] != "info") return;
  if (w.size() > 1 && w[1] == "string") return;
  const auto number = [&](std::size_t i) -> std::optional<long long> {
    if (i >= w.size()) return std::nullopt;
    return parse_integer(w[i]);
  };
  for (std::size_t i = 1; i < w.size(); ++i) {
    if (w[i] == "depth") {
      if (const auto v = number(i + 1); v && *v >= 0 && *v <= kMaxPly)
        info.depth = static_cast<int>(*v);
    } else if (w[i] == "score" && i + 2 < w.size()) {
      const auto v = number(i + 2);
      if (!v || *v < -1'000'000 || *v > 1'000'000) continue;
      if (w[i + 1] == "cp") {
        info.cp = static_cast<int>(*v);
        info.mate.reset();
      } else if (w[i + 1] == "mate") {
        info.mate = static_cast<int>(*v);
        info.cp.reset();
      }
    } else if (w[i] == "nodes") {
      if (const auto v = number(i + 1); v && *v >= 0) info.nodes = static_cast<std::uint64_t>(*v);
    } else if (w[i] == "pv") {
      // The rest of the line is the principal variation.
      info.pv.assign(w.begin() + static_cast<std::ptrdiff_t>(i + 1), w.end());
      break;
    }
  }
}

std::optional<Value> uci_score(const UciInfo& info) {
  if (info.mate) {
    const int n = *info.mate;
    const int plies = n > 0 ? 2 * n - 1 : -2 * n;
    const int capped = std::min(plies, kMaxPly - 1);
    return n > 0 ? win_in(capped) : loss_in(capped);
  }
  if (info.cp) {
    return search::clamp_estimate(games::minichess::from_centipawns(*info.cp));
  }
  return std::nullopt;
}

UciGoPlan plan_uci_go(const UciSettings& settings, double clock_limit, double elapsed) {
  UciGoPlan plan;
  // Under a clock: stop where the built-in agents plan to stop, less what
  // starting the engine took (at least 1 ms), and give up half a second
  // after the limit, by when the referee has decided anyway.
  const double budget =
      clock_limit > 0 ? std::max(budget_for(0.0, MoveClock{clock_limit}) - elapsed, 0.001) : 0.0;
  switch (settings.limit) {
    case UciLimit::MoveTime: {
      long long ms = settings.amount;
      if (clock_limit > 0) {
        ms = std::min(ms, std::max(1LL, static_cast<long long>(std::floor(budget * 1000.0))));
      }
      plan.command = fmt::format("go movetime {}", ms);
      plan.stop_after =
          clock_limit > 0
              ? budget
              : std::max(kMoveTimeFloor, kMoveTimeFactor * static_cast<double>(ms) / 1000.0);
      break;
    }
    case UciLimit::Depth:
      plan.command = fmt::format("go depth {}", settings.amount);
      plan.stop_after = clock_limit > 0 ? budget : kNoClockCap;
      break;
    case UciLimit::Nodes:
      plan.command = fmt::format("go nodes {}", settings.amount);
      plan.stop_after = clock_limit > 0 ? budget : kNoClockCap;
      break;
  }
  plan.give_up_after = clock_limit > 0 ? std::max(clock_limit - elapsed, plan.stop_after) + kGrace
                                       : plan.stop_after + kGrace;
  return plan;
}

// Step 5. UciEngine.

bool UciEngine::fail(std::string why) {
  m_failure = std::move(why);
  shut_down();
  return false;
}

void UciEngine::shut_down() {
  if (m_process) {
    m_process->stop("quit", kQuitGrace);
    m_process.reset();
  }
  if (!m_home.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(m_home, ec);
    m_home.clear();
  }
}

std::string UciEngine::gone() {
  const auto how = m_process->ended(0.2);
  return how ? "engine " + *how : "engine closed its output";
}

bool UciEngine::send(const std::string& line, Deadline deadline) {
  if (m_process->write_line(line, deadline)) return true;
  const auto how = m_process->ended(0.2);
  return fail(how ? fmt::format("engine {} (writing '{}')", *how, line)
                  : fmt::format("engine does not read its input (writing '{}')", line));
}

template <class F>
bool UciEngine::wait_for(std::string_view word, Deadline deadline, F&& seen) {
  std::string line;
  const auto start = Subprocess::Clock::now();
  while (true) {
    switch (m_process->read_line(line, deadline)) {
      case Subprocess::Read::Line:
        if (line == word) return true;
        seen(line);
        break;
      case Subprocess::Read::Timeout:
        return fail(
            fmt::format("no '{}' from the engine within {:.1f} s", word,
                        std::chrono::duration<double>(Subprocess::Clock::now() - start).count()));
      case Subprocess::Read::Closed: return fail(fmt::format("{} before '{}'", gone(), word));
    }
  }
}

bool UciEngine::start(Deadline deadline) {
  if (m_process) return true;
  m_failure.clear();
  // Step 1. The process (boxed: through `duel box`, in a folder of its own,
  // its program's folder shown read-only) and `uci`: its name and variants.
  std::vector<std::string> argv = m_settings.argv;
  if (m_settings.sandbox) {
    if (auto ok = box::check(); !ok) return fail("uci: " + ok.error());
    std::string pattern = (std::filesystem::temp_directory_path() / "duel-uci-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) return fail("uci: cannot make the engine's folder");
    m_home = pattern;
    std::string command;
    for (const auto& a : m_settings.argv) command += referee::shell_quote(a) + " ";
    std::error_code ec;
    const auto policy = referee::agent_box(command, std::filesystem::current_path(ec), true, {});
    argv = {box::duel_binary(), "box", "--dir", m_home.string()};
    for (const auto& p : policy->read_only) argv.insert(argv.end(), {"--read-only", p.string()});
    // An option naming a file (variants=, an NNUE file) shows its folder.
    for (const auto& [name, value] : m_settings.options) {
      const std::filesystem::path p(value);
      if (value.find('/') == std::string::npos || !std::filesystem::exists(p, ec)) continue;
      const auto shown = std::filesystem::is_directory(p, ec) ? p : p.parent_path();
      argv.insert(argv.end(), {"--read-only", std::filesystem::absolute(shown, ec).string()});
    }
    argv.emplace_back("--");
    argv.insert(argv.end(), m_settings.argv.begin(), m_settings.argv.end());
  }
  auto started = Subprocess::start(argv);
  if (!started) return fail(started.error());
  m_process = std::move(*started);
  bool has_variant_option = false;
  std::set<std::string> listed;  // the variants a combo UCI_Variant option lists
  if (!send("uci", deadline)) return false;
  const bool ok = wait_for("uciok", deadline, [&](const std::string& line) {
    if (starts_with(line, "id name ")) m_engine_name = line.substr(8);
    if (starts_with(line, "option name UCI_Variant ")) {
      has_variant_option = true;
      const auto w = words(line);
      for (std::size_t i = 0; i + 1 < w.size(); ++i) {
        if (w[i] == "var") listed.insert(w[i + 1]);
      }
    }
  });
  if (!ok) return false;
  // Step 2. Options in order, then the variant.
  for (const auto& [name, value] : m_settings.options) {
    if (!send(fmt::format("setoption name {} value {}", name, value), deadline)) return false;
  }
  const bool chess = m_settings.variant == "chess";
  if (!chess) {
    if (!has_variant_option) {
      return fail(fmt::format("the engine has no UCI_Variant option, so it cannot play '{}'",
                              m_settings.variant));
    }
    if (!send("setoption name UCI_Variant value " + m_settings.variant, deadline)) return false;
  }
  // Step 3. `isready`; Fairy-Stockfish confirms a variant it knows with
  // "info string variant NAME ..." and ignores one it does not.
  std::optional<std::string> confirmed;
  if (!send("isready", deadline)) return false;
  if (!wait_for("readyok", deadline, [&](const std::string& line) {
        if (starts_with(line, "info string variant ")) {
          const auto w = words(line);
          if (w.size() > 3) confirmed = w[3];
        }
      })) {
    return false;
  }
  if (!chess) {
    const bool known = confirmed ? *confirmed == m_settings.variant
                                 : listed.empty() || listed.count(m_settings.variant) != 0;
    if (!known) {
      return fail(fmt::format(
          "the engine does not know variant '{}' (Fairy-Stockfish needs variants=PATH to a "
          "variants.ini defining it)",
          m_settings.variant));
    }
  }
  return true;
}

bool UciEngine::new_game(Deadline deadline) {
  if (!m_process) return fail("engine not running");
  if (!send("ucinewgame", deadline) || !send("isready", deadline)) return false;
  return wait_for("readyok", deadline, [](const std::string&) {});
}

std::optional<UciEngine::Reply> UciEngine::go(const std::string& position, const UciGoPlan& plan) {
  if (!m_process) {
    fail("engine not running");
    return std::nullopt;
  }
  Reply reply;
  const auto sent = Subprocess::Clock::now();
  const auto stop_at = sent + seconds(plan.stop_after);
  const auto give_up = sent + seconds(plan.give_up_after);
  if (!send(position, stop_at) || !send(plan.command, stop_at)) return std::nullopt;
  std::string line;
  while (true) {
    const auto r = m_process->read_line(line, reply.stopped ? give_up : stop_at);
    if (r == Subprocess::Read::Timeout) {
      if (!reply.stopped) {
        reply.stopped = true;
        if (!send("stop", give_up)) return std::nullopt;
        continue;
      }
      fail(fmt::format(
          "no bestmove within {:.2f} s of '{}' ('stop' sent at {:.2f} s); engine killed",
          plan.give_up_after, plan.command, plan.stop_after));
      return std::nullopt;
    }
    if (r == Subprocess::Read::Closed) {
      fail(fmt::format("{} during '{}'", gone(), plan.command));
      return std::nullopt;
    }
    if (starts_with(line, "info ")) {
      read_uci_info(line, reply.info);
    } else if (line == "bestmove" || starts_with(line, "bestmove ")) {
      const auto w = words(line);
      reply.bestmove = w.size() > 1 ? w[1] : std::string();
      reply.seconds = std::chrono::duration<double>(Subprocess::Clock::now() - sent).count();
      return reply;
    }
  }
}

}  // namespace duel::agents
