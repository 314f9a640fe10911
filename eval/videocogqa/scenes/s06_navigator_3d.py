"""S6 3D Navigator (SR): simulation, drawing and Table 31 question templates.

Table 9: T (seconds per edge) = 2 / 1 / 0.5 and E (edges) = 5 / 8 / 12 (Easy / Medium / Hard).

Choices the paper leaves open (documented here, read by the answer side's wording only):
- E is the length of the ball's path in edges (a cube has 12 edges at every level, so E
  cannot mean the solid's edges and still vary with difficulty).
- The solid is a cube or a square pyramid (chance 0.6 / 0.4), drawn as a grey wireframe in
  a fixed cabinet-style oblique projection: every edge visible, every vertex a small white
  dot. A cube's front face is an upright square, its back face shifted up and right; a
  pyramid's base recedes up and right and its apex sits above it. Size and position jitter
  a little per video.
- Vertex names are positional, stated in a legend in the HUD band (the only place text
  may appear): cube front face A B C D and back face E F G H, each clockwise from its
  top-left corner; pyramid base A front-left, B front-right, C back-right, D back-left,
  apex E. The projection keeps these recoverable from positions alone (a cube's vertices
  lie on four distinct heights, two per height), so no OCR is needed.
- The ball (a small red circle, 0.32 of HEIGHT / 8) rests on its start vertex for 1-3 s,
  then walks E edges at constant speed, T seconds each, never turning straight back, and
  rests on its last vertex until the end. Vertex arrivals fall on frame times (10 fps).
- "Times the ball reaches a vertex" counts arrivals after it starts moving (= E), and the
  question says so. The most-traversed edge is asked only when it is unique. Edges are
  written with their letters in alphabetical order ("A-E"); paths as "A, B, F, E".
"""
from __future__ import annotations

import random
from collections import Counter

import cv2
import numpy as np

from eval.videocogqa import style
from eval.videocogqa.base import Draft, Episode, blank, draw_shape, near_numbers, shuffled

TIME_PER_EDGE = {"Easy": 2.0, "Medium": 1.0, "Hard": 0.5}  # T (Table 9)
EDGES = {"Easy": 5, "Medium": 8, "Hard": 12}  # E (Table 9), the path length in edges
PYRAMID_CHANCE = 0.4
BALL_EXTENT = style.SIZE_FRACTION["small"] * style.size_unit()
DOT_RADIUS = 5

CUBE_EDGES = ("AB", "BC", "CD", "AD", "EF", "FG", "GH", "EH", "AE", "BF", "CG", "DH")
PYRAMID_EDGES = ("AB", "BC", "CD", "AD", "AE", "BE", "CE", "DE")
LEGEND = {
    "cube": ("Cube: front face A B C D, back face E F G H", "(each clockwise from its top-left corner)"),
    "pyramid": ("Pyramid: base A front-left, B front-right,", "C back-right, D back-left; apex E"),
}


def edge_name(a: str, b: str) -> str:
    return "-".join(sorted((a, b)))


def solid_edges(solid: str) -> tuple[str, ...]:
    return tuple(edge_name(*e) for e in (CUBE_EDGES if solid == "cube" else PYRAMID_EDGES))


def neighbours(solid: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for a, b in (CUBE_EDGES if solid == "cube" else PYRAMID_EDGES):
        out.setdefault(a, []).append(b)
        out.setdefault(b, []).append(a)
    return {k: sorted(v) for k, v in out.items()}


def vertex_positions(solid: str, rng: random.Random) -> dict[str, tuple[float, float]]:
    """Pixel positions of the projected vertices (jittered a little per video)."""
    top, h = style.HUD_HEIGHT, style.HEIGHT - style.HUD_HEIGHT
    jx, jy = rng.uniform(-30, 30), rng.uniform(-10, 10)
    if solid == "cube":
        s, d = rng.uniform(140, 160), rng.uniform(62, 78)
        x0 = (style.WIDTH - s - d) / 2 + jx
        y0 = top + (h - s - d) / 2 + d + jy  # the front face's top edge
        front = {"A": (x0, y0), "B": (x0 + s, y0), "C": (x0 + s, y0 + s), "D": (x0, y0 + s)}
        back = {k2: (x + d, y - d) for (k2, (x, y)) in zip("EFGH", front.values())}
        return {**front, **back}
    s, dx, dy, rise = rng.uniform(190, 210), rng.uniform(95, 105), rng.uniform(55, 65), rng.uniform(170, 185)
    x0 = (style.WIDTH - s - dx) / 2 + jx
    yb = top + (h + dy / 2 + rise) / 2 + 10 + jy  # the base's front edge
    return {"A": (x0, yb), "B": (x0 + s, yb), "C": (x0 + s + dx, yb - dy), "D": (x0 + dx, yb - dy),
            "E": (x0 + (s + dx) / 2, yb - dy / 2 - rise)}


def random_walk(solid: str, edges: int, rng: random.Random) -> list[str]:
    """Vertices visited by a walk of `edges` steps that never turns straight back."""
    nb = neighbours(solid)
    path = [rng.choice(sorted(nb))]
    while len(path) <= edges:
        choices = [v for v in nb[path[-1]] if len(path) < 2 or v != path[-2]]
        path.append(rng.choice(choices))
    return path


class Navigator3D:
    code, title, ability, levels = "S6", "3D Navigator", "SR", ("Easy", "Medium", "Hard")

    def simulate(self, level: str, rng: random.Random) -> Episode:
        period, n_edges = TIME_PER_EDGE[level], EDGES[level]
        solid = "pyramid" if rng.random() < PYRAMID_CHANCE else "cube"
        pos = vertex_positions(solid, rng)
        path = random_walk(solid, n_edges, rng)
        start = rng.choice((1.0, 1.5, 2.0, 2.5, 3.0))
        events: list[dict] = [{"t": 0.0, "kind": "solid", "solid": solid, "edges": list(solid_edges(solid)),
                               "vertices": {k: [round(x, 1), round(y, 1)] for k, (x, y) in pos.items()},
                               "vertex": path[0]}]
        for k, (a, b) in enumerate(zip(path, path[1:])):
            t0 = start + k * period
            events.append({"t": t0, "kind": "edge", "from": a, "to": b, "edge": edge_name(a, b), "until": t0 + period})
            events.append({"t": t0 + period, "kind": "arrive", "vertex": b})
        end = start + n_edges * period
        lines = [(pos[a], pos[b]) for a, b in (CUBE_EDGES if solid == "cube" else PYRAMID_EDGES)]

        def ball_at(t: float) -> tuple[float, float]:
            if t <= start:
                return pos[path[0]]
            if t >= end:
                return pos[path[-1]]
            k = min(int((t - start) / period + 1e-9), n_edges - 1)
            f = (t - start - k * period) / period
            (x0, y0), (x1, y1) = pos[path[k]], pos[path[k + 1]]
            return x0 + f * (x1 - x0), y0 + f * (y1 - y0)

        def paint(t: float) -> np.ndarray:
            img = blank()
            for y, text in zip((15, 31), LEGEND[solid]):
                cv2.putText(img, text, (8, y), cv2.FONT_HERSHEY_SIMPLEX, 0.45, style.TEXT, 1, cv2.LINE_AA)
            for (x0, y0), (x1, y1) in lines:
                cv2.line(img, (round(x0), round(y0)), (round(x1), round(y1)), style.LINE, 2, cv2.LINE_AA)
            for x, y in pos.values():
                cv2.circle(img, (round(x), round(y)), DOT_RADIUS, style.ROLE_COLOURS["white"], -1, cv2.LINE_AA)
            bx, by = ball_at(t)
            draw_shape(img, "circle", "red", bx, by, BALL_EXTENT)
            return img

        params = {"T": period, "E": n_edges, "solid": solid, "start_s": start}
        return Episode("S6", level, params, events, paint, duration=style.DURATION,
                       facts={"solid": solid, "path": path})

    def questions(self, episode: Episode, rng: random.Random) -> list[Draft]:
        solid, path = walk_from_log(episode.events)
        builders = [q_most_frequent_edge, q_path, q_start_edge, q_final_edge, q_vertex_reaches, q_unique_edges]
        rng.shuffle(builders)
        return [d for build in builders if (d := build(solid, path, rng)) is not None]


def walk_from_log(events: list[dict]) -> tuple[str, list[str]]:
    """(solid, visited vertices) rebuilt from the log alone."""
    head = next(e for e in events if e["kind"] == "solid")
    path = [head["vertex"]] + [e["to"] for e in events if e["kind"] == "edge"]
    return head["solid"], path


def path_edges(path: list[str]) -> list[str]:
    return [edge_name(a, b) for a, b in zip(path, path[1:])]


def _edge_options(correct: str, preferred: list[str], solid: str, rng: random.Random) -> list[str]:
    others = [e for e in dict.fromkeys(preferred) if e != correct]
    rest = [e for e in solid_edges(solid) if e != correct and e not in others]
    rng.shuffle(others)
    rng.shuffle(rest)
    return (others + rest)[:3]


def q_most_frequent_edge(solid: str, path: list[str], rng: random.Random) -> Draft | None:
    ranked = Counter(path_edges(path)).most_common()
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return None
    best = ranked[0][0]
    question = f"Which edge of the {solid} does the red ball traverse most frequently?"
    return shuffled(best, _edge_options(best, [e for e, _ in ranked], solid, rng), rng,
                    "edge traversed most frequently", question)


def q_path(solid: str, path: list[str], rng: random.Random) -> Draft:
    nb = neighbours(solid)
    variants = [list(reversed(path))]
    for _ in range(40):
        if len(variants) >= 4:
            break
        k = rng.randrange(1, len(path) - 1)
        alt = path[:k + 1]
        while len(alt) < len(path):
            alt.append(rng.choice([v for v in nb[alt[-1]] if v != alt[-2]]))
        if alt != path and alt not in variants:
            variants.append(alt)
    fmt = ", ".join
    distractors = [fmt(v) for v in variants]
    rng.shuffle(distractors)
    question = f"Describe the path of movement taken by the ball: which vertices of the {solid} does it visit, in order?"
    return shuffled(fmt(path), distractors[:3], rng, "path of movement", question)


def q_start_edge(solid: str, path: list[str], rng: random.Random) -> Draft:
    first = path_edges(path)[0]
    near = [edge_name(path[0], v) for v in neighbours(solid)[path[0]]] + path_edges(path)[1:3]
    question = f"On which edge of the {solid} does the small ball start moving?"
    return shuffled(first, _edge_options(first, near, solid, rng), rng, "start edge", question)


def q_final_edge(solid: str, path: list[str], rng: random.Random) -> Draft:
    last = path_edges(path)[-1]
    near = [path_edges(path)[0]] + [edge_name(path[-1], v) for v in neighbours(solid)[path[-1]]]
    question = f"On which edge of the {solid} does the ball conclude its movement?"
    return shuffled(last, _edge_options(last, near, solid, rng), rng, "final edge", question)


def q_vertex_reaches(solid: str, path: list[str], rng: random.Random) -> Draft:
    n = len(path) - 1
    question = ("How many times does the ball reach a vertex during its movement "
                "(arrivals after it starts moving, not counting the vertex it starts on)?")
    return shuffled(n, near_numbers(n, rng, low=1), rng, "times the ball reaches a vertex", question)


def q_unique_edges(solid: str, path: list[str], rng: random.Random) -> Draft:
    n = len(set(path_edges(path)))
    question = f"How many unique edges of the {solid} does the ball traverse throughout the video?"
    return shuffled(n, near_numbers(n, rng, low=1), rng, "unique edges traversed", question)


SCENE = Navigator3D()
