"""S5 Flash Grid (SR): simulation, drawing and Table 31 question templates.

Table 9: I (cells per row) x J (cells per column) = 2x2 / 5x5 / 8x8 (Easy / Medium / Hard).

Choices the paper leaves open:
- Objects come from a pool of 5 identities per video, distinct in colour + shape (so
  "the red circle" names one identity; its size is fixed and never asked).
- 19 flashes, one every 1.5 s from t = 0.5 s: each is visible 1.0 s, then the grid is
  empty for 0.5 s. A flash shows one object in a random cell and, with probability 0.4
  (never the first flash), a companion of another identity in a 4-neighbour cell, shown and
  hidden together. An occurrence is any appearance of an identity (alone or as either
  member of a pair); "the object in the adjacent cell to the {direction}" is what stands
  in that neighbouring cell during that occurrence, or "No object".
- Cells are named "row r, column c", 1-based from the top-left.
- "In which row does X appear most frequently": counted over X's occurrences; on a 2-row
  grid the option "Equally often" may be the answer, on larger grids ties are skipped.
- Yes/No questions carry a third option, "Cannot be determined" (a Draft needs 3-5).
"""
from __future__ import annotations

import random
from collections import Counter

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
POOL = 5
FLASHES = 19
FIRST, PERIOD, SHOWN = 0.5, 1.5, 1.0  # seconds
PAIR_CHANCE = 0.4
YES, NO, UNSURE = "Yes", "No", "Cannot be determined"
NOTHING, EQUALLY = "No object", "Equally often"
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
DIRECTIONS = {"left": ((0, -1), "to the left"), "right": ((0, 1), "to the right"),
              "up": ((-1, 0), "above"), "down": ((1, 0), "below")}

Cell = tuple[int, int]  # (row, column), 1-based


def cell_name(cell: Cell) -> str:
    return f"row {cell[0]}, column {cell[1]}"


def neighbours(cell: Cell, n: int) -> dict[str, Cell]:
    out = {}
    for name, ((dr, dc), _) in DIRECTIONS.items():
        r, c = cell[0] + dr, cell[1] + dc
        if 1 <= r <= n and 1 <= c <= n:
            out[name] = (r, c)
    return out


class FlashGrid:
    code, title, ability, levels = "S5", "Flash Grid", "SR", ("Easy", "Medium", "Hard")

    def simulate(self, level: str, rng: random.Random) -> Episode:
        n = GRID[level]
        kinds = rng.sample([(c, s) for c in style.COLOURS for s in style.SHAPES], POOL)
        pool = [Thing(rng.choice(style.SIZES), c, s) for c, s in kinds]
        flashes: list[list[tuple[Thing, Cell]]] = []
        for k in range(FLASHES):
            thing = rng.choice(pool)
            cell = (rng.randint(1, n), rng.randint(1, n))
            shown = [(thing, cell)]
            if k > 0 and rng.random() < PAIR_CHANCE:
                other = rng.choice([p for p in pool if p != thing])
                shown.append((other, rng.choice(list(neighbours(cell, n).values()))))
            flashes.append(shown)
        events = []
        for k, shown in enumerate(flashes):
            t = FIRST + k * PERIOD
            objects = [{"name": th.short, "size": th.size, "colour": th.colour, "shape": th.shape,
                        "row": cell[0], "column": cell[1]} for th, cell in shown]
            events.append({"t": t, "kind": "flash", "flash": k + 1, "objects": objects})
            events.append({"t": t + SHOWN, "kind": "hide", "flash": k + 1})
        x0, y0, size = grid_geometry(n, n)

        def paint(t: float) -> np.ndarray:
            img = blank()
            draw_grid(img, x0, y0, n, n, size)
            k = int((t - FIRST) // PERIOD) if t >= FIRST else -1
            if 0 <= k < FLASHES and t - (FIRST + k * PERIOD) < SHOWN:
                for thing, (r, c) in flashes[k]:
                    draw_thing(img, thing, x0 + (c - 0.5) * size, y0 + (r - 0.5) * size, unit=size)
            return img

        params = {"I": n, "J": n, "pool": POOL, "flashes": FLASHES, "period_s": PERIOD, "shown_s": SHOWN,
                  "pair_chance": PAIR_CHANCE}
        return Episode("S5", level, params, events, paint, duration=style.DURATION)

    def questions(self, episode: Episode, rng: random.Random) -> list[Draft]:
        log = Log(episode.events, episode.params["I"])
        builders = [q_first_object, q_first_cell, q_any_in_line, q_most_line, q_unique_cells, q_adjacent]
        return first_drafts(builders, log, rng)


class Log:
    """The flashes as read back from the event log: [(short name, cell, size)] per flash."""

    def __init__(self, events: list[dict], n: int):
        self.n = n
        self.flashes = [[(o["name"], (o["row"], o["column"])) for o in e["objects"]]
                        for e in events if e["kind"] == "flash"]
        self.names = sorted({name for f in self.flashes for name, _ in f})

    def occurrences(self, name: str) -> list[tuple[int, Cell]]:
        return [(k, cell) for k, f in enumerate(self.flashes) for nm, cell in f if nm == name]


def _other_names(answer: str, log: Log, rng: random.Random, k: int = 3) -> list[str]:
    others = [nm for nm in log.names if nm != answer]
    extra = [f"{c} {s}" for c in style.COLOURS for s in style.SHAPES if f"{c} {s}" not in log.names]
    rng.shuffle(others)
    rng.shuffle(extra)
    return (others + extra)[:k]


def _other_cells(answer: Cell, n: int, rng: random.Random, k: int = 3) -> list[str]:
    cells = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1) if (r, c) != answer]
    rng.shuffle(cells)
    return [cell_name(c) for c in cells[:k]]


def q_first_object(log: Log, rng: random.Random) -> Draft | None:
    name = log.flashes[0][0][0]
    question = "What is the shape and color of the first object that appears in the grid?"
    return shuffled(name, _other_names(name, log, rng), rng, "first object's shape and colour", question)


def q_first_cell(log: Log, rng: random.Random) -> Draft | None:
    cell = log.flashes[0][0][1]
    question = "In which cell position (row, column, counted from the top-left) does the first object appear in the grid?"
    return shuffled(cell_name(cell), _other_cells(cell, log.n, rng), rng, "cell of the first object", question)


def any_in_line(log: Log, attr: str, value: str, line: str, i: int) -> bool:
    index, position = (0 if line == "row" else 1), (1 if attr == "shape" else 0)
    return any(cell[index] == i and nm.split()[position] == value for f in log.flashes for nm, cell in f)


def q_any_in_line(log: Log, rng: random.Random) -> Draft | None:
    """Yes and No equally likely (a 2x2 grid would otherwise answer Yes nearly always)."""
    want = rng.random() < 0.5
    combos = [(attr, value, line, i) for attr, values in (("shape", style.SHAPES), ("color", tuple(style.COLOURS)))
              for value in values for line in ("row", "column") for i in range(1, log.n + 1)]
    rng.shuffle(combos)
    attr, value, line, i = next((c for c in combos if any_in_line(log, *c) == want), combos[0])
    answer = any_in_line(log, attr, value, line, i)
    question = f"Is there any {value} object located in {line} {i} of the grid at any time during the video?"
    return shuffled(YES if answer else NO, [NO if answer else YES, UNSURE], rng,
                    "any {shape}/{color} object in row i / column j", question)


def q_most_line(log: Log, rng: random.Random) -> Draft | None:
    name = rng.choice(log.names)
    line = rng.choice(("row", "column"))
    counts = Counter(cell[0 if line == "row" else 1] for _, cell in log.occurrences(name))
    ranked = counts.most_common()
    tie = len(ranked) > 1 and ranked[0][1] == ranked[1][1]
    question = f"In which {line} of the grid does the {name} appear most frequently?"
    template = "row/column where {object} appears most"
    if log.n == 2:
        answer = EQUALLY if tie else f"{line} {ranked[0][0]}"
        return shuffled(answer, [v for v in (f"{line} 1", f"{line} 2", EQUALLY) if v != answer], rng, template,
                        question)
    if tie:
        return None
    best = ranked[0][0]
    others = [i for i in range(1, log.n + 1) if i != best]
    rng.shuffle(others)
    return shuffled(f"{line} {best}", [f"{line} {i}" for i in others[:3]], rng, template, question)


def q_unique_cells(log: Log, rng: random.Random) -> Draft | None:
    count = len({cell for f in log.flashes for _, cell in f})
    wrong = [v for v in near_numbers(count, rng, k=6, low=1) if v <= log.n * log.n][:3]
    question = "How many unique cell positions of the grid are occupied by objects throughout the video?"
    return shuffled(count, wrong, rng, "number of unique cells occupied", question)


def q_adjacent(log: Log, rng: random.Random) -> Draft | None:
    paired = [k for k, f in enumerate(log.flashes) if len(f) > 1]
    if not paired:
        return None
    k = rng.choice(paired)
    name, cell = rng.choice(log.flashes[k])
    nth = next(i for i, (kk, _) in enumerate(log.occurrences(name)) if kk == k)
    if nth >= len(ORDINALS):
        return None
    around = neighbours(cell, log.n)
    others = {c: nm for nm, c in log.flashes[k] if nm != name}
    toward = [d for d, c in around.items() if c in others]
    away = [d for d, c in around.items() if c not in others]
    direction = rng.choice(toward if (rng.random() < 0.7 or not away) else away)
    answer = others.get(around[direction], NOTHING)
    question = (f"For the {ORDINALS[nth]} occurrence of the {name}, what is the object in the adjacent cell "
                f"{DIRECTIONS[direction][1]}?")
    wrong = [nm for nm in _other_names(answer, log, rng, 4) if nm != name][:2]
    if answer != NOTHING:
        wrong.append(NOTHING)
    return shuffled(answer, wrong, rng, "i-th occurrence: object in the adjacent cell", question)


SCENE = FlashGrid()
