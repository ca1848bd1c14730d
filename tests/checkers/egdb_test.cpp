// Checkers endgame tables (docs/egdb.md): the index's counts against the
// published ones, index <-> placement round trips, the built values against
// an independent forward fixpoint over Position::moves, known endings, and
// the loader's errors.
#include <gtest/gtest.h>
#include <unistd.h>

#include <bit>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "duel/core/rng.hpp"
#include "duel/games/checkers/checkers.hpp"
#include "duel/games/checkers/egdb.hpp"
#include "duel/games/checkers/egdb_build.hpp"
#include "duel/games/checkers/egdb_probe.hpp"
#include "duel/games/engines.hpp"
#include "duel/search/limits.hpp"

namespace duel::games::checkers::egdb {
namespace {

namespace fs = std::filesystem;

// The tables of 2 .. 4 pieces, built once for the suite (two threads, so the
// atomic propagation is exercised).
const std::shared_ptr<const Egdb>& shared_tables4() {
  static const std::shared_ptr<const Egdb> db = [] {
    auto built = build({.pieces = 4, .out = {}, .threads = 2, .on_table = {}});
    EXPECT_TRUE(built.ok()) << built.error();
    return std::make_shared<const Egdb>(std::move(*built));
  }();
  return db;
}
const Egdb& tables4() {
  return *shared_tables4();
}

// PDN FEN of a position, for failure messages.
std::string fen(const Position& p) {
  std::string out = p.to_move() == Player::First ? "B" : "W";
  for (const Player side : {Player::Second, Player::First}) {
    out += side == Player::First ? ":B" : ":W";
    bool first = true;
    for (Bitboard b = p.pieces(side); b != 0; b &= b - 1) {
      out += (first ? "" : ",") + std::string((p.kings() & bit(lowest(b))) != 0 ? "K" : "") +
             std::to_string(lowest(b) + 1);
      first = false;
    }
  }
  return out;
}

Position position_of(std::string_view fen) {
  const auto s = State::parse(fen);
  EXPECT_TRUE(s.ok()) << s.error();
  return s.ok() ? s->position() : Position();
}

// ---------------------------------------------------------------------------
// (a) Counts. Schaeffer et al., "Checkers Is Solved", Science 317 (2007),
// Table 1, "number of positions" per number of pieces on the board. They
// count placements: any pieces of either colour (one colour only too), men
// never on their crowning row, the side to move not counted (1 piece: 28 +
// 32 + 28 + 32 = 120). The sum of the index sizes over every signature,
// playable or not, must give the same numbers.
TEST(EgdbIndex, PlacementCountsMatchCheckersIsSolved) {
  constexpr std::array<std::uint64_t, 7> kPublished = {
      0, 120, 6'972, 261'224, 7'092'774, 148'688'232, 2'503'611'964};
  for (int n = 1; n <= 6; ++n) {
    std::uint64_t total = 0;
    for (const Signature& s : signatures_of(n, false)) total += Indexer(s).size();
    EXPECT_EQ(total, kPublished[static_cast<std::size_t>(n)]) << n << " pieces";
  }
}

// (d) Every index of every signature up to 4 pieces gives a legal placement
// of that signature that indexes back to it (so the index is a bijection
// onto placements, and with the count above it covers them all).
TEST(EgdbIndex, RoundTripEverySignatureUpTo4) {
  for (int n = 1; n <= 4; ++n) {
    for (const Signature& s : signatures_of(n, false)) {
      const Indexer ix(s);
      for (std::uint64_t i = 0; i < ix.size(); ++i) {
        const Placement p = ix.placement(i);
        ASSERT_EQ(p.black & p.white, 0U);
        ASSERT_EQ(Signature::of(p.black, p.white, p.kings), s);
        ASSERT_EQ(p.kings & ~(p.black | p.white), 0U);
        ASSERT_EQ(p.black & ~p.kings & ~kBlackManSquares, 0U);
        ASSERT_EQ(p.white & ~p.kings & ~kWhiteManSquares, 0U);
        ASSERT_EQ(ix.index(p), i) << s.name();
      }
    }
  }
}

TEST(EgdbIndex, ReverseTurnsTheBoard) {
  for (int sq = 0; sq < kSquares; ++sq) EXPECT_EQ(reverse(bit(sq)), bit(kSquares - 1 - sq));
}

// ---------------------------------------------------------------------------
// (b) The oracle: every position reachable from the seeds, its successors
// by Position::moves and play, and a forward fixpoint over them (no
// unmoves, no index, no symmetry): a position with no move is lost; one
// with a lost successor is won; one whose successors are all won is lost;
// repeat until nothing changes; the rest are draws.
class Oracle {
 public:
  void add(const Position& start) {
    std::vector<int> todo{node(start)};
    while (!todo.empty()) {
      const int at = todo.back();
      todo.pop_back();
      if (m_expanded[static_cast<std::size_t>(at)]) continue;
      m_expanded[static_cast<std::size_t>(at)] = true;
      Moves moves;
      const Position p = m_positions[static_cast<std::size_t>(at)];
      p.moves(moves);
      std::vector<int> children;
      for (const Move& m : moves) {
        const int c = node(p.play(m));
        children.push_back(c);
        if (!m_expanded[static_cast<std::size_t>(c)]) todo.push_back(c);
      }
      m_children[static_cast<std::size_t>(at)] = std::move(children);
    }
  }

  void solve() {
    m_values.assign(m_positions.size(), std::nullopt);
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t i = 0; i < m_positions.size(); ++i) {
        if (m_values[i]) continue;
        bool all_won = true;
        bool any_lost = false;
        for (const int c : m_children[i]) {
          const auto v = m_values[static_cast<std::size_t>(c)];
          any_lost = any_lost || v == Wld::Loss;
          all_won = all_won && v == Wld::Win;
        }
        if (any_lost || all_won) {
          m_values[i] = any_lost ? Wld::Win : Wld::Loss;
          changed = true;
        }
      }
    }
  }

  [[nodiscard]] std::size_t size() const { return m_positions.size(); }
  [[nodiscard]] const Position& position(std::size_t i) const { return m_positions[i]; }
  [[nodiscard]] Wld value(std::size_t i) const { return m_values[i].value_or(Wld::Draw); }
  [[nodiscard]] Wld value(const Position& p) const {
    return value(static_cast<std::size_t>(m_ids.at(key(p))));
  }

 private:
  struct Hash {
    std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& k) const {
      return static_cast<std::size_t>(k.first * 0x9E3779B97F4A7C15ULL ^ k.second);
    }
  };
  static std::pair<std::uint64_t, std::uint64_t> key(const Position& p) {
    return {(std::uint64_t{p.pieces(Player::First)} << 32) | p.pieces(Player::Second),
            (std::uint64_t{p.kings()} << 1) | (p.to_move() == Player::First ? 0U : 1U)};
  }
  int node(const Position& p) {
    const auto [it, fresh] = m_ids.try_emplace(key(p), static_cast<int>(m_positions.size()));
    if (fresh) {
      Position q = p;
      q.set_clock(0);
      m_positions.push_back(q);
      m_children.emplace_back();
      m_expanded.push_back(false);
    }
    return it->second;
  }

  std::unordered_map<std::pair<std::uint64_t, std::uint64_t>, int, Hash> m_ids;
  std::vector<Position> m_positions;
  std::vector<std::vector<int>> m_children;
  std::vector<bool> m_expanded;
  std::vector<std::optional<Wld>> m_values;
};

// Every position of `pieces` pieces, both colours present, either side to
// move, by placing pieces square by square (not through the index).
void each_position(int pieces, const std::function<void(const Position&)>& f) {
  std::function<void(int, int, Position&)> place = [&](int from, int left, Position& p) {
    if (left == 0) {
      if (p.pieces(Player::First) == 0 || p.pieces(Player::Second) == 0) return;
      for (const Player side : {Player::First, Player::Second}) {
        p.set_to_move(side);
        f(p);
      }
      return;
    }
    for (int sq = from; sq < kSquares; ++sq) {
      for (const Player side : {Player::First, Player::Second}) {
        for (const bool king : {false, true}) {
          if (!king && (crown_row(side) & bit(sq)) != 0) continue;
          Position q = p;
          q.put(side, king, sq);
          place(sq + 1, left - 1, q);
        }
      }
    }
  };
  Position empty;
  place(0, pieces, empty);
}

TEST(EgdbBuild, EveryPositionUpTo3PiecesMatchesTheFixpoint) {
  Oracle oracle;
  std::size_t positions = 0;
  for (int n = 2; n <= 3; ++n) {
    each_position(n, [&](const Position& p) {
      oracle.add(p);
      ++positions;
    });
  }
  oracle.solve();
  // Placements with both colours (the count test's numbers less the
  // one-colour ones), twice for the side to move.
  EXPECT_EQ(positions, 2U * (3'488 + 196'032));
  const Egdb& db = tables4();
  std::size_t checked = 0;
  for (std::size_t i = 0; i < oracle.size(); ++i) {
    const Position& p = oracle.position(i);
    const auto v = db.probe(p);
    ASSERT_TRUE(v.has_value());
    ASSERT_EQ(*v, oracle.value(i)) << fen(p);
    ++checked;
  }
  EXPECT_GE(checked, positions);
}

// A seeded sample of 4-piece positions, each with every position it reaches
// (all checked: hundreds of thousands). DUEL_EGDB_SAMPLES=N checks N starts
// instead of 2 (slower: the reached sets grow towards the whole 4-piece set).
TEST(EgdbBuild, Sampled4PiecePositionsMatchTheFixpoint) {
  Rng rng(20261204);
  Oracle oracle;
  std::vector<Position> sample;
  const char* env = std::getenv("DUEL_EGDB_SAMPLES");
  const std::size_t starts = env != nullptr ? std::strtoul(env, nullptr, 10) : 2;
  while (sample.size() < starts) {
    Position p;
    for (int placed = 0; placed < 4;) {
      const int sq = static_cast<int>(rng.below(kSquares));
      const Player side = rng.below(2) == 0 ? Player::First : Player::Second;
      const bool king = rng.below(2) == 0;
      if ((p.occupied() & bit(sq)) != 0 || (!king && (crown_row(side) & bit(sq)) != 0)) continue;
      p.put(side, king, sq);
      ++placed;
    }
    if (p.pieces(Player::First) == 0 || p.pieces(Player::Second) == 0) continue;
    p.set_to_move(rng.below(2) == 0 ? Player::First : Player::Second);
    sample.push_back(p);
    oracle.add(p);
  }
  oracle.solve();
  const Egdb& db = tables4();
  for (std::size_t i = 0; i < oracle.size(); ++i) {
    const auto v = db.probe(oracle.position(i));
    ASSERT_TRUE(v.has_value());
    ASSERT_EQ(*v, oracle.value(i)) << fen(oracle.position(i));
  }
  std::size_t four = 0;
  for (std::size_t i = 0; i < oracle.size(); ++i) {
    four += std::popcount(oracle.position(i).occupied()) == 4 ? 1 : 0;
  }
  EXPECT_GT(four, 10'000U);
  RecordProperty("four_piece_positions", static_cast<int>(four));
}

// ---------------------------------------------------------------------------
// (c) Known values, each checked by hand from the rules.
TEST(EgdbKnown, HandCheckedPositions) {
  const Egdb& db = tables4();
  const auto probe = [&](std::string_view fen) { return db.probe(position_of(fen)); };
  // White's man on 29 (a1) can only go to 25, held by Black, with 22 behind
  // it held too: White, to move, has no move and loses (RULES.md §5).
  EXPECT_EQ(probe("W:W29:B22,25"), Wld::Loss);
  // Black's man on 22 must jump White's only piece on 26 (22x31): a win.
  EXPECT_EQ(probe("B:W26:B22"), Wld::Win);
  // With White to move, White's man on 26 jumps 22 (26x17) and wins.
  EXPECT_EQ(probe("W:W26:B22"), Wld::Win);
  // One king against one king, far apart: neither can force a capture (a
  // lone king is never trapped by one king): a draw whoever moves.
  EXPECT_EQ(probe("B:WK32:BK1"), Wld::Draw);
  EXPECT_EQ(probe("W:WK32:BK1"), Wld::Draw);
  // Two kings against one, the lone king in the single corner 4 (h8): its
  // only step is to 8 (g7), where the king on 11 (f6) takes it (11x4).
  // White to move loses at once; Black to move first waits (29-25) and
  // White must step to 8 all the same.
  EXPECT_EQ(probe("W:WK4:BK11,K29"), Wld::Loss);
  EXPECT_EQ(probe("B:WK4:BK11,K29"), Wld::Win);
  // Beyond the tables' size: unknown. A side without pieces has lost.
  EXPECT_EQ(probe("B:W21,22,23,24,25:B1"), std::nullopt);
  EXPECT_EQ(db.probe(Placement{0, bit(20), 0}), Wld::Loss);
  EXPECT_EQ(db.probe(Placement{bit(20), 0, 0}), Wld::Win);
}

// ---------------------------------------------------------------------------
// (e) Files: written, loaded back equal; and every kind of bad directory.
struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("duel-egdb-test-" + std::to_string(::getpid()));
  Scratch() { fs::remove_all(dir); }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

TEST(EgdbFiles, WrittenTablesLoadBackAndBadOnesAreRefused) {
  Scratch s;
  auto built = build({.pieces = 3, .out = s.dir, .threads = 1, .on_table = {}});
  ASSERT_TRUE(built.ok()) << built.error();
  auto loaded = Egdb::load(s.dir);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->max_pieces(), 3);
  EXPECT_TRUE(loaded->has({1, 0, 0, 2}));
  EXPECT_FALSE(loaded->has({2, 0, 0, 2}));
  const Egdb& db = tables4();
  for (const Signature& sig : loaded->signatures()) {
    const auto c = loaded->verify(sig);
    ASSERT_TRUE(c.ok()) << c.error();
    const TableView& t = loaded->table(sig);
    for (std::uint64_t i = 0; i < t.indexer.size(); ++i) {
      ASSERT_EQ(t.at(i), db.table(sig).at(i)) << sig.name() << " " << i;
    }
  }
  const auto error_of = [](const fs::path& dir) {
    auto r = Egdb::load(dir);
    return r.ok() ? std::string("loaded") : r.error();
  };
  // Missing directory; a directory without tables.
  EXPECT_NE(error_of(s.dir / "none").find("no such directory"), std::string::npos);
  fs::create_directories(s.dir / "empty");
  EXPECT_NE(error_of(s.dir / "empty").find("no checkers tables"), std::string::npos);
  // A wrong magic.
  const fs::path victim = s.dir / file_name({1, 0, 0, 1});
  {
    std::fstream f(victim, std::ios::in | std::ios::out | std::ios::binary);
    f.write("NOTADUEL", 8);
  }
  EXPECT_NE(error_of(s.dir).find("wrong magic"), std::string::npos);
  // A truncated file.
  auto rebuilt = build({.pieces = 3, .out = s.dir, .threads = 1, .on_table = {}});
  ASSERT_TRUE(rebuilt.ok());
  fs::resize_file(victim, fs::file_size(victim) - 1);
  EXPECT_NE(error_of(s.dir).find("truncated"), std::string::npos);
  fs::resize_file(victim, 10);
  EXPECT_NE(error_of(s.dir).find("shorter than"), std::string::npos);
  // An incomplete piece count.
  fs::remove(victim);
  EXPECT_NE(error_of(s.dir).find("incomplete"), std::string::npos);
  // Corrupt values behind a good header: load accepts (headers only),
  // verify refuses.
  auto again = build({.pieces = 2, .out = s.dir / "two", .threads = 1, .on_table = {}});
  ASSERT_TRUE(again.ok());
  const fs::path two = s.dir / "two" / file_name({0, 1, 0, 1});
  {
    std::fstream f(two, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(kHeaderBytes + 5));
    f.put('\x7f');
  }
  auto corrupt = Egdb::load(s.dir / "two");
  ASSERT_TRUE(corrupt.ok());
  EXPECT_FALSE(corrupt->verify({0, 1, 0, 1}).ok());
  // Bad options.
  EXPECT_FALSE(build({.pieces = 1, .out = {}, .threads = 1, .on_table = {}}).ok());
  EXPECT_FALSE(build({.pieces = 8, .out = {}, .threads = 1, .on_table = {}}).ok());
  EXPECT_FALSE(
      build(
          {.pieces = 2, .out = s.dir / file_name({0, 1, 0, 1}) / "x", .threads = 1, .on_table = {}})
          .ok());
}

// ---------------------------------------------------------------------------
// (f) The engine's use of the tables (egdb_probe.hpp, search::HasKnownValues).
// Sets the engine's tables for one test and takes them away after.
struct EngineTables {
  EngineTables() { set_engine_tables(shared_tables4()); }
  ~EngineTables() { set_engine_tables(nullptr); }
  EngineTables(const EngineTables&) = delete;
  EngineTables& operator=(const EngineTables&) = delete;
};

// A fresh engine with `tuned` and a small table, `depth` plies from `root`.
search::SearchResult<Move> search_to(const State& root, int depth) {
  search::EngineOptions options;
  options.hash_mb = 1;
  auto engine = games::make_engine<State>("tuned", 0, options).value();
  search::Limits limits;
  limits.depth = depth;
  return engine->search(root, limits);
}

TEST(EgdbEngine, HeuristicsKnowTheTablesValues) {
  const auto state = [](std::string_view fen) { return State::parse(fen).value(); };
  // Without tables nothing is known.
  EXPECT_EQ(Tuned{}.known(state("B:WK32:BK1")), std::nullopt);
  const EngineTables on;
  // A draw (EgdbKnown.HandCheckedPositions) is exact and 0.
  const auto draw = Tuned{}.known(state("B:WK32:BK1"));
  ASSERT_TRUE(draw.has_value());
  EXPECT_TRUE(draw->exact);
  EXPECT_EQ(draw->value, 0);
  // Black wins with either side to move (the same test): above every
  // estimate from Black's view, and not exact (the draw clock).
  for (const char* fen : {"B:WK4:BK11,K29", "W:WK4:BK11,K29"}) {
    for (const auto k : {Tuned{}.known(state(fen)), N1{}.known(state(fen))}) {
      ASSERT_TRUE(k.has_value()) << fen;
      EXPECT_FALSE(k->exact) << fen;
      EXPECT_GE(k->value, kTableWin - kTableWin / 5) << fen;
    }
  }
  // White's man on 29 is blocked by 25 and 22: White to move has lost,
  // Black's view is a win.
  EXPECT_GE(Tuned{}.known(state("W:W29:B22,25"))->value, kTableWin - kTableWin / 5);
  // White's man on 26 jumps Black's only piece (26x17): Black has lost.
  EXPECT_LE(Tuned{}.known(state("W:W26:B22"))->value, -kTableWin + kTableWin / 5);
  // More pieces than the tables hold: unknown.
  EXPECT_EQ(Tuned{}.known(state("B:W21,22,23,24,25:B1")), std::nullopt);
}

TEST(EgdbEngine, TheSearchTakesTheTablesValuesBelowTheRoot) {
  // Five pieces: Black's king on 15 must jump 18 (15x22), and three kings
  // stand against one, a position the 4-piece tables hold. The engine's
  // value after a one-ply search is the table's verdict on the position
  // after the jump, whatever the heuristic says.
  const State root = State::parse("B:W18,K32:BK15,K1,K3").value();
  const auto without = search_to(root, 1);
  const EngineTables on;
  const auto with = search_to(root, 1);
  typename State::Moves moves;
  root.actions(moves);
  ASSERT_EQ(moves.size(), 1U);
  const State after = root.result(moves[0]);
  const auto verdict = tables4().probe(after.position());
  ASSERT_TRUE(verdict.has_value());
  // The side to move after the jump is White: Black's view is the negation.
  const Value expected = *verdict == Wld::Draw ? 0 : (*verdict == Wld::Loss ? 1 : -1);
  if (expected == 0) {
    EXPECT_EQ(with.value, 0);
  } else {
    EXPECT_GE(expected * with.value, kTableWin - kTableWin / 5);
  }
  EXPECT_LT(std::abs(without.value), kTableWin / 5);
}

TEST(EgdbEngine, ARootTheTablesKnowIsSearchedAsUsual) {
  // Two kings against one, Black to move: the tables' win (for the two
  // kings in all but 34 of their 14,880 positions, docs/egdb.md) holds for
  // every position below too, and says nothing of how to make progress: the
  // search plays it out with its heuristic, as it would without tables.
  const State root = State::parse("B:WK32:BK18,K20").value();
  ASSERT_TRUE(Tuned{}.known(root).has_value() == false);
  const auto without = search_to(root, 6);
  const EngineTables on;
  ASSERT_TRUE(Tuned{}.known(root).has_value());
  const auto with = search_to(root, 6);
  EXPECT_EQ(with.value, without.value);
  EXPECT_EQ(with.pv, without.pv);
  EXPECT_LT(std::abs(with.value), kTableWin / 5);
}

}  // namespace
}  // namespace duel::games::checkers::egdb
