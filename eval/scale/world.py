"""Synthetic memories for the scale bench, written through memlens's own stores.

Records come at the kinds and per-hour rates that real ingest writes (`RATES_PER_HOUR`), in
the shapes memory/builder.py gives them, and land in the real `MemoryDatabase` (SQLite +
FAISS files exactly as memlens writes them), so what is measured is memlens's own layout.

Embedding millions of texts with MiniLM on a small CPU would take hours, so the fine
records draw their text from a pool of distinct sentences (`TextPool`), each embedded once
with the memory's own embedder: every stored vector is the true embedding of its record's
text. Texts repeat across a long memory (a pool of 20,000 under a month of 1M records),
as "Was in the kitchen" does in real life, only more. Clip captions put the clip's clock
before a pooled body and carry the body's vector; hour and day summaries are made by
memlens's own `roll_up` and embedded for real.
"""
from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

from eval.scale.texts import PEOPLE, PLACES, Sentences
from memory.captions import roll_up
from memory.memory import Memory
from memory.records import (
    CLIP_CAPTION,
    ENTITY_SIGHTING,
    PLACE_VISIT,
    STAY,
    TEXT_SIGHTING,
    UTTERANCE,
    MemoryRecord,
)

# Records memlens writes per hour of video, by kind. Measured on 2026-11-25 by ingesting each
# file of eval/media.py REAL_MEDIA (`fetch`) with the default config into an empty memory
# (benchmarks/ingest.py `fresh_config`; whisper-base, rapidocr, NanoDet, MiniLM) and
# counting the records of each namespace per kind. Raw counts: ted (61.7 s) 8 sightings,
# 13 stays, 8 OCR lines, 12 turns, 3 clips; campus (79.5 s) 31 sightings, 1 visit, 3 clips;
# box (15.2 s) 4 sightings, 1 visit; bunny (55.1 s) 11 sightings, 27 stays, 10 OCR lines;
# cup (8.1 s) 3 sightings, 1 stay; call (30 s, audio) 12 turns. Visual kinds are rated over
# the 219.6 s of picture, utterances over the 91.7 s of speech (942 an hour of speech) times
# the 30 % of a day's video that is speech. Stays are many because edited footage cuts
# between views; glasses footage has no cuts, so these rates lean high. `memlens bench scale`
# re-counts them on its day-like video (summary.json: ingest.records_per_hour).
RATES_PER_HOUR: dict[str, float] = {
    ENTITY_SIGHTING: 934.0,  # 57 / 219.6 s
    STAY: 672.0,  # 41 / 219.6 s
    PLACE_VISIT: 33.0,  # 2 / 219.6 s
    TEXT_SIGHTING: 295.0,  # 18 / 219.6 s
    UTTERANCE: 283.0,  # 24 / 91.7 s of speech x 0.30
    CLIP_CAPTION: 120.0,  # one per 30 s clip
}
SPEECH_SHARE = 0.30
HOURS_PER_DAY = 16  # a wearer's waking day on camera
DAY_STARTS_AT = 7  # 07:00 on the wearer's clock
FIRST_DAY = datetime(2026, 1, 5)
STAY_PLACES = 150  # views no sign names, per wearer ("Was at place N")


def records_per_hour() -> float:
    """Fine records and captions an hour, plus the hour summary (day summaries aside)."""
    return sum(RATES_PER_HOUR.values()) + 1


class TextPool:
    """Distinct record texts per kind and place, with their attrs, each text embedded once
    (the vectors are cached on disk under a hash of the texts)."""

    def __init__(self, embed: Callable[[list[str]], np.ndarray], size: int, seed: int = 0,
                 cache_dir: Path | None = None, progress=None):
        make = Sentences(seed)
        shares = {UTTERANCE: 0.3, TEXT_SIGHTING: 0.15, ENTITY_SIGHTING: 0.3, CLIP_CAPTION: 0.25}
        # kind -> place -> [(text, attrs)]; texts are distinct within a kind
        self.entries: dict[str, dict[str, list[tuple[str, dict]]]] = {}
        for kind, share in shares.items():
            seen: dict[str, tuple[str, dict]] = {}
            want = max(len(PLACES), int(size * share))
            for i in range(want * 20):  # the vocabulary bounds how many are distinct
                place = PLACES[i % len(PLACES)]
                text, attrs = _pooled(kind, make, place)
                seen.setdefault(text, (place, attrs))
                if len(seen) >= want:
                    break
            by_place: dict[str, list[tuple[str, dict]]] = {p: [] for p in PLACES}
            for text, (place, attrs) in seen.items():
                by_place[place].append((text, attrs))
            self.entries[kind] = by_place
        self.fixed = [f"Was in the {p}" for p in PLACES] + [f"Was at place {i}" for i in range(1, STAY_PLACES + 1)]
        flat = [t for kind in self.entries.values() for place in kind.values() for t, _ in place] + self.fixed
        key = hashlib.sha256("\n".join(flat).encode()).hexdigest()[:16]
        cached = cache_dir / f"scale-pool-{key}.npy" if cache_dir else None
        if cached is not None and cached.is_file():
            vectors = np.load(cached)
        else:
            vectors = _embed_in_chunks(embed, flat, progress)
            if cached is not None:
                cached.parent.mkdir(parents=True, exist_ok=True)
                np.save(cached, vectors)
        self._everywhere: dict[str, list[tuple[str, dict]]] = {}
        self.vector_of = {t: i for i, t in enumerate(flat)}  # text -> row of `vectors`
        self.vectors = vectors
        self.size = len(flat)

    def draw(self, kind: str, place: str | None, rng: np.random.Generator) -> tuple[str, dict, np.ndarray]:
        """A text of this kind read or seen at this place (said anywhere: place None), its
        attrs and its vector."""
        everywhere = self._everywhere.setdefault(kind, [e for p in self.entries[kind].values() for e in p])
        options = (self.entries[kind][place] if place is not None else None) or everywhere
        text, attrs = options[int(rng.integers(len(options)))]
        return text, dict(attrs), self.vectors[self.vector_of[text]]

    def fixed_vector(self, text: str) -> np.ndarray:
        return self.vectors[self.vector_of[text]]


def _embed_in_chunks(embed, texts: list[str], progress, chunk: int = 256) -> np.ndarray:
    if progress is not None:
        progress.start("embed pool", len(texts))
    out = []
    for i in range(0, len(texts), chunk):
        out.append(embed(texts[i: i + chunk]))
        if progress is not None:
            progress.advance("embed pool", len(texts[i: i + chunk]))
    return np.concatenate(out).astype(np.float32)


def _pooled(kind: str, make: Sentences, place: str) -> tuple[str, dict]:
    """One record text of a kind at a place, worded as memory/builder.py words that kind,
    with the attrs builder.py gives it (those that do not vary per sighting)."""
    rng = make.rng
    if kind == UTTERANCE:
        speaker, said = (make.person() if rng.random() < 0.7 else "me"), make.said()
        return f"{speaker}: {said}", {"speaker": f"S{PEOPLE.index(speaker) if speaker in PEOPLE else 0}",
                                      "speaker_name": speaker, "said": said, "acts": [], "place": place,
                                      "person_id": None}
    if kind == TEXT_SIGHTING:
        line = make.read()
        return f'Read "{line}" in the {place}', {"line": line, "block": [line], "place": place}
    if kind == ENTITY_SIGHTING:
        if rng.random() < 0.1:  # a printed line taken for a thing's label (as in TED and bunny footage)
            line = make.read()
            return f"{line} seen in the {place}", {"entity": line.lower(), "label": line, "place": place,
                                                   "state": None, "source": "label"}
        if rng.random() < 0.5:  # the detector's classes, named with a colour
            label, colour = make.detected()
            name = f"person in {colour}" if label == "person" else f"{colour} {label}"
            return f"{name} seen in the {place}", {"entity": label, "label": label, "place": place, "state": None,
                                                   "colour": colour, "name": name, "source": "detector"}
        label, state = make.thing()
        return (f"{label}{f' ({state})' if state else ''} seen in the {place}",
                {"entity": label, "label": label, "place": place, "state": state, "source": "label"})
    parts = [f"in the {place}" + (f", with {make.person()}" if rng.random() < 0.3 else "")]
    seen = [f"{c} {d}" for d, c in (make.detected() for _ in range(rng.randint(0, 5)))]
    seen += [make.thing()[0] for _ in range(rng.randint(0, 2))]
    if seen:
        parts.append("seen: " + ", ".join(dict.fromkeys(seen)))
    if rng.random() < 0.3:
        parts.append("read: " + "; ".join(f'"{make.read()}"' for _ in range(rng.randint(1, 3))))
    if rng.random() < SPEECH_SHARE:
        parts.append("heard: " + " ".join(f'{make.person()} said "{make.said()}"' for _ in range(rng.randint(1, 4))))
    return ". ".join(parts) + ".", {"places": [place]}


@dataclass
class WrittenDay:
    records: Counter
    seconds: float


class SyntheticWearer:
    """Writes whole recorded days of one namespace: a video per day, 16 hours of it, with
    records at `RATES_PER_HOUR` (Poisson counts per hour)."""

    def __init__(self, memory: Memory, pool: TextPool, namespace: str, seed: int = 0,
                 hours_per_day: float = HOURS_PER_DAY):
        self.memory = memory
        self.pool = pool
        self.namespace = namespace
        self.hours_per_day = hours_per_day
        self.seed = [seed, int(hashlib.sha256(namespace.encode()).hexdigest()[:8], 16)]
        self.rng = np.random.default_rng(self.seed)

    def write_days(self, first: int, days: int) -> Counter:
        """Days first..first+days-1 (0 is FIRST_DAY), in one write batch."""
        counts: Counter = Counter()
        with self.memory.db.batch():
            for day in range(first, first + days):
                counts += self._write_day(day)
        return counts

    def write_evening(self, day: int, hours: float = 1.0, nth: int = 0) -> Counter:
        """One more video of `hours`, recorded after day `day`'s, in its own write batch: what
        a live ingest adds to a memory in one commit. `nth`: how many evenings the memory
        held before this one (a kept memory measured again writes another after the same day)."""
        origin = FIRST_DAY + timedelta(days=day, hours=DAY_STARTS_AT + self.hours_per_day)
        self.rng = np.random.default_rng([*self.seed, day, 1 + nth])
        with self.memory.db.batch():
            return self._write_video(f"{self.namespace}-day{day:04d}-evening{'' if nth == 0 else nth}", origin,
                                     hours * 3600)

    def _write_day(self, day: int) -> Counter:
        # each video draws from a stream of its own: a build continued later writes the same days
        self.rng = np.random.default_rng([*self.seed, day, 0])
        origin = FIRST_DAY + timedelta(days=day, hours=DAY_STARTS_AT)
        return self._write_video(f"{self.namespace}-day{day:04d}", origin, self.hours_per_day * 3600)

    def _write_video(self, video_id: str, origin: datetime, seconds: float) -> Counter:
        by_store: dict[str, list[tuple[MemoryRecord, np.ndarray]]] = {"entity": [], "event": []}
        clips: list[MemoryRecord] = []
        for hour_start in np.arange(0, seconds, 3600.0):
            width = min(3600.0, seconds - hour_start)
            for record, vector in self._hour(video_id, origin, hour_start, width):
                by_store[record.store].append((record, vector))
                if record.kind == CLIP_CAPTION:
                    clips.append(record)
        summaries = roll_up(clips)  # memlens's own hour and day summaries
        vectors = self.memory.embedder.embed([s.text for s in summaries])
        by_store["event"] += list(zip(summaries, vectors))
        for name, pairs in by_store.items():
            pairs.sort(key=lambda p: p[0].wall_start)
            self.memory.store(name).add([r for r, _ in pairs], np.stack([v for _, v in pairs]) if pairs else None)
        return Counter(r.kind for pairs in by_store.values() for r, _ in pairs)

    def _hour(self, video_id: str, origin: datetime, at: float, width: float) -> Iterator[tuple[MemoryRecord, np.ndarray]]:
        """One recorded hour (or less) at one place: its records at the measured rates."""
        rng, pool = self.rng, self.pool
        place = PLACES[int(rng.integers(len(PLACES)))]
        place_id = PLACES.index(place) + 1

        def record(store, kind, text, start, end, keyframes=(), **attrs) -> MemoryRecord:
            attrs.setdefault("place_id", place_id)
            return MemoryRecord(store=store, kind=kind, namespace=self.namespace, text=text, video_id=video_id,
                                start=start, end=end, wall_start=origin + timedelta(seconds=start),
                                wall_end=origin + timedelta(seconds=end), keyframes=list(keyframes), attrs=attrs)

        def span(typical: float) -> tuple[float, float]:
            start = at + float(rng.uniform(0, width))
            return start, min(at + width, start + float(rng.exponential(typical)))

        def count(kind: str) -> int:
            return int(rng.poisson(RATES_PER_HOUR[kind] * width / 3600.0))

        # typical spans, from the measured records: sightings ~20 s, stays ~2 s, OCR lines
        # ~1 s, turns ~2.5 s, visits as long as the stay at the place
        for _ in range(count(ENTITY_SIGHTING)):
            text, attrs, vector = pool.draw(ENTITY_SIGHTING, place, rng)
            t0, t1 = span(20)
            yield record("entity", ENTITY_SIGHTING, text, t0, t1, keyframes=[t0, t1], **attrs,
                         confidence=round(float(rng.uniform(0.3, 1)), 4)), vector
        for _ in range(count(STAY)):
            t0, t1 = span(2)
            stay = int(rng.integers(1, STAY_PLACES + 1))
            text = f"Was at place {stay}"
            yield record("event", STAY, text, t0, t1, keyframes=[t0, t1], place=None,
                         place_id=100 + stay), pool.fixed_vector(text)
        for _ in range(count(PLACE_VISIT)):
            t0, t1 = span(600)
            text = f"Was in the {place}"
            yield record("event", PLACE_VISIT, text, t0, t1, keyframes=[t0, t1], place=place), pool.fixed_vector(text)
        for _ in range(count(TEXT_SIGHTING)):
            text, attrs, vector = pool.draw(TEXT_SIGHTING, place, rng)
            t0, t1 = span(1)
            yield record("event", TEXT_SIGHTING, text, t0, t1, keyframes=[t0, t1], **attrs,
                         confidence=round(float(rng.uniform(0.5, 1)), 4)), vector
        for _ in range(count(UTTERANCE)):
            text, attrs, vector = pool.draw(UTTERANCE, None, rng)  # words do not name where they are said
            t0, t1 = span(2.5)
            attrs["place"] = place
            yield record("event", UTTERANCE, text, t0, t1, **attrs, confidence=round(float(rng.uniform(0.6, 1)), 3)), vector
        for c0 in np.arange(at, at + width, 30.0):
            c0, c1 = float(c0), float(min(at + width, c0 + 30.0))
            body, attrs, vector = pool.draw(CLIP_CAPTION, place, rng)
            wall0, wall1 = origin + timedelta(seconds=c0), origin + timedelta(seconds=c1)
            yield record("event", CLIP_CAPTION, f"{wall0:%H:%M:%S}-{wall1:%H:%M:%S}. {body}", c0, c1,
                         keyframes=[c0, c1], **attrs, clip_index=int(c0 // 30)), vector


def build_timed(wearer: SyntheticWearer, first: int, days: int) -> WrittenDay:
    began = time.perf_counter()
    counts = wearer.write_days(first, days)
    return WrittenDay(counts, time.perf_counter() - began)
