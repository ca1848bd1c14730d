#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang 14 with ASan + UBSan) in
# build-fuzz/ (or $DUEL_FUZZ_DIR) and runs each for SECONDS on a scratch
# copy of its seed corpus (fuzz/corpus/TARGET/ is only read), one a core at
# once. Prints per target the executions, the
# time and the findings (crash, timeout, leak or out-of-memory inputs, kept
# in build-fuzz/fuzz-findings/TARGET/); exits 1 if any target found one.
# Skips with a message (exit 0) when clang++-14 or libFuzzer is missing.
#
# Usage: fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   (default 60 s, every target)
# A finding replays with: build-fuzz/bin/fuzz_TARGET FILE
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
cxx="${DUEL_FUZZ_CXX:-clang++-14}"
# DUEL_FUZZ_DIR: an existing tree configured with -DDUEL_FUZZ=ON (test.sh's
# sanitizer tree) instead of making build-fuzz/.
dir="${DUEL_FUZZ_DIR:-build-fuzz}"

# Step 1. The compiler and libFuzzer's runtime (libclang-rt-14-dev).
if ! command -v "$cxx" >/dev/null 2>&1; then
  echo "fuzz: $cxx not found (apt-get install clang-14 libclang-rt-14-dev): fuzzing skipped"
  exit 0
fi
probe="$(mktemp -d)"
trap 'rm -rf "$probe"' EXIT
printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' \
  >"$probe/probe.cpp"
if ! "$cxx" -fsanitize=fuzzer,address,undefined "$probe/probe.cpp" -o "$probe/probe" 2>/dev/null; then
  echo "fuzz: $cxx cannot link libFuzzer (apt-get install libclang-rt-14-dev): fuzzing skipped"
  exit 0
fi

# Step 2. The targets: those named, or every one fuzz/CMakeLists.txt declares.
if [ $# -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(sed -n 's/^duel_fuzz_target(\([a-z0-9_]*\) .*/\1/p' fuzz/CMakeLists.txt)
fi

# Step 3. The build: duel_lib (+ duel_serve) and the targets only.
if [ ! -f "$dir/build.ninja" ]; then
  cmake -S . -B "$dir" -G Ninja -DDUEL_FUZZ=ON -DDUEL_TESTS=OFF -DCMAKE_CXX_COMPILER="$cxx" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" >/dev/null
fi
build_targets=()
for t in "${targets[@]}"; do build_targets+=("fuzz_$t"); done
cmake --build "$dir" -j "$(nproc)" --target "${build_targets[@]}"

# Step 4. Each target for $seconds on a scratch corpus, as many at once as
# there are cores (DUEL_FUZZ_JOBS to choose): each is one process.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
mkdir -p "$dir/fuzz-logs"
jobs_at_once="${DUEL_FUZZ_JOBS:-$(nproc)}"
fuzz_one() {  # target: runs it, writes its summary line to $dir/fuzz-logs/TARGET.summary
  local t="$1"
  local corpus="$probe/corpus-$t" findings="$dir/fuzz-findings/$t" log="$dir/fuzz-logs/$t.log"
  mkdir -p "$corpus" "$findings"
  [ -d "fuzz/corpus/$t" ] && cp -R "fuzz/corpus/$t/." "$corpus/"
  echo "== fuzz_$t: $seconds s ($(find "$corpus" -type f | wc -l) seed inputs)"
  local start status=0
  start=$(date +%s)
  "$dir/bin/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
    -print_final_stats=1 -artifact_prefix="$findings/" "$corpus" >"$log" 2>&1 || status=$?
  local elapsed execs rate crashes
  elapsed=$(($(date +%s) - start))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  crashes=$(find "$findings" -type f -newer "$probe/probe.cpp" | sort)
  if [ "$status" -ne 0 ] || [ -n "$crashes" ]; then
    {
      grep -m 5 -E 'ERROR|fuzz check failed|runtime error|SUMMARY' "$log" || tail -20 "$log"
      for c in $crashes; do echo "   finding: $c (replay: $dir/bin/fuzz_$t $c)"; done
    } >"$dir/fuzz-logs/$t.found"
    printf '%-16s %12s execs %6s s %8s exec/s  FOUND (exit %s): %s\n' "$t" "${execs:-?}" \
      "$elapsed" "${rate:-?}" "$status" "$(echo "$crashes" | wc -w) file(s); log $log" \
      >"$dir/fuzz-logs/$t.summary"
  else
    printf '%-16s %12s execs %6s s %8s exec/s  none\n' "$t" "${execs:-?}" "$elapsed" \
      "${rate:-?}" >"$dir/fuzz-logs/$t.summary"
  fi
}
rm -f "$dir"/fuzz-logs/*.summary "$dir"/fuzz-logs/*.found
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_at_once" ]; do wait -n || true; done
  fuzz_one "$t" &
done
wait || true

found=0
for t in "${targets[@]}"; do
  if [ -f "$dir/fuzz-logs/$t.found" ]; then
    found=1
    cat "$dir/fuzz-logs/$t.found"
  fi
done
echo "== fuzz summary (findings in $dir/fuzz-findings/)"
for t in "${targets[@]}"; do cat "$dir/fuzz-logs/$t.summary"; done
exit "$found"
