"""S1 Chameleon Grid (OP): simulation, drawing and Table 31 question templates.

Table 9: I (cells per row) x J (cells per column) = 2x2 / 5x5 / 8x8 (Easy / Medium / Hard).

Choices the paper leaves open:
- Refresh: six scenes of 5 s each. "Scene i" is the i-th grid shown; objects stay 4.6 s,
  then the grid stands empty for 0.4 s so every refresh is visible (and perceivable).
- One object per cell, centred, its size a fraction of the cell side (style.SIZE_FRACTION),
  so every object fits its cell and never touches a grid line.
- Attributes are uniform at random, except that in each scene, with probability 0.35 each,
  one row is made one colour (shapes not all equal) and another row one size (colours or
  shapes varying): without this the two row templates would answer "No" almost always on
  5x5 and 8x8 grids.
- Yes/No questions carry a third option, "Cannot be determined" (a Draft needs 3-5).
- Every template is covered; an instance whose answer would tie is skipped and another
  drawn. "vary in color or shape" means the row's objects are not all the same colour and
  shape; "differ in shape" means not all the same shape.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import numpy as np

from eval.videocogqa import style
from eval.videocogqa.base import (
    Draft,
    Episode,
    Thing,
    blank,
    draw_grid,
    draw_thing,
    first_drafts,
    grid_geometry,
    near_numbers,
    shuffled,
)

GRID = {"Easy": 2, "Medium": 5, "Hard": 8}  # I = J per level (Table 9)
SCENES = 6
PERIOD = 5.0  # seconds per scene
SHOWN = 4.6  # objects visible this long, then an empty grid until the next refresh
ROW_BIAS = 0.35
YES, NO, UNSURE = "Yes", "No", "Cannot be determined"
EQUAL = "Both are equal"
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
ATTRS = {"color": "colour", "shape": "shape", "size": "size"}

Grid = list[list[Thing]]


def scene_ref(i: int) -> str:
    return f"Scene {i} (the {ORDINALS[i - 1]} grid shown)"


def _row_uniform_colour(rng: random.Random, n: int) -> list[Thing]:
    colour = rng.choice(tuple(style.COLOURS))
    while True:
        row = [Thing.random(rng, colours=(colour,)) for _ in range(n)]
        if len({t.shape for t in row}) > 1:
            return row


def _row_uniform_size(rng: random.Random, n: int) -> list[Thing]:
    size = rng.choice(style.SIZES)
    while True:
        row = [Thing.random(rng, sizes=(size,)) for _ in range(n)]
        if len({(t.colour, t.shape) for t in row}) > 1:
            return row


def random_grid(rng: random.Random, n: int) -> Grid:
    grid = [[Thing.random(rng) for _ in range(n)] for _ in range(n)]
    rows = list(range(n))
    rng.shuffle(rows)
    if rng.random() < ROW_BIAS:
        grid[rows[0]] = _row_uniform_colour(rng, n)
    if rng.random() < ROW_BIAS:
        grid[rows[1]] = _row_uniform_size(rng, n)
    return grid


class ChameleonGrid:
    code, title, ability, levels = "S1", "Chameleon Grid", "OP", ("Easy", "Medium", "Hard")

    def simulate(self, level: str, rng: random.Random) -> Episode:
        n = GRID[level]
        grids = [random_grid(rng, n) for _ in range(SCENES)]
        events = []
        for k, grid in enumerate(grids):
            objects = [{"row": r + 1, "column": c + 1, "size": t.size, "colour": t.colour, "shape": t.shape}
                       for r, row in enumerate(grid) for c, t in enumerate(row)]
            events.append({"t": k * PERIOD, "kind": "refresh", "scene": k + 1, "objects": objects})
            events.append({"t": k * PERIOD + SHOWN, "kind": "clear", "scene": k + 1})
        x0, y0, cell = grid_geometry(n, n)

        def paint(t: float) -> np.ndarray:
            img = blank()
            draw_grid(img, x0, y0, n, n, cell)
            k = int(t // PERIOD)
            if k < SCENES and t - k * PERIOD < SHOWN:
                for r, row in enumerate(grids[k]):
                    for c, thing in enumerate(row):
                        draw_thing(img, thing, x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell, unit=cell)
            return img

        params = {"I": n, "J": n, "scenes": SCENES, "period_s": PERIOD, "shown_s": SHOWN}
        return Episode("S1", level, params, events, paint, duration=style.DURATION)

    def questions(self, episode: Episode, rng: random.Random) -> list[Draft]:
        grids = grids_from_log(episode.events)
        builders: list[Callable[[Grid | list[Grid], random.Random], Draft | None]] = [
            q_largest_count, q_first_column_shape, q_total_count, q_common_attribute, q_same_attribute_scene,
            q_more_size, q_row_same_size, q_compare_shapes, q_row_same_colour,
        ]
        return first_drafts(builders, grids, rng)


def grids_from_log(events: list[dict]) -> list[Grid]:
    """The grid of every refresh, rebuilt from the log alone."""
    grids = []
    for e in events:
        if e["kind"] == "refresh":
            n = max(o["row"] for o in e["objects"])
            grid: Grid = [[None] * n for _ in range(n)]  # type: ignore[list-item]
            for o in e["objects"]:
                grid[o["row"] - 1][o["column"] - 1] = Thing(o["size"], o["colour"], o["shape"])
            grids.append(grid)
    return grids


def _things(grid: Grid) -> list[Thing]:
    return [t for row in grid for t in row]


def unique_max(counts: dict) -> object | None:
    """The key with the strictly largest count, or None on a tie."""
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def _scene_options(answer: int, rng: random.Random, template: str, question: str) -> Draft:
    others = [i for i in range(1, SCENES + 1) if i != answer]
    rng.shuffle(others)
    return shuffled(f"Scene {answer}", [f"Scene {i}" for i in others[:3]], rng, template, question)


def _yes_no(answer: bool, rng: random.Random, template: str, question: str) -> Draft:
    return shuffled(YES if answer else NO, [NO if answer else YES, UNSURE], rng, template, question)


def q_largest_count(grids: list[Grid], rng: random.Random) -> Draft | None:
    colour, shape = rng.choice(tuple(style.COLOURS)), rng.choice(style.SHAPES)
    counts = {i + 1: sum(t.colour == colour and t.shape == shape for t in _things(g)) for i, g in enumerate(grids)}
    best = unique_max(counts)
    if best is None:
        return None
    question = (f"Which scene contains the largest number of {colour} {shape} objects? "
                "(Scene 1 is the first grid shown, Scene 2 the second, and so on.)")
    return _scene_options(best, rng, "largest count of {color} {shape} over scenes", question)


def q_first_column_shape(grids: list[Grid], rng: random.Random) -> Draft | None:
    i = rng.randrange(1, SCENES + 1)
    best = unique_max(Counter(row[0].shape for row in grids[i - 1]))
    if best is None:
        return None
    question = f"Which shape appears most frequently in the first column of {scene_ref(i)}?"
    return shuffled(best, [s for s in style.SHAPES if s != best], rng, "most frequent shape in first column", question)


def q_total_count(grids: list[Grid], rng: random.Random) -> Draft | None:
    every = [t for g in grids for t in _things(g)]
    thing = rng.choice(every) if rng.random() < 0.85 else Thing.random(rng)
    total = sum(t == thing for t in every)
    question = f"What is the total count of {thing.name} objects across all scenes (all grids shown)?"
    return shuffled(total, near_numbers(total, rng), rng, "total count of {size}{color}{shape} across scenes", question)


def q_common_attribute(grids: list[Grid], rng: random.Random) -> Draft | None:
    i, size, attr = rng.randrange(1, SCENES + 1), rng.choice(style.SIZES), rng.choice(("color", "shape"))
    values = [getattr(t, ATTRS[attr]) for t in _things(grids[i - 1]) if t.size == size]
    best = unique_max(Counter(values))
    if best is None:
        return None
    pool = tuple(style.COLOURS) if attr == "color" else style.SHAPES
    question = f"In {scene_ref(i)}, which {attr} is most common among the {size} objects?"
    return shuffled(best, [v for v in pool if v != best], rng, "most common {attribute} among {size} objects", question)


def same_attribute_peak(grid: Grid, attr: str) -> int:
    return max(Counter(getattr(t, ATTRS[attr]) for t in _things(grid)).values())


def q_same_attribute_scene(grids: list[Grid], rng: random.Random) -> Draft | None:
    attr = rng.choice(tuple(ATTRS))
    best = unique_max({i + 1: same_attribute_peak(g, attr) for i, g in enumerate(grids)})
    if best is None:
        return None
    question = (f"In which scene does the grid contain the highest number of objects with the same {attr}? "
                "(Scene 1 is the first grid shown, Scene 2 the second, and so on.)")
    return _scene_options(best, rng, "scene with most same-{attribute} objects", question)


def q_more_size(grids: list[Grid], rng: random.Random) -> Draft | None:
    i = rng.randrange(1, SCENES + 1)
    s1, s2 = rng.sample(style.SIZES, 2)
    sizes = Counter(t.size for t in _things(grids[i - 1]))
    answer = s1 if sizes[s1] > sizes[s2] else s2 if sizes[s2] > sizes[s1] else EQUAL
    question = f"In {scene_ref(i)}, are there more {s1} objects or {s2} objects?"
    return shuffled(answer, [v for v in (s1, s2, EQUAL) if v != answer], rng, "more {size_1} or {size_2}", question)


def row_same_size_varied(grid: Grid) -> bool:
    return any(len({t.size for t in row}) == 1 and len({(t.colour, t.shape) for t in row}) > 1 for row in grid)


def row_same_colour_varied(grid: Grid) -> bool:
    return any(len({t.colour for t in row}) == 1 and len({t.shape for t in row}) > 1 for row in grid)


def _balanced_scene(grids: list[Grid], test: Callable[[Grid], bool], rng: random.Random) -> tuple[int, bool]:
    """A scene whose answer is Yes or No with equal chance (when both exist)."""
    want = rng.random() < 0.5
    fitting = [i + 1 for i, g in enumerate(grids) if test(g) == want] or list(range(1, SCENES + 1))
    i = rng.choice(fitting)
    return i, test(grids[i - 1])


def q_row_same_size(grids: list[Grid], rng: random.Random) -> Draft | None:
    i, answer = _balanced_scene(grids, row_same_size_varied, rng)
    question = (f"Is there a row in {scene_ref(i)} where all objects share the same size "
                "but vary in color or shape?")
    return _yes_no(answer, rng, "row sharing {size}, varying {color}/{shape}", question)


def q_compare_shapes(grids: list[Grid], rng: random.Random) -> Draft | None:
    i, j = sorted(rng.sample(range(1, SCENES + 1), 2))
    sh1, sh2 = rng.sample(style.SHAPES, 2)
    shapes = Counter(t.shape for g in (grids[i - 1], grids[j - 1]) for t in _things(g))
    answer = sh1 if shapes[sh1] > shapes[sh2] else sh2 if shapes[sh2] > shapes[sh1] else EQUAL
    question = (f"Between Scene {i} and Scene {j} (the {ORDINALS[i - 1]} and {ORDINALS[j - 1]} grids shown), "
                f"which shape appears more frequently: {sh1} or {sh2}?")
    return shuffled(answer, [v for v in (sh1, sh2, EQUAL) if v != answer], rng, "Scene i vs j: which shape more",
                    question)


def q_row_same_colour(grids: list[Grid], rng: random.Random) -> Draft | None:
    i, answer = _balanced_scene(grids, row_same_colour_varied, rng)
    question = f"Does {scene_ref(i)} contain any rows where all objects share the same color but differ in shape?"
    return _yes_no(answer, rng, "rows sharing {color}, differing {shape}", question)


SCENE = ChameleonGrid()
