"""S1 Chameleon Grid: Table 31 templates answered from the perceived symbolic timeline.

Each refresh is rebuilt from perception alone: frames are cut into runs wherever the grid
empties or most cells change, and each cell takes its majority reading over the run, so a
few misread frames neither split a refresh nor change its contents ("Scene i" = run i).
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from skills.videocogqa.programs.templates import Solved, Template, described
from skills.videocogqa.timeline import SymbolicTimeline

Cell = tuple[int, int]  # (row, column), 0-based as timeline.cell_of gives
Reading = tuple[str, str, str]  # (size, colour, shape)
ATTR_INDEX = {"size": 0, "color": 1, "colour": 1, "shape": 2}
SHAPES = ("triangle", "circle", "square")
EQUAL = "Both are equal"


@dataclass
class GridRun:
    """One stable arrangement of the grid (a refresh, or one flash of S5)."""

    start: float
    end: float
    cells: dict[Cell, Reading] = field(default_factory=dict)


def _frame_cells(tl: SymbolicTimeline, shapes) -> dict[Cell, Reading]:
    out: dict[Cell, tuple[float, Reading]] = {}
    for s in shapes:
        cell = tl.cell_of(s.cx, s.cy)
        if cell is not None and (cell not in out or s.area > out[cell][0]):  # the cell's main shape
            out[cell] = (s.area, (tl.size_of(s), s.colour, s.shape))
    return {c: r for c, (_, r) in out.items()}


def _alike(a: dict[Cell, Reading], b: dict[Cell, Reading]) -> float:
    same = sum(1 for c, r in a.items() if c in b and b[c][1:] == r[1:])
    return same / max(len(a), len(b), 1)


def grid_runs(tl: SymbolicTimeline, min_frames: int = 3, keep: float = 0.5) -> list[GridRun]:
    """Stable arrangements in order: a run ends at an empty frame or when fewer than half
    the cells match the previous frame; cells seen in under `keep` of a run's frames are
    noise; every cell reports its majority reading."""
    runs: list[GridRun] = []
    current: list[tuple[float, dict[Cell, Reading]]] = []

    def close() -> None:
        if len(current) >= min_frames:
            votes: dict[Cell, Counter] = {}
            for _, cells in current:
                for c, r in cells.items():
                    votes.setdefault(c, Counter())[r] += 1
            cells = {c: v.most_common(1)[0][0] for c, v in votes.items() if sum(v.values()) >= keep * len(current)}
            runs.append(GridRun(current[0][0], current[-1][0], dict(sorted(cells.items()))))
        current.clear()

    for frame in tl.frames:
        cells = _frame_cells(tl, frame.shapes)
        if not cells or (current and _alike(cells, current[-1][1]) < 0.5):
            close()
        if cells:
            current.append((frame.t, cells))
    close()
    return runs


def _scene(tl: SymbolicTimeline, *numbers: str) -> list[GridRun] | None:
    """The perceived refreshes named "Scene i" (1-based), or None if there are not that many."""
    runs = grid_runs(tl)
    ks = [int(i) for i in numbers]
    return [runs[k - 1] for k in ks] if all(1 <= k <= len(runs) for k in ks) else None


def _unique_max(counts: dict) -> object | None:
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def _times(*runs: GridRun) -> tuple[float, ...]:
    return tuple(t for r in runs for t in (r.start, r.end))


def largest_count(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    colour, shape = m.group(1).lower(), m.group(2).lower()
    runs = grid_runs(tl)
    counts = {k + 1: sum(1 for r in run.cells.values() if r[1:] == (colour, shape)) for k, run in enumerate(runs)}
    best = _unique_max(counts)
    return None if best is None else Solved(f"Scene {best}", _times(runs[best - 1]), f"{colour} {shape} per scene: {counts}")


def first_column_shape(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    got = _scene(tl, m.group(1))
    if got is None:
        return None
    run = got[0]
    counts = Counter(r[2] for (row, col), r in run.cells.items() if col == 0)
    best = _unique_max(counts)
    return None if best is None else Solved(best, _times(run), f"first column shapes: {dict(counts)}")


def total_count(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    want = (m.group(1).lower(), m.group(2).lower(), m.group(3).lower())
    runs = grid_runs(tl)
    total = sum(1 for run in runs for r in run.cells.values() if r == want)
    return Solved(total, _times(*runs), f"{' '.join(want)} over {len(runs)} scenes: {total}")


def common_attribute(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    got = _scene(tl, m.group(1))
    if got is None:
        return None
    run = got[0]
    attr, size = m.group(2).lower(), m.group(3).lower()
    counts = Counter(r[ATTR_INDEX[attr]] for r in run.cells.values() if r[0] == size)
    best = _unique_max(counts)
    return None if best is None else Solved(best, _times(run), f"{attr} among {size}: {dict(counts)}")


def same_attribute_scene(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    index = ATTR_INDEX[m.group(1).lower()]
    runs = grid_runs(tl)
    peaks = {k + 1: max(Counter(r[index] for r in run.cells.values()).values(), default=0)
             for k, run in enumerate(runs)}
    best = _unique_max(peaks)
    return None if best is None else Solved(f"Scene {best}", _times(runs[best - 1]), f"peaks: {peaks}")


def more_size(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    got = _scene(tl, m.group(1))
    if got is None:
        return None
    run = got[0]
    s1, s2 = m.group(2).lower(), m.group(3).lower()
    sizes = Counter(r[0] for r in run.cells.values())
    value = s1 if sizes[s1] > sizes[s2] else s2 if sizes[s2] > sizes[s1] else EQUAL
    return Solved(value, _times(run), f"sizes: {dict(sizes)}")


def _rows(run: GridRun) -> list[list[Reading]]:
    rows: dict[int, list[Reading]] = {}
    for (row, _), r in run.cells.items():
        rows.setdefault(row, []).append(r)
    return [rows[k] for k in sorted(rows)]


def row_same_size(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    got = _scene(tl, m.group(1))
    if got is None:
        return None
    run = got[0]
    hit = any(len({r[0] for r in row}) == 1 and len({r[1:] for r in row}) > 1 for row in _rows(run) if len(row) > 1)
    return Solved(hit, _times(run), "a row of one size with varied colour/shape" if hit else "no such row")


def compare_shapes(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    got = _scene(tl, m.group(1), m.group(2))
    if got is None:
        return None
    sh1, sh2 = m.group(3).lower(), m.group(4).lower()
    shapes = Counter(r[2] for run in got for r in run.cells.values())
    value = sh1 if shapes[sh1] > shapes[sh2] else sh2 if shapes[sh2] > shapes[sh1] else EQUAL
    return Solved(value, _times(*got), f"shapes in both scenes: {dict(shapes)}")


def row_same_colour(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    got = _scene(tl, m.group(1))
    if got is None:
        return None
    run = got[0]
    hit = any(len({r[1] for r in row}) == 1 and len({r[2] for r in row}) > 1 for row in _rows(run) if len(row) > 1)
    return Solved(hit, _times(run), "a one-colour row with varied shapes" if hit else "no such row")


_C, _S, _Z = r"(red|green|blue)", r"(triangle|circle|square)", r"(small|medium|large)"


def _t(name: str, pattern: str, solve) -> Template:
    return Template("S1", name, re.compile(pattern, re.IGNORECASE), solve)


TEMPLATES: list[Template] = [
    _t("largest count of {color} {shape} over scenes",
       rf"Which scene contains the largest number of {_C} {_S} objects", largest_count),
    _t("most frequent shape in first column",
       r"Which shape appears most frequently in the first column of Scene (\d+)", first_column_shape),
    _t("total count of {size}{color}{shape} across scenes",
       rf"(?:total count of|How many) {_Z} {_C} {_S} objects.*across all scenes", total_count),
    _t("most common {attribute} among {size} objects",
       rf"In Scene (\d+)\b.*which (colou?r|shape) is most common among the {_Z} objects", common_attribute),
    _t("scene with most same-{attribute} objects",
       r"In which scene does the grid contain the highest number of objects with the same (colou?r|shape|size)",
       same_attribute_scene),
    _t("more {size_1} or {size_2}", rf"In Scene (\d+)\b.*are there more {_Z} objects or {_Z} objects", more_size),
    _t("row sharing {size}, varying {color}/{shape}",
       r"Is there a row in Scene (\d+)\b.*share the same size but vary in colou?r or shape", row_same_size),
    _t("Scene i vs j: which shape more",
       rf"Between Scene (\d+) and Scene (\d+)\b.*which shape appears more frequently: {_S} or {_S}", compare_shapes),
    _t("rows sharing {color}, differing {shape}",
       r"Does Scene (\d+)\b.*rows where all objects share the same colou?r but differ in shape", row_same_colour),
]

FORMS = {  # name -> (asked, about): recognition by meaning, skills/videocogqa/programs/recognise.py
    "largest count of {color} {shape} over scenes": (
        "Which scene contains the largest number of {colour} {shape} objects", (
            "the grid refresh holding the most objects of one colour and shape",
            "in which scene were most objects of a given colour and shape",
            "scene with the highest count of a coloured shape")),
    "most frequent shape in first column": (
        "Which shape appears most frequently in the first column of Scene {scene}", (
            "the commonest shape down the leftmost column of one scene",
            "which shape dominates column 1 of a given grid",
            "most frequent shape in the first column of a scene")),
    "total count of {size}{color}{shape} across scenes": (
        "How many {size} {colour} {shape} objects across all scenes", (
            "number of objects of a given size, colour and shape summed over every scene",
            "count a sized coloured shape over all the grids",
            "how many of one kind of object in all refreshes together")),
    "most common {attribute} among {size} objects": (
        "In Scene {scene}, which {attr} is most common among the {size} objects", (
            "in one scene, the commonest colour or shape among objects of one size",
            "which colour do the small objects of a grid mostly have",
            "which shape do the large objects of a given scene mostly have")),
    "scene with most same-{attribute} objects": (
        "In which scene does the grid contain the highest number of objects with the same {same}", (
            "the scene where the largest group of objects share a colour, shape or size",
            "which grid has the most objects alike in one attribute",
            "scene with the biggest set of matching objects")),
    "more {size_1} or {size_2}": (
        "In Scene {scene}, are there more {size} objects or {size_2} objects", (
            "compare how many small and large objects one scene has",
            "which size class is more numerous in a given grid",
            "more medium or small objects in a scene")),
    "row sharing {size}, varying {color}/{shape}": (
        "Is there a row in Scene {scene} where all objects share the same {same} but vary in color or shape", (
            "does a grid row have every object of one size while colours or shapes differ",
            "a row of equally sized objects that are not identical",
            "row with uniform size but mixed colour or shape", "is some row all one size with different colours")),
    "Scene i vs j: which shape more": (
        "Between Scene {scene} and Scene {scene_2}, which shape appears more frequently: {shape} or {shape_2}", (
            "over two scenes together, which of two shapes occurs more",
            "compare the number of squares and circles in two grids",
            "two scenes: more triangles or more circles")),
    "rows sharing {color}, differing {shape}": (
        "Does Scene {scene} contain rows where all objects share the same {same} but differ in shape", (
            "does a grid row have every object of one colour while the shapes differ",
            "a row in a single colour with several shapes",
            "row with uniform colour but mixed shapes", "a row whose objects share a colour but not a shape")),
}
TEMPLATES = described(TEMPLATES, FORMS)
