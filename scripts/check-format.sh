#!/usr/bin/env bash
# Fails when a C++ file differs from .clang-format's style.
set -euo pipefail
cd "$(dirname "$0")/.."
# tests/data holds other people's programs as they wrote them (a class's
# submissions): their style is theirs.
files=$(git ls-files '*.cpp' '*.hpp' ':!:tests/data/*' 2>/dev/null ||
  find src apps tests bench -name '*.[ch]pp' -not -path 'tests/data/*')
bad=0
for f in $files; do
  [ -f "$f" ] || continue
  if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "not formatted: $f (run: clang-format -i $f)"
    bad=1
  fi
done
exit $bad
