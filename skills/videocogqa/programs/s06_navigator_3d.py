"""S6 3D Navigator: Table 31 templates answered from the perceived symbolic timeline.

The solid is rebuilt from perception alone: vertices are the white dots that stay put
(clustered over all frames, since the ball hides the one it sits on), 8 dots make a cube
and 5 a pyramid, and letters follow the scene's positional convention (stated in its HUD
legend): a cube's dots lie on four heights, two each (back top E F, front top A B, back
bottom H G, front bottom D C, left to right); a pyramid's apex E is the highest dot, its
front base A B the two lowest, its back base D C the other two. The ball's path is the
sequence of vertices it comes close to (see `_reach`).
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from itertools import combinations

from skills.videocogqa.programs.templates import Solved, Template, described
from skills.videocogqa.timeline import SymbolicTimeline

Point = tuple[float, float]
CUBE_EDGES = ("AB", "BC", "CD", "AD", "EF", "FG", "GH", "EH", "AE", "BF", "CG", "DH")
PYRAMID_EDGES = ("AB", "BC", "CD", "AD", "AE", "BE", "CE", "DE")
DOT_MAX_EXTENT = 14.0  # pixels: vertex dots are ~10 px; anything bigger is not a dot
MERGE = 6.0  # pixels: dot sightings this close are one vertex


@dataclass(frozen=True)
class Walk:
    solid: str
    vertices: tuple[str, ...]  # visited in order, the start first
    times: tuple[float, ...]  # when each was reached

    @property
    def edges(self) -> list[str]:
        return [edge_name(a, b) for a, b in zip(self.vertices, self.vertices[1:])]


def edge_name(a: str, b: str) -> str:
    return "-".join(sorted((a, b)))


def vertex_dots(tl: SymbolicTimeline, min_frames: int = 8) -> list[Point]:
    """Positions of the white dots that stay put. The ball hides the dot it rests on, often
    for most of the video, so a dot needs only `min_frames` sightings; if more or fewer
    than a solid's 8 or 5 remain, the most-seen 8 (or 5) are kept."""
    clusters: list[list[float]] = []  # [sum x, sum y, count]
    for f in tl.frames:
        for s in f.shapes:
            if s.colour != "white" or s.extent > DOT_MAX_EXTENT:
                continue
            for c in clusters:
                if abs(c[0] / c[2] - s.cx) <= MERGE and abs(c[1] / c[2] - s.cy) <= MERGE:
                    c[0], c[1], c[2] = c[0] + s.cx, c[1] + s.cy, c[2] + 1
                    break
            else:
                clusters.append([s.cx, s.cy, 1])
    clusters.sort(key=lambda c: -c[2])
    steady = [c for c in clusters if c[2] >= min_frames]
    if len(steady) not in (5, 8):
        steady = clusters[:8] if len(steady) > 8 or len(clusters) >= 8 else clusters[:5]
    return [(x / n, y / n) for x, y, n in steady]


def name_vertices(dots: list[Point]) -> tuple[str, dict[str, Point]] | None:
    """(solid, letter -> position) by the scene's positional convention, or None."""
    by_y = sorted(dots, key=lambda p: p[1])
    if len(dots) == 8:
        names: dict[str, Point] = {}
        for level, letters in enumerate(("EF", "AB", "HG", "DC")):
            left, right = sorted(by_y[2 * level:2 * level + 2])
            names[letters[0]], names[letters[1]] = left, right
        return "cube", names
    if len(dots) == 5:
        back_left, back_right = sorted(by_y[1:3])
        front_left, front_right = sorted(by_y[3:5])
        return "pyramid", {"A": front_left, "B": front_right, "C": back_right, "D": back_left, "E": by_y[0]}
    return None


def _neighbours(solid: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for a, b in (CUBE_EDGES if solid == "cube" else PYRAMID_EDGES):
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return out


def _gap(p: Point, a: Point, b: Point) -> float:
    """Distance from p to the segment a-b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    f = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / max(1e-9, dx * dx + dy * dy)))
    return ((a[0] + f * dx - p[0]) ** 2 + (a[1] + f * dy - p[1]) ** 2) ** 0.5


def _reach(solid: str, pos: dict[str, Point]) -> float:
    """How near the ball must come to a vertex to be on it: a third of the closest vertex
    spacing, and under half the gap between any vertex and an edge passing by it (a
    pyramid's lateral edge runs close to a base vertex)."""
    spacing = min(_gap(a, b, b) for a, b in combinations(pos.values(), 2))
    clear = min((_gap(pos[k], pos[a], pos[b]) for a, b in (CUBE_EDGES if solid == "cube" else PYRAMID_EDGES)
                 for k in pos if k not in (a, b)), default=spacing)
    return min(spacing / 3, clear / 2)


def ball_walk(tl: SymbolicTimeline) -> Walk | None:
    """The vertices the red ball visits, in order (consecutive repeats merged; a vertex
    skipped between two frames is restored when one common neighbour explains it)."""
    named = name_vertices(vertex_dots(tl))
    if named is None:
        return None
    solid, pos = named
    reach = _reach(solid, pos)
    seen: list[tuple[str, float]] = []
    for f in tl.frames:
        balls = [s for s in f.shapes if s.colour == "red"]
        if not balls:
            continue
        ball = max(balls, key=lambda s: s.area)
        name, d = min(((k, ((x - ball.cx) ** 2 + (y - ball.cy) ** 2) ** 0.5) for k, (x, y) in pos.items()),
                      key=lambda kv: kv[1])
        if d <= reach and (not seen or seen[-1][0] != name):
            seen.append((name, f.t))
    if not seen:
        return None
    nb = _neighbours(solid)
    path = [seen[0]]
    for name, t in seen[1:]:
        prev = path[-1][0]
        if name not in nb[prev]:
            between = sorted(nb[prev] & nb[name])
            if len(between) == 1:
                path.append((between[0], (path[-1][1] + t) / 2))
        path.append((name, t))
    return Walk(solid, tuple(v for v, _ in path), tuple(t for _, t in path))


def _walked(solve):
    def run(tl: SymbolicTimeline, m: re.Match[str]) -> Solved | None:
        walk = ball_walk(tl)
        if walk is None or len(walk.vertices) < 2:
            return None
        return solve(walk)
    return run


def _most_frequent(w: Walk) -> Solved:
    edge, n = Counter(w.edges).most_common(1)[0]
    return Solved(edge, w.times, f"{w.solid}: edge {edge} traversed {n} times")


def _path(w: Walk) -> Solved:
    return Solved(", ".join(w.vertices), w.times, f"{w.solid}: ball visits {' '.join(w.vertices)}")


def _start(w: Walk) -> Solved:
    return Solved(w.edges[0], w.times[:2], f"{w.solid}: first edge {w.edges[0]}")


def _final(w: Walk) -> Solved:
    return Solved(w.edges[-1], w.times[-2:], f"{w.solid}: last edge {w.edges[-1]}")


def _reaches(w: Walk) -> Solved:
    return Solved(len(w.vertices) - 1, w.times[1:], f"{w.solid}: {len(w.vertices) - 1} vertex arrivals")


def _unique(w: Walk) -> Solved:
    edges = sorted(set(w.edges))
    return Solved(len(edges), w.times, f"{w.solid}: edges {', '.join(edges)}")


def _template(name: str, pattern: str, solve) -> Template:
    return Template("S6", name, re.compile(pattern, re.I), _walked(solve))


TEMPLATES: list[Template] = [
    _template("edge traversed most frequently", r"which edge of the \w+ does the red ball traverse most", _most_frequent),
    _template("path of movement", r"path of movement taken by the ball", _path),
    _template("start edge", r"which edge of the \w+ does the (?:small )?ball start", _start),
    _template("final edge", r"which edge of the \w+ does the ball (?:conclude|end|finish)", _final),
    _template("times the ball reaches a vertex", r"how many times does the ball reach a vertex", _reaches),
    _template("unique edges traversed", r"how many unique edges of the \w+ does the ball traverse", _unique),
]

FORMS = {  # name -> (asked, about): recognition by meaning, skills/videocogqa/programs/recognise.py
    "edge traversed most frequently": ("which edge of the solid does the red ball traverse most", (
        "the edge of the wireframe the ball travels along most", "busiest edge of the cube or pyramid",
        "edge the ball crosses the greatest number of times")),
    "path of movement": ("path of movement taken by the ball", (
        "the vertices the ball passes through, in order", "the ball's route over the solid as a vertex list",
        "sequence of corners the ball goes to")),
    "start edge": ("which edge of the solid does the small ball start", (
        "the edge the ball is on when it begins", "where on the wireframe the ball sets off",
        "initial edge of the ball")),
    "final edge": ("which edge of the solid does the ball end", (
        "the edge the ball is on when it stops", "where on the wireframe the ball finishes",
        "last edge of the ball")),
    "times the ball reaches a vertex": ("how many times does the ball reach a vertex", (
        "number of vertex arrivals of the ball", "how many corners does the ball get to after leaving its start",
        "count the ball's arrivals at vertices")),
    "unique edges traversed": ("how many unique edges of the solid does the ball traverse", (
        "number of different edges the ball uses", "count the distinct edges of the wireframe the ball travels",
        "how many separate edges the ball covers")),
}
TEMPLATES = described(TEMPLATES, FORMS)
