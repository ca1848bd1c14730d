// duel play GAME --white A --black B: one game, the board after every move.
#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <tuple>

#include "common.hpp"
#include "duel/agents/human.hpp"
#include "duel/games/notation.hpp"
#include "duel/play/comp472_trace.hpp"
#include "duel/play/game_record.hpp"
#include "duel/play/match.hpp"
#include "duel/play/record_io.hpp"
#include "duel/play/screen.hpp"
#include "duel/registry/agents.hpp"

namespace duel::cli {
namespace {

struct PlayOptions {
  std::string game = "nqueens:n=8,variant=2";
  std::string white = "human";
  std::string black = "engine:time=1";
  std::string state;
  double timeout = 0.0;
  int max_turns = 0;
  std::string trace;
  std::string trace_dir;
  std::string pdn;
  std::string pgn;
  std::string alphabeta;  // "" (agents as given), "true" or "false"
  std::uint64_t seed = 0;
  std::string board = "text";  // text (the game's own) or handout (seed 004's bK, wp)
  bool json = false;
  bool quiet = false;
  bool no_flip = false;  // keep the game's own side at the bottom for everyone
};

// The game spec key that --max-turns sets when a game has it: COMP 472's m,
// the cap on the game's length (RULES.md §2).
constexpr std::string_view kTurnsKey = "max-turns";

// The game's own turn limit, when its spec has the key; the canonical spec
// lists every key, so this needs no knowledge of any game.
template <class S>
std::optional<int> game_turn_limit(const S& start) {
  const auto spec = Spec::parse(start.spec());
  if (!spec || !spec->has(kTurnsKey)) return std::nullopt;
  const auto n = spec->integer(kTurnsKey, 0, 0, 1 << 20);
  return n ? std::optional<int>(static_cast<int>(*n)) : std::nullopt;
}

// --max-turns M for a game with the key `max-turns`: the game spec with that
// key set to M (an error when the spec already sets another value). Other
// games, and a bad spec (with_game reports it), are left as given.
Result<std::string> game_with_turns(const std::string& game, int max_turns) {
  if (max_turns == 0) return game;
  const auto made = registry::make_game(game);
  if (!made) return game;
  const bool has_key =
      std::visit([](const auto& s) { return game_turn_limit(s).has_value(); }, *made);
  if (!has_key) return game;
  const auto given = Spec::parse(game);
  if (!given) return game;
  if (const auto value = given->get(kTurnsKey)) {
    const auto n = parse_integer(*value);
    if (!n || *n != max_turns) {
      return fail(fmt::format("--max-turns {} disagrees with {}={} in the game spec '{}'",
                              max_turns, kTurnsKey, *value, game));
    }
    return game;
  }
  return fmt::format("{}{}{}={}", game, given->entries().empty() ? ":" : ",", kTurnsKey, max_turns);
}

// --alphabeta true|false, the seed's Boolean: `alphabeta:...` becomes
// `minimax:...` with the same keys (false), or `minimax` becomes `alphabeta`
// (true). With false the engine (the default AI) becomes plain minimax with
// its depth, time, eval and seed; its keys minimax has no use for are bad
// input. Other agents stay as they are.
Result<std::string> with_algorithm(const std::string& agent, bool prune) {
  const auto spec = Spec::parse(agent);
  if (!spec) return agent;  // make_agent reports it
  const std::string& kind = spec->name();
  if (!prune && kind == "engine") {
    std::string out = "minimax";
    for (const auto& [key, value] : spec->entries()) {
      if (key != "depth" && key != "time" && key != "eval" && key != "seed") {
        return fail(fmt::format(
            "--alphabeta false: '{}' plays as plain minimax, which has no {}= (keys: depth, "
            "time, eval, seed)",
            agent, key));
      }
      out += fmt::format("{}{}={}", out == "minimax" ? ":" : ",", key, value);
    }
    return out;
  }
  if (kind != (prune ? "minimax" : "alphabeta")) return agent;
  return std::string(prune ? "alphabeta" : "minimax") + agent.substr(kind.size());
}

template <class S>
int run_play(const S& start, const PlayOptions& o, std::optional<bool> alphabeta) {
  // Step 1. Agents. With --json, people and boards use stderr so that stdout
  // holds only the JSON document.
  std::ostream& shown = o.json ? std::cerr : std::cout;
  registry::AgentContext ctx{o.seed, &std::cin, &shown};
  auto white = registry::make_agent<S>(o.white, ctx);
  if (!white) return bad_input("--white: " + white.error());
  auto black = registry::make_agent<S>(o.black, ctx);
  if (!black) return bad_input("--black: " + black.error());
  // The game's own record format (games::RecordFormat): --pgn for the chess
  // games, --pdn for checkers.
  using Format = games::RecordFormat;
  std::ofstream notation;
  std::string notation_path;
  for (const auto& [wanted, flag, path] :
       {std::tuple{Format::pgn, "--pgn", o.pgn}, std::tuple{Format::pdn, "--pdn", o.pdn}}) {
    if (path.empty()) continue;
    if (auto e = play::refuse_format<S>(wanted, {"--pgn", "--pdn", "--trace or --json"})) {
      return bad_input(*e);
    }
    notation.open(path);
    if (!notation) return bad_input(fmt::format("{}: cannot write {}", flag, path));
    notation_path = path;
  }
  std::ofstream trace;
  if (!o.trace.empty()) {
    trace.open(o.trace);
    if (!trace) return bad_input("--trace: cannot write " + o.trace);
  }

  // Step 2. The seed's parameters: players, t, m, the alpha-beta flag (when not
  // given: on if any program prunes). A game with its own turn limit (COMP
  // 472's m) takes no referee cap. The seed trace is opened now and fed as
  // the game goes.
  // Player 1 first: White in the chess games, Black in checkers (seed
  // 003), so there --black is the first mover.
  constexpr bool kBlackFirst = games::black_moves_first<S>();
  const std::array<std::string, 2> names = kBlackFirst
                                               ? std::array<std::string, 2>{o.black, o.white}
                                               : std::array<std::string, 2>{o.white, o.black};
  const std::array<play::PlayerSetup, 2> players = {play::player_setup<S>(names[0]),
                                                    play::player_setup<S>(names[1])};
  const std::optional<int> own_turns = game_turn_limit(start);
  play::TraceParameters params{o.timeout, own_turns.value_or(o.max_turns), false, players};
  params.alphabeta =
      alphabeta.value_or(players[0].prune.value_or(false) || players[1].prune.value_or(false));
  std::ofstream seed_file;
  std::string seed_path;
  std::optional<play::Comp472Trace<S>> seed_trace;
  if (!o.trace_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.trace_dir, ec);
    seed_path = (std::filesystem::path(o.trace_dir) /
                 play::trace_file_name(params.alphabeta, params.timeout, params.max_turns))
                    .string();
    seed_file.open(seed_path);
    if (!seed_file) return bad_input("--trace-dir: cannot write " + seed_path);
    seed_trace.emplace(seed_file, params, start);
  }

  // Step 3. Play, showing each move: for programs, the scores in the game's
  // points and their cumulative search statistics (seed 004 §2.1, §2.5).
  const bool show = !o.quiet;
  // The board as the game draws it, or with --board handout as seed 004's
  // hand-out does (bK, wp; the game's status line under it); turned for a
  // lone person whose pieces the game draws at the top (Black in chess and
  // checkers), unless --no-flip.
  const auto human = [&](Player p) { return players[static_cast<std::size_t>(index(p))].human; };
  constexpr std::optional<Player> kTop = play::top_side<S>();
  const bool turned = !o.no_flip && kTop && human(*kTop) && !human(other(*kTop));
  const auto board = [&](const S& s) {
    if (turned) return play::turned_board(s, o.board == "handout");
    if (o.board != "handout") return s.render();
    const std::string own = s.render();
    const auto status = own.find_last_of('\n', own.size() - 2);
    return play::board_text(s) + own.substr(status + 1);
  };
  if (show) {
    shown << fmt::format("{}: {} = {}, {} = {}\n\n", start.spec(), S::kSideNames[0], names[0],
                         S::kSideNames[1], names[1])
          << board(start) << '\n';
  }
  play::MatchOptions options{o.timeout, own_turns ? 0 : o.max_turns};
  play::AiTally<S> tally(players);
  std::size_t ply = 0;
  S before = start;
  // A move as people write it (SAN in the chess games); a person's own in
  // the notation they typed.
  std::array<const agents::HumanAgent<S>*, 2> typists{};
  const auto spoken = [&](const play::MoveRecord<S>& m) {
    const auto* typist = typists[static_cast<std::size_t>(index(m.player))];
    return typist != nullptr ? typist->typed() : games::people_text(before, m.move);
  };
  const auto observe = [&](const S& after, const play::MoveRecord<S>& m) {
    ++ply;
    const play::AiFacts facts = tally.add(after, m);
    if (seed_trace) seed_trace->action(after, m, facts);
    const std::string text = spoken(m);
    before = after;
    if (!show) return;
    shown << fmt::format("{}. {} plays {} ({:.3f} s)\n", ply, S::kSideNames[index(m.player)], text,
                         m.seconds);
    if (m.report) shown << "   " << play::search_summary(*m.report) << '\n';
    for (const auto& line : play::score_lines(after, m, facts)) shown << "   " << line << '\n';
    if (facts.searched) {
      for (const auto& line :
           play::cumulative_lines(facts.cumulative, facts.nominal_depth, facts.whose)) {
        shown << "   " << line << '\n';
      }
    }
    shown << '\n' << board(after) << '\n';
  };
  auto* first = kBlackFirst ? black->get() : white->get();
  auto* second = kBlackFirst ? white->get() : black->get();
  typists = {dynamic_cast<const agents::HumanAgent<S>*>(first),
             dynamic_cast<const agents::HumanAgent<S>*>(second)};
  auto record = play::play_match<S>(start, {first, second}, options, observe);
  record.agents = names;

  // Step 4. The result, the traces, the JSON.
  if (show) shown << "Result: " << play::result_line(record) << '\n';
  if (seed_trace) {
    seed_trace->result(record);
    if (show) shown << "Game trace written to " << seed_path << '\n';
  }
  if (trace.is_open()) {
    play::write_trace(trace, record);
    if (show) shown << "Trace written to " << o.trace << '\n';
  }
  if constexpr (S::kRecordFormat != Format::none) {
    if (notation.is_open()) {
      notation << play::play_record(record, start);
      if (show) {
        shown << fmt::format("{} written to {}\n", S::kRecordFormat == Format::pgn ? "PGN" : "PDN",
                             notation_path);
      }
    }
  }
  if (o.json) std::cout << play::to_json(record).dump() << '\n';
  return 0;
}

// Applies --alphabeta and --max-turns to the specs, then plays.
int play_command(PlayOptions o) {
  std::optional<bool> alphabeta;
  if (!o.alphabeta.empty()) {
    std::string flag = o.alphabeta;
    for (char& c : flag) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (flag != "true" && flag != "false") {
      return bad_input(fmt::format("--alphabeta: '{}' is not true or false", o.alphabeta));
    }
    alphabeta = flag == "true";
    for (std::string* agent : {&o.white, &o.black}) {
      auto switched = with_algorithm(*agent, *alphabeta);
      if (!switched) return bad_input(switched.error());
      *agent = *switched;
    }
  }
  auto game = game_with_turns(o.game, o.max_turns);
  if (!game) return bad_input(game.error());
  o.game = *game;
  return with_game(o.game, o.state, [&](const auto& s) { return run_play(s, o, alphabeta); });
}

}  // namespace

Command add_play(CLI::App& app) {
  auto o = std::make_shared<PlayOptions>();
  CLI::App* sub = app.add_subcommand("play", "Play one game (people and programs in any mix)");
  sub->add_option("game", o->game, "Game spec, e.g. nqueens:n=10,variant=1b or kcell:n=3,k=15")
      ->capture_default_str();
  sub->add_option("--white,--p1,-1", o->white,
                  "Player 1, who moves first (in checkers White, who moves second): human, "
                  "first, random, minimax, alphabeta, engine, with :key=value")
      ->capture_default_str();
  sub->add_option("--black,--p2,-2", o->black, "Player 2 (in checkers Black, who moves first)")
      ->capture_default_str();
  sub->add_option("--board", o->board,
                  "How the board is drawn: text (the game's own) or handout (5x5 chess as "
                  "seed 004's hand-out draws it: bK, wp)")
      ->check(CLI::IsMember({"text", "handout"}))
      ->capture_default_str();
  sub->add_option("--fen,--state", o->state, "Start from this position (the game's text form)");
  sub->add_option("--timeout", o->timeout, "Seconds a move for programs; over it loses (0 = none)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--max-turns", o->max_turns,
                  "Draw after this many turns (0 = none); for a game with a max-turns key "
                  "(minichess-comp472) it sets that key: no capture for M turns draws")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--alphabeta", o->alphabeta,
                  "true: minimax agents become alphabeta; false: alphabeta agents become minimax");
  sub->add_option("--trace", o->trace, "Write the game record to this file");
  sub->add_option("--trace-dir", o->trace_dir,
                  "Write seed 004's gameTrace-<alphabeta>-<t>-<m>.txt into this directory");
  sub->add_option("--pdn", o->pdn, "Write the checkers game as PDN to this file");
  sub->add_option("--pgn", o->pgn, "Write the 5x5 chess game as PGN (SAN moves) to this file");
  sub->add_option("--seed", o->seed, "Seed mixed into every agent's randomness");
  sub->add_flag("--json", o->json, "Print the game record as one JSON document");
  sub->add_flag("--quiet,-q", o->quiet, "Do not show the board after each move");
  sub->add_flag("--no-flip", o->no_flip,
                "Do not turn the board for a person playing the side drawn at the top (Black)");
  return {sub, [o] { return play_command(*o); }};
}

}  // namespace duel::cli
