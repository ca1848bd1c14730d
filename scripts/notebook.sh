#!/usr/bin/env bash
# Runs docs/duel.ipynb from top to bottom with the built package and stores
# its outputs in the file (what a reader sees on the forge). Needs the
# README's build and Debian's python3-nbclient, python3-ipykernel and
# python3-matplotlib (scripts/setup.sh installs them). Usage:
# scripts/notebook.sh [BUILD_DIR] (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
build="$(realpath -m "${1:-build}")"
PYTHONPATH="$build/python" PYDEVD_DISABLE_FILE_VALIDATION=1 /usr/bin/python3 - <<'PY'
import nbclient, nbformat
nb = nbformat.read("docs/duel.ipynb", as_version=4)
nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                        resources={"metadata": {"path": "docs"}}).execute()
nbformat.write(nb, "docs/duel.ipynb")
print("docs/duel.ipynb: run and stored")
PY
