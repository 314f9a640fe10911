"""S8 Maze Runner (GP): simulation, drawing and Table 31 question templates.

Table 9: I (length, rows) x J (width, columns) = 3x3 / 5x5 / 8x8 (Easy / Medium / Hard).

Choices the paper leaves open (documented here, read by the answer side's wording only):
- Maze: a recursive-backtracker (perfect) maze on the I x J cells, drawn as grey walls on
  the cell boundaries with a closed outer wall; Medium and Hard then open 1 / 3 extra
  inner walls so some routes form loops. Start (green square, the player) and goal (red
  square) are distinct cells at least 2 / 4 / 7 steps apart.
- Player policy: the shortest path, into which 0-2 detours are spliced (with chance 0.7 for
  the first): at a cell on the way the player steps 1-3 cells into an open side branch
  (never onto a cell of its route, so the goal is entered once, at the end) and walks
  back, so a path may be longer than the shortest one. At most 26 / 32 / 42 steps so the
  walk fits the 30 s video.
- Timing: the player rests 1 s on the start cell, then takes one step per 1.0 / 0.8 /
  0.6 s: a 0.2 s slide to the neighbouring cell and a rest, so every step is countable.
  On the goal the player (drawn over it) stays until the end.
- Moves are written U / D / L / R (up, down, left, right), sequences as "R, D, D, R".
- "Is there a scene where the player fails to solve the maze within N steps" becomes
  "Does the player reach the goal within {n} steps?" (n within 3 of the steps taken);
  Yes / No carry a third option, "Cannot be determined" (a Draft needs 3-5).
- The shortest path length is BFS over the maze, kept in Episode.facts.
"""
from __future__ import annotations

import random
from collections import deque

import cv2
import numpy as np

from eval.videocogqa import style
from eval.videocogqa.base import Draft, Episode, blank, draw_shape, grid_geometry, near_numbers, shuffled

SIZE = {"Easy": 3, "Medium": 5, "Hard": 8}  # I = J per level (Table 9)
EXTRA_OPENINGS = {"Easy": 0, "Medium": 1, "Hard": 3}
MIN_DISTANCE = {"Easy": 2, "Medium": 4, "Hard": 7}
STEP_S = {"Easy": 1.0, "Medium": 0.8, "Hard": 0.6}
SLIDE_S = 0.2
START_S = 1.0
PLAYER_FRACTION = 0.5  # of the cell side
MOVES = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
YES, NO, UNSURE = "Yes", "No", "Cannot be determined"

Cell = tuple[int, int]


def max_steps(level: str) -> int:
    return int((style.DURATION - START_S - 2.0) / STEP_S[level])


def carve(rows: int, cols: int, extra: int, rng: random.Random) -> set[frozenset[Cell]]:
    """Open passages (pairs of adjacent cells): a perfect maze plus `extra` loop openings."""
    seen, stack, opened = {(0, 0)}, [(0, 0)], set()
    while stack:
        r, c = stack[-1]
        nxt = [(r + dr, c + dc) for dr, dc in MOVES.values()
               if 0 <= r + dr < rows and 0 <= c + dc < cols and (r + dr, c + dc) not in seen]
        if not nxt:
            stack.pop()
            continue
        cell = rng.choice(nxt)
        opened.add(frozenset(((r, c), cell)))
        seen.add(cell)
        stack.append(cell)
    walls = [frozenset(((r, c), (r + dr, c + dc))) for r in range(rows) for c in range(cols)
             for dr, dc in ((0, 1), (1, 0)) if r + dr < rows and c + dc < cols]
    closed = [w for w in walls if w not in opened]
    rng.shuffle(closed)
    return opened | set(closed[:extra])


def open_neighbours(cell: Cell, opened: set[frozenset[Cell]]) -> list[Cell]:
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in MOVES.values() if frozenset((cell, (r + dr, c + dc))) in opened]


def bfs_path(start: Cell, goal: Cell, opened: set[frozenset[Cell]]) -> list[Cell]:
    prev: dict[Cell, Cell | None] = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == goal:
            break
        for n in open_neighbours(cell, opened):
            if n not in prev:
                prev[n] = cell
                queue.append(n)
    path: list[Cell] = []
    node: Cell | None = goal
    while node is not None:
        path.append(node)
        node = prev[node]
    return path[::-1]


def move_of(a: Cell, b: Cell) -> str:
    return next(k for k, d in MOVES.items() if (b[0] - a[0], b[1] - a[1]) == d)


def with_detours(path: list[Cell], opened: set[frozenset[Cell]], rng: random.Random, cap: int) -> list[Cell]:
    """The path with 0-2 out-and-back excursions into side branches spliced in."""
    out = list(path)
    for chance in (0.7, 0.35):
        if rng.random() >= chance:
            break
        spots = [i for i in range(len(out) - 1) if [n for n in open_neighbours(out[i], opened) if n not in out]]
        if not spots:
            break
        i = rng.choice(spots)
        branch = [out[i]]
        for _ in range(rng.randint(1, 3)):
            nxt = [n for n in open_neighbours(branch[-1], opened) if n not in out and n not in branch]
            if not nxt:
                break
            branch.append(rng.choice(nxt))
        trip = branch[1:] + branch[-2::-1]  # out to the branch's end and back to out[i]
        if len(out) - 1 + len(trip) <= cap:
            out = out[:i + 1] + trip + out[i + 1:]
    return out


class MazeRunner:
    code, title, ability, levels = "S8", "Maze Runner", "GP", ("Easy", "Medium", "Hard")

    def simulate(self, level: str, rng: random.Random) -> Episode:
        n = SIZE[level]
        opened = carve(n, n, EXTRA_OPENINGS[level], rng)
        cells = [(r, c) for r in range(n) for c in range(n)]
        while True:
            start, goal = rng.sample(cells, 2)
            shortest = bfs_path(start, goal, opened)
            if MIN_DISTANCE[level] <= len(shortest) - 1 <= max_steps(level):
                break
        route = with_detours(shortest, opened, rng, max_steps(level))
        step = STEP_S[level]
        events: list[dict] = [{"t": 0.0, "kind": "maze", "rows": n, "cols": n, "start": list(start),
                               "goal": list(goal), "passages": sorted(sorted(map(list, p)) for p in opened)}]
        for k, (a, b) in enumerate(zip(route, route[1:])):
            events.append({"t": round(START_S + k * step, 3), "kind": "move", "move": move_of(a, b),
                           "from": list(a), "to": list(b)})
        events.append({"t": round(START_S + (len(route) - 2) * step + SLIDE_S, 3), "kind": "goal", "steps": len(route) - 1})
        x0, y0, cell = grid_geometry(n, n, margin=12)
        walls = _wall_lines(n, opened, x0, y0, cell)

        def centre(rc: Cell) -> tuple[float, float]:
            return x0 + (rc[1] + 0.5) * cell, y0 + (rc[0] + 0.5) * cell

        def player_at(t: float) -> tuple[float, float]:
            k = int((t - START_S) // step) if t >= START_S else -1
            if k < 0:
                return centre(route[0])
            if k >= len(route) - 1:
                return centre(route[-1])
            f = min(1.0, (t - START_S - k * step) / SLIDE_S)
            (ax, ay), (bx, by) = centre(route[k]), centre(route[k + 1])
            return ax + f * (bx - ax), ay + f * (by - ay)

        def paint(t: float) -> np.ndarray:
            img = blank()
            for p, q in walls:
                cv2.line(img, p, q, style.LINE, 2)
            draw_shape(img, "square", "red", *centre(goal), PLAYER_FRACTION * cell)
            draw_shape(img, "square", "green", *player_at(t), PLAYER_FRACTION * cell)
            return img

        params = {"I": n, "J": n, "step_s": step, "extra_openings": EXTRA_OPENINGS[level]}
        facts = {"shortest_path": len(shortest) - 1, "start": list(start), "goal": list(goal)}
        return Episode("S8", level, params, events, paint, duration=style.DURATION, facts=facts)

    def questions(self, episode: Episode, rng: random.Random) -> list[Draft]:
        moves = [e["move"] for e in episode.events if e["kind"] == "move"]
        builders = [q_sequence, q_steps, q_axis_moves, q_shortest, q_within]
        rng.shuffle(builders)
        return [build(moves, episode.facts["shortest_path"], rng) for build in builders]


def _wall_lines(n: int, opened: set[frozenset[Cell]], x0: float, y0: float, cell: float) -> list[tuple]:
    def pt(x: float, y: float) -> tuple[int, int]:
        return round(x), round(y)
    lines = [(pt(x0, y0), pt(x0 + n * cell, y0)), (pt(x0, y0 + n * cell), pt(x0 + n * cell, y0 + n * cell)),
             (pt(x0, y0), pt(x0, y0 + n * cell)), (pt(x0 + n * cell, y0), pt(x0 + n * cell, y0 + n * cell))]
    for r in range(n):
        for c in range(n):
            if c + 1 < n and frozenset(((r, c), (r, c + 1))) not in opened:
                x = x0 + (c + 1) * cell
                lines.append((pt(x, y0 + r * cell), pt(x, y0 + (r + 1) * cell)))
            if r + 1 < n and frozenset(((r, c), (r + 1, c))) not in opened:
                y = y0 + (r + 1) * cell
                lines.append((pt(x0 + c * cell, y), pt(x0 + (c + 1) * cell, y)))
    return lines


MOVE_KEY = "(U = up, D = down, L = left, R = right)"


def q_sequence(moves: list[str], shortest: int, rng: random.Random) -> Draft:
    variants: list[list[str]] = []
    flip = {"U": "D", "D": "U", "L": "R", "R": "L"}
    variants.append([flip[m] for m in reversed(moves)])  # the walk from the goal back to the start
    for _ in range(40):
        alt = list(moves)
        i = rng.randrange(len(alt))
        if rng.random() < 0.5 and len(alt) > 1:
            j = min(i + 1, len(alt) - 1) if i + 1 < len(alt) else i - 1
            alt[i], alt[j] = alt[j], alt[i]
        else:
            alt[i] = rng.choice([m for m in MOVES if m != alt[i]])
        if alt != moves and alt not in variants:
            variants.append(alt)
        if len(variants) >= 5:
            break
    fmt = ", ".join
    distractors = [fmt(v) for v in variants if v != moves]
    rng.shuffle(distractors)
    question = f"Describe the player's full sequence of movements {MOVE_KEY}."
    return shuffled(fmt(moves), distractors[:3], rng, "full sequence of movements", question)


def q_steps(moves: list[str], shortest: int, rng: random.Random) -> Draft:
    n = len(moves)
    question = "How many steps did the player take to solve the maze?"
    return shuffled(n, near_numbers(n, rng, low=1), rng, "steps taken to solve", question)


def q_axis_moves(moves: list[str], shortest: int, rng: random.Random) -> Draft:
    if rng.random() < 0.5:
        n, question = sum(m in "UD" for m in moves), "How many times did the player move upward or downward?"
    else:
        n, question = sum(m in "LR" for m in moves), "How many times did the player move left or right?"
    return shuffled(n, near_numbers(n, rng), rng, "times moved up/down or left/right", question)


def q_shortest(moves: list[str], shortest: int, rng: random.Random) -> Draft:
    others = near_numbers(shortest, rng, low=1)
    if len(moves) != shortest:
        others = [len(moves)] + [o for o in others if o != len(moves)][:2]
    question = "What is the length (in steps) of the shortest path to solve the maze?"
    return shuffled(shortest, others, rng, "length of the shortest path", question)


def q_within(moves: list[str], shortest: int, rng: random.Random) -> Draft:
    n = max(1, len(moves) + rng.choice((-3, -2, -1, 0, 1, 2, 3)))
    answer = len(moves) <= n
    question = f"Does the player reach the goal of the maze within {n} steps?"
    return shuffled(YES if answer else NO, [NO if answer else YES, UNSURE], rng,
                    "fails to solve within N steps", question)


SCENE = MazeRunner()
