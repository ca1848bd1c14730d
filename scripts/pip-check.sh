#!/usr/bin/env bash
# `pip install .` as a user does it, offline: a fresh venv with Debian's
# packages visible (--system-site-packages), pip with no build isolation and
# no index, then `import duel` from outside the clone. Usage:
# pip-check.sh [BUILD_DIR] (default build; an existing build tree is reused).
set -euo pipefail
cd "$(dirname "$0")/.."
build="$(realpath -m "${1:-build}")"
venv="$(mktemp -d)"
trap 'rm -rf "$venv"' EXIT
/usr/bin/python3 -m venv --system-site-packages "$venv"
DUEL_BUILD_DIR="$build" "$venv/bin/pip" install -q --no-build-isolation --no-index . >/dev/null
cd /
"$venv/bin/python" - "$venv" <<'PY'
import pathlib, sys
import duel, duel.cs3243
where = pathlib.Path(duel.__file__).resolve()
assert str(where).startswith(str(pathlib.Path(sys.argv[1]).resolve())), where
# The course's configuration file the CS3243 grader hands to AB.py (RULES.md §6b).
from duel.cs3243 import grader
assert grader.CONFIG_FILE.read_bytes().startswith(b"Rows:5\nCols:5\n"), grader.CONFIG_FILE
# KCell n=2, k=5: the first player wins in 5 plies, solved by hand in
# tests/kcell/kcell_test.cpp (KCellSearch.HandSolvedSmallBoards).
result = duel.search(duel.load("kcell:n=2,k=5").initial_state(), depth=0)
assert result.exact and result.value == 1 and result.plies_to_end == 5, result
print(f"pip install: duel {duel.__version__} from {where.parent}")
PY
