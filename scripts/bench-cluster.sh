#!/usr/bin/env bash
# The cluster benchmark of docs/BENCHMARKS.md, on a Dask cluster it starts on
# loopback (a scheduler, then 1 and 2 single-threaded workers) and stops:
#  1. a fixed tournament (node-limited checkers engines, the same games
#     everywhere) locally with --concurrency 1 and 2, then on 1 and 2
#     workers: games a minute and the scaling;
#  2. 0.05 s games (engine:time=0.05 against itself, 40 games) locally and on
#     1 worker: the scheduling overhead a game;
#  3. with --solve N: duel solve nqueens:n=N,variant=2 on one process, then
#     on 1 and 2 workers (wall time, nodes, memory).
# Usage: bench-cluster.sh [--solve N] [--hash MB] [BUILD_DIR] (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
solve=0
hash=1024
build=build
while [ $# -gt 0 ]; do
  case "$1" in
    --solve) solve="$2"; shift 2 ;;
    --hash) hash="$2"; shift 2 ;;
    *) build="$1"; shift ;;
  esac
done
duel="$(realpath "$build/bin/duel")"
[ -x "$duel" ] || { echo "bench-cluster: $duel is missing: build first" >&2; exit 2; }
command -v dask >/dev/null || { echo "bench-cluster: dask is missing (python3-distributed)" >&2; exit 2; }
work="$(mktemp -d /tmp/duel-bench-cluster-XXXXXX)"
port=$((20000 + RANDOM % 20000))
address="tcp://127.0.0.1:$port"
pids=()
stop_all() {
  for p in "${pids[@]}"; do
    kill -9 -- "-$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  pids=()
}
trap 'stop_all; rm -rf "$work"' EXIT

# Step 1. The cluster: a scheduler, and workers added as asked.
start_scheduler() {
  port=$((port + 1))
  address="tcp://127.0.0.1:$port"
  setsid dask scheduler --host 127.0.0.1 --port "$port" --no-dashboard >>"$work/scheduler.log" 2>&1 &
  pids+=($!)
}
start_scheduler
workers() {
  /usr/bin/python3 -c "from distributed import Client; c = Client('$address', timeout=30); \
print(len(c.scheduler_info()['workers'])); c.close()" 2>/dev/null || echo 0
}
add_worker() {
  setsid dask worker "$address" --nthreads 1 --no-nanny --no-dashboard >>"$work/worker.log" 2>&1 &
  pids+=($!)
  local want=$1
  for _ in $(seq 120); do
    [ "$(workers)" -ge "$want" ] && return 0
    sleep 0.5
  done
  echo "bench-cluster: the workers did not come up" >&2
  exit 1
}
timed() {  # label, command...: prints label and wall seconds
  local label="$1"
  shift
  local start end
  start=$(date +%s.%N)
  "$@" >"$work/out.txt"
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }'
}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "duel: $("$duel" --version)"

# Step 2. The fixed tournament.
tournament=(tournament checkers --agent engine:nodes=60000 --agent engine:nodes=30000 --agent
  alphabeta:depth=4 --agent minimax:depth=3 --games 4 --openings 2 --seed 3 --quiet)
run_tournament() {  # name, extra args
  local name="$1"
  shift
  local w
  w=$(timed "$name" "$duel" "${tournament[@]}" --out "$work/t-$name" "$@")
  local g
  g=$(($(wc -l <"$work/t-$name/journal.jsonl") - 1))
  awk -v n="$name" -v g="$g" -v w="$w" \
    'BEGIN { printf "tournament %-9s %3d games in %7.2f s: %6.1f games a minute\n", n, g, w, g * 60 / w }'
  echo "$w" >"$work/w-$name"
  cmp -s "$work/t-$name/results.json" "$work/t-local1/results.json" 2>/dev/null ||
    [ "$name" = local1 ] || echo "  (results.json differs from the local run's!)"
}
run_tournament local1 --concurrency 1
run_tournament local2 --concurrency 2
add_worker 1
run_tournament dask1 --scheduler "$address"
add_worker 2
run_tournament dask2 --scheduler "$address"
awk -v a="$(cat "$work/w-dask1")" -v b="$(cat "$work/w-dask2")" -v l="$(cat "$work/w-local2")" \
  'BEGIN { printf "scaling 1 -> 2 workers: %.2f (efficiency %.0f%%); 2 workers over 2 local threads: %.2f\n", a / b, 50 * a / b, l / b }'

# Step 3. Short games: what the cluster adds to each.
stop_all
start_scheduler
add_worker 1
short=(arena gardner --agent engine:time=0.05 --agent engine:time=0.05,hash=16 --games 40
  --openings 4 --seed 5 --max-turns 40)
local_w=$(timed local "$duel" "${short[@]}" --concurrency 1)
dask_w=$(timed dask "$duel" "${short[@]}" --scheduler "$address")
awk -v l="$local_w" -v d="$dask_w" \
  'BEGIN { printf "40 games of 0.05 s a move: local %.2f s, 1 worker %.2f s: %.0f ms a game more\n", l, d, (d - l) * 1000 / 40 }'

# Step 4. Solving.
if [ "$solve" -gt 0 ]; then
  spec="nqueens:n=$solve,variant=2"
  /usr/bin/time -f "%e s wall, %M KB peak" "$duel" solve "$spec" --hash "$hash" --json 2>"$work/time.txt" \
    >"$work/solve.json"
  echo "solve $spec one process: $(cat "$work/solve.json") $(tail -1 "$work/time.txt")"
  for n in 1 2; do
    [ "$n" -eq 2 ] && add_worker 2
    /usr/bin/time -f "%e s wall" "$duel" solve "$spec" --hash "$hash" --json \
      --scheduler "$address" 2>"$work/time.txt" >"$work/solve.json"
    echo "solve $spec on $n worker(s): $(cat "$work/solve.json") $(tail -1 "$work/time.txt")"
  done
fi
