#!/usr/bin/env bash
# The main job: install, build, and play a game against the engine in the
# terminal. Arguments go to `duel play` (default: you against the engine at
# two-player N-Queens, free placement, 8x8). `--web [duel serve flags]`
# serves the web page instead (every game, in the browser; docs/serve.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh build >/dev/null
if [ "${1:-}" = "--web" ]; then
  shift
  exec build/bin/duel serve "$@"
fi
if [ $# -eq 0 ]; then
  exec build/bin/duel play nqueens:n=8,variant=2 --white human --black engine:time=1
fi
exec build/bin/duel play "$@"
