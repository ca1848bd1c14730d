#!/usr/bin/env bash
# The checkers "must show" matches of docs/experiments/checkers.md, through
# the referee with seed 003's likely 300 s a game each:
#   1. duel homework (the engine) against the seed's reference, plain
#      minimax at depth 4, 9 games (the engine is Black in 5);
#   2. duel homework against the rapid-draughts agent at depth 10
#      (tests/tools/rapid-draughts), GAMES games in two matches run side by
#      side (one per core), each alternating colours.
# Long: about 25 minutes for (1) and 20-40 minutes a game for (2) on this
# machine's one core each. Usage: checkers-matches.sh [OUTDIR] [GAMES]
# (default build/checkers-matches, 8). JSON and PDN records go to OUTDIR.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/checkers-matches}"
games="${2:-8}"
bash scripts/build.sh build >/dev/null
bash scripts/setup-node.sh >/dev/null
mkdir -p "$out"
duel="$PWD/build/bin/duel"
node_agent="node $PWD/tests/tools/rapid-draughts/agent.mjs --depth 10"
summary() {  # summary JSON: wins/draws/losses per agent
  /usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for g in d["games"]:
    print("game: black agent %d, winner %s, %s, %d plies, time left %.1f / %.1f s"
          % (g["black"], g["winner"], g["reason"], g["plies"], g["time_left"][0], g["time_left"][1]))
for a in d["agents"]:
    print("%s: wins %d, draws %d, losses %d" % (a["cmd"], a["wins"], a["draws"], a["losses"]))' "$1"
}
echo "== duel:engine against duel:minimax:depth=4, 9 games, 300 s each"
"$duel" referee checkers --agent duel:engine --agent duel:minimax:depth=4 \
  --calibrate duel: --calibrate - --time 300 --games 9 \
  --pdnout "$out/minimax.pdn" --json > "$out/minimax.json"
summary "$out/minimax.json"
echo "== duel:engine against rapid-draughts depth 10, $games games, 300 s each"
half=$(( (games + 1) / 2 ))
"$duel" referee checkers --agent duel:engine --agent "$node_agent" \
  --calibrate duel: --calibrate - --time 300 --games "$half" \
  --pdnout "$out/rapid-draughts-a.pdn" --json > "$out/rapid-draughts-a.json" &
"$duel" referee checkers --agent "$node_agent" --agent duel:engine \
  --calibrate - --calibrate duel: --time 300 --games $(( games - half )) \
  --pdnout "$out/rapid-draughts-b.pdn" --json > "$out/rapid-draughts-b.json" &
wait
summary "$out/rapid-draughts-a.json"
summary "$out/rapid-draughts-b.json"
