"""S2 Action Arena: Table 31 templates answered from the perceived symbolic timeline.

Each object (its own colour + shape) is cut into 2 s windows every 0.5 s; a window's action
comes from what changes in it: visibility (blinking), extent (scaling), bounding box at a
fixed place (rotation), and the centroid's x / y spread and correlation (horizontal movement,
jumping, shaking, diagonal movement, circling). Runs of at least 5 windows are the object's
action phases, so the blend of windows straddling a switch is ignored.
"""
from __future__ import annotations

import re
import statistics
from collections import Counter

from skills.videocogqa.programs.s03_straight_paths import Series, find, identities
from skills.videocogqa.programs.templates import Solved, Template, described
from skills.videocogqa.timeline import SIZE_CLASSES, SymbolicTimeline

ACTIONS = ("horizontal movement", "jumping", "scaling", "rotation", "blinking", "circling", "diagonal movement",
           "shaking")  # the vocabulary of eval's S2 scene, in its order
WINDOW, STEP, MIN_RUN = 2.0, 0.5, 5
_ACTION = "|".join(ACTIONS)


def _spread(v: list[float]) -> float:
    v = sorted(v)
    return v[int(0.95 * (len(v) - 1))] - v[int(0.05 * (len(v) - 1))]


def window_action(pts: list[tuple], frames: int, shape: str) -> str | None:
    """The action shown by one object's detections in one window (None: too little seen)."""
    if len(pts) < 0.3 * frames:
        return None
    if len(pts) < 0.8 * frames:
        return "blinking"
    ext = sorted(p[3] for p in pts)
    mid = statistics.median(ext)
    if ext[int(0.9 * (len(ext) - 1))] > 1.4 * ext[int(0.1 * (len(ext) - 1))]:
        return "scaling"
    xs, ys = [p[1] for p in pts], [p[2] for p in pts]
    xr, yr = _spread(xs), _spread(ys)
    box = max(_spread([p[4] for p in pts]), _spread([p[5] for p in pts])) / mid
    if shape != "circle" and box > 0.18 and xr < 0.8 * mid and yr < 0.8 * mid:
        return "rotation"
    if xr >= 15 and yr >= 15:
        mx, my = statistics.fmean(xs), statistics.fmean(ys)
        cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
        var = (sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys)) ** 0.5
        return "diagonal movement" if var and abs(cov / var) > 0.8 else "circling"
    if xr >= 20:
        return "horizontal movement"
    if yr >= 15:
        return "jumping"
    if xr >= 4:
        return "shaking"
    return None


def phases(tl: SymbolicTimeline, s: Series) -> list[tuple[float, str]]:
    """(start second, action) of each run of >= MIN_RUN agreeing windows, in order."""
    if not tl.frames:
        return []
    end = tl.frames[-1].t
    labels: list[tuple[float, str | None]] = []
    t = tl.frames[0].t
    while t + WINDOW <= end + 1e-6:
        pts = [p for p in s.pts if t <= p[0] < t + WINDOW]
        labels.append((t, window_action(pts, round(WINDOW * tl.fps), s.shape)))
        t += STEP
    out: list[tuple[float, str]] = []
    i = 0
    while i < len(labels):
        j = i
        while j < len(labels) and labels[j][1] == labels[i][1]:
            j += 1
        if labels[i][1] is not None and j - i >= MIN_RUN and (not out or out[-1][1] != labels[i][1]):
            out.append((labels[i][0], labels[i][1]))
        i = j
    return out


def _objects(tl: SymbolicTimeline) -> dict[tuple[str, str], Series]:
    """S2's objects change size (scaling) and blink, so no extent filter; a blurred rotating
    shape is misread more often than not, so misreads are not folded (that would rename it)."""
    return identities(tl, extent_tol=None, fold_misreads=False)


def _cast(tl: SymbolicTimeline) -> dict[str, tuple[Series, list[str]]]:
    """Every object's perceived name -> (series, its actions in order)."""
    out = {}
    for (colour, shape), s in _objects(tl).items():
        size = _size(tl, statistics.median(p[3] for p in s.pts))
        acts = [a for _, a in phases(tl, s)]
        if acts:
            out[f"{size} {colour} {shape}"] = (s, acts)
    return out


def _size(tl: SymbolicTimeline, extent: float) -> str:
    return min(SIZE_CLASSES, key=lambda c: abs(extent / tl.unit - c[1]))[0]


def _counts(cast: dict) -> Counter:
    return Counter(a for _, acts in cast.values() for a in set(acts))


def _how_many(tl, m):
    return Solved(_counts(_cast(tl))[m.group(1).lower()], note="objects with that action at some point")


def _distinct(tl, m):
    s = find(_objects(tl), m.group(1))
    return None if s is None else Solved(len({a for _, a in phases(tl, s)}))


def _more(tl, m):
    c = _counts(_cast(tl))
    a, b = m.group(1).lower(), m.group(2).lower()
    return Solved("Both are equal" if c[a] == c[b] else (a if c[a] > c[b] else b), note=f"{c[a]} vs {c[b]}")


def _most(tl, m):
    top = _counts(_cast(tl)).most_common(1)
    return Solved(top[0][0]) if top else None


def _at_end(tl, m):
    names = sorted(n for n, (_, acts) in _cast(tl).items() if acts[-1] == m.group(1).lower())
    return Solved(", ".join(names) if names else "None")


def _above(tl, m):
    c = _counts(_cast(tl))
    right = [a for a in ACTIONS if c[a] > int(m.group(1))]
    return Solved(", ".join(right) if right else "None")


def _action_of(tl, m):
    s = find(_objects(tl), m.group(1))
    ph = phases(tl, s) if s is not None else []
    return Solved(Counter(a for _, a in ph).most_common(1)[0][0], tuple(t for t, _ in ph)) if ph else None


def _any(tl, m, key: int):
    want, action = m.group(1).lower(), m.group(2).lower()
    return Solved(any(action in acts and n.split()[key] == want for n, (_, acts) in _cast(tl).items()))


TEMPLATES: list[Template] = [
    Template("S2", "objects performing action", re.compile(
        rf"how many objects are performing the ({_ACTION}) action", re.I), _how_many),
    Template("S2", "distinct actions of object", re.compile(
        r"how many distinct actions are performed by the (.+?)\?", re.I), _distinct),
    Template("S2", "action with more objects", re.compile(
        rf"which action has more objects performing it:\s*({_ACTION}) or ({_ACTION})\?", re.I), _more),
    Template("S2", "most frequent action", re.compile(
        r"which action is most frequently performed across all objects", re.I), _most),
    Template("S2", "objects performing action now", re.compile(
        rf"which objects are performing the ({_ACTION}) action at the end", re.I), _at_end),
    Template("S2", "actions above n", re.compile(r"which actions are performed by more than (\d+) objects?", re.I),
             _above),
    Template("S2", "action of object", re.compile(r"what action is the (.+?) performing\?", re.I), _action_of),
    Template("S2", "any shape performing", re.compile(
        rf"are there any (circle|square|triangle) objects performing the ({_ACTION}) action", re.I),
        lambda tl, m: _any(tl, m, 2)),
    Template("S2", "any colour performing", re.compile(
        rf"is there any (red|green|blue) object performing the ({_ACTION}) action", re.I),
        lambda tl, m: _any(tl, m, 1)),
]

FORMS = {  # name -> (asked, about): recognition by meaning, skills/videocogqa/programs/recognise.py
    "objects performing action": ("How many objects are performing the {action} action", (
        "number of objects that do a given action at some point",
        "count the shapes that are rotating", "how many objects blink in the clip")),
    "distinct actions of object": ("How many distinct actions are performed by the {obj}?", (
        "number of different actions one named object carries out",
        "how many kinds of movement does a particular shape make", "count the actions of one object")),
    "action with more objects": ("Which action has more objects performing it: {action} or {action_2}?", (
        "compare two actions by how many objects do each",
        "are there more objects jumping than scaling", "which of two actions is more common among objects")),
    "most frequent action": ("Which action is most frequently performed across all objects", (
        "the action done by the largest number of objects", "commonest action in the whole clip",
        "which movement do most shapes perform")),
    "objects performing action now": ("Which objects are performing the {action} action at the end", (
        "which shapes are doing a given action when the clip finishes",
        "objects still rotating in the last moments", "list the objects whose final action is a given one")),
    "actions above n": ("Which actions are performed by more than {number} objects", (
        "the actions that over a given number of objects do",
        "list actions done by several objects, more than a threshold", "actions shared by more than two shapes")),
    "action of object": ("What action is the {obj} performing?", (
        "what a named object is doing", "what is the small blue square doing", "which movement does a particular shape make",
        "the action of one given object")),
    "any shape performing": ("Are there any {shape} objects performing the {action} action", (
        "does some object of a given shape do a given action", "is a triangle jumping",
        "whether any square performs an action")),
    "any colour performing": ("Is there any {colour} object performing the {action} action", (
        "does some object of a given colour do a given action", "is a red object scaling",
        "whether any green object performs an action")),
}
TEMPLATES = described(TEMPLATES, FORMS)
