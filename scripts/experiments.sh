#!/usr/bin/env bash
# Regenerates docs/experiments/*.md (and the plot) from measured runs.
# Usage: experiments.sh [nqueens] [kcell] [minichess] [--strength]. Takes a few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh build >/dev/null
exec /usr/bin/python3 scripts/experiments.py "$@"
