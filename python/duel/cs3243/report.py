"""The files a graded class leaves in its folder, named and shaped as every
``duel tournament`` writes them (docs/tournament.md): ``results.json`` (the
document), ``results.csv`` (the standings, one row a student), ``index.html``
(the table and every lost game with its reason), and ``grades.md`` (the
hand-out's marks as a Markdown table), all from the journal's rows.

Elo: every student and each of the five opponents is a player; every graded
game counts once (duel.fit_ratings, the same fit as the C++ tournament's).
"""

from __future__ import annotations

import csv
import html
import io
import json
import os
import pathlib
from typing import Dict, List, Sequence

from .grader import GAME_SPEC, Opponent

__all__ = ["write_reports"]


def _elo(rows: Sequence[Dict[str, object]],
         opponents: Sequence[Opponent]) -> List[tuple]:
    """(elo, margin) per row, fitted with the opponents as players after the rows."""
    try:
        from .. import fit_ratings
    except ImportError:  # the pure-Python parts without the extension
        return [(None, None)] * len(rows)
    index = {o.spec: len(rows) + k for k, o in enumerate(opponents)}
    games = []
    for i, row in enumerate(rows):
        result = row.get("result") or {}
        for r in result.get("opponents", []) if isinstance(result, dict) else []:
            j = index.get(r.get("opponent"))
            if j is None:
                continue
            for g in r.get("games", []):
                score = {"win": 1.0, "draw": 0.5, "loss": 0.0}.get(g.get("outcome"))
                if score is not None:
                    games.append((i, j, score))
    ratings = fit_ratings(len(rows) + len(opponents), games)
    return [tuple(None if v is None else round(v, 1) for v in r) for r in ratings[:len(rows)]]


def _lost(row: Dict[str, object]) -> List[Dict[str, object]]:
    """Every lost game of a row: opponent, game number (from 1), reason."""
    out = []
    result = row.get("result") or {}
    for r in result.get("opponents", []) if isinstance(result, dict) else []:
        for g in r.get("games", []):
            if g.get("outcome") == "loss":
                out.append({"opponent": r.get("opponent"), "game": int(g.get("index", 0)) + 1,
                            "reason": g.get("reason", "")})
    return out


def _write(path: pathlib.Path, text: str) -> None:
    """Writes the whole file then renames it: a reader never sees half of it."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def write_reports(rows: Sequence[Dict[str, object]], out: pathlib.Path,
                  opponents: Sequence[Opponent], header: Dict[str, object]) -> None:
    """results.json, results.csv, index.html and grades.md from the journal's rows."""
    # Step 1. Each student's entry and the standings (marks, then name; equal
    # marks share a place).
    elo = _elo(rows, opponents)
    students = []
    for row, (rating, margin) in zip(rows, elo):
        students.append({
            "name": row["student"], "points": row["marks"], "max_points": row["max_marks"],
            "error": row.get("error", ""), "notes": row.get("notes", []),
            "opponents": row.get("opponents", {}), "lost": _lost(row),
            "elo": rating, "elo_margin": margin})
    order = sorted(students, key=lambda s: (-float(s["points"]), s["error"] != "", s["name"]))
    standings = []
    for k, s in enumerate(order):
        same = k > 0 and float(s["points"]) == float(order[k - 1]["points"])
        rank = standings[-1]["rank"] if same else k + 1
        standings.append({"rank": rank, "name": s["name"], "points": s["points"],
                          "elo": s["elo"], "elo_margin": s["elo_margin"]})
    doc = {"course": "cs3243", "format": "grading", "game": GAME_SPEC,
           "games_per_opponent": header.get("games"), "time_limit": header.get("time_limit"),
           "seed": header.get("seed"), "sandbox": header.get("sandbox", False),
           "memory": header.get("memory"),
           "opponents": [{"spec": o.spec, "name": o.name, "needed": o.needed, "marks": o.marks}
                         for o in opponents],
           "students": students, "standings": standings}
    _write(out / "results.json", json.dumps(doc, indent=2) + "\n")

    # Step 2. The standings as CSV: marks, the W-D-L against each opponent.
    def remarks(s: Dict[str, object]) -> str:
        return str(s["error"] or "; ".join(map(str, s["notes"])))

    def wdl(s: Dict[str, object], spec: str) -> str:
        r = s["opponents"].get(spec) if isinstance(s["opponents"], dict) else None
        return f"{r['wins']}-{r['draws']}-{r['losses']}" if r else ""

    by_name = {s["name"]: s for s in students}
    buffer = io.StringIO()
    w = csv.writer(buffer, lineterminator="\n")
    w.writerow(["rank", "name", "points", "max_points"] + [o.spec for o in opponents]
               + ["elo", "elo_margin", "remarks"])
    for st in standings:
        s = by_name[st["name"]]
        w.writerow([st["rank"], s["name"], f"{float(s['points']):.2f}", s["max_points"]]
                   + [wdl(s, o.spec) for o in opponents]
                   + ["" if s["elo"] is None else s["elo"],
                      "" if s["elo_margin"] is None else s["elo_margin"], remarks(s)])
    _write(out / "results.csv", buffer.getvalue())

    # Step 3. The hand-out's table in Markdown, by student.
    head = ["student", "marks", "max_marks"] + [o.spec for o in opponents] + ["remarks"]
    sandbox = (f"sandbox: true (each student's code ran in duel box, memory limit"
               f" {header.get('memory')} MiB)" if header.get("sandbox") else "sandbox: false")
    lines = [sandbox, "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for s in sorted(students, key=lambda s: s["name"]):
        cells = [s["name"], f"{float(s['points']):.2f}", str(s["max_points"])] + [
            wdl(s, o.spec) for o in opponents] + [remarks(s)]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    _write(out / "grades.md", "\n".join(lines) + "\n")

    # Step 4. A static page: the table, then every lost game's reason.
    e = html.escape
    page = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
            "<title>Duel tournament: cs3243 grading</title>",
            "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
            "td,th{border:1px solid #999;padding:.2em .6em;text-align:left}</style>",
            "</head><body>", "<h1>cs3243 grading</h1>", f"<p>{e(sandbox)}</p>", "<table>",
            "<tr><th>rank</th><th>student</th><th>marks</th>"
            + "".join(f"<th>{e(o.name)}</th>" for o in opponents)
            + "<th>Elo</th><th>note</th></tr>"]
    for st in standings:
        s = by_name[st["name"]]
        rating = "" if s["elo"] is None else f"{s['elo']:g}" + (
            "" if s["elo_margin"] is None else f" &plusmn; {s['elo_margin']:g}")
        anchor = "e" + s["name"].encode("utf-8", "replace").hex()
        page.append(f"<tr><td>{st['rank']}</td><td><a href=\"#{anchor}\">{e(s['name'])}</a></td>"
                    f"<td>{float(s['points']):.2f}/{s['max_points']}</td>"
                    + "".join(f"<td>{e(wdl(s, o.spec))}</td>" for o in opponents)
                    + f"<td>{rating}</td><td>{e(remarks(s))}</td></tr>")
    page.append("</table>")
    for s in sorted(students, key=lambda s: s["name"]):
        anchor = "e" + s["name"].encode("utf-8", "replace").hex()
        page.append(f"<h2 id=\"{anchor}\">{e(s['name'])}</h2><ul>")
        for lost in s["lost"]:
            page.append(f"<li>{e(str(lost['opponent']))} game {lost['game']}: lost, "
                        f"{e(str(lost['reason']))}</li>")
        if s["error"]:
            page.append(f"<li>not graded: {e(str(s['error']))}</li>")
        page.append("</ul>")
    page.append("</body></html>")
    _write(out / "index.html", "\n".join(page) + "\n")
