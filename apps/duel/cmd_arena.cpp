// duel arena GAME --agent A --agent B --games N: a match of many games with
// colours alternating; the score is from the first agent's view.
#include <cmath>
#include <fstream>
#include <memory>

#include <nlohmann/json.hpp>

#include "common.hpp"
#include "duel/arena/arena.hpp"
#include "duel/arena/elo.hpp"
#include "duel/core/spec.hpp"
#include "duel/play/pdn_record.hpp"
#include "duel/play/record_io.hpp"
#include "duel/registry/agents.hpp"

namespace duel::cli {
namespace {

struct ArenaOptions {
  std::string game;
  std::string state;
  std::vector<std::string> agents;
  int games = 10;
  std::uint64_t seed = 0;
  double timeout = 0.0;
  int max_turns = 0;
  int openings = 0;
  std::string sprt;     // elo0=0,elo1=10,alpha=0.05,beta=0.05
  std::string records;  // JSON lines, one game each
  std::string pdnout;   // checkers: PDN
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

// --sprt elo0=A,elo1=B,alpha=X,beta=Y (any subset; cutechess's defaults for
// the rest): read with the spec grammar, so mistakes get its messages.
Result<arena::SprtSettings> parse_sprt(const std::string& text) {
  const auto spec = Spec::parse("sprt:" + text);
  if (!spec) return fail("--sprt: " + spec.error());
  if (auto e = spec->reject_unknown({"elo0", "elo1", "alpha", "beta"})) {
    return fail("--sprt: " + e->message);
  }
  arena::SprtSettings s;
  const auto elo0 = spec->number("elo0", s.elo0, -1000, 1000);
  const auto elo1 = spec->number("elo1", s.elo1, -1000, 1000);
  const auto alpha = spec->number("alpha", s.alpha, 1e-6, 0.5);
  const auto beta = spec->number("beta", s.beta, 1e-6, 0.5);
  for (const auto* r : {&elo0, &elo1, &alpha, &beta}) {
    if (!*r) {
      const std::string& e = r->error();
      return fail("--sprt: " + (e.rfind("sprt: ", 0) == 0 ? e.substr(6) : e));
    }
  }
  if (!(*elo1 > *elo0)) return fail("--sprt: elo1 must be greater than elo0");
  return arena::SprtSettings{*elo0, *elo1, *alpha, *beta};
}

template <class S>
int run_arena(const S& start, const ArenaOptions& o) {
  // Check both specs once up front so a typo fails before any game.
  for (const auto& a : o.agents) {
    if (a == "human" || a.rfind("human:", 0) == 0)
      return bad_input("--agent: the arena plays programs only");
    if (auto ok = registry::make_agent<S>(a); !ok) return bad_input("--agent: " + ok.error());
  }
  std::optional<arena::SprtSettings> sprt;
  if (!o.sprt.empty()) {
    auto parsed = parse_sprt(o.sprt);
    if (!parsed) return bad_input(parsed.error());
    sprt = *parsed;
  }
  std::ofstream records;
  if (!o.records.empty()) {
    records.open(o.records, std::ios::app);
    if (!records) return bad_input("--records: cannot write " + o.records);
  }
  std::ofstream pdn;
  if (!o.pdnout.empty()) {
    if constexpr (!std::is_same_v<S, games::checkers::State>) {
      return bad_input("--pdnout: PDN records checkers games; use --records for " +
                       std::string(S::kName));
    }
    pdn.open(o.pdnout, std::ios::app);
    if (!pdn) return bad_input("--pdnout: cannot write " + o.pdnout);
  }
  // A checkers game as PDN, Black first: A is Black in even-numbered games.
  const auto write_pdn = [&](std::ofstream& out, const S& first, int g, const auto& record) {
    if constexpr (std::is_same_v<S, games::checkers::State>) {
      const std::size_t a = g % 2 == 0 ? 0 : 1;
      out << play::pdn_record(record, first,
                              {{"Event", "duel arena"},
                               {"Round", std::to_string(g + 1)},
                               {"Black", o.agents[a]},
                               {"White", o.agents[1 - a]},
                               {"Termination", record.reason}})
          << '\n'
          << std::flush;
    } else {
      (void)out, (void)first, (void)g, (void)record;
    }
  };
  Progress progress(!o.json);
  arena::ArenaOptions options{o.games, o.seed, {o.timeout, o.max_turns}, o.openings};
  const auto factory = [&](int which, std::uint64_t seed) {
    return registry::make_agent<S>(o.agents[static_cast<std::size_t>(which)],
                                   registry::AgentContext{seed})
        .value();
  };
  double llr = 0.0;
  arena::SprtVerdict verdict = arena::SprtVerdict::Continue;
  // Each game's score for A, from the running totals, for the pentanomial.
  std::vector<double> results;
  arena::Score before;
  const auto score = arena::run_arena<S>(
      start, factory, options, [&](const arena::Score& s, int g, const auto& record) {
        if (records.is_open()) {
          // One JSON document a line, written as each game ends (nothing lost
          // if the run stops): the game's number, the agents as Player 1 and 2.
          auto r = record;
          const std::size_t a = g % 2 == 0 ? 0 : 1;
          r.agents = {o.agents[a], o.agents[1 - a]};
          nlohmann::json j = play::to_json(r);
          j["number"] = g + 1;
          records << j.dump() << '\n' << std::flush;
        }
        if (pdn.is_open()) write_pdn(pdn, start, g, record);
        results.push_back(s.wins > before.wins ? 1.0 : s.draws > before.draws ? 0.5 : 0.0);
        before = s;
        std::string line =
            fmt::format("game {}/{}: +{} ={} -{}", s.games(), o.games, s.wins, s.draws, s.losses);
        if (sprt) {
          llr = arena::sprt_llr(s.wins, s.draws, s.losses, sprt->elo0, sprt->elo1);
          verdict = arena::sprt_verdict(llr, *sprt);
          line += fmt::format(", LLR {:.2f} ({:.2f}, {:.2f})", llr, sprt->lower(), sprt->upper());
        }
        progress.tick(line);
        return verdict == arena::SprtVerdict::Continue;  // an SPRT that has decided stops the run
      });
  progress.done();
  const arena::EloEstimate elo = arena::estimate(score.wins, score.draws, score.losses);
  const auto or_null = [](const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  if (o.json) {
    nlohmann::json j = {{"games", score.games()},
                        {"wins", score.wins},
                        {"draws", score.draws},
                        {"losses", score.losses},
                        {"score", score.score()},
                        {"elo", or_null(elo.elo)},
                        {"elo_margin", or_null(elo.margin)},
                        {"los", elo.los},
                        {"draw_ratio", elo.draw_ratio},
                        {"pentanomial", arena::pentanomial(results)}};
    if (sprt) {
      j["sprt"] = {{"elo0", sprt->elo0},
                   {"elo1", sprt->elo1},
                   {"alpha", sprt->alpha},
                   {"beta", sprt->beta},
                   {"llr", llr},
                   {"lower", sprt->lower()},
                   {"upper", sprt->upper()},
                   {"verdict", verdict_text(verdict)}};
    }
    std::cout << j.dump() << '\n';
    return 0;
  }
  std::cout << fmt::format("{}: {} vs {}\n", start.spec(), o.agents[0], o.agents[1]);
  std::cout << fmt::format("games {}: wins {}, draws {}, losses {} (for {}); score {:.3f}\n",
                           score.games(), score.wins, score.draws, score.losses, o.agents[0],
                           score.score());
  // The line cutechess-cli prints, with the same numbers (arena/elo.hpp).
  const std::string diff =
      elo.elo ? fmt::format("{:.1f}", std::round(*elo.elo * 10.0) / 10.0 + 0.0)  // no "-0.0"
              : (score.score() > 0.5 ? "+inf" : "-inf");
  const std::string margin = elo.margin ? fmt::format(" +/- {:.1f}", *elo.margin) : "";
  std::cout << fmt::format("Elo difference: {}{}, LOS: {:.1f} %, DrawRatio: {:.1f} %\n", diff,
                           margin, 100.0 * elo.los, 100.0 * elo.draw_ratio);
  if (sprt) {
    std::cout << fmt::format("SPRT: llr {:.2f}, lbound {:.2f}, ubound {:.2f} - {}\n", llr,
                             sprt->lower(), sprt->upper(), verdict_text(verdict));
  }
  const auto ptnml = arena::pentanomial(results);
  std::cout << fmt::format("Ptnml(0-2): [{}, {}, {}, {}, {}] (pairs of games, colours swapped)\n",
                           ptnml[0], ptnml[1], ptnml[2], ptnml[3], ptnml[4]);
  return 0;
}

}  // namespace

Command add_arena(CLI::App& app) {
  auto o = std::make_shared<ArenaOptions>();
  CLI::App* sub =
      app.add_subcommand("arena", "Play many games between two agents, colours alternating");
  sub->add_option("game", o->game, "Game spec")->required();
  sub->add_option("--agent", o->agents, "An agent spec (give exactly two)")
      ->required()
      ->expected(2);
  sub->add_option("--games", o->games, "Number of games")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  sub->add_option("--seed", o->seed, "Seed for the agents' randomness");
  sub->add_option("--state,--fen", o->state, "Start every game from this position");
  sub->add_option("--timeout", o->timeout, "Seconds a move; over it loses (0 = none)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--max-turns", o->max_turns, "Draw after this many turns (0 = none)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--openings", o->openings,
                  "Random plies before each pair of games (both colours get each opening)")
      ->check(CLI::Range(0, 40));
  sub->add_option("--sprt", o->sprt,
                  "Stop when an SPRT decides: elo0=0,elo1=10,alpha=0.05,beta=0.05 (cutechess's "
                  "test; --games is then the most it plays)");
  sub->add_option("--records", o->records,
                  "Append every game as one JSON line (moves, times, search statistics)");
  sub->add_option("--pdnout", o->pdnout, "Checkers: append every game as PDN");
  sub->add_flag("--json", o->json, "One JSON document");
  return {sub, [o] {
            return with_game(o->game, o->state, [&](const auto& s) { return run_arena(s, *o); });
          }};
}

}  // namespace duel::cli
