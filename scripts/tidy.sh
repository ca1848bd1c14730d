#!/usr/bin/env bash
# clang-tidy (.clang-tidy's checks, warnings are errors) on the C++ files a
# change touches. Usage: tidy.sh [BASE] [BUILD_DIR]: the files changed since
# BASE (default: the last commit's parent; in a clone with one commit, the
# last commit's files), checked with BUILD_DIR's compile_commands.json
# (default build/). A header is checked through up to two source files that
# include it, with diagnostics kept to the changed files.
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-}"
dir="${2:-build}"
tidy="$(command -v clang-tidy-14 || command -v clang-tidy || true)"
if [ -z "$tidy" ]; then
  echo "tidy: skipped: clang-tidy is not installed (apt-get install clang-tidy)"
  exit 0
fi
if [ ! -f "$dir/compile_commands.json" ]; then
  echo "tidy: $dir/compile_commands.json is missing: build $dir first" >&2
  exit 2
fi
if [ -z "$base" ]; then
  if git rev-parse -q --verify HEAD~1 >/dev/null; then base=HEAD~1; else base=""; fi
fi
if [ -n "$base" ]; then
  changed=$(git diff --name-only --diff-filter=AM "$base" -- 'src/*.cpp' 'src/*.hpp' 'apps/*.cpp' 'apps/*.hpp' 'python/bindings/*')
else
  changed=$(git show --name-only --diff-filter=AM --format= HEAD -- 'src/*.cpp' 'src/*.hpp' 'apps/*.cpp' 'apps/*.hpp' 'python/bindings/*')
fi
if [ -z "$changed" ]; then
  echo "tidy: no C++ file changed since ${base:-the first commit}"
  exit 0
fi
sources=()
filter=""
for f in $changed; do
  [ -f "$f" ] || continue
  filter="${filter:+$filter|}$(printf '%s' "$f" | sed 's/[.]/[.]/g')"
  case "$f" in
    *.cpp) sources+=("$f") ;;
    *.hpp)
      inc="${f#src/}"
      inc="${inc#apps/duel/}"
      while IFS= read -r user; do sources+=("$user"); done < <(
        grep -rlF "#include \"$inc\"" src apps python/bindings --include='*.cpp' | sort | head -2)
      ;;
  esac
done
mapfile -t sources < <(printf '%s\n' "${sources[@]}" | sort -u | grep -v '^$' || true)
if [ "${#sources[@]}" -eq 0 ]; then
  echo "tidy: no source file includes the changed headers"
  exit 0
fi
# The compile database lists python/bindings only where pybind11 is found.
checked=()
for s in "${sources[@]}"; do
  if grep -qF "$PWD/$s" "$dir/compile_commands.json"; then checked+=("$s"); fi
done
echo "tidy: ${#checked[@]} file(s): ${checked[*]}"
status=0
for s in "${checked[@]}"; do
  "$tidy" -p "$dir" --quiet --header-filter="($filter)" "$s" 2>/dev/null || status=1
done
[ "$status" -eq 0 ] && echo "tidy: clean"
exit "$status"
