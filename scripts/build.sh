#!/usr/bin/env bash
# Configures and builds one build tree. Usage: build.sh [DIR] [extra cmake args]
# DIR defaults to build/ (Release). Incremental: fast when nothing changed.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-build}"
shift || true
if [ ! -f "$dir/build.ninja" ]; then
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
fi
cmake --build "$dir" -j "$(nproc)"
# Where the Python package is (docs/python.md), when this tree builds it.
if [ -d "$dir/python/duel" ]; then
  echo "Python package: PYTHONPATH=$PWD/$dir/python /usr/bin/python3 -c 'import duel'" >&2
fi
