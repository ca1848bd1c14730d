#!/usr/bin/env bash
# The tournament benchmark of docs/BENCHMARKS.md: a 16-agent competition
# (seed 003's knockout, 2 games a pairing) at short clocks, played with
# --concurrency 1 and then --concurrency 2 in the same run; prints games,
# wall time, games per minute and the speed-up.
# Usage: bench-tournament.sh [SECONDS_A_GAME] (default 10) [BUILD_DIR] (default build) [box]
# With `box`: the same competition at --concurrency 1, the class's programs
# boxed (the default), unboxed (--no-sandbox), unboxed and boxed, all on the box's
# PATH (so that both run the same python3, not a version manager's shim);
# then a move's cost: `duel referee` games of s01 against s02, boxed and
# unboxed (a box kept for each game), and a box's own start-up: 200 runs of
# /bin/true through `duel box` against 200 without it.
# The entrants: the fixture class's six correct programs (Python, C++, Java;
# tests/data/class561) and ten seed 003 programs that are this binary's own
# agents (`duel:SPEC`), all charged their CPU time as students are.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
build="${2:-build}"
mode="${3:-}"
duel="$build/bin/duel"
[ -x "$duel" ] || { echo "bench-tournament: $duel is missing: build first" >&2; exit 2; }
work="$(mktemp -d /tmp/duel-bench-tournament-XXXXXX)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/class"
cp -r tests/data/class561/s0* "$work/class/"
agents=()
for spec in first random:seed=1 random:seed=2 minimax:depth=1 minimax:depth=2 minimax:depth=3 \
  alphabeta:depth=2 alphabeta:depth=4 engine:depth=4 engine:depth=6; do
  agents+=(--agent "exec:cmd=duel:$spec,time=$seconds")
done
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "16 agents, knockout, 2 games a pairing, $seconds s a side a game"
declare -A games wall
runs=(1 2)
if [ "$mode" = box ]; then
  # Boxed, unboxed, unboxed, boxed: a machine that slows down or speeds up
  # during the run weighs on both alike.
  runs=(boxed unboxed unboxed2 boxed2)
  export PATH=/usr/local/bin:/usr/bin:/bin  # box.hpp's kPath
fi
for c in "${runs[@]}"; do
  extra=()
  concurrency="$c"
  if [ "$mode" = box ]; then
    concurrency=1
    [ "${c#unboxed}" != "$c" ] && extra=(--no-sandbox)
  fi
  start=$(date +%s.%N)
  "$duel" tournament checkers "$work/class" "${agents[@]}" --format knockout --games 2 \
    --time "$seconds" --seed 1 --concurrency "$concurrency" --quiet --out "$work/c$c" \
    "${extra[@]}" >"$work/c$c.txt"
  end=$(date +%s.%N)
  wall[$c]=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
  games[$c]=$(grep -c '"kind":"game"' "$work/c$c/journal.jsonl")
  awk -v c="$c" -v g="${games[$c]}" -v w="${wall[$c]}" -v top="$(sed -n 2p "$work/c$c.txt")" \
    'BEGIN { printf "concurrency %s: %d games in %.1f s, %.1f games a minute; first: %s\n", c, g, w, g * 60 / w, top }'
done
if [ "$mode" = box ]; then
  awk -v g1="${games[boxed]}" -v w1="${wall[boxed]}" -v g2="${games[unboxed]}" \
    -v w2="${wall[unboxed]}" -v g3="${games[unboxed2]}" -v w3="${wall[unboxed2]}" \
    -v g4="${games[boxed2]}" -v w4="${wall[boxed2]}" \
    'BEGIN { printf "boxed over unboxed (games a minute, both runs of each): %.3f\n", ((g1 + g4) / (w1 + w4)) / ((g2 + g3) / (w2 + w3)) }'
  for m in boxed unboxed; do
    extra=()
    [ "$m" = unboxed ] && extra=(--no-sandbox)
    start=$(date +%s.%N)
    "$duel" referee checkers --games 10 --time 60 --json --quiet --workdir "$work/ref-$m" \
      --agent "python3 $PWD/tests/data/class561/s01-first-py/homework.py" \
      --agent "python3 $PWD/tests/data/class561/s02-greedy-py/homework.py" "${extra[@]}" \
      >"$work/ref-$m.json"
    end=$(date +%s.%N)
    plies=$(python3 -c 'import json, sys; print(sum(g["plies"] for g in json.load(open(sys.argv[1]))["games"]))' "$work/ref-$m.json")
    awk -v m="$m" -v p="$plies" -v a="$start" -v b="$end" \
      'BEGIN { printf "referee s01 vs s02, %s: %d plies in %.2f s, %.2f ms a ply\n", m, p, b - a, (b - a) * 1000 / p }'
  done
  mkdir -p "$work/true"
  t0=$(date +%s.%N)
  for _ in $(seq 200); do /bin/true; done
  t1=$(date +%s.%N)
  for _ in $(seq 200); do "$duel" box --dir "$work/true" -- /bin/true; done
  t2=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" -v c="$t2" \
    'BEGIN { printf "start-up: /bin/true %.2f ms a run, through duel box %.2f ms a run\n", (b - a) * 5, (c - b) * 5 }'
else
  awk -v g1="${games[1]}" -v w1="${wall[1]}" -v g2="${games[2]}" -v w2="${wall[2]}" \
    'BEGIN { printf "speed-up (games a minute, 2 over 1): %.2f\n", (g2 / w2) / (g1 / w1) }'
fi
