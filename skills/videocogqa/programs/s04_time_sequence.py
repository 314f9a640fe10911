"""S4 Time Sequence: Table 31 templates answered from the perceived symbolic timeline.

Appearances are the perceived object tracks (colour + shape names an object). Times in
questions are clock readings ("00:12"); they are turned into video seconds with the offset
of the on-screen clock as OCR read it, so a video whose clock does not start at 00:00 is
still answered right. Appearances change on whole clock seconds, so comparisons with a
question time allow half a second either way for blur and frame sampling.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from memory.language import CLOCK_DIGITS, mm_ss, seconds_of
from skills.videocogqa.programs.templates import Solved, Template, described
from skills.videocogqa.timeline import SymbolicTimeline

SLACK = 0.5  # seconds: appearances and the clock change on whole seconds
_OBJ = r"(?P<obj>(?:red|green|blue) (?:circle|square|triangle))"
_TIME = rf"(?P<time>{CLOCK_DIGITS})"


@dataclass(frozen=True, order=True)
class Shown:
    start: float  # video seconds of the first frame showing it
    end: float  # video seconds it was gone (last frame + one frame)
    name: str  # "red circle"


def appearances(tl: SymbolicTimeline) -> list[Shown]:
    step = 1.0 / tl.fps
    return sorted(Shown(tr.start, tr.end + step, f"{tr.colour} {tr.shape}") for tr in tl.occurrences(min_frames=2))


def clock_offset(tl: SymbolicTimeline) -> float | None:
    """Whole seconds to add to video time to get the clock: the clock shows floor(t + offset),
    so each reading pins the offset to ceil(shown - t); the most common vote wins, which a
    misread or two cannot move. None when the clock was never read."""
    votes = Counter(math.ceil(shown - t - 0.05) for t, shown in tl.clock_readings())
    return float(votes.most_common(1)[0][0]) if votes else None


def _video_time(tl: SymbolicTimeline, text: str) -> float | None:
    offset = clock_offset(tl)
    if offset is None:
        return None
    return seconds_of(text) - offset


def _successor(apps: list[Shown], name: str) -> Shown | None:
    after = [apps[i + 1] for i, a in enumerate(apps[:-1]) if a.name == name]
    if not after:
        return None
    best = Counter(a.name for a in after).most_common(1)[0][0]
    return next(a for a in after if a.name == best)


def next_object(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    nxt = _successor(appearances(tl), m["obj"].lower())
    return Solved(nxt.name, (nxt.start,), "the next object to appear") if nxt else None


def next_colour(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    nxt = _successor(appearances(tl), m["obj"].lower())
    return Solved(nxt.name.split()[0], (nxt.start,), f"the next object was the {nxt.name}") if nxt else None


def duration(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    mine = [a for a in appearances(tl) if a.name == m["obj"].lower()]
    total = sum(a.end - a.start for a in mine)
    return Solved(round(total), tuple(a.start for a in mine), f"on screen {total:.1f} s in {len(mine)} appearances")


def first_time(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    mine = [a for a in appearances(tl) if a.name == m["obj"].lower()]
    offset = clock_offset(tl)
    if not mine or offset is None:
        return None
    return Solved(mm_ss(mine[0].start + offset), (mine[0].start,), f"clock offset {offset:+.0f} s")


def duration_after(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    v = _video_time(tl, m["time"])
    if v is None:
        return None
    mine = [a for a in appearances(tl) if a.name == m["obj"].lower()]
    total = sum(max(0.0, a.end - max(a.start, v)) for a in mine)
    return Solved(round(total), tuple(a.start for a in mine if a.end > v), f"{total:.1f} s from video {v:.0f} s")


def sequence_after(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    v = _video_time(tl, m["time"])
    if v is None:
        return None
    later = [a for a in appearances(tl) if a.start >= v - SLACK]
    return Solved(", ".join(a.name for a in later), tuple(a.start for a in later), f"from video {v:.0f} s")


def object_after(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    v = _video_time(tl, m["time"])
    if v is None:
        return None
    later = [a for a in appearances(tl) if a.name == m["obj"].lower() and a.end > v + SLACK]
    return Solved(bool(later), tuple(a.start for a in later), f"from video {v:.0f} s")


def any_after(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    v = _video_time(tl, m["time"])
    if v is None:
        return None
    later = [a for a in appearances(tl) if a.end > v + SLACK]
    return Solved(bool(later), tuple(a.start for a in later), f"from video {v:.0f} s")


def before_and_after(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    v = _video_time(tl, m["time"])
    if v is None:
        return None
    apps = appearances(tl)
    both = {a.name for a in apps if a.end <= v + SLACK} & {a.name for a in apps if a.start >= v - SLACK}
    return Solved(bool(both), tuple(a.start for a in apps if a.name in both), f"both sides: {sorted(both)}")


def _t(name: str, pattern: str, solve) -> Template:
    return Template("S4", name, re.compile(pattern, re.I), solve)


TEMPLATES: list[Template] = [
    _t("object immediately after {object}", rf"what object appears immediately after the object {_OBJ}", next_object),
    _t("colour of the object after {object}", rf"what is the colou?r of the object displayed after the object {_OBJ}",
       next_colour),
    _t("how long does {object} appear", rf"how long does the {_OBJ} appear on screen in total", duration),
    _t("timestamp of the first {object}", rf"at what time on the clock does the first {_OBJ} appear", first_time),
    _t("total duration {object} displayed after {time}",
       rf"total duration for which the {_OBJ} is displayed after {_TIME}", duration_after),
    _t("how long {object} appears after {time}", rf"for how long does the {_OBJ} appear after {_TIME}",
       duration_after),
    _t("sequence of objects after {time}", rf"in what sequence do the objects appear after {_TIME}", sequence_after),
    _t("did {object} appear after {time}", rf"did the {_OBJ} appear at any time after {_TIME}", object_after),
    _t("did any object appear after {time}", rf"did any object appear at any time after {_TIME}", any_after),
    _t("objects both before and after {time}", rf"are there any objects that appear both before and after {_TIME}",
       before_and_after),
]

FORMS = {  # name -> (asked, about): recognition by meaning, skills/videocogqa/programs/recognise.py
    "object immediately after {object}": ("What object appears immediately after the object {colour} {shape}", (
        "the next object shown after a given one", "which shape follows a named shape in the sequence",
        "successor of an object in the display order")),
    "colour of the object after {object}": (
        "What is the color of the object displayed after the object {colour} {shape}", (
            "colour of the object that follows a given one", "which colour comes next after a named shape",
            "the next object's colour")),
    "how long does {object} appear": ("How long does the {colour} {shape} appear on screen in total", (
        "total screen time of one object", "for how many seconds is a named shape visible overall",
        "sum of the durations a shape is displayed")),
    "timestamp of the first {object}": ("At what time on the clock does the first {colour} {shape} appear", (
        "clock reading at the first appearance of an object", "when does a named shape first show up, by the clock",
        "timestamp of an object's first appearance")),
    "total duration {object} displayed after {time}": (
        "total duration for which the {colour} {shape} is displayed after {time}", (
            "seconds a named object is visible after a clock time", "screen time of a shape from a given moment on",
            "how long an object stays visible after a timestamp")),
    "how long {object} appears after {time}": ("For how long does the {colour} {shape} appear after {time}", (
        "time a named shape is shown from a clock time onward, that second included",
        "duration of an object's appearances after a timestamp", "how many seconds is an object up after a time")),
    "sequence of objects after {time}": ("In what sequence do the objects appear after {time}", (
        "the order of the objects shown from a clock time on", "list the objects in order after a timestamp",
        "which objects come, one by one, after a given time")),
    "did {object} appear after {time}": ("Did the {colour} {shape} appear at any time after {time}", (
        "whether a named object is shown again after a clock time", "is a given shape visible later than a timestamp",
        "yes or no: a particular object after a time")),
    "did any object appear after {time}": ("Did any object appear at any time after {time}", (
        "whether anything at all is shown after a clock time", "is the screen empty after a timestamp",
        "yes or no: some object later than a given time")),
    "objects both before and after {time}": ("Are there any objects that appear both before and after {time}", (
        "an object shown on both sides of a clock time", "something visible earlier and again later than a timestamp",
        "does any shape occur before and after a given moment")),
}
TEMPLATES = described(TEMPLATES, FORMS)
