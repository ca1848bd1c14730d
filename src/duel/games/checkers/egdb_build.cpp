#include "duel/games/checkers/egdb_build.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "duel/core/clock.hpp"

namespace duel::games::checkers::egdb {
namespace {

// A position's byte while its pair of tables is solved.
//   resolved:   kResolved | kQueued? | value (bits 0-1, Wld)
//   unresolved: kDrawExit? | the number of moves to positions of the pair
//               not yet known to win for the opponent (bits 0-5, at most 28)
// kQueued marks a resolved win or loss whose predecessors have been (or are
// being) visited, so that none is visited twice.
constexpr std::uint8_t kResolved = 0x80;
constexpr std::uint8_t kQueued = 0x40;
constexpr std::uint8_t kDrawExit = 0x40;
constexpr std::uint8_t kCountMask = 0x3F;
constexpr std::uint64_t kChunk = 1U << 14;

[[nodiscard]] constexpr std::uint8_t resolved(Wld v) noexcept {
  return static_cast<std::uint8_t>(kResolved | static_cast<std::uint8_t>(v));
}
[[nodiscard]] constexpr Wld value_of(std::uint8_t b) noexcept {
  return static_cast<Wld>(b & 3U);
}

// Runs body(chunk) for chunks 0 .. chunks - 1 on `threads` threads, each
// taking the next chunk not yet taken.
template <class Body>
void parallel_chunks(int threads, std::uint64_t chunks, const Body& body) {
  std::atomic<std::uint64_t> next{0};
  auto work = [&] {
    for (std::uint64_t c = next.fetch_add(1); c < chunks; c = next.fetch_add(1)) body(c);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
}

// One table of the pair being solved: its index and its positions' bytes.
struct Work {
  Indexer indexer;
  std::vector<std::uint8_t> bytes;
  Work* predecessors = nullptr;  // the table where this one's predecessors are
};

// A position to visit the predecessors of: its placement and its table.
struct Item {
  Placement p;
  Work* table;
  bool lost;  // else won
};

// The builder. Why one object: the finished tables are looked up by every
// table built after them (captures lead to fewer pieces, crowning to fewer
// men), so they stay in memory, packed, in an array by signature id.
//
// A pair of tables {S, S flipped} is solved together, since a move from a
// Black-to-move position of S leads to White to move in S, which is stored
// as Black to move in S flipped. Within the pair:
//   1. every position is valued from its moves that leave the pair (captures
//      and crownings, looked up) and counts its moves that stay;
//   2. from every win or loss, the non-capturing moves are unmade: a loss
//      makes each predecessor a win; a win takes one from each
//      predecessor's count, and a count that reaches zero is a loss (or a
//      draw, if a move leaving the pair draws);
//   3. what is left unresolved can avoid losing forever without winning:
//      a draw.
// So each position is generated forward once and each predecessor edge of a
// win or loss is visited once: O(positions x branching).
class Builder {
 public:
  explicit Builder(int threads) : m_threads(threads) { m_tables.fill(nullptr); }

  // Solves S and S flipped into finished tables.
  void solve(Signature s);

  [[nodiscard]] std::vector<Egdb::Owned>& finished() noexcept { return m_finished; }
  [[nodiscard]] const Egdb::Owned& owned(Signature s) const {
    return m_finished[m_owned_slot.at(static_cast<std::size_t>(s.id()))];
  }
  [[nodiscard]] std::vector<Signature> last_solved() const { return m_last; }

 private:
  [[nodiscard]] Wld child_value(const Placement& p, int from, int to,
                                Bitboard captured) const noexcept;
  [[nodiscard]] std::uint8_t initial(const Placement& p) const noexcept;
  void init(Work& w) const;
  void propagate(Work& a, Work* b) const;
  void drain(std::vector<Item>& stack) const;
  void finish(Signature s, Work& w);

  int m_threads;
  std::array<const TableView*, kSignatureIds> m_tables{};
  std::vector<std::unique_ptr<TableView>> m_views;
  std::vector<Egdb::Owned> m_finished;
  std::vector<std::size_t> m_owned_slot = std::vector<std::size_t>(kSignatureIds, 0);
  std::vector<Signature> m_last;
};

// The value for White of the position after Black's move from -> to taking
// `captured`: a finished table's, or a loss if White has no piece left.
Wld Builder::child_value(const Placement& p, int from, int to, Bitboard captured) const noexcept {
  const Bitboard white = p.white & ~captured;
  if (white == 0) return Wld::Loss;
  const Bitboard black = (p.black & ~bit(from)) | bit(to);
  Bitboard kings = p.kings & ~captured & ~bit(from);
  if ((p.kings & bit(from)) != 0 || (kBottomRow & bit(to)) != 0) kings |= bit(to);
  const Placement child{reverse(white), reverse(black), reverse(kings)};
  const TableView* t =
      m_tables[static_cast<std::size_t>(Signature::of(child.black, child.white, child.kings).id())];
  return t->at(child);
}

// Step 1 for one position (Black to move): its byte before propagation.
std::uint8_t Builder::initial(const Placement& p) const noexcept {
  const Bitboard empty = ~(p.black | p.white);
  bool win = false;
  bool draw = false;
  const auto take = [&](Wld for_white) {
    win = win || for_white == Wld::Loss;
    draw = draw || for_white == Wld::Draw;
  };
  // Captures are compulsory: every move leaves for smaller tables.
  if (const Bitboard jumping = detail::jumpers<Player::First>(p.black, p.kings, p.white, empty);
      jumping != 0) {
    auto visit = [&](const Move& m) {
      if (!win) take(child_value(p, m.from(), m.to(), m.captured()));
    };
    detail::jumps_of<Player::First>(jumping, p.kings, p.white, empty, visit);
    return resolved(win ? Wld::Win : draw ? Wld::Draw : Wld::Loss);
  }
  // Steps: a crowning leaves the pair (one man fewer), the others stay.
  int stay = 0;
  for (Bitboard b = p.black; b != 0; b &= b - 1) {
    const int from = lowest(b);
    const bool king = (p.kings & bit(from)) != 0;
    for (int d = king ? 0 : first_forward(Player::First); d < kDirections; ++d) {
      const int to = kStep[d][from];
      if (to < 0 || (empty & bit(to)) == 0) continue;
      if (!king && (kBottomRow & bit(to)) != 0) {
        take(child_value(p, from, to, 0));
      } else {
        ++stay;
      }
    }
  }
  if (win) return resolved(Wld::Win);
  if (stay == 0) return resolved(draw ? Wld::Draw : Wld::Loss);
  return static_cast<std::uint8_t>(stay | (draw ? kDrawExit : 0));
}

void Builder::init(Work& w) const {
  const std::uint64_t n = w.indexer.size();
  const std::uint64_t block = w.indexer.king_block();
  parallel_chunks(m_threads, (n + kChunk - 1) / kChunk, [&](std::uint64_t c) {
    const std::uint64_t end = std::min(n, (c + 1) * kChunk);
    std::uint64_t men = ~std::uint64_t{0};
    std::pair<Bitboard, Bitboard> men_bb;
    for (std::uint64_t i = c * kChunk; i < end; ++i) {
      if (i / block != men) {
        men = i / block;
        men_bb = w.indexer.men_of(men);
      }
      w.bytes[i] = initial(w.indexer.with_kings(men_bb.first, men_bb.second, i % block));
    }
  });
}

// Calls visit(q) for every predecessor of the Black-to-move position p by a
// White step that stays in the pair, as q Black to move in the flipped
// signature. A White man came from a row below (it moves up); a White man
// never stands on row 0, so no such step crowned; the step was legal only
// if White had no capture before it.
template <class Visit>
void unmoves(const Placement& p, Visit&& visit) noexcept {
  const Bitboard empty = ~(p.black | p.white);
  for (Bitboard b = p.white; b != 0; b &= b - 1) {
    const int to = lowest(b);
    const bool king = (p.kings & bit(to)) != 0;
    for (int d = king ? 0 : first_forward(Player::First); d < kDirections; ++d) {
      const int from = kStep[d][to];
      if (from < 0 || (empty & bit(from)) == 0) continue;
      const Bitboard moved = bit(to) | bit(from);
      const Bitboard white = p.white ^ moved;
      const Bitboard kings = king ? p.kings ^ moved : p.kings;
      if (detail::jumpers<Player::Second>(white, kings, p.black, ~(p.black | white)) != 0) continue;
      visit(Placement{reverse(white), reverse(p.black), reverse(kings)});
    }
  }
}

// Step 2 from the positions on `stack`, until it is empty.
void Builder::drain(std::vector<Item>& stack) const {
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    Work& pred = *item.table->predecessors;
    const bool lost = item.lost;
    unmoves(item.p, [&](const Placement& q) {
      std::atomic_ref<std::uint8_t> slot(pred.bytes[pred.indexer.index(q)]);
      std::uint8_t old = slot.load(std::memory_order_relaxed);
      while ((old & kResolved) == 0) {
        std::uint8_t next = resolved(Wld::Win) | kQueued;
        if (!lost) {
          next = static_cast<std::uint8_t>(old - 1);
          if ((next & kCountMask) == 0) {
            next = (old & kDrawExit) != 0 ? resolved(Wld::Draw) | kQueued
                                          : resolved(Wld::Loss) | kQueued;
          }
        }
        if (slot.compare_exchange_weak(old, next, std::memory_order_relaxed)) {
          if ((next & kResolved) != 0 && value_of(next) != Wld::Draw) {
            stack.push_back({q, &pred, value_of(next) == Wld::Loss});
          }
          break;
        }
      }
    });
  }
}

// Step 2 over the pair: every win or loss found in step 1 starts a drain.
void Builder::propagate(Work& a, Work* b) const {
  for (Work* w : {&a, b}) {
    if (w == nullptr) continue;
    const std::uint64_t n = w->indexer.size();
    parallel_chunks(m_threads, (n + kChunk - 1) / kChunk, [&](std::uint64_t c) {
      std::vector<Item> stack;
      const std::uint64_t end = std::min(n, (c + 1) * kChunk);
      for (std::uint64_t i = c * kChunk; i < end; ++i) {
        std::atomic_ref<std::uint8_t> slot(w->bytes[i]);
        std::uint8_t old = slot.load(std::memory_order_relaxed);
        if ((old & (kResolved | kQueued)) != kResolved || value_of(old) == Wld::Draw) continue;
        if (!slot.compare_exchange_strong(old, old | kQueued, std::memory_order_relaxed)) continue;
        stack.push_back({w->indexer.placement(i), w, value_of(old) == Wld::Loss});
        drain(stack);
      }
    });
  }
}

// Step 3: the unresolved are draws; pack, count, and make the table
// available to the tables built after it.
void Builder::finish(Signature s, Work& w) {
  const std::uint64_t n = w.indexer.size();
  Egdb::Owned out{s, {}, std::vector<std::uint8_t>(packed_bytes(n), 0)};
  out.counts.positions = n;
  std::atomic<std::uint64_t> wins{0};
  std::atomic<std::uint64_t> losses{0};
  parallel_chunks(m_threads, (n + kChunk - 1) / kChunk, [&](std::uint64_t c) {
    std::uint64_t won = 0;
    std::uint64_t lost = 0;
    const std::uint64_t end = std::min(n, (c + 1) * kChunk);  // kChunk is a multiple of 4
    for (std::uint64_t i = c * kChunk; i < end; ++i) {
      const std::uint8_t b = w.bytes[i];
      const Wld v = (b & kResolved) != 0 ? value_of(b) : Wld::Draw;
      won += v == Wld::Win ? 1 : 0;
      lost += v == Wld::Loss ? 1 : 0;
      out.packed[i >> 2] |= static_cast<std::uint8_t>(static_cast<unsigned>(v) << ((i & 3) * 2));
    }
    wins += won;
    losses += lost;
  });
  out.counts.wins = wins;
  out.counts.losses = losses;
  out.counts.draws = n - wins - losses;
  m_owned_slot[static_cast<std::size_t>(s.id())] = m_finished.size();
  m_finished.push_back(std::move(out));
  m_views.push_back(std::make_unique<TableView>(
      TableView{Indexer(s), m_finished.back().packed.data(), m_finished.back().counts}));
  m_tables[static_cast<std::size_t>(s.id())] = m_views.back().get();
}

void Builder::solve(Signature s) {
  const Signature f = s.flipped();
  const bool symmetric = f == s;
  Work a{Indexer(s), {}, nullptr};
  Work b{symmetric ? Indexer() : Indexer(f), {}, nullptr};
  a.bytes.resize(a.indexer.size());
  b.bytes.resize(b.indexer.size());
  a.predecessors = symmetric ? &a : &b;
  b.predecessors = &a;
  init(a);
  if (!symmetric) init(b);
  propagate(a, symmetric ? nullptr : &b);
  a.bytes.shrink_to_fit();
  finish(s, a);
  m_last = {s};
  if (!symmetric) {
    finish(f, b);
    m_last.push_back(f);
  }
}

}  // namespace

Result<Egdb> build(const BuildOptions& options) {
  // Step 1. Check the options and make the output directory.
  if (options.pieces < 2 || options.pieces > kMaxTablePieces) {
    return fail(fmt::format("pieces must be 2 .. {}, not {}", kMaxTablePieces, options.pieces));
  }
  if (options.threads < 1 || options.threads > 256) {
    return fail(fmt::format("threads must be 1 .. 256, not {}", options.threads));
  }
  if (!options.out.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options.out, ec);
    if (ec || !std::filesystem::is_directory(options.out)) {
      return fail(fmt::format("cannot make directory {}: {}", options.out.string(),
                              ec ? ec.message() : "a file is in the way"));
    }
  }
  // Step 2. The pairs in dependency order: fewer pieces first, then fewer
  // men (a crowning turns a man into a king, the same pieces).
  std::vector<Signature> order;
  int total = 0;
  for (int n = 2; n <= options.pieces; ++n) {
    auto sigs = signatures_of(n, true);
    total += static_cast<int>(sigs.size());
    std::stable_sort(sigs.begin(), sigs.end(),
                     [](const Signature& x, const Signature& y) { return x.men() < y.men(); });
    for (const Signature& s : sigs) {
      if (s <= s.flipped()) order.push_back(s);
    }
  }
  // Step 3. Solve each pair, writing its tables as they come.
  Builder builder(options.threads);
  WallClock clock;
  int done = 0;
  for (const Signature& s : order) {
    builder.solve(s);
    for (const Signature& t : builder.last_solved()) {
      const Egdb::Owned& table = builder.owned(t);
      if (!options.out.empty()) {
        auto written = write_table(options.out / file_name(t), t, table.counts, table.packed);
        if (!written) return fail(written.error());
      }
      ++done;
      if (options.on_table) options.on_table({t, table.counts, clock.seconds(), done, total});
    }
  }
  // Step 4. Hand the tables over, in the order of signatures_of.
  std::vector<Egdb::Owned> tables = std::move(builder.finished());
  std::sort(tables.begin(), tables.end(), [](const Egdb::Owned& x, const Egdb::Owned& y) {
    return std::pair{x.signature.pieces(), x.signature} <
           std::pair{y.signature.pieces(), y.signature};
  });
  return Egdb::adopt(std::move(tables), options.pieces);
}

}  // namespace duel::games::checkers::egdb
