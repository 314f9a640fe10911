"""S10 Note Matcher (FP): simulation, drawing, audio and Table 31 question templates.

Table 9: T (interval, s) 5 / 3 / 1 and N (distinct notes) 3 / 5 / 7 (Easy / Medium / Hard).

Choices the paper leaves open:
- Notes are 1-7 of the C-major scale C4..B4 (261.63 ... 493.88 Hz), played as sine tones
  (10 ms fades) in Episode.audio (float32 mono, 16 kHz), and also shown as an on-screen
  note track "NOTE k" in the HUD band while the tone sounds (the paper's text stand-in).
- Patapon-like pairing: a pool of N + 1 objects (distinct in colour + shape, named that way,
  one fixed size each, never asked) in which every object has its own fixed note, N notes
  in all, so exactly two objects share one note. Every T seconds from t = 0.5 s one object
  of the pool appears at a random place while its note plays, both for 0.7 T, then 0.3 T
  of silence and empty screen; consecutive events never repeat an object. Every object
  appears at least once, so every one of the N notes is played.
- Notes are named by digit: questions say "note 3", options are "note 3" or a count.
- "Which object appeared most frequently" is only asked when the maximum is unique.
- Yes/No questions carry a third option, "Cannot be determined" (a Draft needs 3-5).
"""
from __future__ import annotations

import random
from collections import Counter

import numpy as np

from eval.videocogqa import style
from eval.videocogqa.base import (
    AUDIO_RATE,
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
NOTES = {"Easy": 3, "Medium": 5, "Hard": 7}  # N distinct notes (Table 9)
FREQUENCIES = (261.63, 293.66, 329.63, 349.23, 392.00, 440.00, 493.88)  # notes 1-7: C4 D4 E4 F4 G4 A4 B4
START, ON = 0.5, 0.7  # first event; share of each interval the object shows and the note sounds
AMPLITUDE, FADE = 0.5, 0.01
MARGIN = 30
YES, NO, UNSURE = "Yes", "No", "Cannot be determined"


def note_name(k: int) -> str:
    return f"note {k}"


def tone(frequency: float, seconds: float, rate: int = AUDIO_RATE) -> np.ndarray:
    t = np.arange(int(round(seconds * rate))) / rate
    wave = AMPLITUDE * np.sin(2 * np.pi * frequency * t)
    ramp = np.minimum(1.0, np.minimum(t, seconds - t) / FADE)
    return (wave * np.clip(ramp, 0.0, 1.0)).astype(np.float32)


class NoteMatcher:
    code, title, ability, levels = "S10", "Note Matcher", "FP", ("Easy", "Medium", "Hard")

    def simulate(self, level: str, rng: random.Random) -> Episode:
        period, n = INTERVAL[level], NOTES[level]
        count = int((style.DURATION - START) // period)
        kinds = rng.sample([(c, s) for c in style.COLOURS for s in style.SHAPES], n + 1)
        pool = [Thing(rng.choice(("medium", "large")), c, s) for c, s in kinds]
        notes = rng.sample(range(1, 8), n)
        note_of = dict(zip(pool, notes + [rng.choice(notes)]))
        for _ in range(500):
            order: list[Thing] = []
            for k in range(count):
                unseen = [p for p in pool if p not in order]
                left = count - k
                choices = unseen if len(unseen) >= left or rng.random() < 0.4 else pool
                choices = [p for p in choices if not order or p != order[-1]] or [p for p in pool if p != order[-1]]
                order.append(rng.choice(choices))
            if set(order) == set(pool):
                break
        shown = ON * period
        events, spots = [], []
        audio = np.zeros(int(style.DURATION * AUDIO_RATE), np.float32)
        for k, thing in enumerate(order):
            t = START + k * period
            x = rng.uniform(MARGIN, style.WIDTH - MARGIN)
            y = rng.uniform(style.HUD_HEIGHT + MARGIN, style.HEIGHT - MARGIN)
            spots.append((t, thing, x, y))
            note = note_of[thing]
            events.append({"t": t, "kind": "note", "object": thing.short, "colour": thing.colour,
                           "shape": thing.shape, "size": thing.size, "note": note, "frequency": FREQUENCIES[note - 1],
                           "x": round(x, 1), "y": round(y, 1), "until": t + shown})
            wave = tone(FREQUENCIES[note - 1], shown)
            i = int(round(t * AUDIO_RATE))
            audio[i:i + len(wave)] = wave[:len(audio) - i]

        def paint(t: float) -> np.ndarray:
            img = blank()
            for start, thing, x, y in spots:
                if start <= t + 1e-6 < start + shown:
                    draw_thing(img, thing, x, y)
                    draw_text(img, f"NOTE {note_of[thing]}", style.WIDTH - 110, 26)
            return img

        params = {"T": period, "N": n, "objects": n + 1, "events": count, "shown_s": round(shown, 2)}
        facts = {"note_of": {p.short: note_of[p] for p in pool}}
        return Episode("S10", level, params, events, paint, audio=audio, duration=style.DURATION, facts=facts)

    def questions(self, episode: Episode, rng: random.Random) -> list[Draft]:
        log = [(e["object"], e["note"]) for e in episode.events if e["kind"] == "note"]
        builders = [q_note_of, q_distinct_notes, q_most_frequent, q_first_note, q_note_played, q_note_with_object,
                    q_colour_with_note]
        return first_drafts(builders, log, rng)


Log = list[tuple[str, int]]  # (object short name, note) per event, in order


def _other_notes(note: int, rng: random.Random, k: int = 3) -> list[str]:
    others = [n for n in range(1, 8) if n != note]
    rng.shuffle(others)
    return [note_name(n) for n in others[:k]]


def _names(log: Log) -> list[str]:
    return sorted({name for name, _ in log})


def q_note_of(log: Log, rng: random.Random) -> Draft | None:
    name = rng.choice(_names(log))
    notes = {n for nm, n in log if nm == name}
    if len(notes) != 1:
        return None
    note = notes.pop()
    question = f"Which musical note is associated with the appearance of the {name}?"
    return shuffled(note_name(note), _other_notes(note, rng), rng, "note associated with {object}", question)


def q_distinct_notes(log: Log, rng: random.Random) -> Draft | None:
    count = len({n for _, n in log})
    wrong = [v for v in near_numbers(count, rng, k=6, low=1) if v <= 7][:3]
    return shuffled(count, wrong, rng, "number of different notes", "How many different notes were played in total?")


def q_most_frequent(log: Log, rng: random.Random) -> Draft | None:
    ranked = Counter(name for name, _ in log).most_common()
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return None
    best = ranked[0][0]
    others = [nm for nm, _ in ranked[1:]]
    rng.shuffle(others)
    return shuffled(best, others[:3], rng, "object appearing most often", "Which object appeared most frequently?")


def q_first_note(log: Log, rng: random.Random) -> Draft | None:
    note = log[0][1]
    return shuffled(note_name(note), _other_notes(note, rng), rng, "first note played",
                    "What was the first note played?")


def q_note_played(log: Log, rng: random.Random) -> Draft | None:
    played = {n for _, n in log}
    want = rng.random() < 0.5 and len(played) < 7
    note = rng.choice([n for n in range(1, 8) if (n in played) != want])
    question = f'Was the note "{note}" played at any point?'
    return shuffled(YES if note in played else NO, [NO if note in played else YES, UNSURE], rng,
                    'was note "{note}" played', question)


def q_note_with_object(log: Log, rng: random.Random) -> Draft | None:
    name = rng.choice(_names(log))
    own = sorted({n for nm, n in log if nm == name})
    note = rng.choice(own if rng.random() < 0.6 else sorted({n for _, n in log}))
    count = sum(1 for nm, n in log if nm == name and n == note)
    question = f"How many times did {note_name(note)} occur alongside a {name}?"
    return shuffled(count, near_numbers(count, rng), rng, "times {note} occurred alongside a {color} {shape}",
                    question)


def q_colour_with_note(log: Log, rng: random.Random) -> Draft | None:
    colour = rng.choice(sorted({nm.split()[0] for nm, _ in log}))
    note = rng.choice(sorted({n for nm, n in log if nm.split()[0] == colour} if rng.random() < 0.7 else
                             {n for _, n in log}))
    count = sum(1 for nm, n in log if nm.split()[0] == colour and n == note)
    question = f"How many times does a {colour} object appear alongside {note_name(note)}?"
    return shuffled(count, near_numbers(count, rng), rng, "times a {color} object appears alongside a {note}",
                    question)


SCENE = NoteMatcher()
