// duel egdb build|stats|probe checkers ...: endgame tables (docs/egdb.md).
//   build: every table of 2 .. N pieces into a directory, with progress and
//     the counts per piece count at the end.
//   stats: a directory's counts per signature and per piece count.
//   probe: one position's value for the side to move.
#include <algorithm>
#include <map>
#include <memory>
#include <thread>

#include "common.hpp"
#include "duel/games/checkers/checkers.hpp"
#include "duel/games/checkers/egdb.hpp"
#include "duel/games/checkers/egdb_build.hpp"

namespace duel::cli {
namespace {

namespace eg = games::checkers::egdb;

struct EgdbOptions {
  std::string game;
  std::string dir;
  int pieces = 4;
  int threads = 0;  // 0: every core
  std::string fen;
  bool verify = false;
};

// Only checkers has tables; the spec's name decides.
Result<bool> check_game(const std::string& game) {
  const auto spec = Spec::parse(game);
  if (!spec || spec->name() != games::checkers::State::kName) {
    return fail(fmt::format("egdb: only checkers has endgame tables, not '{}'", game));
  }
  return true;
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? "-"
                    : fmt::format("{:.2f}%",
                                  100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

// The counts per piece count: positions with either side to move (a
// signature's table holds Black to move; White to move is the flipped
// signature's table), and the placements as "Checkers Is Solved" counts them.
void print_totals(const std::map<int, eg::Counts>& by_pieces) {
  fmt::print("{:>6} {:>15} {:>15} {:>15} {:>15} {:>15} {:>8} {:>8} {:>8}\n", "pieces", "placements",
             "positions", "won", "drawn", "lost", "won", "drawn", "lost");
  eg::Counts all;
  std::uint64_t all_placements = 0;
  for (const auto& [n, c] : by_pieces) {
    std::uint64_t placements = 0;
    for (const auto& s : eg::signatures_of(n, false)) placements += eg::Indexer(s).size();
    all_placements += placements;
    all += c;
    fmt::print("{:>6} {:>15} {:>15} {:>15} {:>15} {:>15} {:>8} {:>8} {:>8}\n", n, placements,
               2 * c.positions, 2 * c.wins, 2 * c.draws, 2 * c.losses, percent(c.wins, c.positions),
               percent(c.draws, c.positions), percent(c.losses, c.positions));
  }
  fmt::print("{:>6} {:>15} {:>15} {:>15} {:>15} {:>15} {:>8} {:>8} {:>8}\n", "all", all_placements,
             2 * all.positions, 2 * all.wins, 2 * all.draws, 2 * all.losses,
             percent(all.wins, all.positions), percent(all.draws, all.positions),
             percent(all.losses, all.positions));
}

int run_build(const EgdbOptions& o) {
  const int threads = o.threads > 0
                          ? o.threads
                          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  Progress progress(true);
  std::map<int, eg::Counts> by_pieces;
  eg::BuildOptions options{
      o.pieces, o.dir, threads, [&](const eg::TableDone& d) {
        by_pieces[d.signature.pieces()] += d.counts;
        progress.update(fmt::format("[{:7.1f} s] {:3}/{} {:<9} {:>11} positions", d.seconds, d.done,
                                    d.total, d.signature.name(), d.counts.positions));
      }};
  WallClock clock;
  auto built = eg::build(options);
  progress.done();
  if (!built) return bad_input(built.error());
  std::uint64_t bytes = 0;
  for (const auto& s : built->signatures()) {
    bytes += eg::kHeaderBytes + eg::packed_bytes(built->table(s).counts.positions);
  }
  std::cerr << fmt::format(
      "built {} tables of 2 .. {} pieces in {:.1f} s on {} threads: {} in {}\n",
      built->signatures().size(), o.pieces, clock.seconds(), threads,
      fmt::format("{:.1f} MB", static_cast<double>(bytes) / 1e6), o.dir);
  print_totals(by_pieces);
  return 0;
}

int run_stats(const EgdbOptions& o) {
  auto db = eg::Egdb::load(o.dir);
  if (!db) return bad_input(db.error());
  fmt::print("{:<9} {:>13} {:>13} {:>13} {:>13}   (Black to move)\n", "signature", "positions",
             "won", "drawn", "lost");
  std::map<int, eg::Counts> by_pieces;
  for (const auto& s : db->signatures()) {
    eg::Counts c = db->table(s).counts;
    if (o.verify) {
      auto checked = db->verify(s);
      if (!checked) return bad_input(checked.error());
      c = *checked;
    }
    by_pieces[s.pieces()] += c;
    fmt::print("{:<9} {:>13} {:>13} {:>13} {:>13}\n", s.name(), c.positions, c.wins, c.draws,
               c.losses);
  }
  fmt::print("\n");
  print_totals(by_pieces);
  return 0;
}

int run_probe(const EgdbOptions& o) {
  auto state = games::checkers::State::parse(o.fen);
  if (!state) return bad_input(state.error());
  auto db = eg::Egdb::load(o.dir);
  if (!db) return bad_input(db.error());
  const auto& p = state->position();
  const auto v = db->probe(p);
  if (!v) {
    return bad_input(fmt::format("{} pieces: beyond the tables in {} ({} pieces at most)",
                                 std::popcount(p.occupied()), o.dir, db->max_pieces()));
  }
  constexpr std::array<const char*, 3> kWords = {"draw", "win", "loss"};
  fmt::print("{} to move: {}\n", p.to_move() == Player::First ? "Black" : "White",
             kWords[static_cast<std::size_t>(*v)]);
  return 0;
}

}  // namespace

Command add_egdb(CLI::App& app) {
  auto o = std::make_shared<EgdbOptions>();
  CLI::App* sub = app.add_subcommand("egdb", "Endgame tables (checkers): build, stats, probe");
  sub->require_subcommand(1);
  CLI::App* b = sub->add_subcommand("build", "Build every table of 2 .. N pieces into DIR");
  b->add_option("game", o->game, "checkers")->required();
  b->add_option("--pieces", o->pieces, "Pieces on the board, at most (2..7)")
      ->check(CLI::Range(2, eg::kMaxTablePieces))
      ->capture_default_str();
  b->add_option("--out", o->dir, "Directory for the tables (made if missing)")->required();
  b->add_option("--threads", o->threads, "Threads (default: every core)")
      ->check(CLI::Range(1, 256));
  CLI::App* s = sub->add_subcommand("stats", "Counts per signature and per piece count");
  s->add_option("game", o->game, "checkers")->required();
  s->add_option("dir", o->dir, "Directory of tables")->required();
  s->add_flag("--verify", o->verify, "Recount every table and check its checksum");
  CLI::App* p = sub->add_subcommand("probe", "The value of a position for the side to move");
  p->add_option("game", o->game, "checkers")->required();
  p->add_option("dir", o->dir, "Directory of tables")->required();
  p->add_option("--fen", o->fen, "The position (PDN FEN or 8 board lines)")->required();
  return {sub, [o, b, s] {
            if (auto ok = check_game(o->game); !ok) return bad_input(ok.error());
            if (b->parsed()) return run_build(*o);
            if (s->parsed()) return run_stats(*o);
            return run_probe(*o);
          }};
}

}  // namespace duel::cli
