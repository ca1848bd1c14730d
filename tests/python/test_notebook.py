"""docs/duel.ipynb runs clean from top to bottom with the built package, and
its pictures are the library's own (docs/python.md, "The notebook")."""

import os
import pathlib

import pytest

nbclient = pytest.importorskip("nbclient", reason="apt-get install python3-nbclient")
nbformat = pytest.importorskip("nbformat", reason="apt-get install python3-nbformat")

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"


def test_notebook_runs_clean():
    nb = nbformat.read(DOCS / "duel.ipynb", as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []  # what it shows must come from this run
    os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(DOCS)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    kinds = [k for o in outputs for k in o.get("data", {})]
    # Boards drawn by duel.svg, a game shown with its moves, the seed-001 plot.
    assert kinds.count("image/svg+xml") >= 3 and "text/html" in kinds and "image/png" in kinds
    svgs = [o["data"]["image/svg+xml"] for o in outputs if "image/svg+xml" in o.get("data", {})]
    assert all(s.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox=') for s in svgs)
    text = "".join(o.get("text", "") for o in outputs)
    # N = 8: value -1, minimax 2,057 nodes, alpha-beta 662 (docs/experiments/nqueens.md,
    # questions 1 and 3, made by `duel table nqueens`).
    assert " 8     -1      2057         662" in text
