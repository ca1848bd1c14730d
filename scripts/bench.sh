#!/usr/bin/env bash
# The benchmark commands of docs/BENCHMARKS.md, run back to back so that the
# peers are measured in the same run. Prints one line per command:
#   <seconds>  <nodes or value>  <command>
# Usage: bench.sh [quick]   (quick skips the runs longer than ~10 s; the full
# run includes a ~3 minute solve of 14x14 free-placement N-Queens)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh build >/dev/null
duel=build/bin/duel
run() {
  local start end out
  start=$EPOCHREALTIME
  out=$("$duel" "$@" 2>/dev/null | tail -n 1)
  end=$EPOCHREALTIME
  printf '%8.2f  %s  duel %s\n' "$(awk "BEGIN { print $end - $start }")" "$(echo "$out" | cut -c1-120)" "$*"
}
total() {  # sums rows' nodes and seconds of a table's JSON
  "$duel" "$@" --json 2>/dev/null | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
docs = d.get("tables", [d])
for t in docs:
    n = sum(r["nodes"] for r in t["rows"]); s = sum(r["seconds"] for r in t["rows"])
    rows = t["rows"]
    print("%s: %d nodes, %.3f s over N=%d..%d" % (t["algo"], n, s, rows[0]["n"], rows[-1]["n"]))'
  echo "   (duel $*)"
}
fairy() {  # fairy VARIANT DEPTH: Fairy-Stockfish's perft from the start, timed the same way
  local start end out
  start=$EPOCHREALTIME
  out=$(printf 'setoption name VariantPath value %s\nsetoption name UCI_Variant value %s\nposition startpos\ngo perft %s\nquit\n' \
    "$PWD/tests/data/fairy-stockfish/variants.ini" "$1" "$2" | /usr/games/fairy-stockfish 2>&1 |
    grep 'Nodes searched' | awk '{print $3}')
  end=$EPOCHREALTIME
  printf '%8.2f  %s  fairy-stockfish (UCI_Variant %s) go perft %s\n' \
    "$(awk "BEGIN { print $end - $start }")" "$out" "$1" "$2"
}
nps() {  # nps ARGS...: an engine search's nodes, seconds and nodes per second
  "$duel" search "$@" --json 2>/dev/null | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
print("%8.2f  depth %d, %d nodes, %.0f nodes/s" % (d["seconds"], d["depth"], d["nodes"], d["nodes"] / d["seconds"]))' |
    tr -d '\n'
  echo "  duel search $*"
}
fairy_nps() {  # fairy_nps VARIANT DEPTH: Fairy-Stockfish's search from the start (1 thread)
  printf 'setoption name Threads value 1\nsetoption name Hash value 64\nsetoption name UCI_Variant value %s\nposition startpos\ngo depth %s\n' "$1" "$2" |
    (cat; sleep "${3:-30}"; echo quit) | /usr/games/fairy-stockfish 2>&1 | grep '^info depth' | tail -n 1 |
    awk -v v="$1" -v d="$2" '{for (i = 1; i < NF; i++) { if ($i == "nodes") n = $(i+1); if ($i == "nps") r = $(i+1); if ($i == "time") t = $(i+1) }
      printf "%8.2f  depth %s, %s nodes, %s nodes/s  fairy-stockfish (UCI_Variant %s) go depth %s\n", t / 1000, d, n, r, v, d}'
}
if [ -x /usr/games/fairy-stockfish ]; then
  echo "== perft against Fairy-Stockfish, same run"
  run perft gardner 7
  fairy gardner 7
  run perft gardner-cs3243 7
  fairy cs3243 7
  run perft minichess-comp472 6
  fairy comp472 6
  if [ "${1:-}" != "quick" ]; then
    run perft gardner 8
    fairy gardner 8
  fi
fi
node_perft() {  # node_perft DEPTH: rapid-draughts' perft from the start (tests/tools/rapid-draughts)
  local start end out
  start=$EPOCHREALTIME
  out=$(node tests/tools/rapid-draughts/perft.mjs "$1" 2>/dev/null | grep -o '^[0-9]*' | head -n 1)
  end=$EPOCHREALTIME
  printf '%8.2f  %s  rapid-draughts perft %s (node tests/tools/rapid-draughts/perft.mjs)\n' \
    "$(awk "BEGIN { print $end - $start }")" "$out" "$1"
}
echo "== checkers perft against rapid-draughts, same run (OEIS A133046)"
run perft checkers 10
run perft checkers 11
run perft checkers 12
run perft checkers 12 --dedupe
if command -v node >/dev/null && bash scripts/setup-node.sh >/dev/null 2>&1; then
  node_perft 10
  [ "${1:-}" != "quick" ] && node_perft 11
fi
echo "== engine nodes per second, 5x5 chess (one thread each)"
nps gardner --algo engine --eval e0 --depth 11
nps gardner --algo engine --eval e1 --depth 11
nps gardner --algo engine --eval e2 --depth 11
nps minichess-comp472 --algo engine --eval e2 --depth 10
if [ -x /usr/games/fairy-stockfish ]; then
  fairy_nps gardner 18 "$([ "${1:-}" = quick ] && echo 5 || echo 20)"
fi
echo "== seed 001 expectation: plain searches"
total table nqueens --variant 1a --n 1..10 --algo minimax,alphabeta
total table nqueens --variant 1b --n 1..10 --algo minimax,alphabeta
total table nqueens --variant 1a --n 1..12 --algo alphabeta
echo "== engine solving, with and without move ordering, and plain alpha-beta"
run solve nqueens:n=14,variant=1a --json
run search nqueens:n=14,variant=1a --algo alphabeta --json
run solve nqueens:n=11,variant=2 --json
run solve nqueens:n=11,variant=2 --json --no-ordering
run solve nqueens:n=12,variant=2 --json
run solve nqueens:n=16,variant=1a --json
run solve nqueens:n=16,variant=1a --json --no-ordering
run solve nqueens:n=18,variant=1a --json
run solve nqueens:n=18,variant=1b --json
if [ "${1:-}" != "quick" ]; then
  run solve nqueens:n=12,variant=2 --json --no-ordering
  run solve nqueens:n=13,variant=2 --json
  run solve nqueens:n=20,variant=1a --json
fi
echo "== kcell"
run search kcell:n=3,k=10 --algo minimax --json
run search kcell:n=3,k=10 --algo alphabeta --json
run solve kcell:n=3,k=10 --json
run solve kcell:n=3,k=15 --json
