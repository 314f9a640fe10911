"""S3 Straight Paths: Table 31 templates answered from the perceived symbolic timeline.

Objects in S2 and S3 each have their own colour + shape, so an identity is that pair, followed
by position continuity; the helpers here (shared with S2 and S7) turn frames into per-object
series robust to a frame where two objects overlap and one is half hidden.
"""
from __future__ import annotations

import bisect
import math
import re
import statistics
from dataclasses import dataclass, field

from skills.videocogqa.programs.templates import Solved, Template, described
from skills.videocogqa.timeline import SymbolicTimeline

THING = re.compile(r"(?:(small|medium|large)\s+)?(red|green|blue)\s+(circle|square|triangle)", re.I)
OBJECT_COLOURS = ("red", "green", "blue")
EQUAL = "Both are equal"


@dataclass
class Series:
    """One object's detections: (t, cx, cy, extent, w, h) per frame where it was seen."""

    colour: str
    shape: str
    pts: list[tuple[float, float, float, float, float, float]] = field(default_factory=list)

    def times(self) -> list[float]:
        return [p[0] for p in self.pts]

    def coord(self, axis: str) -> list[float]:
        return [p[1] if axis == "x" else p[2] for p in self.pts]


def identities(tl: SymbolicTimeline, extent_tol: float | None = 0.3, max_step: float = 32.0,
               min_share: float = 0.15, fold_misreads: bool = True) -> dict[tuple[str, str], Series]:
    """Per (colour, shape): the detection per frame that continues the object's path. With
    `extent_tol`, detections whose extent strays from the object's median (a half-hidden or
    merged blob) are dropped; an object seen in fewer than `min_share` of frames is noise.
    `fold_misreads` suits objects that keep their shape (S3), see `_absorb_misreads`."""
    groups: dict[tuple[str, str], list[tuple[float, list]]] = {}
    for f in tl.frames:
        per: dict[tuple[str, str], list] = {}
        for s in f.shapes:
            if s.colour in OBJECT_COLOURS:
                per.setdefault((s.colour, s.shape), []).append(s)
        for key, shapes in per.items():
            groups.setdefault(key, []).append((f.t, shapes))
    out = {}
    for key, seen in groups.items():
        if len(seen) < min_share * max(1, len(tl.frames)):
            continue
        singles = [ss[0].extent for _, ss in seen if len(ss) == 1] or [s.extent for _, ss in seen for s in ss]
        ref = statistics.median(singles)
        series, last = Series(*key), None
        for t, shapes in seen:
            ok = [s for s in shapes if extent_tol is None or abs(s.extent - ref) <= extent_tol * ref]
            if last is not None:
                reach = max_step * max(1.0, (t - last[0]) * tl.fps)
                ok = [s for s in ok if ((s.cx - last[1]) ** 2 + (s.cy - last[2]) ** 2) ** 0.5 <= reach]
            if not ok:
                continue
            s = min(ok, key=lambda s: 0.0 if last is None else (s.cx - last[1]) ** 2 + (s.cy - last[2]) ** 2)
            last = (t, s.cx, s.cy, s.extent, s.w, s.h)
            series.pts.append(last)
        out[key] = series
    if fold_misreads:
        _absorb_misreads(out, max_step, tl.fps)
    return out


def _absorb_misreads(series: dict[tuple[str, str], Series], max_step: float, fps: float,
                     min_fit: float = 0.8) -> None:
    """Fold a shape misread back into its object: noise can read a circle as a square for a
    few dozen frames, which makes a phantom "blue square". A phantom's detections fall in
    frames where a same-colour object is missing and continue that object's path; a real
    second object is seen in the same frames as the first."""
    for key in sorted(series, key=lambda k: len(series[k].pts)):
        b = series[key]
        for other, a in series.items():
            if other == key or other[0] != key[0] or len(a.pts) <= len(b.pts):
                continue
            seen = {p[0] for p in a.pts}
            times = a.times()
            fits = 0
            for p in b.pts:
                if p[0] in seen:
                    continue
                i = bisect.bisect_left(times, p[0])
                q = min(a.pts[max(0, i - 1):i + 1], key=lambda q: abs(q[0] - p[0]))
                fits += math.dist(p[1:3], q[1:3]) <= max_step * max(1.0, abs(p[0] - q[0]) * fps)
            if fits >= min_fit * len(b.pts):
                a.pts = sorted(a.pts + [p for p in b.pts if p[0] not in seen])
                del series[key]
                break


def find(series: dict[tuple[str, str], Series], text: str) -> Series | None:
    m = THING.search(text)
    return series.get((m.group(2).lower(), m.group(3).lower())) if m else None


def step_speed(s: Series, fps: float) -> float:
    """Median pixels per second over consecutive frames (a bounce frame is one of many)."""
    steps = [((b[1] - a[1]) ** 2 + (b[2] - a[2]) ** 2) ** 0.5 / (b[0] - a[0])
             for a, b in zip(s.pts, s.pts[1:]) if 0 < b[0] - a[0] <= 1.5 / fps]
    return statistics.median(steps) if steps else 0.0


def reversals(values: list[float], times: list[float], hysteresis: float = 4.0,
              near: tuple[float, float] | None = None) -> list[float]:
    """Times where a coordinate turns back by more than `hysteresis` px; with `near` = (low,
    high) walls, only turns within reach of a wall count (a wall bounce)."""
    out: list[float] = []
    if not values:
        return out
    direction, ext, ext_t = 0, values[0], times[0]
    for v, t in zip(values, times):
        if direction == 0:
            if abs(v - values[0]) > hysteresis:
                direction, ext, ext_t = (1 if v > values[0] else -1), v, t
        elif direction * (v - ext) > 0:
            ext, ext_t = v, t
        elif direction * (ext - v) > hysteresis:
            wall = near is None or (ext >= near[1] if direction > 0 else ext <= near[0])
            if wall:
                out.append(ext_t)
            direction, ext, ext_t = -direction, v, t
    return out


def _walls(tl: SymbolicTimeline, s: Series, axis: str) -> tuple[float, float]:
    half = statistics.median(p[3] for p in s.pts) / 2 + 12
    if axis == "x":
        return half, tl.layout.width - half
    return (tl.layout.hud_height or 36) + half, tl.layout.height - half


def bounces(tl: SymbolicTimeline, s: Series) -> list[float]:
    times = s.times()
    return sorted(reversals(s.coord("x"), times, near=_walls(tl, s, "x"))
                  + reversals(s.coord("y"), times, near=_walls(tl, s, "y")))


def initial_sign(s: Series, axis: str, window: float = 0.8) -> int | None:
    early = [p for p in s.pts if p[0] <= s.pts[0][0] + window] if s.pts else []
    if len(early) < 3 or s.pts[0][0] > 0.5:
        return None
    i = 1 if axis == "x" else 2
    d = early[-1][i] - early[0][i]
    return 0 if abs(d) < 2 else (1 if d > 0 else -1)


# ---- templates ------------------------------------------------------------------------------
def _names(text: str) -> list[str]:
    return [m.group(0) for m in THING.finditer(text)]


def _fastest(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    ids = identities(tl)
    cands = [(n, find(ids, n)) for n in _names(m.group(1))]
    if not cands or any(s is None for _, s in cands):
        return None
    name, s = max(cands, key=lambda c: step_speed(c[1], tl.fps))
    return Solved(name, (s.pts[0][0], s.pts[-1][0]), "highest median speed")


def _slower(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    ids = identities(tl)
    (na, sa), (nb, sb) = [(m.group(i), find(ids, m.group(i))) for i in (1, 2)]
    if sa is None or sb is None:
        return None
    va, vb = step_speed(sa, tl.fps), step_speed(sb, tl.fps)
    if max(va, vb) < 1.14 * min(va, vb):  # speed types differ by >= 30 %
        return Solved(EQUAL, note=f"{va:.0f} vs {vb:.0f} px/s")
    return Solved(na if va < vb else nb, note=f"{va:.0f} vs {vb:.0f} px/s")


def _wall_changes(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    s = find(identities(tl), m.group(1))
    if s is None:
        return None
    times = bounces(tl, s)
    return Solved(len(times), tuple(times), "turns at a wall")


_DIRS = {"upward": ("y", -1), "up": ("y", -1), "downward": ("y", 1), "down": ("y", 1),
         "left": ("x", -1), "leftward": ("x", -1), "right": ("x", 1), "rightward": ("x", 1)}


def _initial_count(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    axis, sign = _DIRS[m.group(1).lower()]
    signs = [initial_sign(s, axis) for s in identities(tl).values()]
    return Solved(sum(1 for v in signs if v == sign), (0.0,))


def _before_wall(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    s = find(identities(tl), m.group(1))
    axis = "x" if m.group(2).lower().startswith("left") else "y"
    sign = initial_sign(s, axis) if s is not None else None
    if sign is None:
        return None
    if sign == 0:
        return Solved("It does not move horizontally" if axis == "x" else "It does not move vertically")
    words = ("Left", "Right") if axis == "x" else ("Up", "Down")
    return Solved(words[0] if sign < 0 else words[1], (s.pts[0][0],))


TEMPLATES: list[Template] = [
    Template("S3", "fastest object", re.compile(r"which object moves the fastest:\s*(.+)\?", re.I), _fastest),
    Template("S3", "slower object", re.compile(
        r"which object moves more slowly:\s*(?:the\s+)?(.+?)\s+or\s+(?:the\s+)?(.+?)\?", re.I), _slower),
    Template("S3", "direction changes after wall", re.compile(
        r"how many times does the (.+?) change direction after hitting a wall", re.I), _wall_changes),
    Template("S3", "initial direction count", re.compile(
        r"how many objects initially move (upward|downward|leftward|rightward|left|right|up|down)", re.I),
        _initial_count),
    Template("S3", "direction before wall", re.compile(
        r"is the (.+?) moving (left or right|up or down) before it first hits a wall", re.I), _before_wall),
]

FORMS = {  # name -> (asked, about): recognition by meaning, skills/videocogqa/programs/recognise.py
    "fastest object": ("Which object moves the fastest: the {objs}?", (
        "the quickest of several listed objects", "which of these shapes has the highest speed",
        "pick the fastest mover among the named objects")),
    "slower object": ("Which object moves more slowly: the {obj} or the {obj_2}?", (
        "which of two named objects is slower", "compare the speeds of two shapes, the slower one",
        "is one object slower than the other")),
    "direction changes after wall": ("How many times does the {obj} change direction after hitting a wall", (
        "number of wall bounces of one object", "how often a shape turns back at the borders",
        "count the reversals of a named object at walls")),
    "initial direction count": ("How many objects initially move {dir}", (
        "number of objects heading in a given direction at the start",
        "how many shapes begin by going upward", "count objects whose first motion is to the left")),
    "direction before wall": ("Is the {obj} moving {pair} before it first hits a wall", (
        "the direction of one object before its first bounce",
        "which way a named shape travels until it meets a wall", "initial heading of an object, vertical or horizontal")),
}
TEMPLATES = described(TEMPLATES, FORMS)
