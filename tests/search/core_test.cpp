// The core pieces the searches stand on: the Value scale (core/types.hpp), the
// TT value conversion and the table (search/tt.hpp), MoveList, Rng, Zobrist
// tables, and the spec parser (core/spec.hpp).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "duel/core/move_list.hpp"
#include "duel/core/rng.hpp"
#include "duel/core/spec.hpp"
#include "duel/core/types.hpp"
#include "duel/core/zobrist.hpp"
#include "duel/search/concepts.hpp"
#include "duel/search/tt.hpp"

namespace duel {
namespace {

using search::Bound;
using search::clamp_estimate;
using search::from_tt;
using search::kDepthAny;
using search::to_tt;
using search::TranspositionTable;
using search::TTEntry;

constexpr Value kEstimateLimit = kUnit - kMaxPly - 1;

// ---------------------------------------------------------------------------
// Values

TEST(CoreValue, PlayersAndNumbers) {
  EXPECT_EQ(other(Player::First), Player::Second);
  EXPECT_EQ(other(Player::Second), Player::First);
  EXPECT_EQ(index(Player::First), 0);
  EXPECT_EQ(number(Player::Second), 2);
  EXPECT_EQ(for_player(7, Player::First), 7);
  EXPECT_EQ(for_player(7, Player::Second), -7);
}

TEST(CoreValue, TerminalValueExamples) {
  EXPECT_EQ(terminal_value(0, 17), kDraw);
  EXPECT_EQ(terminal_value(1, 0), kUnit);
  EXPECT_EQ(terminal_value(1, 3), kUnit - 3);
  EXPECT_EQ(terminal_value(-1, 3), -kUnit + 3);
  EXPECT_EQ(terminal_value(5, 4), 5 * kUnit - 4);
  EXPECT_EQ(win_in(3), terminal_value(1, 3));
  EXPECT_EQ(loss_in(3), terminal_value(-1, 3));
  EXPECT_TRUE(is_win(win_in(kMaxPly)));
  EXPECT_TRUE(is_loss(loss_in(kMaxPly)));
  EXPECT_FALSE(is_proven(kDraw));
  EXPECT_FALSE(is_proven(kEstimateLimit));
  EXPECT_FALSE(is_proven(-kEstimateLimit));
  EXPECT_LT(kMaxPayoff * kUnit, kInfinite);
}

RC_GTEST_PROP(CoreValue, ShorterWinsScoreHigherShorterLossesLower, ()) {
  const int a = *rc::gen::inRange(0, kMaxPly + 1);
  const int b = *rc::gen::inRange(0, kMaxPly + 1);
  RC_ASSERT((win_in(a) > win_in(b)) == (a < b));
  RC_ASSERT((loss_in(a) < loss_in(b)) == (a < b));
  // Every win beats every estimate, which beats every loss.
  const Value e = *rc::gen::inRange(-kEstimateLimit, kEstimateLimit + 1);
  RC_ASSERT(loss_in(a) < e);
  RC_ASSERT(e < win_in(b));
  // A bigger payoff beats a smaller one whatever the plies.
  const Value p = *rc::gen::inRange<Value>(1, kMaxPayoff);
  RC_ASSERT(terminal_value(p + 1, a) > terminal_value(p, b));
  RC_ASSERT(terminal_value(-p - 1, a) < terminal_value(-p, b));
}

RC_GTEST_PROP(CoreValue, ProvenPayoffAndPliesRoundTrip, ()) {
  const Value payoff = *rc::gen::inRange<Value>(-kMaxPayoff, kMaxPayoff + 1);
  const int ply = *rc::gen::inRange(0, kMaxPly + 1);
  const Value v = terminal_value(payoff, ply);
  RC_ASSERT(is_proven(v) == (payoff != 0));
  RC_ASSERT(is_win(v) == (payoff > 0));
  RC_ASSERT(is_loss(v) == (payoff < 0));
  RC_ASSERT(proven_payoff(v) == payoff);
  RC_ASSERT(to_points(v) == static_cast<double>(payoff));
  if (payoff != 0) RC_ASSERT(plies_to_end(v) == ply);
  RC_ASSERT(-kInfinite < v);
  RC_ASSERT(v < kInfinite);
  // Colour symmetry: the opponent's payoff mirrors the value.
  RC_ASSERT(terminal_value(-payoff, ply) == -v);
}

RC_GTEST_PROP(CoreValue, ClampedEstimatesAreNeverProven, ()) {
  const Value v = *rc::gen::inRange(-kInfinite, kInfinite + 1);
  const Value c = clamp_estimate(v);
  RC_ASSERT(!is_proven(c));
  RC_ASSERT(c >= -kEstimateLimit);
  RC_ASSERT(c <= kEstimateLimit);
  if (v >= -kEstimateLimit && v <= kEstimateLimit) {
    RC_ASSERT(c == v);
    RC_ASSERT(proven_payoff(c) == 0);
    RC_ASSERT(to_points(c) == static_cast<double>(v) / kUnit);
  }
  RC_ASSERT(clamp_estimate(-v) == -c);
}

// ---------------------------------------------------------------------------
// to_tt / from_tt

RC_GTEST_PROP(CoreTT, ValueConversionRoundTrips, ()) {
  const int ply = *rc::gen::inRange(0, kMaxPly + 1);
  const Value est = *rc::gen::inRange(-kEstimateLimit, kEstimateLimit + 1);
  RC_ASSERT(to_tt(est, ply) == est);
  RC_ASSERT(from_tt(est, ply) == est);

  // A result `below` plies below a node at `ply` (so `ply + below` from the root).
  const Value payoff = *rc::gen::inRange<Value>(-kMaxPayoff, kMaxPayoff + 1);
  const int below = *rc::gen::inRange(0, kMaxPly - ply + 1);
  const Value from_root = terminal_value(payoff, ply + below);
  const Value from_node = terminal_value(payoff, below);
  RC_ASSERT(to_tt(from_root, ply) == from_node);
  RC_ASSERT(from_tt(from_node, ply) == from_root);
  RC_ASSERT(from_tt(to_tt(from_root, ply), ply) == from_root);
  // Met again at another ply, the same entry gives the distance from that root.
  const int other_ply = *rc::gen::inRange(0, kMaxPly - below + 1);
  RC_ASSERT(from_tt(to_tt(from_root, ply), other_ply) == terminal_value(payoff, other_ply + below));
}

// ---------------------------------------------------------------------------
// TranspositionTable

// Keys that differ only below bit 20 share a bucket (tt.hpp picks the bucket
// from the high bits).
std::uint64_t same_bucket_key(std::uint64_t base, std::uint64_t i) {
  return (base & ~std::uint64_t{0xFFFFF}) | (i + 1);
}

TEST(CoreTT, EntryLayout) {
  EXPECT_EQ(sizeof(TTEntry), 16U);
  TTEntry e;
  e.flags = static_cast<std::uint8_t>(static_cast<unsigned>(Bound::Lower) | (5U << 2));
  EXPECT_EQ(e.bound(), Bound::Lower);
  EXPECT_EQ(e.generation(), 5);
}

TEST(CoreTT, PackedWordRoundTrips) {
  // tt.hpp's layout: value in bits 0-31, move 32-47, depth 48-55, flags 56-63.
  TTEntry e;
  e.value = -kInfinite;
  e.move = 0xFFFF;
  e.depth = kDepthAny;
  e.flags = static_cast<std::uint8_t>(static_cast<unsigned>(Bound::Upper) | (63U << 2));
  const std::uint64_t word = search::pack_entry(e);
  EXPECT_EQ(word >> 32 & 0xFFFF, 0xFFFFU);
  EXPECT_EQ(word >> 48 & 0xFF, 255U);
  EXPECT_EQ(word >> 56, e.flags);
  const TTEntry back = search::unpack_entry(7, word);
  EXPECT_EQ(back.key, 7U);
  EXPECT_EQ(back.value, -kInfinite);
  EXPECT_EQ(back.move, 0xFFFF);
  EXPECT_EQ(back.depth, kDepthAny);
  EXPECT_EQ(back.bound(), Bound::Upper);
  EXPECT_EQ(back.generation(), 63);
}

TEST(CoreTT, StoreAndProbe) {
  TranspositionTable tt(1);
  EXPECT_EQ(tt.size(), 1024U * 1024U / sizeof(TTEntry));
  const std::uint64_t key = 0x1234'5678'9ABC'DEF0ULL;
  EXPECT_FALSE(tt.probe(key));
  tt.store(key, -1234, Bound::Upper, 7, 3);
  auto e = tt.probe(key);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->key, key);
  EXPECT_EQ(e->value, -1234);
  EXPECT_EQ(e->bound(), Bound::Upper);
  EXPECT_EQ(e->depth, 7);
  EXPECT_EQ(e->move, 3);
  EXPECT_FALSE(tt.probe(key ^ 1));  // full keys are compared

  // Same key: replaced in place; move 0 keeps the known best move.
  tt.store(key, 99, Bound::Exact, 2, 0);
  e = tt.probe(key);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->value, 99);
  EXPECT_EQ(e->bound(), Bound::Exact);
  EXPECT_EQ(e->depth, 2);
  EXPECT_EQ(e->move, 3);
  tt.store(key, 98, Bound::Lower, 2, 5);
  EXPECT_EQ(tt.probe(key)->move, 5);

  tt.clear();
  EXPECT_FALSE(tt.probe(key));
}

TEST(CoreTT, DepthIsClampedAndAnyDepthKept) {
  TranspositionTable tt(1);
  tt.store(1ULL << 40, 0, Bound::Exact, kDepthAny, 1);
  tt.store(2ULL << 40, 0, Bound::Exact, 300, 1);
  tt.store(3ULL << 40, 0, Bound::Exact, 254, 1);
  tt.store(4ULL << 40, 0, Bound::Exact, -3, 1);
  EXPECT_EQ(tt.probe(1ULL << 40)->depth, kDepthAny);
  EXPECT_EQ(tt.probe(2ULL << 40)->depth, 254);
  EXPECT_EQ(tt.probe(3ULL << 40)->depth, 254);
  EXPECT_EQ(tt.probe(4ULL << 40)->depth, 0);
}

TEST(CoreTT, ZeroKeyIsNotFoundInAnEmptyTable) {
  TranspositionTable tt(1);
  EXPECT_FALSE(tt.probe(0));
  tt.store(0, 5, Bound::Lower, 1, 1);
  ASSERT_TRUE(tt.probe(0));
  EXPECT_EQ(tt.probe(0)->value, 5);
}

TEST(CoreTT, FullBucketReplacesShallowestThenOldest) {
  TranspositionTable tt(1);
  const std::uint64_t base = 0xDEAD'BEEF'0000'0000ULL;
  const int depths[4] = {5, 9, 2, 7};
  for (std::uint64_t i = 0; i < 4; ++i) {
    tt.store(same_bucket_key(base, i), static_cast<Value>(i), Bound::Exact, depths[i], 1);
  }
  for (std::uint64_t i = 0; i < 4; ++i) EXPECT_TRUE(tt.probe(same_bucket_key(base, i)).has_value());

  // A fifth key in the same generation evicts the shallowest (depth 2).
  tt.store(same_bucket_key(base, 4), 4, Bound::Exact, 20, 1);
  EXPECT_TRUE(tt.probe(same_bucket_key(base, 4)).has_value());
  EXPECT_FALSE(tt.probe(same_bucket_key(base, 2)).has_value());
  EXPECT_TRUE(tt.probe(same_bucket_key(base, 0)).has_value());
  EXPECT_TRUE(tt.probe(same_bucket_key(base, 1)).has_value());
  EXPECT_TRUE(tt.probe(same_bucket_key(base, 3)).has_value());

  // In a later search, old entries lose 8 plies of worth per generation of age:
  // scores 5-8, 9-8, 7-8, 20-8; the depth-5 entry goes even for a depth-0 store.
  tt.new_search();
  tt.store(same_bucket_key(base, 5), 5, Bound::Exact, 0, 1);
  EXPECT_TRUE(tt.probe(same_bucket_key(base, 5)).has_value());
  EXPECT_FALSE(tt.probe(same_bucket_key(base, 0)).has_value());
  EXPECT_TRUE(tt.probe(same_bucket_key(base, 1)).has_value());
  EXPECT_TRUE(tt.probe(same_bucket_key(base, 3)).has_value());
  EXPECT_TRUE(tt.probe(same_bucket_key(base, 4)).has_value());
  EXPECT_EQ(tt.probe(same_bucket_key(base, 5))->generation(), 1);

  // A fresh, shallow entry (score 0) outlives an old deeper one (7 - 8 = -1).
  tt.store(same_bucket_key(base, 6), 6, Bound::Exact, 1, 1);
  EXPECT_FALSE(tt.probe(same_bucket_key(base, 3)).has_value());
  EXPECT_TRUE(tt.probe(same_bucket_key(base, 5)).has_value());
}

TEST(CoreTT, SizesArePowersOfTwoBuckets) {
  for (std::size_t mb : {0U, 1U, 3U, 8U}) {
    TranspositionTable tt(mb);
    const std::size_t buckets = tt.size() / TranspositionTable::kBucket;
    EXPECT_EQ(tt.size() % TranspositionTable::kBucket, 0U);
    EXPECT_EQ(buckets & (buckets - 1), 0U) << mb;
    if (mb > 0) {
      EXPECT_LE(tt.size() * sizeof(TTEntry), mb * 1024 * 1024);
      EXPECT_GT(2 * tt.size() * sizeof(TTEntry), mb * 1024 * 1024);
    }
  }
}

// Model check: with at most four keys per bucket nothing is ever lost, and the
// last store of each key is what a probe returns.
RC_GTEST_PROP(CoreTT, LastStoreWinsWithinABucket, ()) {
  TranspositionTable tt(0);  // one bucket of four
  std::array<std::optional<std::pair<Value, int>>, 4> model;
  const auto n = *rc::gen::inRange(1, 40);
  for (int step = 0; step < n; ++step) {
    const auto k = *rc::gen::inRange<std::uint64_t>(0, 4);
    const auto v = *rc::gen::inRange<Value>(-kInfinite, kInfinite);
    const auto d = *rc::gen::inRange(0, 255);
    tt.store(k + 1, v, Bound::Exact, d, static_cast<std::uint16_t>(step + 1));
    model[k] = std::pair{v, d};
    if (*rc::gen::inRange(0, 8) == 0) tt.new_search();
  }
  for (std::uint64_t k = 0; k < 4; ++k) {
    const auto e = tt.probe(k + 1);
    RC_ASSERT(e.has_value() == model[k].has_value());
    if (e) {
      RC_ASSERT(e->value == model[k]->first);
      RC_ASSERT(e->depth == model[k]->second);
    }
  }
}

// ---------------------------------------------------------------------------
// MoveList

TEST(CoreMoveList, PushIterateClearResize) {
  MoveList<int, 8> list;
  static_assert(MoveList<int, 8>::kCapacity == 8);
  EXPECT_TRUE(list.empty());
  for (int i = 0; i < 8; ++i) list.push_back(i * i);
  EXPECT_EQ(list.size(), 8U);
  EXPECT_FALSE(list.empty());
  EXPECT_EQ(list[3], 9);
  int sum = 0;
  for (int x : list) sum += x;
  EXPECT_EQ(sum, 140);
  list[0] = 100;
  const auto& c = list;
  EXPECT_EQ(c[0], 100);
  EXPECT_EQ(c.end() - c.begin(), 8);
  list.resize(2);
  EXPECT_EQ(list.size(), 2U);
  EXPECT_EQ(std::vector<int>(list.begin(), list.end()), (std::vector<int>{100, 1}));
  list.clear();
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(list.begin(), list.end());
}

// ---------------------------------------------------------------------------
// Rng and Zobrist

TEST(CoreRng, SplitMix64ReferenceValues) {
  // SplitMix64 from state 0 (Steele, Lea, Flood 2014; the values every
  // reference implementation prints).
  std::uint64_t s = 0;
  EXPECT_EQ(splitmix64(s), 0xE220A8397B1DCDAFULL);
  EXPECT_EQ(splitmix64(s), 0x6E789E6AA1B965F4ULL);
  EXPECT_EQ(splitmix64(s), 0x06C45D188009454FULL);
  EXPECT_EQ(mix64(0), 0xE220A8397B1DCDAFULL);
}

TEST(CoreRng, SameSeedSameSequence) {
  Rng a(42);
  Rng b(42);
  Rng c(43);
  int differ = 0;
  for (int i = 0; i < 100; ++i) {
    const auto x = a.next();
    EXPECT_EQ(x, b.next());
    differ += x != c.next();
  }
  EXPECT_GT(differ, 95);
  // Usable at compile time, with the same results.
  constexpr std::uint64_t kFirst = Rng(7).next();
  EXPECT_EQ(Rng(7).next(), kFirst);
}

RC_GTEST_PROP(CoreRng, BelowAndBetweenStayInRange, ()) {
  Rng rng(*rc::gen::arbitrary<std::uint64_t>());
  const auto n = *rc::gen::inRange<std::uint64_t>(1, 1'000'000);
  const auto lo = *rc::gen::inRange<std::int64_t>(-1000, 1000);
  const auto hi = lo + *rc::gen::inRange<std::int64_t>(0, 1000);
  for (int i = 0; i < 200; ++i) {
    RC_ASSERT(rng.below(n) < n);
    const auto x = rng.between(lo, hi);
    RC_ASSERT(x >= lo);
    RC_ASSERT(x <= hi);
  }
  RC_ASSERT(rng.below(1) == 0U);
  RC_ASSERT(rng.between(lo, lo) == lo);
}

TEST(CoreRng, BelowIsRoughlyUniform) {
  Rng rng(2024);
  std::array<int, 6> counts{};
  for (int i = 0; i < 60'000; ++i) ++counts[rng.below(6)];
  for (int c : counts) {
    EXPECT_GT(c, 9'400);
    EXPECT_LT(c, 10'600);
  }
}

TEST(CoreZobrist, DeterministicAndDistinct) {
  constexpr auto kTable = make_zobrist<64>(123);
  const auto again = make_zobrist<64>(123);
  EXPECT_EQ(kTable, again);
  EXPECT_NE(kTable, make_zobrist<64>(124));
  EXPECT_EQ(std::set<std::uint64_t>(kTable.begin(), kTable.end()).size(), 64U);
}

// ---------------------------------------------------------------------------
// Spec

// A message fit for "exit 2 with a one-line message naming what was wrong".
void expect_one_line_naming(const std::string& message, const std::string& what) {
  EXPECT_FALSE(message.empty());
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_NE(message.find(what), std::string::npos) << "'" << message << "' should name " << what;
}

TEST(CoreSpec, ParsesNameAndEntries) {
  const auto bare = Spec::parse("nqueens");
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(bare->name(), "nqueens");
  EXPECT_EQ(bare->text(), "nqueens");
  EXPECT_TRUE(bare->entries().empty());
  EXPECT_FALSE(bare->has("n"));
  EXPECT_EQ(bare->get("n"), std::nullopt);

  const auto s = Spec::parse("nqueens:n=10,variant=1b");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->name(), "nqueens");
  ASSERT_EQ(s->entries().size(), 2U);
  EXPECT_EQ(s->entries()[0], (std::pair<std::string, std::string>{"n", "10"}));
  EXPECT_EQ(s->entries()[1], (std::pair<std::string, std::string>{"variant", "1b"}));
  EXPECT_TRUE(s->has("variant"));
  EXPECT_EQ(s->get("variant"), "1b");
  EXPECT_EQ(s->integer("n", 8, 1, 32).value(), 10);
  EXPECT_EQ(s->integer("missing", 8, 1, 32).value(), 8);
  EXPECT_EQ(s->choice("variant", "1a", {"1a", "1b", "2"}).value(), "1b");
  EXPECT_EQ(s->choice("other", "1a", {"1a", "1b"}).value(), "1a");
  EXPECT_FALSE(s->reject_unknown({"n", "variant"}).has_value());

  const auto e = Spec::parse("engine:time=0.5,tt=off,seed=+7,depth=-1");
  ASSERT_TRUE(e.ok());
  EXPECT_DOUBLE_EQ(e->number("time", 1.0, 0.0, 100.0).value(), 0.5);
  EXPECT_DOUBLE_EQ(e->number("other", 1.0, 0.0, 100.0).value(), 1.0);
  EXPECT_FALSE(e->flag("tt", true).value());
  EXPECT_TRUE(e->flag("other", true).value());
  EXPECT_EQ(e->integer("seed", 0, 0, 100).value(), 7);
  EXPECT_EQ(e->integer("depth", 0, -5, 5).value(), -1);
  EXPECT_EQ(e->integer("depth", 0, -1, -1).value(), -1);  // bounds are inclusive

  for (const char* t : {"true", "on", "1", "yes"}) {
    EXPECT_TRUE(Spec::parse(std::string("a:f=") + t)->flag("f", false).value()) << t;
  }
  for (const char* t : {"false", "off", "0", "no"}) {
    EXPECT_FALSE(Spec::parse(std::string("a:f=") + t)->flag("f", true).value()) << t;
  }
  // A value may hold '=' and characters keys may not.
  const auto x = Spec::parse("exec:cmd=./a.out --x=1");
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(x->get("cmd"), "./a.out --x=1");
}

TEST(CoreSpec, SyntaxErrorsAreOneLineAndNameThePart) {
  struct Case {
    const char* text;
    const char* names;  // a part of the message that says what was wrong
  };
  const Case cases[] = {
      {"", "empty name"},
      {":n=3", "empty name"},
      {"bad name:n=3", "bad name 'bad name'"},
      {"a:", "nothing after ':'"},
      {"a:n", "'n'"},               // missing '='
      {"a:n=1,m", "'m'"},           // missing '=' in a later item
      {"a:n=1,", "not key=value"},  // empty item
      {"a:=3", "empty key"},        // empty key
      {"a:n=", "empty value for 'n'"},
      {"a:n=1,m=", "empty value for 'm'"},
      {"a:n=1,n=2", "key 'n' given twice"},
  };
  for (const auto& c : cases) {
    const auto r = Spec::parse(c.text);
    ASSERT_FALSE(r.ok()) << c.text;
    expect_one_line_naming(r.error(), c.names);
    // The whole spec is quoted so the user sees where.
    expect_one_line_naming(r.error(), std::string("'") + c.text + "'");
  }
  EXPECT_NE(Spec::parse("a:n").error().find("not key=value"), std::string::npos);
}

TEST(CoreSpec, RejectUnknownNamesTheKey) {
  const auto s = Spec::parse("alphabeta:depth=4,zzz=1");
  ASSERT_TRUE(s.ok());
  const auto err = s->reject_unknown({"depth", "eval"});
  ASSERT_TRUE(err.has_value());
  expect_one_line_naming(err->message, "'zzz'");
  expect_one_line_naming(err->message, "depth, eval");  // lists the known keys
  expect_one_line_naming(err->message, "alphabeta");
  const auto none = Spec::parse("first:x=1")->reject_unknown({});
  ASSERT_TRUE(none.has_value());
  expect_one_line_naming(none->message, "'x'");
  expect_one_line_naming(none->message, "takes no options");
}

TEST(CoreSpec, TypedValueErrorsAreOneLineAndNameTheKey) {
  const auto s = Spec::parse(
      "game:n=abc,big=99,neg=-3,t=fast,slow=7.5,inf=inf,nan=nan,"
      "huge=99999999999999999999,frac=1.5,c=z,f=maybe");
  ASSERT_TRUE(s.ok());
  const auto int_error = [&](const char* key, long long lo, long long hi) {
    const auto r = s->integer(key, 0, lo, hi);
    EXPECT_FALSE(r.ok()) << key;
    return r.ok() ? std::string() : r.error();
  };
  const auto num_error = [&](const char* key, double lo, double hi) {
    const auto r = s->number(key, 0, lo, hi);
    EXPECT_FALSE(r.ok()) << key;
    return r.ok() ? std::string() : r.error();
  };
  expect_one_line_naming(int_error("n", 1, 32), "game: n=abc is not a whole number");
  expect_one_line_naming(int_error("big", 1, 32), "game: big=99 is out of range 1..32");
  expect_one_line_naming(int_error("neg", 0, 10), "neg=-3 is out of range 0..10");
  expect_one_line_naming(int_error("huge", 0, 10), "huge=99999999999999999999 is not a whole");
  expect_one_line_naming(int_error("frac", 0, 10), "frac=1.5 is not a whole number");
  expect_one_line_naming(num_error("t", 0, 10), "game: t=fast is not a number");
  expect_one_line_naming(num_error("slow", 0, 5), "slow=7.5 is out of range 0..5");
  expect_one_line_naming(num_error("inf", 0, 5), "inf=inf is not a number");
  expect_one_line_naming(num_error("nan", 0, 5), "nan=nan is not a number");
  const auto c = s->choice("c", "x", {"x", "y"});
  ASSERT_FALSE(c.ok());
  expect_one_line_naming(c.error(), "c=z is not one of: x, y");
  const auto f = s->flag("f", false);
  ASSERT_FALSE(f.ok());
  expect_one_line_naming(f.error(), "f=maybe is not true or false");
}

TEST(CoreSpec, StrictNumberParsing) {
  EXPECT_EQ(parse_integer("12"), 12);
  EXPECT_EQ(parse_integer("+12"), 12);
  EXPECT_EQ(parse_integer("-12"), -12);
  EXPECT_EQ(parse_integer("0"), 0);
  for (const char* bad : {"", "12x", " 3", "3 ", "+", "-", "++3", "0x10", "1e3", "1.0", "x"}) {
    EXPECT_EQ(parse_integer(bad), std::nullopt) << "'" << bad << "'";
  }
  EXPECT_EQ(parse_integer("99999999999999999999"), std::nullopt);
  EXPECT_DOUBLE_EQ(parse_number("0.5").value(), 0.5);
  EXPECT_DOUBLE_EQ(parse_number("+2").value(), 2.0);
  EXPECT_DOUBLE_EQ(parse_number("-1e-3").value(), -1e-3);
  EXPECT_DOUBLE_EQ(parse_number("7").value(), 7.0);
  for (const char* bad : {"", "1.5x", " 1", "1 ", "+", "inf", "-inf", "nan", "1e999", "x", "."}) {
    EXPECT_EQ(parse_number(bad), std::nullopt) << "'" << bad << "'";
  }
}

// BUG (src/duel/core/spec.cpp, parse_integer and parse_number): the leading
// '+' is removed before std::from_chars, which accepts a '-', so "+-3" parses
// as -3 and "+-1.5" as -1.5, though spec.hpp promises that the whole text must
// be the number. Fix: after removing '+', reject text starting with '-' (or
// with another sign). This test fails until then.
TEST(CoreSpec, SignAfterPlusIsRejected) {
  EXPECT_EQ(parse_integer("+-3"), std::nullopt);
  EXPECT_EQ(parse_number("+-1.5"), std::nullopt);
}

// Any well-formed spec parses back into its parts.
RC_GTEST_PROP(CoreSpec, WellFormedSpecsRoundTrip, ()) {
  const auto word_char = rc::gen::elementOf(
      std::string("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_."));
  const auto word = rc::gen::nonEmpty(rc::gen::container<std::string>(word_char));
  const auto value_char = rc::gen::elementOf(std::string("abcXYZ019-_.=/ +@"));
  const auto value = rc::gen::nonEmpty(rc::gen::container<std::string>(value_char));
  const std::string name = *word;
  const auto n = *rc::gen::inRange(0, 5);
  std::vector<std::pair<std::string, std::string>> entries;
  std::string text = name;
  for (int i = 0; i < n; ++i) {
    const std::string k = *word;
    bool dup = false;
    for (const auto& e : entries) dup = dup || e.first == k;
    if (dup) continue;
    entries.emplace_back(k, *value);
    text += (entries.size() == 1 ? ":" : ",") + k + "=" + entries.back().second;
  }
  const auto s = Spec::parse(text);
  RC_ASSERT(s.ok());
  RC_ASSERT(s->name() == name);
  RC_ASSERT(s->text() == text);
  RC_ASSERT(s->entries() == entries);
  for (const auto& [k, v] : entries) RC_ASSERT(s->get(k) == v);
}

// Whatever printable text is given, parsing and the typed accessors either
// succeed or say what was wrong on one line.
RC_GTEST_PROP(CoreSpec, ErrorsAreAlwaysOneLine, ()) {
  const auto printable = rc::gen::inRange<char>(' ', static_cast<char>(127));
  const std::string text = *rc::gen::container<std::string>(printable);
  const auto s = Spec::parse(text);
  if (!s.ok()) {
    RC_ASSERT(!s.error().empty());
    RC_ASSERT(s.error().find('\n') == std::string::npos);
    return;
  }
  for (const auto& [k, v] : s->entries()) {
    const auto i = s->integer(k, 0, -5, 5);
    if (!i.ok()) {
      RC_ASSERT(i.error().find('\n') == std::string::npos);
      RC_ASSERT(i.error().find(k + "=") != std::string::npos);
    }
    const auto d = s->number(k, 0, -5, 5);
    if (!d.ok()) {
      RC_ASSERT(d.error().find('\n') == std::string::npos);
      RC_ASSERT(d.error().find(k + "=") != std::string::npos);
    }
  }
}

}  // namespace
}  // namespace duel
