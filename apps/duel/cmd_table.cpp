// duel table nqueens|kcell: the seeds' experiment tables.
//   nqueens (seed 001 q1-7): N, minimax value, a best opening, nodes, time,
//     for minimax / alpha-beta / the engine, with an optional cut-off.
//   kcell (seed 002 b): the largest boards each algorithm solves within about
//     a second a move.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common.hpp"
#include "run_search.hpp"

namespace duel::cli {
namespace {

struct TableOptions {
  std::string which;
  std::string variant = "1a";
  std::string range;
  std::string algos = "alphabeta";
  int cutoff = 0;
  std::string eval;
  double row_time = 0.0;
  double move_time = 1.0;
  std::size_t hash_mb = 64;
  std::string plot;
  bool json = false;
};

struct Row {
  std::string algo;
  int n = 0;
  int k = 0;  // kcell only
  bool done = false;
  Value value = 0;
  int player = 1;
  int row = 0;
  int col = 0;
  std::uint64_t nodes = 0;
  double seconds = 0.0;
};

Result<std::pair<int, int>> parse_range(const std::string& text, int lo, int hi) {
  const auto dots = text.find("..");
  const auto a = parse_integer(text.substr(0, dots));
  const auto b = dots == std::string::npos ? a : parse_integer(text.substr(dots + 2));
  if (!a || !b) return fail(fmt::format("--n {}: expected N or A..B", text));
  if (*a < lo || *b > hi || *a > *b) {
    return fail(fmt::format("--n {}: must lie within {}..{} with A <= B", text, lo, hi));
  }
  return std::pair<int, int>{static_cast<int>(*a), static_cast<int>(*b)};
}

Result<std::vector<std::string>> parse_algos(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string a; std::getline(ss, a, ',');) {
    AlgoRequest r;
    r.algo = a;
    if (auto ok = check_algo(r); !ok) return fail(ok.error());
    out.push_back(a);
  }
  if (out.empty()) return fail("--algo: name at least one algorithm");
  return out;
}

// Step 1. The N-Queens tables.
int plot_nqueens(const std::vector<Row>& rows, const TableOptions& o, const std::string& title);

int table_nqueens(const TableOptions& o) {
  auto range = parse_range(o.range.empty() ? "1..10" : o.range, 1, games::nqueens::kMaxN);
  if (!range) return bad_input(range.error());
  auto algos = parse_algos(o.algos);
  if (!algos) return bad_input(algos.error());
  const std::string cut = o.cutoff > 0 ? fmt::format("cut-off {}", o.cutoff) : "no cut-off";
  const std::string eval_name =
      o.eval.empty() ? std::string(games::default_heuristic<games::nqueens::State>()) : o.eval;
  // Validate the variant and the eval once, on the smallest board.
  auto probe = registry::make_game(fmt::format("nqueens:n={},variant={}", range->first, o.variant));
  if (!probe) return bad_input(probe.error());

  std::vector<Row> rows;
  Progress progress(!o.json);
  for (const auto& algo : *algos) {
    for (int n = range->first; n <= range->second; ++n) {
      auto spec = Spec::parse(fmt::format("nqueens:n={},variant={}", n, o.variant));
      const auto start = games::nqueens::State::from_spec(*spec);
      AlgoRequest req;
      req.algo = algo;
      req.depth = o.cutoff;
      req.time = o.row_time;
      req.eval = o.eval;
      req.hash_mb = o.hash_mb;
      req.progress = [&](std::uint64_t nodes, double s) {
        progress.tick(fmt::format("{} N={}: {} nodes, {:.1f} s", algo, n, nodes, s));
      };
      progress.tick(fmt::format("{} N={} ...", algo, n));
      auto r = run_algorithm(*start, req);
      if (!r) return bad_input(r.error());
      Row row{algo, n};
      row.done = r->complete;
      row.nodes = r->stats.nodes();
      row.seconds = r->stats.seconds;
      if (row.done) {
        row.value = r->value;
        if (r->best) {
          row.row = r->best->row + 1;
          row.col = r->best->col + 1;
        }
      }
      rows.push_back(row);
      progress.tick(fmt::format("{} N={}: value {} in {:.3f} s", algo, n,
                                row.done ? value_text(row.value) : "stopped", row.seconds));
      if (!row.done) break;  // larger N would only take longer
    }
  }
  progress.done();

  const bool v2 = o.variant == "2";
  const auto opening_json = [&](const Row& r) {
    nlohmann::json j = {{"player", r.player}, {"row", r.row}};
    if (v2) j["col"] = r.col;
    return j;
  };
  const auto doc = [&](const std::string& algo) {
    nlohmann::json rs = nlohmann::json::array();
    for (const auto& r : rows) {
      if (r.algo != algo) continue;
      nlohmann::json j = {{"n", r.n}, {"nodes", r.nodes}, {"seconds", r.seconds}};
      j["value"] = r.done ? nlohmann::json(to_points(r.value)) : nlohmann::json(nullptr);
      j["opening"] = r.done && r.row > 0 ? opening_json(r) : nlohmann::json(nullptr);
      if (!r.done) j["stopped"] = true;
      rs.push_back(std::move(j));
    }
    nlohmann::json d = {{"game", "nqueens"}, {"variant", o.variant}, {"algo", algo}};
    if (o.cutoff > 0) {
      d["cutoff"] = o.cutoff;
      d["eval"] = eval_name;
    }
    d["rows"] = std::move(rs);
    return d;
  };
  if (o.json) {
    if (algos->size() == 1) {
      std::cout << doc(algos->front()).dump() << '\n';
    } else {
      nlohmann::json all = {
          {"game", "nqueens"}, {"variant", o.variant}, {"tables", nlohmann::json::array()}};
      for (const auto& a : *algos) all["tables"].push_back(doc(a));
      std::cout << all.dump() << '\n';
    }
  } else {
    for (const auto& algo : *algos) {
      std::cout << fmt::format("nqueens variant {}, {} ({}{})\n", o.variant, algo, cut,
                               o.cutoff > 0 ? ", eval " + eval_name : "");
      std::cout << fmt::format("{:>4}  {:>7}  {:<26}  {:>14}  {:>10}\n", "N", "value",
                               v2 ? "opening (player, row, col)" : "opening (player, row)", "nodes",
                               "time (s)");
      for (const auto& r : rows) {
        if (r.algo != algo) continue;
        const std::string opening = !r.done || r.row == 0
                                        ? "-"
                                        : (v2 ? fmt::format("({}, {}, {})", r.player, r.row, r.col)
                                              : fmt::format("({}, {})", r.player, r.row));
        std::cout << fmt::format("{:>4}  {:>7}  {:<26}  {:>14}  {:>10.3f}{}\n", r.n,
                                 r.done ? value_text(r.value) : "-", opening, r.nodes, r.seconds,
                                 r.done ? "" : "  (stopped by --row-time)");
      }
      std::cout << '\n';
    }
  }
  if (!o.plot.empty()) {
    return plot_nqueens(rows, o, fmt::format("N-Queens variant {} ({})", o.variant, cut));
  }
  return 0;
}

int plot_nqueens(const std::vector<Row>& rows, const TableOptions& o, const std::string& title) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / fmt::format("duel-plot-{}", ::getpid());
  fs::create_directories(dir);
  std::ostringstream script;
  script << "set terminal svg size 900,420 dynamic font 'sans,11' background rgb 'white'\n"
         << "set output '" << o.plot << "'\n"
         << "set multiplot layout 1,2 title '" << title << "'\n"
         << "set logscale y\nset key top left\nset grid\nset xlabel 'N'\n";
  std::vector<std::string> names;
  for (const auto& r : rows) {
    if (std::find(names.begin(), names.end(), r.algo) == names.end()) names.push_back(r.algo);
  }
  for (const auto& name : names) {
    std::ofstream data(dir / (name + ".dat"));
    for (const auto& r : rows) {
      if (r.algo == name && r.done) {
        data << r.n << ' ' << std::max<std::uint64_t>(r.nodes, 1) << ' '
             << std::max(r.seconds, 1e-6) << '\n';
      }
    }
  }
  for (const int column : {2, 3}) {
    script << "set ylabel '" << (column == 2 ? "nodes" : "seconds") << "'\nplot ";
    for (std::size_t i = 0; i < names.size(); ++i) {
      script << (i ? ", " : "") << "'" << (dir / (names[i] + ".dat")).string()
             << "' using 1:" << column << " with linespoints title '" << names[i] << "'";
    }
    script << '\n';
  }
  script << "unset multiplot\n";
  const fs::path script_path = dir / "plot.gp";
  std::ofstream(script_path) << script.str();
  const int status = std::system(fmt::format("gnuplot '{}' 2>&1", script_path.string()).c_str());
  fs::remove_all(dir);
  if (status != 0) {
    std::cerr << "duel: gnuplot failed or is missing (apt-get install gnuplot-nox)\n";
    return 1;
  }
  if (!o.json) std::cout << "plot written to " << o.plot << '\n';
  return 0;
}

// Step 2. The KCell table: for each algorithm and n, boards k = 2n+1, ... in
// turn up to the first whose first move is not solved within the move time.
int table_kcell(const TableOptions& o) {
  auto range = parse_range(o.range.empty() ? "1..3" : o.range, 1, 8);
  if (!range) return bad_input(range.error());
  auto algos = parse_algos(o.algos == "alphabeta" ? "minimax,alphabeta" : o.algos);
  if (!algos) return bad_input(algos.error());
  std::vector<Row> best;
  Progress progress(!o.json);
  for (const auto& algo : *algos) {
    for (int n = range->first; n <= range->second; ++n) {
      Row last{algo, n};
      for (int k = 2 * n + 1; k <= 64; ++k) {
        auto spec = Spec::parse(fmt::format("kcell:n={},k={}", n, k));
        const auto start = games::kcell::State::from_spec(*spec);
        if (!start) return bad_input(start.error());
        progress.tick(fmt::format("{} n={} k={} ...", algo, n, k));
        AlgoRequest req;
        req.algo = algo;
        req.time = o.move_time;
        req.eval = o.eval;
        req.hash_mb = o.hash_mb;
        auto r = run_algorithm(*start, req);
        if (!r) return bad_input(r.error());
        if (!r->complete) break;
        last.k = k;
        last.done = true;
        last.value = r->value;
        last.nodes = r->stats.nodes();
        last.seconds = r->stats.seconds;
      }
      best.push_back(last);
    }
  }
  progress.done();
  if (o.json) {
    nlohmann::json rs = nlohmann::json::array();
    for (const auto& r : best) {
      rs.push_back(
          {{"algo", r.algo},
           {"n", r.n},
           {"k", r.done ? nlohmann::json(r.k) : nlohmann::json(nullptr)},
           {"value", r.done ? nlohmann::json(to_points(r.value)) : nlohmann::json(nullptr)},
           {"nodes", r.nodes},
           {"seconds", r.seconds}});
    }
    std::cout << nlohmann::json{{"game", "kcell"}, {"move_time", o.move_time}, {"rows", rs}}.dump()
              << '\n';
    return 0;
  }
  std::cout << fmt::format("kcell: largest board whose first move is solved within {} s\n",
                           o.move_time);
  std::cout << fmt::format("{:<10} {:>3} {:>4} {:>6} {:>14} {:>9}\n", "algorithm", "n", "k",
                           "value", "nodes", "time (s)");
  for (const auto& r : best) {
    std::cout << fmt::format("{:<10} {:>3} {:>4} {:>6} {:>14} {:>9.3f}\n", r.algo, r.n,
                             r.done ? std::to_string(r.k) : "-", r.done ? value_text(r.value) : "-",
                             r.nodes, r.seconds);
  }
  return 0;
}

}  // namespace

Command add_table(CLI::App& app) {
  auto o = std::make_shared<TableOptions>();
  CLI::App* sub = app.add_subcommand("table", "The seeds' experiment tables (nqueens, kcell)");
  sub->add_option("which", o->which, "nqueens or kcell")
      ->required()
      ->check(CLI::IsMember({"nqueens", "kcell"}));
  sub->add_option("--variant", o->variant, "nqueens: 1a, 1b or 2")
      ->check(CLI::IsMember({"1a", "1b", "2"}))
      ->capture_default_str();
  sub->add_option("--n", o->range,
                  "Sizes: N or A..B (nqueens N, default 1..10; kcell pieces n, default 1..3)");
  sub->add_option("--algo", o->algos, "minimax, alphabeta, engine, or a comma list")
      ->capture_default_str();
  sub->add_option("--cutoff", o->cutoff, "Depth cut-off with the heuristic (0 = none)")
      ->check(CLI::Range(0, 64));
  sub->add_option("--eval", o->eval, "Heuristic at the cut-off");
  sub->add_option("--row-time", o->row_time, "Stop a row after this many seconds (0 = never)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--move-time", o->move_time, "kcell: seconds allowed for a move")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--hash", o->hash_mb, "Engine transposition table, MB")
      ->check(CLI::Range(std::size_t{1}, search::kMaxHashMb));
  sub->add_option("--plot", o->plot,
                  "nqueens: draw nodes and time against N into this SVG file (gnuplot)");
  sub->add_flag("--json", o->json, "One JSON document");
  return {sub, [o] { return o->which == "nqueens" ? table_nqueens(*o) : table_kcell(*o); }};
}

}  // namespace duel::cli
