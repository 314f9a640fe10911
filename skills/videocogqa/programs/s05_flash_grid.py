"""S5 Flash Grid: Table 31 templates answered from the perceived symbolic timeline.

A flash is a stable run of the grid between empty frames (the S1 reconstruction, which
votes per cell, so one misread frame neither splits a flash nor renames its object); an
occurrence is one object in one flash. Cells are reported 1-based as "row r, column c".
"""
from __future__ import annotations

import re
from collections import Counter

from memory.language import ordinal_of
from skills.videocogqa.programs.s01_chameleon_grid import GridRun, grid_runs
from skills.videocogqa.programs.templates import Solved, Template, described
from skills.videocogqa.timeline import SymbolicTimeline

STEPS = {"to the left": (0, -1), "to the right": (0, 1), "above": (-1, 0), "below": (1, 0)}
NOTHING, EQUALLY = "No object", "Equally often"
SHAPES = ("triangle", "circle", "square")


def _name(reading: tuple[str, str, str]) -> str:
    return f"{reading[1]} {reading[2]}"


def _cell(cell: tuple[int, int]) -> str:
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


def _ordinal(word: str) -> int | None:
    return ordinal_of(word) or (int(word) if word.isdigit() else None)  # "third", "3rd", "3"


def _first(tl: SymbolicTimeline) -> tuple[GridRun, tuple[int, int]] | None:
    runs = grid_runs(tl)
    if not runs or not runs[0].cells:
        return None
    return runs[0], next(iter(runs[0].cells))


def first_object(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    got = _first(tl)
    if got is None:
        return None
    run, cell = got
    return Solved(_name(run.cells[cell]), (run.start,), f"first flash at {run.start:.1f}s")


def first_cell(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    got = _first(tl)
    if got is None:
        return None
    run, cell = got
    return Solved(_cell(cell), (run.start,), f"first flash at {run.start:.1f}s in {_cell(cell)}")


def any_in_line(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    value, line, i = m.group(1).lower(), m.group(2).lower(), int(m.group(3)) - 1
    index, attr = (0 if line == "row" else 1), (2 if value in SHAPES else 1)
    hits = [run.start for run in grid_runs(tl) for c, r in run.cells.items() if c[index] == i and r[attr] == value]
    return Solved(bool(hits), tuple(hits[:8]), f"{len(hits)} {value} objects in {line} {i + 1}")



def most_line(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    line, name = m.group(1).lower(), f"{m.group(2).lower()} {m.group(3).lower()}"
    index = 0 if line == "row" else 1
    seen = [(run.start, c) for run in grid_runs(tl) for c, r in run.cells.items() if _name(r) == name]
    ranked = Counter(c[index] for _, c in seen).most_common()
    if not ranked:
        return None
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return Solved(EQUALLY, tuple(t for t, _ in seen), f"{name} per {line}: {dict(ranked)}")
    return Solved(f"{line} {ranked[0][0] + 1}", tuple(t for t, _ in seen), f"{name} per {line}: {dict(ranked)}")


def unique_cells(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    runs = grid_runs(tl)
    cells = {c for run in runs for c in run.cells}
    return Solved(len(cells), tuple(run.start for run in runs[:8]), f"{len(cells)} distinct cells over {len(runs)} flashes")


def adjacent(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    nth, name, direction = _ordinal(m.group(1)), f"{m.group(2).lower()} {m.group(3).lower()}", m.group(4).lower()
    seen = [(run, c) for run in grid_runs(tl) for c, r in run.cells.items() if _name(r) == name]
    if nth is None or not 1 <= nth <= len(seen):
        return None
    run, (row, col) = seen[nth - 1]
    dr, dc = STEPS[direction]
    there = run.cells.get((row + dr, col + dc))
    value = _name(there) if there else NOTHING
    return Solved(value, (run.start, run.end), f"occurrence {nth} of {name} at {_cell((row, col))}: {value} {direction}")


_C, _S = r"(red|green|blue)", r"(triangle|circle|square)"


def _t(name: str, pattern: str, solve) -> Template:
    return Template("S5", name, re.compile(pattern, re.IGNORECASE), solve)


TEMPLATES: list[Template] = [
    _t("first object's shape and colour", r"shape and colou?r of the first object that appears in the grid",
       first_object),
    _t("cell of the first object", r"In which cell position\b.*does the first object appear in the grid", first_cell),
    _t("any {shape}/{color} object in row i / column j",
       r"Is there any (red|green|blue|triangle|circle|square) object located in (row|column) (\d+) of the grid",
       any_in_line),
    _t("row/column where {object} appears most",
       rf"In which (row|column) of the grid does the {_C} {_S} appear most frequently", most_line),
    _t("number of unique cells occupied", r"How many unique cell positions of the grid are occupied", unique_cells),
    _t("i-th occurrence: object in the adjacent cell",
       rf"For the (\w+) occurrence of the {_C} {_S}, what is the object in the adjacent cell "
       r"(to the left|to the right|above|below)", adjacent),
]

FORMS = {  # name -> (asked, about): recognition by meaning, skills/videocogqa/programs/recognise.py
    "first object's shape and colour": ("shape and color of the first object that appears in the grid", (
        "what the earliest object in the grid looked like", "colour and shape of the initial flash",
        "describe the first shape to light up")),
    "cell of the first object": ("In which cell position does the first object appear in the grid", (
        "row and column of the first object shown", "grid location of the earliest flash",
        "where in the grid the initial object was")),
    "any {shape}/{color} object in row i / column j": (
        "Is there any {value} object located in {line} {index} of the grid", (
            "whether an object of a colour or shape ever sits in a given row",
            "does a red shape ever appear in column two", "is there a triangle anywhere in the third row")),
    "row/column where {object} appears most": ("In which {line} of the grid does the {colour} {shape} appear most frequently", (
        "the row a named object occupies most often", "which column holds a given shape the most",
        "the usual row or column of an object")),
    "number of unique cells occupied": ("How many unique cell positions of the grid are occupied", (
        "count the distinct cells that ever hold an object", "how many grid positions get used",
        "number of different places in the grid with a shape")),
    "i-th occurrence: object in the adjacent cell": (
        "For the {occ} occurrence of the {colour} {shape}, what is the object in the adjacent cell {side}", (
            "the neighbour next to a named shape at its n-th appearance",
            "what is beside an object the second time it shows", "the object in the neighbouring cell at one occurrence")),
}
TEMPLATES = described(TEMPLATES, FORMS)
