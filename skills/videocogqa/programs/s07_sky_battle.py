"""S7 Sky Battle: Table 31 templates answered from the perceived symbolic timeline.

The plane is the white shape; enemies are red / green / blue shapes that only ever fall
straight down, so they are linked frame to frame by colour, nearly equal x and a downward
step (their shape is not needed, which keeps a half-hidden frame from splitting a track).
An enemy that vanishes above the plane's line was shot; one that reaches the bottom left.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from skills.videocogqa.programs.s03_straight_paths import reversals
from skills.videocogqa.programs.templates import Solved, Template, described
from skills.videocogqa.timeline import SymbolicTimeline

ENEMY_COLOURS = ("red", "green", "blue")
PLANE_COLOUR = "white"
SHOT_ABOVE = 320.0 / 360  # share of the frame height: kills happen above it, escapes below
SPAWN_BAND = 45.0  # px below the HUD band where enemies first appear
PATTERNS = ("stays still", "left and right", "up and down", "circles")


@dataclass
class Fall:
    colour: str
    pts: list[tuple[float, float, float]] = field(default_factory=list)  # (t, cx, cy)


def falls(tl: SymbolicTimeline, max_gap: int = 3) -> list[Fall]:
    """Enemy tracks: same colour, |dx| <= 8 px, and a small downward step per frame."""
    step = 1.0 / tl.fps
    done: list[Fall] = []
    live: list[Fall] = []
    for f in tl.frames:
        live, ended = [x for x in live if f.t - x.pts[-1][0] <= (max_gap + 0.5) * step], \
            [x for x in live if f.t - x.pts[-1][0] > (max_gap + 0.5) * step]
        done += ended
        taken: set[int] = set()
        enemies = [s for s in f.shapes if s.colour in ENEMY_COLOURS and s.extent >= 8]
        pairs = []
        for i, s in enumerate(enemies):
            for j, tr in enumerate(live):
                t0, x0, y0 = tr.pts[-1]
                frames = max(1.0, (f.t - t0) / step)
                if tr.colour == s.colour and abs(s.cx - x0) <= 8 and -3 <= s.cy - y0 <= 16 * frames:
                    pairs.append((abs(s.cx - x0) + abs(s.cy - y0) / frames, i, j))
        used: set[int] = set()
        for _, i, j in sorted(pairs):
            if i not in taken and j not in used:
                live[j].pts.append((f.t, enemies[i].cx, enemies[i].cy))
                taken.add(i)
                used.add(j)
        live += [Fall(s.colour, [(f.t, s.cx, s.cy)]) for i, s in enumerate(enemies) if i not in taken]
    return sorted(done + live, key=lambda x: x.pts[0][0])


def _arrivals(tl: SymbolicTimeline) -> list[Fall]:
    top = (tl.layout.hud_height or 36) + SPAWN_BAND
    return [x for x in falls(tl) if x.pts[0][2] <= top and len(x.pts) >= 2]


def _shot(tl: SymbolicTimeline) -> list[Fall]:
    last = tl.frames[-1].t if tl.frames else 0.0
    line = SHOT_ABOVE * tl.layout.height
    return [x for x in _arrivals(tl) if x.pts[-1][0] < last - 0.15 and x.pts[-1][2] < line]


def plane_points(tl: SymbolicTimeline) -> list[tuple[float, float, float]]:
    out = []
    for f in tl.frames:
        white = [s for s in f.shapes if s.colour == PLANE_COLOUR]
        if white:
            s = max(white, key=lambda s: s.area)
            out.append((f.t, s.cx, s.cy))
    return out


def _spread(v: list[float]) -> float:
    v = sorted(v)
    return v[int(0.95 * (len(v) - 1))] - v[int(0.05 * (len(v) - 1))] if v else 0.0


def plane_pattern(pts: list[tuple[float, float, float]]) -> str | None:
    if len(pts) < 10:
        return None
    xr, yr = _spread([p[1] for p in pts]), _spread([p[2] for p in pts])
    if xr >= 20 and yr >= 20:
        return "circles"
    if xr >= 20:
        return "left and right"
    if yr >= 20:
        return "up and down"
    return "stays still" if xr < 8 and yr < 8 else None


# ---- templates ------------------------------------------------------------------------------
def _destroyed(tl, m):
    shot = _shot(tl)
    return Solved(len(shot), tuple(x.pts[-1][0] for x in shot), "enemies vanishing above the plane")


def _first_kill(tl, m):
    shot = _shot(tl)
    if not shot:
        return None
    t = min(x.pts[-1][0] for x in shot) + 0.5 / tl.fps  # it vanished between two frames
    return Solved(round(t, 2), (t,), "seconds from the start")


def _pattern(tl, m):
    p = plane_pattern(plane_points(tl))
    return None if p is None else Solved(p)


def _max_visible(tl, m):
    counts = [sum(1 for s in f.shapes if s.colour in ENEMY_COLOURS and s.extent >= 8) for f in tl.frames]
    best = max((min(counts[i:i + 3]) for i in range(len(counts) - 2)), default=0)
    return Solved(best, note="held for at least 3 frames")


def _appear(tl, m):
    arr = _arrivals(tl)
    return Solved(len(arr), tuple(x.pts[0][0] for x in arr), "enemies entering at the top")


def _turns(tl, m):
    pts = plane_points(tl)
    pattern = plane_pattern(pts)
    if pattern is None or pattern == "circles":
        return None
    if pattern == "stays still":
        return Solved(0)
    i = 1 if pattern == "left and right" else 2
    times = reversals([p[i] for p in pts], [p[0] for p in pts], hysteresis=6.0)
    return Solved(len(times), tuple(times))


def _survives(tl, m):
    if not tl.frames:
        return None
    last = tl.frames[-1].t
    seen = [p for p in plane_points(tl) if p[0] >= last - 0.5]
    return Solved(len(seen) >= 3, note=f"plane seen in {len(seen)} of the last frames")


TEMPLATES: list[Template] = [
    Template("S7", "enemies destroyed", re.compile(r"how many enemies are destroyed", re.I), _destroyed),
    Template("S7", "first kill time", re.compile(
        r"how many seconds after the start of the video is the first enemy destroyed", re.I), _first_kill),
    Template("S7", "plane movement pattern", re.compile(r"movement pattern of the player's plane", re.I), _pattern),
    Template("S7", "max enemies visible", re.compile(r"maximum number of enemies visible", re.I), _max_visible),
    Template("S7", "enemies appearing", re.compile(r"how many enemies appear", re.I), _appear),
    Template("S7", "plane direction changes", re.compile(
        r"how many times does the player's plane change direction", re.I), _turns),
    Template("S7", "plane survives", re.compile(r"does the player's plane survive", re.I), _survives),
]

FORMS = {  # name -> (asked, about): recognition by meaning, skills/videocogqa/programs/recognise.py
    "enemies destroyed": ("how many enemies are destroyed", (
        "number of enemy planes shot down", "count the kills of the player's aircraft",
        "how many enemies the jet eliminates", "how many enemies does the player shoot down",
        "enemies the player's plane destroys")),
    "first kill time": ("how many seconds after the start of the video is the first enemy destroyed", (
        "seconds into the clip when the first enemy is shot down", "time of the first kill",
        "when the player first destroys an enemy")),
    "plane movement pattern": ("movement pattern of the player's plane", (
        "how the player's aircraft moves around", "the jet's motion: still, side to side, up and down, in circles",
        "the pattern of the player's flight")),
    "max enemies visible": ("maximum number of enemies visible", (
        "the largest number of enemy planes on screen together", "peak count of enemies at one moment", "the most enemies on screen at once",
        "most enemies seen simultaneously", "at most, how many enemies share the screen at the same time")),
    "enemies appearing": ("how many enemies appear", (
        "total number of enemy planes that show up", "count the enemies that enter the screen",
        "how many enemy aircraft in the clip")),
    "plane direction changes": ("how many times does the player's plane change direction", (
        "number of turns of the player's aircraft", "how often the jet reverses its heading",
        "count the direction switches of the player's plane")),
    "plane survives": ("does the player's plane survive", (
        "is the player's aircraft still alive at the end", "whether the jet gets shot down before the clip ends",
        "does the player make it to the end of the battle")),
}
TEMPLATES = described(TEMPLATES, FORMS)
