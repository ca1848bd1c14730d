#include "duel/games/checkers/egdb.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <fstream>
#include <system_error>
#include <utility>

#include <fmt/format.h>

namespace duel::games::checkers::egdb {
namespace {

void put_u64(std::uint8_t* at, std::uint64_t v) noexcept {
  for (int i = 0; i < 8; ++i) at[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
[[nodiscard]] std::uint64_t get_u64(const std::uint8_t* at) noexcept {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(at[i]) << (8 * i);
  return v;
}
[[nodiscard]] std::uint32_t get_u32(const std::uint8_t* at) noexcept {
  return static_cast<std::uint32_t>(get_u64(at) & 0xFFFFFFFFU);
}

// The header of a table as written (Step 1 of egdb.hpp).
std::array<std::uint8_t, kHeaderBytes> header_bytes(Signature sig, const Counts& c,
                                                    std::uint64_t checksum) {
  std::array<std::uint8_t, kHeaderBytes> h{};
  std::memcpy(h.data(), kMagic.data(), kMagic.size());
  for (int i = 0; i < 4; ++i) h[8 + i] = static_cast<std::uint8_t>(kFormatVersion >> (8 * i));
  h[12] = static_cast<std::uint8_t>(sig.black_men);
  h[13] = static_cast<std::uint8_t>(sig.black_kings);
  h[14] = static_cast<std::uint8_t>(sig.white_men);
  h[15] = static_cast<std::uint8_t>(sig.white_kings);
  put_u64(&h[16], c.positions);
  put_u64(&h[24], c.wins);
  put_u64(&h[32], c.draws);
  put_u64(&h[40], c.losses);
  put_u64(&h[48], checksum);
  return h;
}

// A read-only mapping of a whole file; an error names the file.
Result<std::pair<void*, std::size_t>> map_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(fmt::format("cannot open {}: {}", path.string(), std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return fail(fmt::format("{} is not a regular file", path.string()));
  }
  const auto length = static_cast<std::size_t>(st.st_size);
  if (length < kHeaderBytes) {
    ::close(fd);
    return fail(fmt::format("{}: {} bytes, shorter than the {}-byte header", path.string(), length,
                            kHeaderBytes));
  }
  void* address = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (address == MAP_FAILED) {
    return fail(fmt::format("cannot map {}: {}", path.string(), std::strerror(errno)));
  }
  return std::pair{address, length};
}

// The header's claims against the signature the name promised and the size.
Result<Counts> check_header(const std::filesystem::path& path, const std::uint8_t* h,
                            std::size_t length, Signature sig, std::uint64_t expected) {
  const auto bad = [&](const std::string& why) {
    return fail(fmt::format("{}: {}", path.string(), why));
  };
  if (std::memcmp(h, kMagic.data(), kMagic.size()) != 0) {
    return bad("not a Duel checkers table (wrong magic)");
  }
  if (const std::uint32_t v = get_u32(h + 8); v != kFormatVersion) {
    return bad(fmt::format("format version {}, this build reads {}", v, kFormatVersion));
  }
  const Signature in_file{h[12], h[13], h[14], h[15]};
  if (in_file != sig) return bad(fmt::format("holds signature {}", in_file.name()));
  Counts c{get_u64(h + 16), get_u64(h + 24), get_u64(h + 32), get_u64(h + 40)};
  if (c.positions != expected) {
    return bad(fmt::format("{} positions, the index has {}", c.positions, expected));
  }
  if (c.wins + c.draws + c.losses != c.positions) return bad("counts do not add up");
  if (length != kHeaderBytes + packed_bytes(expected)) {
    return bad(fmt::format("{} bytes, expected {} (truncated or padded)", length,
                           kHeaderBytes + packed_bytes(expected)));
  }
  return c;
}

}  // namespace

std::string file_name(Signature sig) {
  return "checkers-" + sig.name() + ".egdb";
}

std::uint64_t fnv1a(std::span<const std::uint8_t> bytes) noexcept {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (const std::uint8_t b : bytes) h = (h ^ b) * 0x100000001B3ULL;
  return h;
}

Result<bool> write_table(const std::filesystem::path& path, Signature sig, const Counts& counts,
                         std::span<const std::uint8_t> packed) {
  const auto header = header_bytes(sig, counts, fnv1a(packed));
  // Written beside and renamed: a killed build leaves no short table.
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(header.data()),
              static_cast<std::streamsize>(header.size()));
    out.write(reinterpret_cast<const char*>(packed.data()),
              static_cast<std::streamsize>(packed.size()));
    if (!out.flush()) return fail(fmt::format("cannot write {}", tmp.string()));
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return fail(fmt::format("cannot rename {}: {}", tmp.string(), ec.message()));
  return true;
}

Egdb::Mappings::~Mappings() {
  for (const auto& [address, length] : list) ::munmap(address, length);
}

Result<Egdb> Egdb::load(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return fail(fmt::format("{}: no such directory", dir.string()));
  }
  Egdb db;
  db.m_slot.fill(-1);
  // Step 1. Piece counts from 2 up while every table of the count is there.
  for (int n = 2; n <= kMaxTablePieces; ++n) {
    const auto sigs = signatures_of(n, true);
    std::vector<Signature> missing;
    for (const Signature& sig : sigs) {
      if (!std::filesystem::exists(dir / file_name(sig), ec)) missing.push_back(sig);
    }
    if (missing.size() == sigs.size()) break;
    if (!missing.empty()) {
      return fail(fmt::format("{}: the {}-piece tables are incomplete ({} missing, e.g. {})",
                              dir.string(), n, missing.size(), file_name(missing.front())));
    }
    // Step 2. Map and check each file.
    for (const Signature& sig : sigs) {
      const std::filesystem::path path = dir / file_name(sig);
      auto mapped = map_file(path);
      if (!mapped) return fail(mapped.error());
      db.m_mappings->list.push_back(*mapped);
      const auto* bytes = static_cast<const std::uint8_t*>(mapped->first);
      Indexer indexer(sig);
      auto counts = check_header(path, bytes, mapped->second, sig, indexer.size());
      if (!counts) return fail(counts.error());
      db.m_slot[static_cast<std::size_t>(sig.id())] = static_cast<std::int16_t>(db.m_tables.size());
      db.m_tables.push_back({std::move(indexer), bytes + kHeaderBytes, *counts});
      db.m_checksums.push_back(get_u64(bytes + 48));
      db.m_signatures.push_back(sig);
    }
    db.m_max_pieces = n;
  }
  if (db.m_max_pieces == 0) {
    return fail(fmt::format("{}: no checkers tables (expected files like {})", dir.string(),
                            file_name({0, 1, 0, 1})));
  }
  return db;
}

Egdb Egdb::adopt(std::vector<Owned> tables, int max_pieces) {
  Egdb db;
  db.m_slot.fill(-1);
  db.m_owned = std::move(tables);
  for (const Owned& t : db.m_owned) {
    db.m_slot[static_cast<std::size_t>(t.signature.id())] =
        static_cast<std::int16_t>(db.m_tables.size());
    db.m_tables.push_back({Indexer(t.signature), t.packed.data(), t.counts});
    db.m_checksums.push_back(fnv1a(t.packed));
    db.m_signatures.push_back(t.signature);
  }
  db.m_max_pieces = max_pieces;
  return db;
}

std::optional<Wld> Egdb::probe(const Placement& p) const noexcept {
  if (p.black == 0) return Wld::Loss;
  if (p.white == 0) return Wld::Win;
  if (std::popcount(p.black | p.white) > m_max_pieces) return std::nullopt;
  const Bitboard men = ~p.kings;
  if ((p.black & men & ~kBlackManSquares) != 0 || (p.white & men & ~kWhiteManSquares) != 0) {
    return std::nullopt;
  }
  const Signature sig = Signature::of(p.black, p.white, p.kings);
  return table(sig).at(p);
}

std::optional<Wld> Egdb::probe(const Position& p) const noexcept {
  return probe(black_to_move(p));
}

Result<Counts> Egdb::verify(Signature sig) const {
  const std::int16_t slot = m_slot[static_cast<std::size_t>(sig.id())];
  if (slot < 0) return fail(fmt::format("no table {} loaded", sig.name()));
  const TableView& t = m_tables[static_cast<std::size_t>(slot)];
  const std::uint64_t n = t.indexer.size();
  const std::span<const std::uint8_t> bytes(t.data, packed_bytes(n));
  if (fnv1a(bytes) != m_checksums[static_cast<std::size_t>(slot)]) {
    return fail(fmt::format("{}: checksum mismatch (corrupt data)", file_name(sig)));
  }
  Counts c;
  c.positions = n;
  for (std::uint64_t i = 0; i < n; ++i) {
    switch (t.at(i)) {
      case Wld::Win: ++c.wins; break;
      case Wld::Draw: ++c.draws; break;
      case Wld::Loss: ++c.losses; break;
      default: return fail(fmt::format("{}: invalid value code at {}", file_name(sig), i));
    }
  }
  if (c.wins != t.counts.wins || c.draws != t.counts.draws || c.losses != t.counts.losses) {
    return fail(fmt::format("{}: values do not match the header's counts", file_name(sig)));
  }
  return c;
}

}  // namespace duel::games::checkers::egdb

namespace duel::games::checkers::egdb {
namespace {
std::shared_ptr<const Egdb> g_engine_tables;       // keeps them loaded
std::atomic<const Egdb*> g_engine_view = nullptr;  // what searches read
}  // namespace

void set_engine_tables(std::shared_ptr<const Egdb> tables) noexcept {
  g_engine_view.store(tables.get(), std::memory_order_release);
  g_engine_tables = std::move(tables);
}

const Egdb* engine_tables() noexcept {
  return g_engine_view.load(std::memory_order_acquire);
}

}  // namespace duel::games::checkers::egdb
