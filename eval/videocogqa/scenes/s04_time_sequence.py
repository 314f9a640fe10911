"""S4 Time Sequence (TR): simulation, drawing and Table 31 question templates.

Table 9: T (interval, s) 5 / 3 / 1 and N (distinct objects) 3 / 5 / 8 (Easy / Medium / Hard).

Choices the paper leaves open:
- Time is cut into slots of T seconds from t = 1 s; the last slot ends at least 2 s before
  the video does (so "did any object appear after {time}" can be No). Each slot is empty
  (p = 0.15, never the first) or starts one appearance lasting 1 slot or (p = 0.3) 2 slots;
  one object is on screen at a time, at a random place below the HUD band. Consecutive
  appearances are always different objects, and every one of the N objects appears.
- Objects are distinct in colour + shape and named that way ("red circle"); each keeps one
  size (medium or large) for the whole video, never asked.
- The clock ("MM:SS", top right of the HUD band, whole seconds, floor) starts at a random
  whole second 0-40 rather than 00:00, so times in questions must be read off the clock.
  Question times are always the clock at a slot boundary. "After {time}" includes {time};
  an object that left exactly at {time} does not appear after it; "before {time}" means
  an appearance that ended by {time}.
- "How long does {object} appear" is its total time on screen over the whole video.
- "Immediately after {object}" is the next object to appear (an empty slot between them
  does not count); it is asked only of an object that is always followed by the same one.
- Yes/No questions carry a third option, "Cannot be determined" (a Draft needs 3-5).
- Every template is covered; instances that would be ambiguous (an object followed by
  different objects at different times) are skipped and another drawn.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from eval.videocogqa import style
from eval.videocogqa.base import (
    Draft,
    Episode,
    Thing,
    blank,
    draw_text,
    draw_thing,
    first_drafts,
    near_numbers,
    shuffled,
)

INTERVAL = {"Easy": 5, "Medium": 3, "Hard": 1}  # T, seconds (Table 9)
OBJECTS = {"Easy": 3, "Medium": 5, "Hard": 8}  # N (Table 9)
START, TAIL = 1.0, 2.0  # first slot start; seconds kept empty at the end
EMPTY_CHANCE, LONG_CHANCE = 0.15, 0.3
YES, NO, UNSURE = "Yes", "No", "Cannot be determined"
MARGIN = 30  # pixels an object's centre keeps from the play-field edges


def clock_text(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 60:02d}:{s % 60:02d}"


@dataclass(frozen=True)
class Appearance:
    start: float  # video seconds
    end: float
    thing: Thing
    x: float
    y: float


def _schedule(level: str, rng: random.Random) -> tuple[list[Thing], list[Appearance]]:
    period, n = INTERVAL[level], OBJECTS[level]
    slots = int((style.DURATION - START - TAIL) // period)
    kinds = rng.sample([(c, s) for c in style.COLOURS for s in style.SHAPES], n)
    pool = [Thing(rng.choice(("medium", "large")), c, s) for c, s in kinds]
    for _ in range(500):
        apps: list[Appearance] = []
        k = 0
        while k < slots:
            if k > 0 and rng.random() < EMPTY_CHANCE:
                k += 1
                continue
            length = 2 if rng.random() < LONG_CHANCE and k + 2 <= slots else 1
            last = apps[-1].thing if apps else None
            unseen = [p for p in pool if p not in {a.thing for a in apps}]
            choices = unseen if unseen and rng.random() < 0.5 else [p for p in pool if p != last]
            thing = rng.choice([p for p in choices if p != last] or [p for p in pool if p != last])
            x = rng.uniform(MARGIN, style.WIDTH - MARGIN)
            y = rng.uniform(style.HUD_HEIGHT + MARGIN, style.HEIGHT - MARGIN)
            apps.append(Appearance(START + k * period, START + (k + length) * period, thing, x, y))
            k += length
        if {a.thing for a in apps} == set(pool):
            return pool, apps
    raise RuntimeError("could not schedule every object")  # pragma: no cover - 500 tries


class TimeSequence:
    code, title, ability, levels = "S4", "Time Sequence", "TR", ("Easy", "Medium", "Hard")

    def simulate(self, level: str, rng: random.Random) -> Episode:
        pool, apps = _schedule(level, rng)
        offset = rng.randint(0, 40)
        events = []
        for a in apps:
            base = {"object": a.thing.short, "colour": a.thing.colour, "shape": a.thing.shape, "size": a.thing.size}
            events.append({"t": a.start, "kind": "appear", **base, "x": round(a.x, 1), "y": round(a.y, 1),
                           "clock": clock_text(a.start + offset)})
            events.append({"t": a.end, "kind": "disappear", **base, "clock": clock_text(a.end + offset)})
        events.sort(key=lambda e: (e["t"], e["kind"] == "appear"))

        def paint(t: float) -> np.ndarray:
            img = blank()
            draw_text(img, clock_text(t + offset + 1e-6), style.WIDTH - 92, 26)
            for a in apps:
                if a.start <= t + 1e-6 < a.end:
                    draw_thing(img, a.thing, a.x, a.y)
            return img

        params = {"T": INTERVAL[level], "N": OBJECTS[level], "first_slot_s": START, "empty_chance": EMPTY_CHANCE,
                  "long_chance": LONG_CHANCE}
        facts = {"clock_offset_s": offset}
        return Episode("S4", level, params, events, paint, duration=style.DURATION, facts=facts)

    def questions(self, episode: Episode, rng: random.Random) -> list[Draft]:
        log = Log(episode.events, episode.facts["clock_offset_s"])
        builders = [q_next_object, q_duration, q_first_time, q_next_colour, q_duration_after, q_sequence_after,
                    q_object_after, q_any_after, q_before_and_after]
        return first_drafts(builders, log, rng)


class Log:
    """Appearances read back from the event log: [(start, end, short name)] in order."""

    def __init__(self, events: list[dict], offset: int):
        self.offset = offset
        open_at: dict[str, float] = {}
        self.apps: list[tuple[float, float, str]] = []
        for e in events:
            if e["kind"] == "appear":
                open_at[e["object"]] = e["t"]
            elif e["kind"] == "disappear":
                self.apps.append((open_at.pop(e["object"]), e["t"], e["object"]))
        self.apps.sort()
        self.names = sorted({name for _, _, name in self.apps})
        self.end = max(e["t"] for e in events)

    def clock(self, t: float) -> str:
        return clock_text(t + self.offset)

    def successors(self, name: str) -> list[str | None]:
        return [self.apps[i + 1][2] if i + 1 < len(self.apps) else None
                for i, (_, _, nm) in enumerate(self.apps) if nm == name]

    def boundaries(self) -> list[float]:
        """Candidate question times: every appearance start and end (slot boundaries)."""
        return sorted({t for s, e, _ in self.apps for t in (s, e)})


def _other_names(answer: str, log: Log, rng: random.Random, k: int = 3) -> list[str]:
    others = [nm for nm in log.names if nm != answer]
    extra = [f"{c} {s}" for c in style.COLOURS for s in style.SHAPES if f"{c} {s}" not in log.names]
    rng.shuffle(others)
    rng.shuffle(extra)
    return (others + extra)[:k]


def _secs(v: float) -> str:
    return f"{round(v)} second" if round(v) == 1 else f"{round(v)} seconds"


def _yes_no(answer: bool, rng: random.Random, template: str, question: str) -> Draft:
    return shuffled(YES if answer else NO, [NO if answer else YES, UNSURE], rng, template, question)


def _unique_successor(log: Log, rng: random.Random) -> tuple[str, str] | None:
    """An object every appearance of which is followed by the same object."""
    names = [nm for nm in log.names if None not in (s := log.successors(nm)) and len(set(s)) == 1]
    if not names:
        return None
    name = rng.choice(names)
    return name, log.successors(name)[0]


def q_next_object(log: Log, rng: random.Random) -> Draft | None:
    pair = _unique_successor(log, rng)
    if pair is None:
        return None
    name, nxt = pair
    question = f"What object appears immediately after the object {name}?"
    return shuffled(nxt, _other_names(nxt, log, rng), rng, "object immediately after {object}", question)


def q_next_colour(log: Log, rng: random.Random) -> Draft | None:
    pair = _unique_successor(log, rng)
    if pair is None:
        return None
    name, nxt = pair
    colour = nxt.split()[0]
    question = f"What is the color of the object displayed after the object {name}?"
    return shuffled(colour, [c for c in style.COLOURS if c != colour], rng, "colour of the object after {object}",
                    question)


def q_duration(log: Log, rng: random.Random) -> Draft | None:
    name = rng.choice(log.names)
    total = sum(e - s for s, e, nm in log.apps if nm == name)
    question = f"How long does the {name} appear on screen in total?"
    return shuffled(total, near_numbers(round(total), rng, low=1), rng, "how long does {object} appear",
                    question, fmt=_secs)


def q_first_time(log: Log, rng: random.Random) -> Draft | None:
    name = rng.choice(log.names)
    first = min(s for s, _, nm in log.apps if nm == name)
    wrong = {log.clock(s) for s, _, nm in log.apps if nm != name} | {log.clock(first + d) for d in (-2, -1, 1, 2)}
    wrong.discard(log.clock(first))
    wrong_list = sorted(wrong)
    rng.shuffle(wrong_list)
    question = f"At what time on the clock does the first {name} appear?"
    return shuffled(log.clock(first), wrong_list[:3], rng, "timestamp of the first {object}", question)


def _after(log: Log, name: str, v: float) -> float:
    return sum(max(0.0, e - max(s, v)) for s, e, nm in log.apps if nm == name)


def q_duration_after(log: Log, rng: random.Random) -> Draft | None:
    v = rng.choice(log.boundaries()[:-1])
    name = rng.choice(log.names)
    total = _after(log, name, v)
    time = log.clock(v)
    if rng.random() < 0.5:
        question = f"What is the total duration for which the {name} is displayed after {time}?"
    else:
        question = f"For how long does the {name} appear after {time}, including {time} itself?"
    return shuffled(total, near_numbers(round(total), rng), rng, "total duration {object} displayed after {time}",
                    question, fmt=_secs)


def _variants(seq: list[str], names: list[str], rng: random.Random) -> list[str]:
    """Plausible wrong orders: two neighbours swapped, one replaced, the first dropped, reversed."""
    out = []
    for _ in range(6):
        i = rng.randrange(len(seq) - 1)
        s = list(seq)
        s[i], s[i + 1] = s[i + 1], s[i]
        out.append(s)
    i = rng.randrange(len(seq))
    out.append(seq[:i] + [rng.choice([n for n in names if n != seq[i]])] + seq[i + 1:])
    out += [seq[1:], seq[::-1]]
    texts = sorted({", ".join(s) for s in out if s != seq and s})
    rng.shuffle(texts)
    return texts


def q_sequence_after(log: Log, rng: random.Random) -> Draft | None:
    starts = [i for i in range(len(log.apps)) if 2 <= len(log.apps) - i <= 5]
    if not starts:
        return None
    i = rng.choice(starts)
    seq = [nm for _, _, nm in log.apps[i:]]
    if len(set(seq)) < 2:
        return None
    time = log.clock(log.apps[i][0])
    question = f"In what sequence do the objects appear after {time}, including {time} itself?"
    return shuffled(", ".join(seq), _variants(seq, log.names, rng)[:3], rng, "sequence of objects after {time}",
                    question)


def q_object_after(log: Log, rng: random.Random) -> Draft | None:
    want = rng.random() < 0.5
    combos = [(nm, v) for nm in log.names for v in log.boundaries()[1:]]
    rng.shuffle(combos)
    for name, v in combos:
        seen = any(e > v for s, e, nm in log.apps if nm == name)
        if seen == want:
            question = f"Did the {name} appear at any time after {log.clock(v)}?"
            return _yes_no(seen, rng, "did {object} appear after {time}", question)
    return None


def q_any_after(log: Log, rng: random.Random) -> Draft | None:
    last = max(e for _, e, _ in log.apps)
    if rng.random() < 0.5:
        v = rng.choice(log.boundaries()[:-1])
    else:
        v = float(rng.randint(int(last), int(style.DURATION) - 1))
    seen = any(e > v for _, e, _ in log.apps)
    question = f"Did any object appear at any time after {log.clock(v)}?"
    return _yes_no(seen, rng, "did any object appear after {time}", question)


def q_before_and_after(log: Log, rng: random.Random) -> Draft | None:
    want = rng.random() < 0.5
    starts = [s for s, _, _ in log.apps[1:]]
    rng.shuffle(starts)
    for v in starts:
        before = {nm for _, e, nm in log.apps if e <= v}
        after = {nm for s, _, nm in log.apps if s >= v}
        if bool(before & after) == want or v == starts[-1]:
            question = f"Are there any objects that appear both before and after {log.clock(v)}?"
            return _yes_no(bool(before & after), rng, "objects both before and after {time}", question)
    return None


SCENE = TimeSequence()
