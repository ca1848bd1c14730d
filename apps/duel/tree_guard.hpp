#pragma once
// No process of a command left behind after it dies, even by SIGKILL.
//
// Why: a command that runs other programs (`duel tournament`: the CS3243
// grader and its student processes, the CSCI-561 referee's agent programs
// and their children) cannot clean up when it is killed with SIGKILL, and
// PR_SET_PDEATHSIG reaches only a process's own children, not what they
// started. So the command marks itself and everything it starts (the
// environment variable DUEL_TREE, inherited by every descendant) and forks
// a small guard process that waits for the command to end; then the guard
// kills (SIGKILL) every process carrying the mark, again until none is
// left (at most 10 s), and exits. The guard runs in a session of its own
// (a Ctrl-C or a closed terminal does not stop it) with /dev/null for its
// standard streams and no other file open.
#include <string>

namespace duel::cli {

// The environment variable that marks a guarded command's processes.
inline constexpr const char* kTreeVariable = "DUEL_TREE";

// Marks this process (DUEL_TREE=<pid>.<time>) and forks the guard. Call it
// while the process has one thread, before it starts any other process. Returns
// the mark, or "" when the guard could not be started (nothing is guarded).
std::string guard_process_tree();

}  // namespace duel::cli
