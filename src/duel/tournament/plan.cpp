#include "duel/tournament/plan.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "duel/arena/arena.hpp"
#include "duel/core/rng.hpp"
#include "duel/tournament/tasks.hpp"

namespace duel::tournament {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

[[nodiscard]] std::string cpu_name(const Options& o) {
  return o.charge == referee::Charge::User ? "user" : "user+sys";
}

[[nodiscard]] std::string reading_name(const Options& o) {
  return std::string(games::checkers::protocol::reading_name(o.reading));
}

// The prepared folder of a submission, as tasks name it (under DIR).
// A program's box, as the task runs it anywhere (a cluster's worker too):
// only what differs from a boxed run with the default limits is written.
void add_box(const Options& o, json& task) {
  if (!o.limits.sandbox) {
    task["sandbox"] = false;
    return;
  }
  const box::Limits standard;
  if (o.limits.box.memory != standard.memory) task["memory"] = o.limits.box.memory;
  if (o.limits.box.processes != standard.processes) task["processes"] = o.limits.box.processes;
}

[[nodiscard]] std::string source_of(const Options& o, const Submission& s) {
  std::error_code ec;
  return s.home.empty() ? std::string() : fs::relative(s.home, o.out, ec).string();
}

[[nodiscard]] json side_of(const Options& o, const Submission& s) {
  if (!s.agent.empty()) return {{"name", s.name}, {"agent", s.agent}};
  return {{"name", s.name}, {"program", s.command}, {"source", source_of(o, s)}};
}

[[nodiscard]] double seconds_of(const Options& o, int game) {
  return o.game_seconds[static_cast<std::size_t>(game) % o.game_seconds.size()];
}

// The reference side of game `number` against `student`: its spec with a
// seed of that game's own (the TA's reference breaks ties at random,
// RULES.md §6a, so games vary and a rerun replays them), and its charge.
[[nodiscard]] json reference_side(const Options& o, const std::string& student, int number) {
  std::string program = o.reference;
  if (course_reference(o) && program.find("seed=") == std::string::npos) {
    const std::uint64_t seed = mix64(
        o.seed ^ fnv1a(student) ^ (0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(number + 1)));
    program += fmt::format("{}seed={}", program.find(':', 5) == std::string::npos ? ":" : ",",
                           seed % 1000000007ULL);
  }
  const double charge = reference_charge_of(o);
  json side = {{"name", "reference"}, {"program", program}, {"source", ""}};
  if (charge > 0.0) side["charge_per_move"] = charge;
  return side;
}

// A game between `sides` (Player 1 first), the `number`th of its pairing.
[[nodiscard]] json game(const Field& f, const std::string& stage, int round, const std::string& key,
                        const std::array<json, 2>& sides, const std::array<std::uint64_t, 2>& seeds,
                        int number, const Opening& opening, const json& pairing) {
  const Options& o = f.options;
  json t = game_task(key, o.game, opening, sides, seeds, "games/" + task_folder(key));
  t.update({{"stage", stage},
            {"round", round},
            {"pairing", pairing},
            {"seconds", seconds_of(o, number)},
            {"timeout", o.timeout},
            {"max_turns", o.max_turns},
            {"cpu", cpu_name(o)},
            {"tick", o.tick},
            {"reading", reading_name(o)},
            {"disk_limit", o.disk_mb << 20},
            {"wall_factor", o.wall_factor}});
  add_box(o, t);
  return t;
}

// `count` games of student `s` against the reference, the student first in
// the even ones, keyed `prefix/G`; appended to `out`.
void reference_games(const Field& f, const Submission& s, int count, const std::string& stage,
                     int round, const std::string& prefix, std::vector<json>& out) {
  const Options& o = f.options;
  for (int g = 0; g < count; ++g) {
    const json me = side_of(o, s);
    const json reference = reference_side(o, s.name, g);
    const std::array<json, 2> sides =
        g % 2 == 0 ? std::array{me, reference} : std::array{reference, me};
    out.push_back(game(f, stage, round, fmt::format("{}/{}", prefix, g), sides, {0, 0}, g,
                       Opening{}, {s.name, "reference"}));
  }
}

// Every game of `pairs` (indices into the entrants), `games` each, by the
// arena's schedule: colours alternate, each opening pair played both ways,
// agent A of a pairing seeded with seed_a whatever its colour.
[[nodiscard]] std::vector<json> pairings_games(const Field& f, const std::string& stage, int round,
                                               const std::vector<arena::Pairing>& pairs,
                                               std::uint64_t seed) {
  std::vector<json> out;
  const auto& e = f.entrants;
  for (const auto& slot : arena::schedule(pairs, f.options.games, seed)) {
    const auto& pairing = pairs[static_cast<std::size_t>(slot.pairing)];
    const auto& a = e[static_cast<std::size_t>(pairing.a)];
    const auto& b = e[static_cast<std::size_t>(pairing.b)];
    const auto& first = e[static_cast<std::size_t>(slot.players[0])];
    const auto& second = e[static_cast<std::size_t>(slot.players[1])];
    const bool a_first = slot.game % 2 == 0;
    const std::string key =
        round == 0 ? fmt::format("{}/{}/{}/{}", stage, a.name, b.name, slot.game)
                   : fmt::format("{}/{}/{}/{}/{}", stage, round, a.name, b.name, slot.game);
    out.push_back(game(f, stage, round, key,
                       {side_of(f.options, first), side_of(f.options, second)},
                       {a_first ? slot.seed_a : slot.seed_b, a_first ? slot.seed_b : slot.seed_a},
                       slot.game, f.opening(slot.game / 2), {a.name, b.name}));
  }
  return out;
}

[[nodiscard]] std::vector<std::size_t> playing(const Field& f) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < f.entrants.size(); ++i) {
    if (f.entrants[i].ok()) out.push_back(i);
  }
  return out;
}

[[nodiscard]] bool same_pair(const json& entry, const std::string& a, const std::string& b) {
  const auto& p = entry.value("pairing", json::array());
  return p.size() == 2 && ((p[0] == a && p[1] == b) || (p[0] == b && p[1] == a));
}

// The grading of seed 003: ten single moves, then the reference games,
// the student first in 5 of 9.
std::vector<json> grading(const Field& f) {
  const Options& o = f.options;
  const auto& singles = o.singles.empty() ? default_singles() : o.singles;
  std::vector<json> out;
  for (const std::size_t i : playing(f)) {
    const Submission& s = f.entrants[i];
    for (std::size_t k = 0; k < singles.size(); ++k) {
      const std::string key = fmt::format("single/{}/{}", s.name, k);
      out.push_back({{"key", key},
                     {"kind", "single"},
                     {"stage", "single"},
                     {"student", s.name},
                     {"program", s.command},
                     {"source", source_of(o, s)},
                     {"position", k},
                     {"fen", singles[k].fen},
                     {"seconds", singles[k].seconds},
                     {"cpu", cpu_name(o)},
                     {"tick", o.tick},
                     {"reading", reading_name(o)},
                     {"wall_factor", o.wall_factor},
                     {"disk_limit", o.disk_mb << 20},
                     {"dir", "games/" + task_folder(key)}});
      add_box(o, out.back());
    }
    // Seed 003: "Your agent will be given the first move on 5 of the 9 games."
    reference_games(f, s, o.reference_games, "reference", 0, "reference/" + s.name, out);
  }
  return out;
}

// A knockout round's pairs among `alive`, shuffled by the seed and the
// round; with an odd number the one with the fewest byes so far (the first
// such in the shuffle) has the bye, so byes go round.
struct KnockoutRound {
  std::vector<arena::Pairing> pairs;
  std::optional<std::size_t> bye;
};
[[nodiscard]] KnockoutRound knockout_pairs(const std::vector<std::size_t>& alive,
                                           const std::map<std::size_t, int>& byes,
                                           std::uint64_t seed, int round) {
  std::vector<std::size_t> order = alive;
  Rng rng(mix64(seed ^ (0x4B0ULL * static_cast<std::uint64_t>(round))));
  for (std::size_t k = order.size(); k > 1; --k) std::swap(order[k - 1], order[rng.below(k)]);
  KnockoutRound out;
  if (order.size() % 2 == 1) {
    const auto count = [&](std::size_t i) {
      const auto it = byes.find(i);
      return it == byes.end() ? 0 : it->second;
    };
    const auto it = std::ranges::min_element(order, {}, count);
    out.bye = *it;
    order.erase(it);
  }
  for (std::size_t i = 0; i + 1 < order.size(); i += 2) {
    out.pairs.push_back({static_cast<int>(std::min(order[i], order[i + 1])),
                         static_cast<int>(std::max(order[i], order[i + 1]))});
  }
  return out;
}

// The knockout as it stands at the start of `round`: who is in, that
// round's pairs, and whether it is over. It is over when one is left, or
// when no one has been eliminated for long enough that everyone still in
// has played in that time (one round; two when a bye kept someone out).
struct Knockout {
  std::vector<std::size_t> alive;
  KnockoutRound next;
  bool over = false;
};
[[nodiscard]] Knockout knockout_at(const Field& f, const Entries& journal, int round) {
  Knockout k;
  k.alive = playing(f);
  std::map<std::size_t, int> byes;
  int stale = 0;
  for (int r = 1;; ++r) {
    k.over = k.alive.size() <= 1 || stale >= (k.alive.size() % 2 == 1 ? 2 : 1);
    k.next = knockout_pairs(k.alive, byes, f.options.seed, r);
    if (r == round || k.over) return k;
    // Round r's results (seed 003: "If an agent loses more than half of the
    // games, it will be eliminated").
    if (k.next.bye) ++byes[*k.next.bye];
    std::set<std::size_t> next(k.alive.begin(), k.alive.end());
    for (const auto& p : k.next.pairs) {
      const std::string& a = f.entrants[static_cast<std::size_t>(p.a)].name;
      const std::string& b = f.entrants[static_cast<std::size_t>(p.b)].name;
      int lost_a = 0;
      int lost_b = 0;
      for (const auto& [key, j] : journal) {
        if (j.value("stage", "") != "competition" || j.value("round", 0) != r ||
            j.value("kind", "") != "game" || !same_pair(j, a, b) || j["winner"].is_null()) {
          continue;
        }
        ++(j["winner"] == a ? lost_b : lost_a);
      }
      if (2 * lost_a > f.options.games) next.erase(static_cast<std::size_t>(p.a));
      if (2 * lost_b > f.options.games) next.erase(static_cast<std::size_t>(p.b));
    }
    stale = next.size() == k.alive.size() ? stale + 1 : 0;
    k.alive.assign(next.begin(), next.end());
  }
}

[[nodiscard]] std::uint64_t round_seed(std::uint64_t seed, int round) {
  return mix64(seed ^ (0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(round)));
}

// Pairs of `order` (best placed first, an even number) in which no one
// meets someone they have met: each in turn with the nearest below it it can
// meet, backtracking when the rest cannot be paired; none if no such
// pairing exists (or none was found within a bounded search).
[[nodiscard]] std::optional<std::vector<arena::Pairing>> swiss_pairs(
    const std::vector<std::size_t>& order,
    const std::function<bool(std::size_t, std::size_t)>& has_met) {
  std::vector<bool> taken(order.size(), false);
  std::vector<arena::Pairing> pairs;
  long budget = 200000;
  const std::function<bool()> pair_rest = [&]() -> bool {
    std::size_t k = 0;
    while (k < order.size() && taken[k]) ++k;
    if (k == order.size()) return true;
    taken[k] = true;
    for (std::size_t m = k + 1; m < order.size(); ++m) {
      if (taken[m] || has_met(order[k], order[m])) continue;
      if (--budget < 0) break;
      taken[m] = true;
      pairs.push_back({static_cast<int>(std::min(order[k], order[m])),
                       static_cast<int>(std::max(order[k], order[m]))});
      if (pair_rest()) return true;
      pairs.pop_back();
      taken[m] = false;
    }
    taken[k] = false;
    return false;
  };
  if (!pair_rest()) return std::nullopt;
  return pairs;
}

// Swiss: each entrant's points and opponents after the rounds before
// `round`; then pairs of the nearest scores who have not met, and a bye for
// the lowest-placed entrant who has had none.
std::vector<json> swiss_round(const Field& f, const Entries& journal, int round) {
  const auto alive = playing(f);
  std::map<std::string, std::size_t> index;
  for (const std::size_t i : alive) index[f.entrants[i].name] = i;
  std::map<std::size_t, double> points;
  std::set<std::pair<std::size_t, std::size_t>> met;
  std::set<std::size_t> had_bye;
  for (const auto& [key, j] : journal) {
    if (j.value("stage", "") != "swiss" || j.value("round", 0) >= round) continue;
    if (j["kind"] == "bye") {
      const auto it = index.find(j["player"].get<std::string>());
      if (it == index.end()) continue;
      points[it->second] += j["points"].get<double>();
      had_bye.insert(it->second);
      continue;
    }
    if (j["kind"] != "game") continue;
    const auto a = index.find(j["players"][0].get<std::string>());
    const auto b = index.find(j["players"][1].get<std::string>());
    if (a == index.end() || b == index.end()) continue;
    const auto s = game_scores(j);
    points[a->second] += s[0];
    points[b->second] += s[1];
    met.insert({std::min(a->second, b->second), std::max(a->second, b->second)});
  }
  std::vector<std::size_t> order = alive;
  std::ranges::stable_sort(order,
                           [&](std::size_t x, std::size_t y) { return points[x] > points[y]; });
  // The bye: the lowest-placed without one whose leaving lets the rest be
  // paired without a rematch, if anyone's does.
  std::vector<json> out;
  std::vector<arena::Pairing> pairs;
  const auto has_met = [&](std::size_t a, std::size_t b) {
    return met.count({std::min(a, b), std::max(a, b)}) != 0;
  };
  std::optional<std::size_t> bye;
  if (order.size() % 2 == 1) {
    std::vector<std::size_t> candidates;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      if (had_bye.count(*it) == 0) candidates.push_back(*it);
    }
    if (candidates.empty()) candidates.push_back(order.back());
    for (const std::size_t c : candidates) {
      std::vector<std::size_t> rest;
      for (const std::size_t i : order) {
        if (i != c) rest.push_back(i);
      }
      if (auto p = swiss_pairs(rest, has_met)) {
        bye = c;
        pairs = std::move(*p);
        break;
      }
    }
    if (!bye) bye = candidates.front();
    std::erase(order, *bye);
    const std::string& name = f.entrants[*bye].name;
    out.push_back({{"key", fmt::format("swiss/{}/bye/{}", round, name)},
                   {"kind", "bye"},
                   {"stage", "swiss"},
                   {"round", round},
                   {"player", name},
                   {"points", f.options.games}});
  }
  if (pairs.empty()) {
    if (auto p = swiss_pairs(order, has_met)) {
      pairs = std::move(*p);
    } else {
      // A rematch is unavoidable: the nearest in the order.
      for (std::size_t k = 0; k + 1 < order.size(); k += 2) {
        pairs.push_back({static_cast<int>(std::min(order[k], order[k + 1])),
                         static_cast<int>(std::max(order[k], order[k + 1]))});
      }
    }
  }
  for (auto& g : pairings_games(f, "swiss", round, pairs, round_seed(f.options.seed, round))) {
    out.push_back(std::move(g));
  }
  return out;
}

// Every pair of `among` (entrant indices) once, by the arena's schedule of
// a round-robin or a gauntlet (the first against each other).
[[nodiscard]] std::vector<arena::Pairing> pairs_of(const std::vector<std::size_t>& among,
                                                   arena::Format format) {
  std::vector<arena::Pairing> pairs;
  for (const auto& p : arena::pairings(static_cast<int>(among.size()), format)) {
    pairs.push_back({static_cast<int>(among[static_cast<std::size_t>(p.a)]),
                     static_cast<int>(among[static_cast<std::size_t>(p.b)])});
  }
  return pairs;
}

// The competition as the course ran it (RULES.md §6a, its runitall-log.txt):
// round 1 against the reference; then rounds in which each student meets 4
// or 5 others, `games` games a pair; then, once the field is at most
// final_size (or after `rounds` such rounds), a round-robin final. The log
// gives the rounds and their sizes, not who left: Duel's reading is that a
// student who scored nothing in a round (every game lost) is out, which
// fits its counts (121, 118, 107, ... 46 in the final) and keeps a student
// who lost one pair 4-0 but won elsewhere (beiyouzh, round 2).
struct CourseRound {
  enum class Kind : std::uint8_t { Reference, Pairs, Final, Over };
  Kind kind = Kind::Reference;
  std::vector<std::size_t> alive;
};

// Round r's opponents: a random 4- or 5-regular pairing of `alive`
// (a circulant on a shuffled order: offsets 1..k/2, and for an odd k the
// opposite seat, which needs an even field; an odd field meets 4).
[[nodiscard]] std::vector<arena::Pairing> course_pairs(const std::vector<std::size_t>& alive,
                                                       std::uint64_t seed) {
  std::vector<std::size_t> order = alive;
  Rng rng(seed);
  for (std::size_t k = order.size(); k > 1; --k) std::swap(order[k - 1], order[rng.below(k)]);
  const std::size_t n = order.size();
  std::size_t k = 4 + rng.below(2);
  if (k % 2 == 1 && n % 2 == 1) k = 4;
  std::set<std::pair<std::size_t, std::size_t>> edges;
  const auto add = [&](std::size_t a, std::size_t b) {
    if (a != b) edges.insert({std::min(a, b), std::max(a, b)});
  };
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t d = 1; d <= k / 2; ++d) add(order[i], order[(i + d) % n]);
    if (k % 2 == 1) add(order[i], order[(i + n / 2) % n]);
  }
  std::vector<arena::Pairing> out;
  out.reserve(edges.size());
  for (const auto& [a, b] : edges) out.push_back({static_cast<int>(a), static_cast<int>(b)});
  return out;
}

[[nodiscard]] CourseRound course_at(const Field& f, const Entries& journal, int round) {
  const Options& o = f.options;
  CourseRound c;
  c.alive = playing(f);
  const int max_rounds = competition_rounds(o);
  for (int r = 1;; ++r) {
    if (r == 1) {
      c.kind = CourseRound::Kind::Reference;
    } else if (c.kind == CourseRound::Kind::Final || c.alive.size() < 2) {
      c.kind = CourseRound::Kind::Over;
    } else if (c.alive.size() <= static_cast<std::size_t>(o.final_size) || r > max_rounds + 1 ||
               c.alive.size() <= 6) {
      c.kind = CourseRound::Kind::Final;
    } else {
      c.kind = CourseRound::Kind::Pairs;
    }
    if (r == round || c.kind == CourseRound::Kind::Over) return c;
    if (c.kind == CourseRound::Kind::Final) continue;
    // Who scored in round r stays.
    std::set<std::string> scored;
    for (const auto& [key, j] : journal) {
      if (j.value("stage", "") != "competition" || j.value("round", 0) != r ||
          j.value("kind", "") != "game") {
        continue;
      }
      const auto s = game_scores(j);
      for (std::size_t k = 0; k < 2; ++k) {
        if (s[k] > 0.0) scored.insert(j["players"][k].get<std::string>());
      }
    }
    std::erase_if(c.alive, [&](std::size_t i) { return scored.count(f.entrants[i].name) == 0; });
  }
}

std::vector<json> course_round(const Field& f, const Entries& journal, int round) {
  const Options& o = f.options;
  const CourseRound c = course_at(f, journal, round);
  switch (c.kind) {
    case CourseRound::Kind::Over: return {};
    case CourseRound::Kind::Reference: {
      std::vector<json> out;
      for (const std::size_t i : c.alive) {
        const Submission& s = f.entrants[i];
        reference_games(f, s, o.games, "competition", 1,
                        fmt::format("competition/1/{}/reference", s.name), out);
      }
      return out;
    }
    case CourseRound::Kind::Pairs:
      return pairings_games(f, "competition", round,
                            course_pairs(c.alive, round_seed(o.seed, round)),
                            round_seed(o.seed, round));
    case CourseRound::Kind::Final: {
      auto tasks =
          pairings_games(f, "competition", round, pairs_of(c.alive, arena::Format::RoundRobin),
                         round_seed(o.seed, round));
      for (auto& t : tasks) t["final"] = true;
      return tasks;
    }
  }
  return {};
}

}  // namespace

std::vector<std::size_t> competition_finalists(const Field& field, const Entries& journal) {
  CourseRound c;
  for (int r = 1;; ++r) {
    const CourseRound next = course_at(field, journal, r);
    if (next.kind == CourseRound::Kind::Over)
      return c.kind == CourseRound::Kind::Final ? c.alive : next.alive;
    c = next;
  }
}

int competition_rounds(const Options& o) {
  return o.rounds > 0 ? o.rounds : 20;
}

std::string task_folder(const std::string& key) {
  std::string out;
  for (const char c : key) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '-' || c == '_';
    out += keep ? c : '_';
  }
  if (out.size() > 80) out.resize(80);
  // FNV-1a from the basis these folder names have always used (not FNV's:
  // a digit short), so the folders of an earlier run keep their names.
  const std::uint64_t h = fnv1a(key, 1469598103934665603ULL);
  return fmt::format("{}-{:08x}", out, h & 0xFFFFFFFFULL);
}

int swiss_rounds(const Options& o, std::size_t players) {
  if (o.rounds > 0) return o.rounds;
  int rounds = 1;
  while ((std::size_t{1} << rounds) < players) ++rounds;
  return rounds;
}

std::vector<std::size_t> knockout_entrants(const Field& f, const Entries& journal, int round) {
  return knockout_at(f, journal, round).alive;
}

std::vector<json> plan_round(const Field& f, const Entries& journal, int round) {
  const Options& o = f.options;
  switch (o.format) {
    case Format::Grading: return round == 1 ? grading(f) : std::vector<json>{};
    case Format::RoundRobin:
    case Format::Gauntlet: {
      if (round != 1) return {};
      const auto pairs =
          pairs_of(playing(f), o.format == Format::Gauntlet ? arena::Format::Gauntlet
                                                            : arena::Format::RoundRobin);
      return pairings_games(f, std::string(format_name(o.format)), 0, pairs, o.seed);
    }
    case Format::Knockout: {
      // Over: one winner, or equal winners (seed 003: "We may end up with
      // several equivalent winners of the competition").
      const Knockout k = knockout_at(f, journal, round);
      if (k.over) return {};
      auto tasks = pairings_games(f, "competition", round, k.next.pairs, round_seed(o.seed, round));
      if (k.next.bye) {
        const std::string& name = f.entrants[*k.next.bye].name;
        tasks.push_back({{"key", fmt::format("competition/{}/bye/{}", round, name)},
                         {"kind", "bye"},
                         {"stage", "competition"},
                         {"round", round},
                         {"player", name},
                         {"points", 0}});
      }
      return tasks;
    }
    case Format::Competition: return course_round(f, journal, round);
    case Format::Swiss: {
      if (round > swiss_rounds(o, playing(f).size()) || playing(f).size() < 2) return {};
      return swiss_round(f, journal, round);
    }
  }
  return {};
}

}  // namespace duel::tournament
