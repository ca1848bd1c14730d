#!/usr/bin/env bash
# Every test: installs, builds Release and ASan/UBSan trees, checks the format,
# runs the whole suite in both, then fuzzes every parser briefly (clang tree).
# Usage: test.sh [--fast] (Release only: no sanitizers, no fuzzing).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Node, the rapid-draughts agent (tests/tools/rapid-draughts) for the
# referee's test against an independent engine, and Chromium with
# playwright-core for the page's test (tests/web); without them those tests
# are skipped with a message, the rest still runs.
bash scripts/setup-node.sh || echo "setup-node failed: the rapid-draughts and web.e2e tests will be skipped"
fast=0
# Each phase's start, in seconds since this script began (CI's budget: docs/BENCHMARKS.md).
stamp() { echo "$1 (at ${SECONDS} s)"; }
[ "${1:-}" = "--fast" ] && fast=1

stamp "== format"
bash scripts/check-format.sh

stamp "== release build and tests"
bash scripts/build.sh build
ctest --test-dir build --output-on-failure -j "$(nproc)"

stamp "== pip install . into a fresh venv (offline)"
bash scripts/pip-check.sh build

stamp "== clang-tidy on the files the last commit changed"
bash scripts/tidy.sh

if [ "$fast" -eq 0 ]; then
  # One clang tree for both the sanitized tests and the fuzz targets: the
  # library is compiled once with ASan + UBSan and libFuzzer's coverage
  # instrumentation; the CLI and the tests' own code at -O0
  # (docs/RELIABILITY.md says why).
  stamp "== sanitizer build (ASan + UBSan, clang) and tests"
  if command -v clang++-14 >/dev/null 2>&1; then
    san=(-DCMAKE_CXX_COMPILER=clang++-14 -DDUEL_FUZZ=ON)
  else
    san=()
  fi
  bash scripts/build.sh build-sanitize -DDUEL_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" -DDUEL_BENCH=OFF -DDUEL_GLUE_O0=ON "${san[@]}"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 DUEL_SANITIZED=1 \
    ctest --test-dir build-sanitize --output-on-failure -j "$(nproc)"

  # Every parser under libFuzzer for 10 s each (docs/RELIABILITY.md): a
  # crash, a failed round trip, a hang or a leak fails the run.
  stamp "== fuzz (libFuzzer, 10 s a target)"
  DUEL_FUZZ_DIR=build-sanitize bash scripts/fuzz.sh 10
fi
stamp "== done"
