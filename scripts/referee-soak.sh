#!/usr/bin/env bash
# Time safety at the referee level: whole checkers games through
# `duel referee` at seed 003's 300 CPU seconds a game, `duel homework`
# (the engine, calibrated) on both sides, each a separate program charged
# its CPU time. Fails (exit 1) when any game ends on time (`time`), by the
# wall-clock limit (`killed`) or with a side's clock below zero.
# Long: both sides together use up to 600 CPU seconds a game.
# Usage: referee-soak.sh [GAMES] [OUTDIR]  (default 1 game, build/referee-soak);
# DUEL_BIN=PATH plays another build of duel.
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-1}"
out="${2:-build/referee-soak}"
case "$games" in
  '' | *[!0-9]* | 0)
    echo "referee-soak: GAMES must be a whole number >= 1 (got '$games')" >&2
    exit 2
    ;;
esac
duel="${DUEL_BIN:-$PWD/build/bin/duel}"
[ -x "$duel" ] || bash scripts/build.sh build > /dev/null
mkdir -p "$out"
"$duel" referee checkers --agent duel:engine --agent duel:engine \
  --calibrate duel: --calibrate duel: --time 300 --games "$games" \
  --pdnout "$out/games.pdn" --json > "$out/games.json"
/usr/bin/python3 - "$out/games.json" << 'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
bad = 0
for g in d["games"]:
    cpu = g.get("cpu", [])
    worst = max(cpu) if cpu else 0.0
    print("game %d: winner %s, %s, %d plies, time left %.1f / %.1f s, longest move %.2f s CPU"
          % (g["game"], g["winner"], g["reason"], g["plies"], g["time_left"][0],
             g["time_left"][1], worst))
    if g["reason"] in ("time", "killed") or min(g["time_left"]) <= 0:
        bad += 1
print("games lost on time: %d of %d" % (bad, len(d["games"])))
sys.exit(1 if bad else 0)
EOF
