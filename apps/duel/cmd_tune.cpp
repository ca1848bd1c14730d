// duel tune GAME --records FILE...: fits a linear heuristic's weights to the
// results of recorded games (Texel's method, tune/texel.hpp) and writes them
// as a weights header (docs/tuning.md): e3's for the 5x5 chess rule sets
// (e3_weights.hpp), `tuned`'s for checkers (tuned_weights.hpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "common.hpp"
#include "duel/core/file.hpp"
#include "duel/games/checkers/linear_eval.hpp"
#include "duel/games/engines.hpp"
#include "duel/games/minichess/linear_eval.hpp"
#include "duel/play/match.hpp"
#include "duel/search/searcher.hpp"
#include "duel/tune/texel.hpp"

namespace duel::cli {
namespace {

namespace mc = games::minichess;
namespace ck = games::checkers;

struct TuneOptions {
  std::string game;
  std::vector<std::string> records;
  std::string out;
  int iterations = 3000;
  double rate = 1.0;
  // A small pull towards the starting weights: without it a square that a
  // piece rarely reaches (a promoted bishop's) takes any value that fits
  // its few positions (docs/tuning.md).
  double l2 = 1e-8;
  int skip_plies = 4;
  int validation = 10;  // every validation-th game is held out (0 = none)
  // The share of a position's target taken from the score its mover's search
  // reported (the record's "value") instead of the game's result.
  double score_weight = 0.0;
  // Where the fit starts and the l2 pull points: e2's terms or this build's weights.
  std::string start = "e2";
  // Which positions count (past the opening, not in check): "played" where
  // the move played was quiet; "quiet" where this build's capture
  // quiescence (e3) stands pat at once; "resolved" every one, by the end of
  // that quiescence's line (docs/tuning.md).
  std::string select = "played";
  // Also write every position taken (fitted or held out) as a JSON line, for
  // training other evaluations (scripts/train-net.py).
  std::string positions_out;
  bool json = false;
};

// The 5x5 chess rule sets (e3) and checkers (`tuned`) have a linear evaluation to tune.
template <class S>
inline constexpr bool kTunable = false;
template <class Rules>
inline constexpr bool kTunable<mc::State<Rules>> = true;
template <>
inline constexpr bool kTunable<ck::State> = true;

// The positions taken from the records, and what was left out.
struct Positions {
  explicit Positions(std::size_t features) : train(features), validation(features) {}
  tune::Dataset train;
  tune::Dataset validation;
  int games = 0;
  int opening = 0;   // among the first --skip-plies plies
  int in_check = 0;  // the side to move's king attacked
  int tactical = 0;  // played: the move played was a capture or a promotion;
                     // quiet: quiescence found a capture worth playing
  int resolved = 0;  // resolved: positions replaced by their quiescence's end
  int ended = 0;     // resolved: positions whose quiescence ends the game
  int forfeits = 0;  // games lost by a timeout, an illegal move or giving up
  // Per fitted position, the mover's reported score in centipawns from
  // White's view, or NaN where the record has none.
  std::vector<double> train_scores;
  std::set<std::string> players;
  // --positions-out's lines, when asked for.
  std::ostream* dump = nullptr;
};

// The score a move's search reported, in the heuristic's centipawns from
// Player 1's view (a record's "value" is in points, kUnit Values each: e2's
// centipawns in the 5x5 chess games, a hundredth of a man in checkers),
// clamped to +-2000 so that a mate counts as a sure result; NaN for a move
// without a value.
template <class S>
double reported_centipawns(const nlohmann::json& m) {
  if (!m.contains("value") || !m["value"].is_number()) return std::nan("");
  const double values = m["value"].get<double>() * static_cast<double>(kUnit);
  if constexpr (std::is_same_v<S, ck::State>) {
    return std::clamp(values, -2000.0, 2000.0);
  } else {
    return std::clamp(mc::to_centipawns(values), -2000.0, 2000.0);
  }
}

// One --positions-out line: the position taken, the game's result (Player
// 1's view, 1, 0.5 or 0), the mover's reported score (centipawns, the same
// view; null without one), the features' draw-clock scale there (e3's; 1 in
// checkers) and whether the game is held out.
void dump_position(Positions& out, const std::string& text, double result, double cp, double scale,
                   bool held_out) {
  if (out.dump == nullptr) return;
  nlohmann::json line = {{"fen", text},
                         {"result", result},
                         {"score", std::isnan(cp) ? nlohmann::json(nullptr) : nlohmann::json(cp)},
                         {"scale", scale},
                         {"held_out", held_out}};
  *out.dump << line.dump() << '\n';
}

// Where a game's positions go: its result (Player 1's view, 1, 0.5 or 0),
// fitted or held out (every --validation-th game), written out with
// --positions-out, its movers' reported scores kept for --score-weight.
struct Taker {
  Positions& out;
  double result;
  bool held_out;

  Taker(const nlohmann::json& j, const TuneOptions& o, Positions& positions)
      : out(positions),
        result((j["payoff"].get<double>() + 1.0) / 2.0),
        held_out(o.validation > 0 && positions.games % o.validation == o.validation - 1) {}

  void take(std::span<const double> features, const std::string& text, double scale, double cp) {
    (held_out ? out.validation : out.train).add(features, result);
    dump_position(out, text, result, cp, scale, held_out);
    if (!held_out) out.train_scores.push_back(cp);
  }
};

// Step 1. A record's fields, checked, and its start; nullptr for a game
// that was forfeited (counted), whose payoff says nothing about its
// positions: a timeout, an illegal move or an agent giving up (an engine
// that did not start, say). Endings by the rules, the turn limit or
// adjudication on the agents' scores are results of the play.
template <class S>
Result<std::unique_ptr<S>> game_start(const nlohmann::json& j, Positions& out) {
  if (!j.is_object()) return fail("not a JSON object");
  for (const char* key : {"game", "start"}) {
    if (!j.contains(key) || !j[key].is_string()) return fail(fmt::format("no \"{}\" text", key));
  }
  if (!j.contains("moves") || !j["moves"].is_array()) return fail("no \"moves\" list");
  if (!j.contains("payoff") || !j["payoff"].is_number()) return fail("no \"payoff\" number");
  const double payoff = j["payoff"].get<double>();
  if (payoff != 1.0 && payoff != 0.0 && payoff != -1.0) {
    return fail(fmt::format("payoff {} is not 1, 0 or -1", payoff));
  }
  if (j.contains("ending")) {
    if (!j["ending"].is_string()) return fail("\"ending\" is not text");
    const std::string ending = j["ending"].get<std::string>();
    using play::Ending;
    if (std::ranges::any_of(std::array{Ending::Timeout, Ending::IllegalMove, Ending::Abandoned},
                            [&](Ending e) { return ending == play::ending_name(e); })) {
      ++out.forfeits;
      return std::unique_ptr<S>{};
    }
  }
  auto game = registry::make_game(j["game"].get<std::string>(), j["start"].get<std::string>());
  if (!game) return fail(game.error());
  const S* start = std::get_if<S>(&*game);
  if (start == nullptr) {
    return fail(fmt::format("a game of '{}', not {}", j["game"].get<std::string>(), S::kName));
  }
  if (j.contains("players") && j["players"].is_array()) {
    for (const auto& p : j["players"]) {
      if (p.is_string()) out.players.insert(p.get<std::string>());
    }
  }
  return std::make_unique<S>(*start);
}

// Replays a record's moves from `start`, calling `visit(state,
// move, the move's JSON, ply)` before each is made; counts the game once
// every move was legal.
template <class S, class Visit>
Result<bool> replay(const nlohmann::json& j, const S& start, Positions& out, Visit&& visit) {
  S s = start;
  int ply = 0;
  for (const auto& m : j["moves"]) {
    if (s.is_terminal()) return fail(fmt::format("ply {}: a move after the game ended", ply + 1));
    if (!m.is_object() || !m.contains("move") || !m["move"].is_string()) {
      return fail(fmt::format("ply {}: no \"move\" text", ply + 1));
    }
    const auto move = s.parse_move(m["move"].get<std::string>());
    if (!move) return fail(fmt::format("ply {}: {}", ply + 1, move.error()));
    visit(s, *move, m, ply);
    s = s.result(*move);
    ++ply;
  }
  ++out.games;
  return true;
}

// --select's quiescence: the engine's own, with the heuristic this build plays.
template <class Rules>
using Resolver = search::Searcher<mc::State<Rules>>;

// The features of a fitted position: White's view, scaled by the draw clock.
template <class Rules>
mc::e3::Features fitted_features(const mc::State<Rules>& s) {
  mc::e3::Features f = mc::e3::features(s);
  const double scale = mc::e3::draw_scale(s);
  for (double& x : f) x *= scale;
  return f;
}

// One game record (a line of `duel arena --records`): replays its moves
// from its start and adds its quiet positions, labelled with its result.
template <class Rules>
Result<bool> add_game(const nlohmann::json& j, const TuneOptions& o, Positions& out,
                      Resolver<Rules>& resolver) {
  using S = mc::State<Rules>;
  const auto opened = game_start<S>(j, out);
  if (!opened) return fail(opened.error());
  if (!*opened) return true;
  // Step 2. Replay; a position counts when the engine would stand pat on it:
  // past the opening, not in check, and (--select) the move played was
  // quiet, or quiescence stands pat at once, or by the end of its
  // quiescence's line (unless that ends the game). The payoff is
  // Player::First's (White's) view, as the result is.
  Taker taker(j, o, out);
  const auto take = [&](const S& p, const nlohmann::json& m) {
    taker.take(fitted_features(p), p.to_text(), mc::e3::draw_scale(p), reported_centipawns<S>(m));
  };
  return replay(j, **opened, out,
                [&](const S& s, const typename S::Move& move, const nlohmann::json& m, int ply) {
                  if (ply < o.skip_plies) {
                    ++out.opening;
                  } else if (s.position().in_check()) {
                    ++out.in_check;
                  } else if (o.select == "played") {
                    if (s.is_tactical(move)) {
                      ++out.tactical;
                    } else {
                      take(s, m);
                    }
                  } else if (const auto line = resolver.quiescence_line(s); line.empty()) {
                    take(s, m);
                  } else if (o.select == "quiet") {
                    ++out.tactical;
                  } else {
                    S leaf = s;
                    for (const auto& step : line) leaf = leaf.result(step);
                    if (leaf.is_terminal()) {
                      ++out.ended;
                    } else if (leaf.position().in_check()) {
                      ++out.in_check;  // quiescence stopped answering checks
                    } else {
                      ++out.resolved;
                      take(leaf, m);
                    }
                  }
                });
}

// A checkers record: every position past the opening where no capture is
// to be made (captures are compulsory, so that is where the search's
// quiescence stands pat and where the move played was quiet), labelled
// with the game's result (Black's view, as checkers' payoff is).
Result<bool> add_checkers_game(const nlohmann::json& j, const TuneOptions& o, Positions& out) {
  using S = ck::State;
  const auto opened = game_start<S>(j, out);
  if (!opened) return fail(opened.error());
  if (!*opened) return true;
  Taker taker(j, o, out);
  return replay(
      j, **opened, out, [&](const S& s, const S::Move& /*move*/, const nlohmann::json& m, int ply) {
        if (ply < o.skip_plies) {
          ++out.opening;
        } else if (!s.is_quiet()) {
          ++out.tactical;
        } else {
          taker.take(ck::linear::features(s), s.to_text(), 1.0, reported_centipawns<S>(m));
        }
      });
}

// Step 3. The generated header: one block per rule set between "// BEGIN
// name" and "// END name" lines, so tuning one rule set keeps the others.
// The block is generated text: clang-format leaves it as written (aligned
// columns, the comment lines as long as the data needs).
template <class Rules>
std::string weights_block(const std::vector<double>& w, const std::vector<std::string>& about) {
  namespace e3 = mc::e3;
  std::string b = fmt::format("// BEGIN {}\n// clang-format off\n", Rules::kName);
  for (const auto& line : about) b += "// " + line + "\n";
  b += fmt::format("template <>\ninline constexpr Weights kWeights<{}> = {{\n",
                   e3::rules_type_name<Rules>());
  const auto value = [&](int i) { return fmt::format("{:8.2f}", w[static_cast<std::size_t>(i)]); };
  b += "    // material: P N B R Q\n   ";
  for (int i = e3::kMaterial; i < e3::kPst; ++i) b += " " + value(i) + ",";
  b += "\n";
  for (int t = 0; t < mc::kPieceTypes; ++t) {
    b += fmt::format("    // piece-square {}: files a|e, b|d, c; ranks from its own side\n",
                     "PNBRQK"[t]);
    for (int rank = 0; rank < mc::kRanks; ++rank) {
      const int at = e3::kPst + t * e3::kPstSquares + rank * 3;
      b += fmt::format("    {}, {}, {},  // rank {}\n", value(at), value(at + 1), value(at + 2),
                       rank + 1);
    }
  }
  for (int i = e3::kMobility; i < e3::kFeatures; ++i) {
    b += fmt::format("    {},  // {}\n", value(i), e3::feature_name(i));
  }
  b += "};\n";
  b += fmt::format("// clang-format on\n// END {}\n", Rules::kName);
  return b;
}

// The blocks of an existing header, by rule-set name, in file order.
std::vector<std::pair<std::string, std::string>> header_blocks(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> blocks;
  std::istringstream in(text);
  std::string line;
  std::string name;
  std::string body;
  while (std::getline(in, line)) {
    if (name.empty() && line.rfind("// BEGIN ", 0) == 0) {
      name = line.substr(9);
      body = line + "\n";
    } else if (!name.empty()) {
      body += line + "\n";
      if (line == "// END " + name) {
        blocks.emplace_back(name, body);
        name.clear();
      }
    }
  }
  return blocks;
}

std::string header_text(const std::vector<std::pair<std::string, std::string>>& blocks) {
  std::string h =
      "#pragma once\n"
      "// The tuned weights of heuristic `e3`, one block per rule set, written by\n"
      "// `duel tune` (docs/tuning.md has the commands and the data that produced\n"
      "// each block). Do not edit by hand: rerun the command. Only\n"
      "// linear_eval.cpp includes this file, so retuning recompiles one file.\n"
      "#include \"duel/games/minichess/linear_eval.hpp\"\n"
      "\n"
      "namespace duel::games::minichess::e3 {\n"
      "\n"
      "// A rule set without a block below plays the starting weights (e2's terms).\n"
      "template <class Rules>\n"
      "inline constexpr Weights kWeights = start_weights<Rules>();\n";
  for (const auto& [name, body] : blocks) h += "\n" + body;
  h += "\n}  // namespace duel::games::minichess::e3\n";
  return h;
}

// The header with `block` for `name` in place of the one `old` had; the
// rule sets keep their order (gardner, cs3243, comp472).
Result<std::string> updated_header(const std::string& old, const std::string& name,
                                   const std::string& block) {
  auto blocks = header_blocks(old);
  if (!old.empty() && old.find("namespace duel::games::minichess::e3") == std::string::npos) {
    return fail("is not an e3 weights header (it would be overwritten)");
  }
  std::erase_if(blocks, [&](const auto& b) { return b.first == name; });
  blocks.emplace_back(name, block);
  static constexpr std::array<std::string_view, 3> kOrder = {mc::Gardner::kName, mc::Cs3243::kName,
                                                             mc::Comp472::kName};
  const auto rank = [](const std::string& n) {
    return std::find(kOrder.begin(), kOrder.end(), n) - kOrder.begin();
  };
  std::stable_sort(blocks.begin(), blocks.end(),
                   [&](const auto& a, const auto& b) { return rank(a.first) < rank(b.first); });
  return header_text(blocks);
}

// The command with every option spelled out, so the header says exactly
// what produced it even if a default changes.
std::string command_line(const TuneOptions& o) {
  std::string c = "duel tune " + o.game;
  for (const auto& r : o.records) c += " --records " + r;
  c += fmt::format(" --iterations {} --rate {} --l2 {} --skip-plies {} --validation {}",
                   o.iterations, o.rate, o.l2, o.skip_plies, o.validation);
  if (o.score_weight > 0.0) c += fmt::format(" --score-weight {:g}", o.score_weight);
  if (o.start != "e2") c += " --start " + o.start;
  if (o.select != "played") c += " --select " + o.select;
  return c;
}

// Checkers' header: one block, the whole file (tuned_weights.hpp).
std::string checkers_block(const std::vector<double>& w, const std::vector<std::string>& about) {
  std::string b = fmt::format("// BEGIN {}\n// clang-format off\n", ck::State::kName);
  for (const auto& line : about) b += "// " + line + "\n";
  b += "inline constexpr Weights kWeights = {\n";
  for (int i = 0; i < ck::linear::kFeatures; ++i) {
    b += fmt::format("    {:8.2f},  // {}\n", w[static_cast<std::size_t>(i)],
                     ck::linear::feature_name(i));
  }
  b += fmt::format("}};\n// clang-format on\n// END {}\n", ck::State::kName);
  return b;
}

Result<std::string> checkers_header(const std::string& old, const std::string& block) {
  if (!old.empty() && old.find("namespace duel::games::checkers::linear") == std::string::npos) {
    return fail("is not a checkers weights header (it would be overwritten)");
  }
  return "#pragma once\n"
         "// The fitted weights of checkers heuristic `tuned`, written by `duel tune\n"
         "// checkers` (docs/tuning.md, \"Checkers\", has the command and the data that\n"
         "// produced them). Do not edit by hand: rerun the command. Only\n"
         "// linear_eval.cpp includes this file, so retuning recompiles one file.\n"
         "#include \"duel/games/checkers/linear_eval.hpp\"\n"
         "\n"
         "namespace duel::games::checkers::linear {\n"
         "\n" +
         block + "\n}  // namespace duel::games::checkers::linear\n";
}

// What differs between the games whose linear heuristic is tuned: how a
// record's positions are taken, where the fit starts, the header, and the
// summary's words. The 5x5 chess rule sets (e3):
template <class Rules>
struct ChessTuning {
  using S = mc::State<Rules>;
  static constexpr std::size_t kFeatures = mc::e3::kFeatures;
  // The table is not used in quiescence (the engine's default), so 1 MB will do.
  static search::EngineOptions resolve_options() {
    search::EngineOptions options;
    options.hash_mb = 1;
    return options;
  }
  std::unique_ptr<Resolver<Rules>> resolver =
      games::make_engine<S>(mc::E3::kName, 0, resolve_options()).value();

  Result<bool> add(const nlohmann::json& j, const TuneOptions& o, Positions& out) {
    return add_game<Rules>(j, o, out, *resolver);
  }
  static mc::e3::Weights start(const TuneOptions& o) {
    return o.start == "tuned" ? mc::e3::tuned_weights<Rules>() : mc::e3::start_weights<Rules>();
  }
  static std::string left_out(const Positions& d, const TuneOptions& o) {
    std::string text = fmt::format("{} opening, {} in check", d.opening, d.in_check);
    if (o.select == "played") return text + fmt::format(", {} captures or promotions", d.tactical);
    if (o.select == "quiet") {
      return text + fmt::format(", {} with a capture quiescence would play", d.tactical);
    }
    return text + fmt::format(", {} ending the game in quiescence; {} resolved by quiescence",
                              d.ended, d.resolved);
  }
  static Result<std::string> header(const std::string& old, const std::vector<double>& w,
                                    const std::vector<std::string>& about) {
    return updated_header(old, std::string(Rules::kName), weights_block<Rules>(w, about));
  }
  static std::string headline(const std::vector<double>& w) {
    std::string material = "material P N B R Q:";
    for (int i = mc::e3::kMaterial; i < mc::e3::kPst; ++i) {
      material += fmt::format(" {:.0f}", w[static_cast<std::size_t>(i)]);
    }
    return material;
  }
};

// Checkers (`tuned`).
struct CheckersTuning {
  using S = ck::State;
  static constexpr std::size_t kFeatures = ck::linear::kFeatures;
  static Result<bool> add(const nlohmann::json& j, const TuneOptions& o, Positions& out) {
    return add_checkers_game(j, o, out);
  }
  static ck::linear::Weights start(const TuneOptions& o) {
    return o.start == "tuned" ? ck::linear::tuned_weights() : ck::linear::start_weights();
  }
  static std::string left_out(const Positions& d, const TuneOptions& /*o*/) {
    return fmt::format("{} opening, {} with a capture to make", d.opening, d.tactical);
  }
  static Result<std::string> header(const std::string& old, const std::vector<double>& w,
                                    const std::vector<std::string>& about) {
    return checkers_header(old, checkers_block(w, about));
  }
  static std::string headline(const std::vector<double>& w) {
    return fmt::format("man {:.0f}, king {:.0f}", w[ck::linear::kMen], w[ck::linear::kKings]);
  }
};

template <class T>
int tune_with(T& t, const TuneOptions& o) {
  using S = typename T::S;
  WallClock clock;
  // Step 4. Read every record; any bad line stops with its file and number.
  Positions data(T::kFeatures);
  std::ofstream dump;
  if (!o.positions_out.empty()) {
    dump.open(o.positions_out);
    if (!dump) return bad_input("--positions-out: cannot write " + o.positions_out);
    data.dump = &dump;
  }
  for (const auto& path : o.records) {
    std::ifstream in(path);
    if (!in) return bad_input("--records: cannot read " + path);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      const auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded()) {
        return bad_input(fmt::format("--records {} line {}: not valid JSON", path, n));
      }
      const auto added = t.add(j, o, data);
      if (!added) {
        return bad_input(fmt::format("--records {} line {}: {}", path, n, added.error()));
      }
    }
  }
  if (dump.is_open() && !dump.flush()) {
    return bad_input("--positions-out: cannot write " + o.positions_out);
  }
  if (data.train.size() == 0) {
    return bad_input(
        fmt::format("--records: no positions to tune on ({} games of {})", data.games, S::kName));
  }
  // Step 5. Fit K to the starting weights (the hand-made terms, or the
  // weights in this build with --start tuned), then the weights.
  std::vector<double> weights;
  for (const double w : T::start(o)) weights.push_back(w);
  tune::TexelOptions options;
  options.iterations = o.iterations;
  options.learning_rate = o.rate;
  options.l2 = o.l2;
  Progress progress(!o.json);
  options.report_every = 100;
  options.report = [&](int step, double error) {
    progress.tick(fmt::format("tune: step {} of {}, error {:.6f}", step, o.iterations, error));
  };
  int scored = 0;
  if (o.score_weight > 0.0) {
    // The targets of the fitted positions become a blend of the result and
    // the reported score through the same sigmoid, with K fitted to the
    // results first and held. Held-out positions keep the bare results:
    // their error measures the fit against what games decide.
    options.k = tune::fit_scale(data.train, weights);
    for (std::size_t i = 0; i < data.train.size(); ++i) {
      const double cp = data.train_scores[i];
      if (std::isnan(cp)) continue;
      data.train.set_result(i, (1.0 - o.score_weight) * data.train.result(i) +
                                   o.score_weight * tune::sigmoid(options.k * cp));
      ++scored;
    }
  }
  const std::vector<double> before = weights;
  const tune::TexelReport r = tune::fit(data.train, weights, options);
  progress.done();
  const double val_before = tune::mean_squared_error(data.validation, before, r.k);
  const double val_after = tune::mean_squared_error(data.validation, weights, r.k);
  // Step 6. The summary (stderr, or stdout as JSON) and the header.
  std::string players;
  for (const auto& p : data.players) players += (players.empty() ? "" : ", ") + p;
  const std::string left_out = T::left_out(data, o);
  const std::string positions = fmt::format(
      "{} games, {} positions ({} to fit, {} held out); left out: {}{}", data.games,
      data.train.size() + data.validation.size(), data.train.size(), data.validation.size(),
      left_out, data.forfeits > 0 ? fmt::format("; forfeited games: {}", data.forfeits) : "");
  const std::string targets =
      o.score_weight > 0.0
          ? fmt::format("; targets: {:g} result + {:g} reported score for {} of {} fitted",
                        1.0 - o.score_weight, o.score_weight, scored, data.train.size())
          : "";
  const std::string errors =
      fmt::format(
          "K = {:.6f}; MSE fitted {:.6f} -> {:.6f}, held out {:.6f} -> {:.6f} ({} iterations)", r.k,
          r.error_before, r.error_after, val_before, val_after, r.iterations) +
      targets;
  const std::vector<std::string> about = {"Written by: " + command_line(o),
                                          "Data: " + positions + "; players: " + players,
                                          "Fit: " + errors};
  std::string old;
  if (!o.out.empty() && std::filesystem::exists(o.out)) {
    const auto text = read_file(o.out);
    if (!text) return bad_input("--out: cannot read " + o.out);
    old = *text;
  }
  const auto header = T::header(old, weights, about);
  if (!header) return bad_input(fmt::format("--out {} {}", o.out, header.error()));
  if (!o.out.empty()) {
    std::ofstream out(o.out);
    if (!(out << *header)) return bad_input("--out: cannot write " + o.out);
  } else if (!o.json) {
    std::cout << *header;
  }
  if (o.json) {
    nlohmann::json j = {{"game", std::string(S::kName)},
                        {"games", data.games},
                        {"forfeited_games", data.forfeits},
                        {"positions", data.train.size() + data.validation.size()},
                        {"fitted", data.train.size()},
                        {"held_out", data.validation.size()},
                        {"k", r.k},
                        {"error_before", r.error_before},
                        {"error_after", r.error_after},
                        {"held_out_error_before", val_before},
                        {"held_out_error_after", val_after},
                        {"iterations", r.iterations},
                        {"score_weight", o.score_weight},
                        {"scored", scored},
                        {"resolved", data.resolved},
                        {"ended_in_quiescence", data.ended},
                        {"weights", weights},
                        {"seconds", clock.seconds()}};
    std::cout << j.dump(2) << '\n';
  } else {
    std::cerr << fmt::format("tune {}: {}\n{}\n{} ({:.1f} s)\n", S::kName, positions, errors,
                             T::headline(weights), clock.seconds());
  }
  return 0;
}

template <class S>
int run_tune(const S& /*start*/, const TuneOptions& o) {
  if constexpr (!kTunable<S>) {
    return bad_input(fmt::format(
        "tune: only the 5x5 chess rule sets (e3) and checkers (tuned) have a linear evaluation "
        "to tune, not '{}'",
        S::kName));
  } else if constexpr (std::is_same_v<S, ck::State>) {
    if (o.select == "resolved") {
      return bad_input(
          "tune: --select resolved is for the 5x5 chess rule sets; in checkers a position "
          "with no capture to make is the quiet one (played and quiet are the same)");
    }
    CheckersTuning t;
    return tune_with(t, o);
  } else {
    ChessTuning<typename S::RuleSet> t;
    return tune_with(t, o);
  }
}

}  // namespace

Command add_tune(CLI::App& app) {
  auto o = std::make_shared<TuneOptions>();
  CLI::App* sub = app.add_subcommand(
      "tune",
      "Fit a linear heuristic's weights to recorded games (Texel's method): e3's for the 5x5 "
      "chess rule sets (e3_weights.hpp), tuned's for checkers (tuned_weights.hpp)");
  sub->add_option("game", o->game, "Game spec (a 5x5 chess rule set or checkers)")->required();
  sub->add_option("--records", o->records, "Games from duel arena --records (JSON lines)")
      ->required();
  sub->add_option("--out", o->out,
                  "Write the header here (an existing one keeps its other rule sets' blocks); "
                  "default stdout");
  sub->add_option("--iterations", o->iterations, "Gradient steps (Adam, whole data set)")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  sub->add_option("--rate", o->rate, "Adam's step size in centipawns")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--l2", o->l2, "Penalty on the distance from the starting weights")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  sub->add_option("--skip-plies", o->skip_plies, "Plies left out at the start of every game")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  sub->add_option("--validation", o->validation,
                  "Hold out every Nth game to measure the error on unseen games (0 = none)")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  sub->add_option("--score-weight", o->score_weight,
                  "Share of each fitted position's target taken from the score its mover's "
                  "search reported (the record's value) instead of the game's result")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  sub->add_option("--start", o->start,
                  "Start the fit (and pull the weights) from the hand-made terms (e2's; "
                  "positional's in checkers) or from the weights this build plays")
      ->check(CLI::IsMember({"e2", "tuned"}))
      ->capture_default_str();
  sub->add_option("--select", o->select,
                  "Positions that count: where the move played was quiet (played), where "
                  "this build's capture quiescence stands pat at once (quiet), or each by the "
                  "end of that quiescence's line (resolved; 5x5 chess only: in checkers played "
                  "and quiet both take the positions with no capture to make)")
      ->check(CLI::IsMember({"played", "quiet", "resolved"}))
      ->capture_default_str();
  sub->add_option("--positions-out", o->positions_out,
                  "Also write every position taken as a JSON line: fen, result (White's view), "
                  "the mover's reported score in centipawns, the draw clock's scale, held_out");
  sub->add_flag("--json", o->json, "The summary and weights as one JSON document on stdout");
  return {sub,
          [o] { return with_game(o->game, "", [&](const auto& s) { return run_tune(s, *o); }); }};
}

}  // namespace duel::cli
