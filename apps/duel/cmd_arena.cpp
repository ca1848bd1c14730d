// duel arena GAME --agent A --agent B [--agent C ...]: a tournament
// (round-robin or gauntlet), every opening played with colours swapped,
// several games at once; Elo, pentanomial counts and an SPRT for two agents,
// standings for more. Option names follow cutechess-cli and fastchess.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <tuple>

#include <nlohmann/json.hpp>

#include "common.hpp"
#include "duel/arena/arena.hpp"
#include "duel/arena/elo.hpp"
#include "duel/arena/openings.hpp"
#include "duel/core/file.hpp"
#include "duel/core/spec.hpp"
#include "duel/play/game_record.hpp"
#include "duel/play/record_io.hpp"
#include "duel/registry/agents.hpp"
#include "duel/tournament/cluster.hpp"
#include "duel/tournament/tasks.hpp"

namespace duel::cli {
namespace {

struct ArenaOptions {
  std::string game;
  std::string state;
  std::vector<std::string> agents;
  std::string tournament = "round-robin";
  int games = 0;   // per pairing and round; 0 = 10, or 2 with --rounds
  int rounds = 1;  // rounds of --games games each pairing
  int concurrency = 1;
  std::uint64_t seed = 0;
  double timeout = 0.0;
  int max_turns = 0;
  std::string openings;  // P | random:plies=P | FILE
  std::string openings_order = "sequential";
  std::string draw;         // movenumber=N,movecount=C,score=S
  std::string resign;       // movecount=C,score=S
  std::string sprt;         // elo0=0,elo1=10,alpha=0.05,beta=0.05
  std::string records;      // JSON lines, one game each
  std::string pdnout;       // checkers: PDN
  std::string pgnout;       // 5x5 chess: PGN
  std::string scheduler;    // a Dask cluster (docs/cluster.md)
  std::string worker_duel;  // where its workers find duel
  bool json = false;
};

std::string verdict_text(arena::SprtVerdict v) {
  switch (v) {
    case arena::SprtVerdict::AcceptH0: return "H0 was accepted";
    case arena::SprtVerdict::AcceptH1: return "H1 was accepted";
    case arena::SprtVerdict::Continue: break;
  }
  return "no decision yet";
}

// `OPTION key=value,...` read with the spec grammar, so mistakes get its
// messages: "--sprt: elo1=x is not a number".
Result<Spec> option_spec(const std::string& option, const std::string& text,
                         std::initializer_list<std::string_view> keys) {
  const auto spec = Spec::parse("x:" + text);
  if (!spec) return fail(option + ": " + spec.error());
  if (auto e = spec->reject_unknown(keys)) return fail(option + ": " + e->message);
  return *spec;
}

template <class T>
Result<T> option_value(const std::string& option, const Result<T>& r) {
  if (r) return *r;
  const std::string& e = r.error();
  return fail(option + ": " + (e.rfind("x: ", 0) == 0 ? e.substr(3) : e));
}

// --sprt elo0=A,elo1=B,alpha=X,beta=Y (any subset; cutechess's defaults for
// the rest).
Result<arena::SprtSettings> parse_sprt(const std::string& text) {
  const auto spec = option_spec("--sprt", text, {"elo0", "elo1", "alpha", "beta"});
  if (!spec) return fail(spec.error());
  arena::SprtSettings s;
  const auto elo0 = option_value("--sprt", spec->number("elo0", s.elo0, -1000, 1000));
  const auto elo1 = option_value("--sprt", spec->number("elo1", s.elo1, -1000, 1000));
  const auto alpha = option_value("--sprt", spec->number("alpha", s.alpha, 1e-6, 0.5));
  const auto beta = option_value("--sprt", spec->number("beta", s.beta, 1e-6, 0.5));
  for (const auto* r : {&elo0, &elo1, &alpha, &beta}) {
    if (!*r) return fail(r->error());
  }
  if (!(*elo1 > *elo0)) return fail("--sprt: elo1 must be greater than elo0");
  return arena::SprtSettings{*elo0, *elo1, *alpha, *beta};
}

// --draw movenumber=N,movecount=C,score=S and --resign movecount=C,score=S
// (cutechess-cli's -draw and -resign; scores in the engine's units).
Result<play::Adjudication> parse_adjudication(const std::string& draw, const std::string& resign) {
  play::Adjudication a;
  if (!draw.empty()) {
    const auto spec = option_spec("--draw", draw, {"movenumber", "movecount", "score"});
    if (!spec) return fail(spec.error());
    const auto number = option_value("--draw", spec->integer("movenumber", 0, 0, 100000));
    const auto count = option_value("--draw", spec->integer("movecount", 0, 1, 100000));
    const auto score = option_value("--draw", spec->integer("score", 0, 0, 1000000));
    for (const auto* r : {&number, &count, &score}) {
      if (!*r) return fail(r->error());
    }
    if (!spec->has("movecount") || !spec->has("score")) {
      return fail("--draw: give movecount= and score= (and movenumber= to wait)");
    }
    a.draw_after = static_cast<int>(*number);
    a.draw_count = static_cast<int>(*count);
    a.draw_score = static_cast<Value>(*score);
  }
  if (!resign.empty()) {
    const auto spec = option_spec("--resign", resign, {"movecount", "score"});
    if (!spec) return fail(spec.error());
    const auto count = option_value("--resign", spec->integer("movecount", 0, 1, 100000));
    const auto score = option_value("--resign", spec->integer("score", 0, 1, 1000000));
    for (const auto* r : {&count, &score}) {
      if (!*r) return fail(r->error());
    }
    if (!spec->has("movecount") || !spec->has("score")) {
      return fail("--resign: give movecount= and score=");
    }
    a.resign_count = static_cast<int>(*count);
    a.resign_score = static_cast<Value>(*score);
  }
  return a;
}

std::string elo_text(const arena::EloEstimate& elo, double score) {
  const std::string diff =
      elo.elo ? fmt::format("{:.1f}", std::round(*elo.elo * 10.0) / 10.0 + 0.0)  // no "-0.0"
              : (score > 0.5 ? "+inf" : "-inf");
  return elo.margin ? fmt::format("{} +/- {:.1f}", diff, *elo.margin) : diff;
}

nlohmann::json or_null(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

// The schedule's games as task documents on a Dask cluster
// (docs/cluster.md): each entry's records written as the local run writes
// them (the task's game.json and its PGN or PDN), and scored by `score`;
// the tasks still running or queued are cancelled when it says stop.
template <class S>
Result<bool> on_cluster(const S& start, const ArenaOptions& o,
                        const std::vector<arena::GameSlot>& slots,
                        const arena::Openings<S>& openings, const play::MatchOptions& match,
                        std::ofstream& records, std::ofstream& notation,
                        const std::function<bool(const arena::GameSlot&, Value)>& score) {
  namespace fs = std::filesystem;
  // Step 1. A folder for the tasks' files, removed at the end.
  const tournament::ScratchDir scratch("duel-arena");
  if (scratch.dir.empty()) return fail("--scheduler: cannot make a folder");
  const fs::path& work = scratch.dir;
  // Step 2. A task a slot, seeded as the local run seeds it.
  std::vector<nlohmann::json> tasks;
  tasks.reserve(slots.size());
  for (const auto& slot : slots) {
    const bool a_first = slot.game % 2 == 0;
    const auto side = [&](int agent) {
      return nlohmann::json{{"name", o.agents[static_cast<std::size_t>(agent)]},
                            {"agent", o.agents[static_cast<std::size_t>(agent)]}};
    };
    auto t = tournament::game_task(
        std::to_string(slot.number), start.spec(),
        tournament::opening_for(openings, start, !o.state.empty(), slot.game / 2, o.seed),
        {side(slot.players[0]), side(slot.players[1])},
        {a_first ? slot.seed_a : slot.seed_b, a_first ? slot.seed_b : slot.seed_a},
        fmt::format("games/{}", slot.number + 1));
    const auto& a = match.adjudication;
    t.update({{"timeout", match.timeout},
              {"max_turns", match.max_turns},
              {"adjudication",
               {{"draw_after", a.draw_after},
                {"draw_count", a.draw_count},
                {"draw_score", a.draw_score},
                {"resign_count", a.resign_count},
                {"resign_score", a.resign_score}}},
              {"event", "duel arena"},
              {"round_tag", std::to_string(slot.number + 1)}});
    tasks.push_back(std::move(t));
  }
  std::vector<const nlohmann::json*> todo;
  todo.reserve(tasks.size());
  for (const auto& t : tasks) todo.push_back(&t);
  // Step 3. The cluster plays them; each result is written and scored.
  auto cluster = tournament::Cluster::connect({o.scheduler, work, false, o.worker_duel});
  if (!cluster) return fail(cluster.error());
  return (*cluster)->run(
      todo,
      [&](const nlohmann::json& entry) {
        const auto& slot = slots[std::stoul(entry["key"].get<std::string>())];
        const fs::path dir = work / fmt::format("games/{}", slot.number + 1);
        if (records.is_open()) {
          auto j = nlohmann::json::parse(read_file(dir / "game.json").value_or(""), nullptr, false);
          if (!j.is_discarded()) {
            j["number"] = slot.number + 1;
            j["round"] = slot.game + 1;
            records << j.dump() << '\n' << std::flush;
          }
        }
        if (notation.is_open() && entry.contains("record")) {
          const std::string file = entry["record"].get<std::string>();
          if (!file.ends_with(".json"))
            notation << read_file(work / file).value_or("") << '\n' << std::flush;
        }
        return tournament::Cluster::Reply{score(slot, entry.value("payoff", 0)), {}};
      },
      nullptr);
}

template <class S>
int run_arena(const S& start, ArenaOptions o) {
  // Step 1. Check everything before the first game: a typo fails at once.
  const int n = static_cast<int>(o.agents.size());
  if (n < 2) return bad_input("--agent: give at least two agents");
  for (const auto& a : o.agents) {
    if (a == "human" || a.rfind("human:", 0) == 0)
      return bad_input("--agent: the arena plays programs only");
    if (auto ok = registry::make_agent<S>(a); !ok) return bad_input("--agent: " + ok.error());
  }
  const arena::Format format =
      o.tournament == "gauntlet" ? arena::Format::Gauntlet : arena::Format::RoundRobin;
  std::optional<arena::SprtSettings> sprt;
  if (!o.sprt.empty()) {
    if (n != 2) return bad_input("--sprt: an SPRT compares exactly two agents");
    auto parsed = parse_sprt(o.sprt);
    if (!parsed) return bad_input(parsed.error());
    sprt = *parsed;
  }
  const auto adjudication = parse_adjudication(o.draw, o.resign);
  if (!adjudication) return bad_input(adjudication.error());
  const auto openings =
      arena::parse_openings(start, o.openings, o.openings_order == "random", o.seed);
  if (!openings) return bad_input(openings.error());
  std::ofstream records;
  if (!o.records.empty()) {
    records.open(o.records, std::ios::app);
    if (!records) return bad_input("--records: cannot write " + o.records);
  }
  // The game's own record format (games::RecordFormat): --pgnout for the
  // chess games, --pdnout for checkers.
  using Format = games::RecordFormat;
  std::ofstream notation;
  for (const auto& [wanted, flag, path] : {std::tuple{Format::pgn, "--pgnout", o.pgnout},
                                           std::tuple{Format::pdn, "--pdnout", o.pdnout}}) {
    if (path.empty()) continue;
    if (auto e = play::refuse_format<S>(wanted, {"--pgnout", "--pdnout", "--records"})) {
      return bad_input(*e);
    }
    notation.open(path, std::ios::app);
    if (!notation) return bad_input(fmt::format("{}: cannot write {}", flag, path));
  }
  if (o.games == 0) o.games = o.rounds > 1 ? 2 : 10;
  const long long per_pairing = static_cast<long long>(o.games) * o.rounds;
  if (per_pairing > arena::kMaxGamesPerPairing) {
    return bad_input(
        fmt::format("--games x --rounds: at most {} a pairing", arena::kMaxGamesPerPairing));
  }

  // Step 2. The schedule and the factory.
  const auto pairs = arena::pairings(n, format);
  const auto slots = arena::schedule(pairs, static_cast<int>(per_pairing), o.seed);
  const int total = static_cast<int>(slots.size());
  const auto factory = [&](int agent, std::uint64_t seed) {
    return registry::make_agent<S>(o.agents[static_cast<std::size_t>(agent)],
                                   registry::AgentContext{seed})
        .value();
  };
  arena::TournamentOptions options;
  options.games_per_pairing = static_cast<int>(per_pairing);
  options.concurrency = o.concurrency;
  options.seed = o.seed;
  options.match = {o.timeout, o.max_turns, *adjudication};
  // Seed 003's tie rule, as the referee applies it: checkers programs with
  // a game clock (exec:) share it.
  options.match.tie_to_more_time = std::string_view(S::kName) == "checkers";

  // Step 3. Play, keeping score by pairing and by agent as games end.
  std::vector<arena::Score> by_pairing(pairs.size());  // from the pairing's `a` view
  std::vector<arena::Score> by_agent(static_cast<std::size_t>(n));
  // Pairing 0's game scores by game number (NaN: not played), for the
  // pentanomial: games finish out of order when several run at once.
  std::vector<double> pair0(static_cast<std::size_t>(per_pairing), std::nan(""));
  double llr = 0.0;
  arena::SprtVerdict verdict = arena::SprtVerdict::Continue;
  int decided_at = 0;
  int played = 0;
  Progress progress(!o.json);
  const auto name = [&](int agent) { return o.agents[static_cast<std::size_t>(agent)]; };
  // One finished game into the score; false once an SPRT has decided.
  const auto score_game = [&](const arena::GameSlot& slot, Value payoff) {
    ++played;
    const auto [p1, p2] = slot.players;
    const Value for_a = slot.game % 2 == 0 ? payoff : -payoff;
    auto& pairing = by_pairing[static_cast<std::size_t>(slot.pairing)];
    pairing.add(for_a);
    by_agent[static_cast<std::size_t>(p1)].add(payoff);
    by_agent[static_cast<std::size_t>(p2)].add(-payoff);
    if (slot.pairing == 0) {
      pair0[static_cast<std::size_t>(slot.game)] = for_a > 0 ? 1.0 : for_a < 0 ? 0.0 : 0.5;
    }
    std::string line;
    if (n == 2) {
      line = fmt::format("game {}/{}: +{} ={} -{}", played, total, pairing.wins, pairing.draws,
                         pairing.losses);
    } else {
      line = fmt::format("game {}/{}: {} {} {}", played, total, name(p1),
                         payoff > 0   ? "1-0"
                         : payoff < 0 ? "0-1"
                                      : "1/2",
                         name(p2));
    }
    if (sprt && verdict == arena::SprtVerdict::Continue) {
      llr = arena::sprt_llr(pairing.wins, pairing.draws, pairing.losses, sprt->elo0, sprt->elo1);
      verdict = arena::sprt_verdict(llr, *sprt);
      if (verdict != arena::SprtVerdict::Continue) decided_at = played;
    }
    if (sprt) {
      line += fmt::format(", LLR {:.2f} ({:.2f}, {:.2f})", llr, sprt->lower(), sprt->upper());
    }
    progress.tick(line);
    return verdict == arena::SprtVerdict::Continue;  // an SPRT that has decided stops the run
  };
  if (!o.scheduler.empty()) {
    // The same games as tasks on a Dask cluster (docs/cluster.md).
    auto ran =
        on_cluster<S>(start, o, slots, *openings, options.match, records, notation, score_game);
    if (!ran) {
      progress.done();
      return bad_input(ran.error());
    }
  } else {
    arena::run_tournament<S>(start, slots, *openings, factory, options, [&](const auto& result) {
      const arena::GameSlot& slot = result.slot;
      const auto& record = result.record;
      const auto [p1, p2] = slot.players;
      if (records.is_open()) {
        // One JSON document a line, written as each game ends (nothing lost
        // if the run stops): the game's number and the agents as Player 1, 2.
        auto r = record;
        r.agents = {name(p1), name(p2)};
        nlohmann::json j = play::to_json(r);
        j["number"] = slot.number + 1;
        j["round"] = slot.game + 1;
        records << j.dump() << '\n' << std::flush;
      }
      if constexpr (S::kRecordFormat != Format::none) {
        // PGN with [Variant] and [FEN] for Fairy-Stockfish-based tools, PDN
        // for checkers; the reason the game ended is in Termination.
        if (notation.is_open()) {
          play::RecordTags tags = {{"Event", "duel arena"},
                                   {"Round", std::to_string(slot.number + 1)}};
          for (auto& side : play::side_tags<S>({name(p1), name(p2)})) {
            tags.push_back(std::move(side));
          }
          tags.emplace_back("Termination", play::termination(record));
          notation << play::game_record(record, result.start, tags) << '\n' << std::flush;
        }
      }
      return score_game(slot, record.payoff);
    });
  }
  progress.done();

  // Pentanomial counts over pairing 0's complete pairs of games.
  std::vector<double> paired;
  for (std::size_t i = 0; i + 1 < pair0.size(); i += 2) {
    if (!std::isnan(pair0[i]) && !std::isnan(pair0[i + 1])) {
      paired.push_back(pair0[i]);
      paired.push_back(pair0[i + 1]);
    }
  }
  const auto ptnml = arena::pentanomial(paired);

  // Step 4. Report.
  if (o.json) {
    const auto score_json = [](const arena::Score& s) {
      const arena::EloEstimate elo = arena::estimate(s.wins, s.draws, s.losses);
      return nlohmann::json{{"games", s.games()},
                            {"wins", s.wins},
                            {"draws", s.draws},
                            {"losses", s.losses},
                            {"score", s.score()},
                            {"elo", or_null(elo.elo)},
                            {"elo_margin", or_null(elo.margin)},
                            {"los", elo.los},
                            {"draw_ratio", elo.draw_ratio}};
    };
    nlohmann::json j;
    if (n == 2) {
      j = score_json(by_pairing[0]);
      j["pentanomial"] = ptnml;
    }
    j["tournament"] = o.tournament;
    j["played"] = played;
    j["scheduled"] = total;
    nlohmann::json standings = nlohmann::json::array();
    for (int a = 0; a < n; ++a) {
      auto entry = score_json(by_agent[static_cast<std::size_t>(a)]);
      entry["agent"] = o.agents[static_cast<std::size_t>(a)];
      standings.push_back(entry);
    }
    j["standings"] = standings;
    nlohmann::json matches = nlohmann::json::array();
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      auto entry = score_json(by_pairing[p]);
      entry["a"] = o.agents[static_cast<std::size_t>(pairs[p].a)];
      entry["b"] = o.agents[static_cast<std::size_t>(pairs[p].b)];
      matches.push_back(entry);
    }
    j["pairings"] = matches;
    if (sprt) {
      j["sprt"] = {
          {"elo0", sprt->elo0},
          {"elo1", sprt->elo1},
          {"alpha", sprt->alpha},
          {"beta", sprt->beta},
          {"llr", llr},
          {"lower", sprt->lower()},
          {"upper", sprt->upper()},
          {"verdict", verdict_text(verdict)},
          {"decided_at", decided_at == 0 ? nlohmann::json(nullptr) : nlohmann::json(decided_at)}};
    }
    std::cout << j.dump() << '\n';
    return 0;
  }
  if (n == 2) {
    const arena::Score& score = by_pairing[0];
    std::cout << fmt::format("{}: {} vs {}\n", start.spec(), o.agents[0], o.agents[1]);
    std::cout << fmt::format("games {}: wins {}, draws {}, losses {} (for {}); score {:.3f}\n",
                             score.games(), score.wins, score.draws, score.losses, o.agents[0],
                             score.score());
    // The line cutechess-cli prints, with the same numbers (arena/elo.hpp).
    const arena::EloEstimate elo = arena::estimate(score.wins, score.draws, score.losses);
    std::cout << fmt::format("Elo difference: {}, LOS: {:.1f} %, DrawRatio: {:.1f} %\n",
                             elo_text(elo, score.score()), 100.0 * elo.los, 100.0 * elo.draw_ratio);
    if (sprt) {
      std::cout << fmt::format("SPRT: llr {:.2f}, lbound {:.2f}, ubound {:.2f} - {}{}\n", llr,
                               sprt->lower(), sprt->upper(), verdict_text(verdict),
                               decided_at > 0 && decided_at < played
                                   ? fmt::format(" at game {} ({} more were already running)",
                                                 decided_at, played - decided_at)
                                   : "");
    }
    std::cout << fmt::format("Ptnml(0-2): [{}, {}, {}, {}, {}] (pairs of games, colours swapped)\n",
                             ptnml[0], ptnml[1], ptnml[2], ptnml[3], ptnml[4]);
    return 0;
  }
  // More agents: cutechess's standings (each agent's score against the
  // field as one Elo number), then every pairing from its first agent's view.
  std::cout << fmt::format("{}: {} of {} agents, {} of {} games\n", start.spec(), o.tournament, n,
                           played, total);
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int a = 0; a < n; ++a) order[static_cast<std::size_t>(a)] = a;
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
    return by_agent[static_cast<std::size_t>(x)].score() >
           by_agent[static_cast<std::size_t>(y)].score();
  });
  std::size_t width = 4;
  for (const auto& a : o.agents) width = std::max(width, a.size());
  std::cout << fmt::format("{:>4} {:<{}} {:>16} {:>6} {:>7} {:>6}\n", "Rank", "Name", width, "Elo",
                           "Games", "Score", "Draw");
  for (std::size_t r = 0; r < order.size(); ++r) {
    const arena::Score& s = by_agent[static_cast<std::size_t>(order[r])];
    const arena::EloEstimate elo = arena::estimate(s.wins, s.draws, s.losses);
    std::cout << fmt::format("{:>4} {:<{}} {:>16} {:>6} {:>6.1f}% {:>5.1f}%\n", r + 1,
                             o.agents[static_cast<std::size_t>(order[r])], width,
                             elo_text(elo, s.score()), s.games(), 100.0 * s.score(),
                             s.games() == 0 ? 0.0 : 100.0 * s.draws / s.games());
  }
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    const arena::Score& s = by_pairing[p];
    std::cout << fmt::format(
        "{} vs {}: +{} ={} -{}, score {:.3f}\n", o.agents[static_cast<std::size_t>(pairs[p].a)],
        o.agents[static_cast<std::size_t>(pairs[p].b)], s.wins, s.draws, s.losses, s.score());
  }
  return 0;
}

}  // namespace

Command add_arena(CLI::App& app) {
  auto o = std::make_shared<ArenaOptions>();
  CLI::App* sub = app.add_subcommand(
      "arena", "A tournament between agents: round-robin or gauntlet, colours swapped");
  sub->add_option("game", o->game, "Game spec")->required();
  sub->add_option("--agent", o->agents, "An agent spec (two or more)")->required();
  sub->add_option("--tournament", o->tournament,
                  "round-robin (everyone meets everyone) or gauntlet (the first agent meets "
                  "each other)")
      ->check(CLI::IsMember({"round-robin", "gauntlet"}))
      ->capture_default_str();
  sub->add_option("--games", o->games,
                  "Games each pairing plays a round (default 10; 2 with --rounds)")
      ->check(CLI::Range(1, arena::kMaxGamesPerPairing));
  sub->add_option("--rounds", o->rounds, "Rounds: each pairing plays --games games a round")
      ->check(CLI::Range(1, arena::kMaxGamesPerPairing))
      ->capture_default_str();
  sub->add_option("--concurrency", o->concurrency, "Games played at once (threads)")
      ->check(CLI::Range(1, arena::kMaxConcurrency))
      ->capture_default_str();
  sub->add_option("--seed", o->seed, "Seed for the agents' randomness and the openings");
  sub->add_option("--fen,--state", o->state, "Start every game from this position");
  sub->add_option("--timeout", o->timeout, "Seconds a move; over it loses (0 = none)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--max-turns", o->max_turns,
                  "Adjudicate a draw after this many turns (a move each; 0 = none)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--openings", o->openings,
                  "Start of each pair of games (both colours get each): random:plies=P (or "
                  "just P), or a file with a position a line");
  sub->add_option("--openings-order", o->openings_order, "sequential or random (with --seed)")
      ->check(CLI::IsMember({"sequential", "random"}))
      ->capture_default_str();
  sub->add_option("--draw", o->draw,
                  "Adjudicate a draw: movenumber=N,movecount=C,score=S (both scores within S "
                  "of zero for C moves each, after turn N)");
  sub->add_option("--resign", o->resign,
                  "Adjudicate a loss: movecount=C,score=S (a side's own score at most -S for C "
                  "moves)");
  sub->add_option("--sprt", o->sprt,
                  "Stop when an SPRT decides: elo0=0,elo1=10,alpha=0.05,beta=0.05 (cutechess's "
                  "test; two agents; --games is then the most it plays)");
  sub->add_option("--records", o->records,
                  "Append every game as one JSON line (moves, times, search statistics)");
  sub->add_option("--pdnout", o->pdnout, "Checkers: append every game as PDN");
  sub->add_option("--pgnout", o->pgnout,
                  "5x5 chess: append every game as PGN ([Variant], [FEN], SAN moves)");
  add_cluster_options(sub, o->scheduler, o->worker_duel, "Play every game");
  sub->add_flag("--json", o->json, "One JSON document");
  return {sub, [o] {
            return with_game(o->game, o->state, [&](const auto& s) { return run_arena(s, *o); });
          }};
}

}  // namespace duel::cli
