#pragma once
// The commit the library was built from, "-dirty" when tracked files differed
// from it, or "unknown" outside a git checkout (generated at every build by
// cmake/build_id.cmake). `duel --version` prints it, and a cluster's workers
// refuse a task planned by a driver of another build.
namespace duel {
extern const char* const kBuildId;
}  // namespace duel
