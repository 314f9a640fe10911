"""S8 Maze Runner: Table 31 templates answered from the perceived symbolic timeline.

The maze is rebuilt from perception alone. A maze's inner walls are partial, so full-extent
grid lines give at most its outer box; the cell side comes from the player instead: it
moves one cell per step, so the typical distance between two consecutive resting places
is a cell. The box over the cell side gives rows and columns, and a wall stands between
two neighbouring cells when an axis-aligned grey segment covers the middle of their shared
side. The player is the green square, the goal the red one; moves are the player's cell
changes; the shortest path is BFS over the perceived passages.
"""
from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass

from skills.videocogqa.programs.templates import Solved, Template, described
from skills.videocogqa.symbols import Segment, SymbolShape
from skills.videocogqa.timeline import SymbolicTimeline

Cell = tuple[int, int]
STEPS = {(-1, 0): "U", (1, 0): "D", (0, -1): "L", (0, 1): "R"}


@dataclass(frozen=True)
class Maze:
    x0: float
    y0: float
    cw: float  # cell width and height, pixels
    ch: float
    rows: int
    cols: int
    walls: frozenset[frozenset[Cell]]  # pairs of neighbouring cells with a wall between

    def cell_of(self, x: float, y: float) -> Cell:
        r = min(self.rows - 1, max(0, int((y - self.y0) // self.ch)))
        c = min(self.cols - 1, max(0, int((x - self.x0) // self.cw)))
        return r, c

    def neighbours(self, cell: Cell) -> list[Cell]:
        r, c = cell
        out = []
        for dr, dc in STEPS:
            n = (r + dr, c + dc)
            if 0 <= n[0] < self.rows and 0 <= n[1] < self.cols and frozenset((cell, n)) not in self.walls:
                out.append(n)
        return out

    def shortest(self, start: Cell, goal: Cell) -> int | None:
        dist = {start: 0}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            if cell == goal:
                return dist[cell]
            for n in self.neighbours(cell):
                if n not in dist:
                    dist[n] = dist[cell] + 1
                    queue.append(n)
        return None


@dataclass(frozen=True)
class Run:
    maze: Maze
    start: Cell
    goal: Cell
    moves: tuple[str, ...]  # U/D/L/R until the goal is reached
    times: tuple[float, ...]  # when each move landed


def _largest(shapes: tuple[SymbolShape, ...], colour: str) -> SymbolShape | None:
    found = [s for s in shapes if s.colour == colour and s.shape == "square"]
    return max(found, key=lambda s: s.area) if found else None


def player_points(tl: SymbolicTimeline) -> list[tuple[float, float, float]]:
    return [(f.t, s.cx, s.cy) for f in tl.frames if (s := _largest(f.shapes, "green")) is not None]


def rests(points: list[tuple[float, float, float]], still: float = 1.5) -> list[tuple[float, float, float]]:
    """Places the player stayed at for two frames or more (one entry per stay)."""
    out: list[tuple[float, float, float]] = []
    for (_, xa, ya), (t, xb, yb) in zip(points, points[1:]):
        if abs(xb - xa) <= still and abs(yb - ya) <= still:
            if not out or abs(out[-1][1] - xb) > still or abs(out[-1][2] - yb) > still:
                out.append((t, xb, yb))
    return out


def cell_side(points: list[tuple[float, float, float]]) -> float | None:
    """The median distance between consecutive resting places: one step, one cell."""
    stays = rests(points)
    steps = sorted(max(abs(b[1] - a[1]), abs(b[2] - a[2])) for a, b in zip(stays, stays[1:]))
    return steps[len(steps) // 2] if steps else None


def _axis(segments: tuple[Segment, ...]) -> tuple[list[Segment], list[Segment]]:
    hs = [s for s in segments if abs(s.y1 - s.y0) <= 2 and abs(s.x1 - s.x0) > 2]
    vs = [s for s in segments if abs(s.x1 - s.x0) <= 2 and abs(s.y1 - s.y0) > 2]
    return hs, vs


def build_maze(tl: SymbolicTimeline, side: float) -> Maze | None:
    hs, vs = _axis(tl.layout.segments)
    if not hs or not vs:
        return None
    left = min(min(s.x0, s.x1) for s in hs)
    right = max(max(s.x0, s.x1) for s in hs)
    top = min(min(s.y0, s.y1) for s in vs)
    bottom = max(max(s.y0, s.y1) for s in vs)
    cols, rows = max(1, round((right - left) / side)), max(1, round((bottom - top) / side))
    cw, ch = (right - left) / cols, (bottom - top) / rows
    tol = 0.2 * min(cw, ch)

    def covered(lines: list[Segment], across: float, along: float, vertical: bool) -> bool:
        for s in lines:
            pos, a, b = (s.x0, s.y0, s.y1) if vertical else (s.y0, s.x0, s.x1)
            if abs(pos - across) <= tol and min(a, b) - 2 <= along <= max(a, b) + 2:
                return True
        return False

    walls = set()
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols and covered(vs, left + (c + 1) * cw, top + (r + 0.5) * ch, True):
                walls.add(frozenset(((r, c), (r, c + 1))))
            if r + 1 < rows and covered(hs, top + (r + 1) * ch, left + (c + 0.5) * cw, False):
                walls.add(frozenset(((r, c), (r + 1, c))))
    return Maze(left, top, cw, ch, rows, cols, frozenset(walls))


def maze_run(tl: SymbolicTimeline) -> Run | None:
    """The perceived maze, start, goal and the player's moves up to the goal."""
    points = player_points(tl)
    side = cell_side(points)
    if not points or side is None or side < 4:
        return None
    maze = build_maze(tl, side)
    goals = [s for f in tl.frames[:max(1, len(tl.frames) // 10)] if (s := _largest(f.shapes, "red"))]
    if maze is None or not goals:
        return None
    goal_shape = goals[len(goals) // 2]
    goal = maze.cell_of(goal_shape.cx, goal_shape.cy)
    cells: list[tuple[Cell, float]] = []
    for t, x, y in points:
        cell = maze.cell_of(x, y)
        if not cells or cells[-1][0] != cell:
            cells.append((cell, t))
        if cell == goal:
            break
    moves: list[str] = []
    times: list[float] = []
    for (a, _), (b, t) in zip(cells, cells[1:]):
        dr, dc = b[0] - a[0], b[1] - a[1]
        if dr and dc:  # a diagonal jump: frames were lost mid-move; nothing safe to add
            continue
        n = abs(dr) + abs(dc)
        moves += [STEPS[(dr // n, dc // n)]] * n
        times += [t] * n
    return Run(maze, cells[0][0], goal, tuple(moves), tuple(times))


def _run(solve):
    def go(tl: SymbolicTimeline, m: re.Match[str]) -> Solved | None:
        run = maze_run(tl)
        return None if run is None else solve(run, m)
    return go


def _sequence(run: Run, m: re.Match[str]) -> Solved:
    return Solved(", ".join(run.moves), run.times, f"{run.maze.rows}x{run.maze.cols} maze: {' '.join(run.moves)}")


def _steps(run: Run, m: re.Match[str]) -> Solved:
    return Solved(len(run.moves), run.times, f"{len(run.moves)} steps from {run.start} to {run.goal}")


def _axis_moves(run: Run, m: re.Match[str]) -> Solved:
    wanted = "UD" if m.group(1).lower().startswith("up") else "LR"
    n = sum(mv in wanted for mv in run.moves)
    return Solved(n, tuple(t for t, mv in zip(run.times, run.moves) if mv in wanted), f"{n} moves along {wanted}")


def _shortest(run: Run, m: re.Match[str]) -> Solved | None:
    n = run.maze.shortest(run.start, run.goal)
    if n is None:
        return None
    return Solved(n, run.times[:1], f"BFS over the perceived {run.maze.rows}x{run.maze.cols} maze: {n} steps")


def _within(run: Run, m: re.Match[str]) -> Solved:
    n = int(m.group(1))
    return Solved(len(run.moves) <= n, run.times, f"goal reached after {len(run.moves)} steps (limit {n})")


def _template(name: str, pattern: str, solve) -> Template:
    return Template("S8", name, re.compile(pattern, re.I), _run(solve))


TEMPLATES: list[Template] = [
    _template("full sequence of movements", r"player's full sequence of movements", _sequence),
    _template("steps taken to solve", r"how many steps did the player take to solve the maze", _steps),
    _template("times moved up/down or left/right",
              r"how many times did the player move (upward or downward|up or down|left or right)", _axis_moves),
    _template("length of the shortest path", r"shortest path to solve the maze", _shortest),
    _template("fails to solve within N steps", r"reach the goal of the maze within (\d+) steps", _within),
]

FORMS = {  # name -> (asked, about): recognition by meaning, skills/videocogqa/programs/recognise.py
    "full sequence of movements": ("player's full sequence of movements", (
        "every move the player makes through the maze, in order, as letters",
        "the list of up, down, left and right moves the runner takes", "the player's route as a move string")),
    "steps taken to solve": ("how many steps did the player take to solve the maze", (
        "number of moves the runner needs to reach the goal", "length of the player's own route through the maze",
        "count the player's steps to the exit")),
    "times moved up/down or left/right": ("how many times did the player move {axis}", (
        "number of vertical moves the runner makes", "how many horizontal steps the player takes",
        "count the player's moves along one axis")),
    "length of the shortest path": ("shortest path to solve the maze", (
        "the minimum number of steps from start to goal", "length of the optimal route through the maze",
        "fewest moves needed to solve the maze")),
    "fails to solve within N steps": ("reach the goal of the maze within {number} steps", (
        "whether the runner gets to the exit in at most a given number of moves",
        "is the maze solved inside a step budget", "does the player finish within some number of steps")),
}
TEMPLATES = described(TEMPLATES, FORMS)
