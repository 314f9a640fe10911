"""S10 Note Matcher: Table 31 templates answered from the perceived symbolic timeline.

Notes come from the audio (perceived tones named 1-7 on the C-major scale); each perceived
object appearance is paired with the tone that overlaps it most. When a video has no
usable audio, the on-screen note track ("NOTE 3", read by OCR) stands in.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from skills.videocogqa.programs.templates import Solved, Template, described
from skills.videocogqa.timeline import SymbolicTimeline

_OBJ = r"(?P<obj>(?:red|green|blue) (?:circle|square|triangle))"
_NOTE_TEXT = re.compile(r"note\s*([1-7])", re.I)


@dataclass(frozen=True)
class Beat:
    """One object appearance and the note heard (or read) with it."""

    start: float
    end: float
    name: str  # "red circle"
    note: int | None


def _overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return max(0.0, min(a1, b1) - max(a0, b0))


def notes_heard(tl: SymbolicTimeline) -> list[tuple[float, float, int]]:
    """(start, end, note) of every named tone, or of every note-track reading when the audio
    gave none (OCR reads once a second, so it can miss 1 s beats)."""
    heard = [(x.start, x.end, x.note) for x in tl.tones if x.note is not None]
    if heard:
        return heard
    out = []
    for x in tl.texts:
        m = _NOTE_TEXT.search(x.text)
        if m:
            out.append((x.t, x.t + 1.0 / tl.fps, int(m.group(1))))
    return out


def beats(tl: SymbolicTimeline) -> list[Beat]:
    step = 1.0 / tl.fps
    heard = notes_heard(tl)
    out = []
    for tr in tl.occurrences(min_frames=2):
        start, end = tr.start, tr.end + step
        best = max(heard, key=lambda h: _overlap(start, end, h[0], h[1]), default=None)
        note = best[2] if best and _overlap(start, end, best[0], best[1]) > 0 else None
        out.append(Beat(start, end, f"{tr.colour} {tr.shape}", note))
    return sorted(out, key=lambda b: b.start)


def note_of_object(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    mine = [b for b in beats(tl) if b.name == m["obj"].lower() and b.note is not None]
    if not mine:
        return None
    note = Counter(b.note for b in mine).most_common(1)[0][0]
    return Solved(f"note {note}", tuple(b.start for b in mine), f"heard with {len(mine)} appearances")


def distinct_notes(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    heard = notes_heard(tl)
    if not heard:
        return None
    notes = sorted({n for _, _, n in heard})
    return Solved(len(notes), tuple(s for s, _, _ in heard), f"notes heard: {notes}")


def most_frequent(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    bs = beats(tl)
    if not bs:
        return None
    name, count = Counter(b.name for b in bs).most_common(1)[0]
    return Solved(name, tuple(b.start for b in bs if b.name == name), f"appeared {count} times")


def first_note(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    heard = notes_heard(tl)
    return Solved(f"note {heard[0][2]}", (heard[0][0],), "the earliest tone") if heard else None


def note_played(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    heard = notes_heard(tl)
    if not heard:
        return None
    hits = [s for s, _, n in heard if n == int(m["note"])]
    return Solved(bool(hits), tuple(hits), f"heard {len(hits)} times")


def note_with_object(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    bs = beats(tl)
    if not bs:
        return None
    hits = [b for b in bs if b.name == m["obj"].lower() and b.note == int(m["note"])]
    return Solved(len(hits), tuple(b.start for b in hits), "appearances with that note")


def colour_with_note(tl: SymbolicTimeline, m: re.Match) -> Solved | None:
    bs = beats(tl)
    if not bs:
        return None
    hits = [b for b in bs if b.name.split()[0] == m["colour"].lower() and b.note == int(m["note"])]
    return Solved(len(hits), tuple(b.start for b in hits), "appearances of that colour with that note")


def _t(name: str, pattern: str, solve) -> Template:
    return Template("S10", name, re.compile(pattern, re.I), solve)


TEMPLATES: list[Template] = [
    _t("note associated with {object}", rf"which musical note is associated with the appearance of the {_OBJ}",
       note_of_object),
    _t("number of different notes", r"how many different notes were played in total", distinct_notes),
    _t("object appearing most often", r"which object appeared most frequently\?", most_frequent),
    _t("first note played", r"what was the first note played", first_note),
    _t('was note "{note}" played', r'was the note "(?P<note>[1-7])" played at any point', note_played),
    _t("times {note} occurred alongside a {color} {shape}",
       rf"how many times did note (?P<note>[1-7]) occur alongside an? {_OBJ}", note_with_object),
    _t("times a {color} object appears alongside a {note}",
       r"how many times does an? (?P<colour>red|green|blue) object appear alongside note (?P<note>[1-7])",
       colour_with_note),
]

FORMS = {  # name -> (asked, about): recognition by meaning, skills/videocogqa/programs/recognise.py
    "note associated with {object}": ("which musical note is associated with the appearance of the {colour} {shape}", (
        "the tone heard whenever a named shape shows", "which note sounds with a given object",
        "the musical note paired with an object")),
    "number of different notes": ("how many different notes were played in total", (
        "count the distinct tones heard", "number of separate musical notes in the clip",
        "how many kinds of note sounded")),
    "object appearing most often": ("which object appeared most frequently?", (
        "the shape shown the greatest number of times", "commonest object on screen",
        "object with the most appearances")),
    "first note played": ("what was the first note played", (
        "the earliest tone heard", "which note opened the sequence", "note at the very beginning")),
    'was note "{note}" played': ('was the note "{note}" played at any point', (
        "whether a given numbered note was ever heard", "did a particular tone sound at all",
        "yes or no: a numbered note in the clip")),
    "times {note} occurred alongside a {color} {shape}": (
        "how many times did note {note} occur alongside a {colour} {shape}", (
            "count the times a numbered note sounds with a named shape", "how often a tone pairs with a given object",
            "number of co-occurrences of a note and an object")),
    "times a {color} object appears alongside a {note}": (
        "how many times does a {colour} object appear alongside note {note}", (
            "count the times objects of one colour show with a numbered note",
            "how often a colour pairs with a given tone", "number of co-occurrences of a note and a colour")),
}
TEMPLATES = described(TEMPLATES, FORMS)
