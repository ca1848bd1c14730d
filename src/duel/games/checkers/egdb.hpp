#pragma once
// Win/loss/draw endgame tables for checkers: the file format, a loaded set of
// tables and its probe (docs/egdb.md). The build is egdb_build.hpp.
#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "duel/core/result.hpp"
#include "duel/games/checkers/egdb_index.hpp"
#include "duel/games/checkers/position.hpp"

namespace duel::games::checkers::egdb {

// Step 1. The file of one signature: a 64-byte header, then the values of
// its Black-to-move positions in index order, 2 bits each, 4 to a byte
// (position i in bits 2(i mod 4) .. 2(i mod 4) + 1 of byte i / 4), codes as
// `Wld`. Integers are little-endian.
//
//   0  char[8]  magic "DUELCKDB"
//   8  u32      version (kFormatVersion)
//  12  u8[4]    black men, black kings, white men, white kings
//  16  u64      positions (= the index's size)
//  24  u64      wins, 32 u64 draws, 40 u64 losses (Black to move)
//  48  u64      FNV-1a 64 of the packed values
//  56  u64      reserved, 0
inline constexpr std::array<char, 8> kMagic = {'D', 'U', 'E', 'L', 'C', 'K', 'D', 'B'};
inline constexpr std::uint32_t kFormatVersion = 1;
inline constexpr std::size_t kHeaderBytes = 64;

struct Counts {
  std::uint64_t positions = 0;
  std::uint64_t wins = 0;
  std::uint64_t draws = 0;
  std::uint64_t losses = 0;
  Counts& operator+=(const Counts& o) noexcept {
    positions += o.positions;
    wins += o.wins;
    draws += o.draws;
    losses += o.losses;
    return *this;
  }
};

// The file name of a signature's table: "checkers-2.1-1.0.egdb".
[[nodiscard]] std::string file_name(Signature sig);
[[nodiscard]] constexpr std::uint64_t packed_bytes(std::uint64_t positions) noexcept {
  return (positions + 3) / 4;
}
[[nodiscard]] inline Wld packed_value(const std::uint8_t* data, std::uint64_t i) noexcept {
  return static_cast<Wld>((data[i >> 2] >> ((i & 3) * 2)) & 3U);
}
[[nodiscard]] std::uint64_t fnv1a(std::span<const std::uint8_t> bytes) noexcept;
// Writes a table file (values packed as above); an error says which file.
[[nodiscard]] Result<bool> write_table(const std::filesystem::path& path, Signature sig,
                                       const Counts& counts, std::span<const std::uint8_t> packed);

// One signature's values: its index and its packed bytes (owned elsewhere:
// a mapped file or the builder's memory).
struct TableView {
  Indexer indexer;
  const std::uint8_t* data = nullptr;
  Counts counts;
  [[nodiscard]] Wld at(std::uint64_t i) const noexcept { return packed_value(data, i); }
  [[nodiscard]] Wld at(const Placement& p) const noexcept { return at(indexer.index(p)); }
};

// The position from the side to move's view as a Black-to-move placement:
// White to move is turned 180 degrees with the colours swapped.
[[nodiscard]] inline Placement black_to_move(const Position& p) noexcept {
  const Bitboard b = p.pieces(Player::First);
  const Bitboard w = p.pieces(Player::Second);
  if (p.to_move() == Player::First) return {b, w, p.kings()};
  return {reverse(w), reverse(b), reverse(p.kings())};
}

// A loaded set of tables: every signature of 2 .. max_pieces() pieces.
//
// Why mapped files: the build writes each table once, a user loads them
// often; mapping makes load() cost a header check per file whatever the
// size, and the pages are shared between processes. A probe is a few
// popcounts, one binomial sum and one byte read: no allocation, no lock,
// safe from any number of threads.
class Egdb {
 public:
  // Every table in `dir`, checked (header, version, sizes). Errors name the
  // file and what is wrong: no directory, no tables, a piece count with some
  // tables missing, a short or foreign file.
  [[nodiscard]] static Result<Egdb> load(const std::filesystem::path& dir);

  // The value for the side to move, or nullopt when the position has more
  // pieces than the tables (or a man on its crowning row). A side without
  // pieces has lost. A position where a capture is due is stored like any
  // other: no search at probe time.
  [[nodiscard]] std::optional<Wld> probe(const Position& p) const noexcept;
  [[nodiscard]] std::optional<Wld> probe(const Placement& black_to_move) const noexcept;
  [[nodiscard]] int max_pieces() const noexcept { return m_max_pieces; }
  // The loaded signatures, by piece count then order of signatures_of.
  [[nodiscard]] const std::vector<Signature>& signatures() const noexcept { return m_signatures; }
  // Whether sig's table is loaded; table(sig) requires it.
  [[nodiscard]] bool has(Signature sig) const noexcept {
    return sig.id() >= 0 && sig.id() < kSignatureIds &&
           m_slot[static_cast<std::size_t>(sig.id())] >= 0;
  }
  [[nodiscard]] const TableView& table(Signature sig) const noexcept {
    return m_tables[static_cast<std::size_t>(m_slot[static_cast<std::size_t>(sig.id())])];
  }
  // Counts the values of a table again and compares the checksum: an error
  // if the data does not match its header.
  [[nodiscard]] Result<Counts> verify(Signature sig) const;

  // Tables held in memory (the builder's): every signature of 2 ..
  // max_pieces pieces, each with its packed values.
  struct Owned {
    Signature signature;
    Counts counts;
    std::vector<std::uint8_t> packed;
  };
  [[nodiscard]] static Egdb adopt(std::vector<Owned> tables, int max_pieces);

 private:
  Egdb() = default;
  // The mapped files, unmapped when the last owner goes.
  struct Mappings {
    std::vector<std::pair<void*, std::size_t>> list;
    Mappings() = default;
    Mappings(const Mappings&) = delete;
    Mappings& operator=(const Mappings&) = delete;
    ~Mappings();
  };
  std::unique_ptr<Mappings> m_mappings = std::make_unique<Mappings>();
  std::vector<Owned> m_owned;
  std::vector<TableView> m_tables;
  std::vector<Signature> m_signatures;
  std::array<std::int16_t, kSignatureIds> m_slot{};
  std::vector<std::uint64_t> m_checksums;
  int m_max_pieces = 0;
};

}  // namespace duel::games::checkers::egdb

namespace duel::games::checkers::egdb {

// The tables the engine's checkers heuristics probe: none until a front end
// sets them (`duel` loads the directory DUEL_EGDB names when it starts).
// Set before any search starts; read by every search thread after.
void set_engine_tables(std::shared_ptr<const Egdb> tables) noexcept;
[[nodiscard]] const Egdb* engine_tables() noexcept;

}  // namespace duel::games::checkers::egdb
