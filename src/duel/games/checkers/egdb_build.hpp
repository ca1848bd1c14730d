#pragma once
// Building the checkers endgame tables by retrograde analysis (docs/egdb.md,
// "The method").
#include <filesystem>
#include <functional>

#include "duel/core/result.hpp"
#include "duel/games/checkers/egdb.hpp"

namespace duel::games::checkers::egdb {

// One table finished (the progress callback's argument).
struct TableDone {
  Signature signature;
  Counts counts;
  double seconds = 0;  // since the build began
  int done = 0;        // tables finished so far
  int total = 0;       // tables to build
};

struct BuildOptions {
  int pieces = 4;                                  // every signature of 2 .. pieces pieces
  std::filesystem::path out;                       // where the files go; empty: memory only
  int threads = 1;                                 // workers inside each table pair
  std::function<void(const TableDone&)> on_table;  // called on the calling thread
};

// Builds every table of 2 .. options.pieces pieces (2 .. kMaxTablePieces),
// writes each to options.out as it is finished (if set) and returns them
// all, loaded. Errors: a bad piece count or thread count, an output
// directory that cannot be made or written.
[[nodiscard]] Result<Egdb> build(const BuildOptions& options);

}  // namespace duel::games::checkers::egdb
