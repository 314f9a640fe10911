"""Structured operators: questions that code answers better than a model."""
from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta

import numpy as np

from memory.kinds import Kinds
from memory.language import normalise, singular_words
from memory.memory import Memory
from memory.records import ENTITY_SIGHTING, UTTERANCE, MemoryRecord, RecordFilter, StoreName, order_by_time
from memory.store import RecordStore

# Cosine (all-MiniLM-L6-v2) at which two names are the same thing: synonyms score 0.7-0.96
# (mug/cup, sofa/couch, fridge/refrigerator, bike/bicycle), related kinds of thing below
# (dog/cat 0.66, van/truck 0.42, flask/bottle 0.44).
SAME_THING_COSINE = 0.7
# A name WordNet puts under a remembered one (woman/person 0.64, van/truck 0.42, kid/person
# 0.40) must still be this close in meaning: it drops rare senses the taxonomy keeps
# (mug/person 0.31, "mug" as slang for a face).
KIND_OF_COSINE = 0.35
# Sightings read back from the latest when only the last few matter ("where is it now").
RECENT = 64


@dataclass(frozen=True)
class EntityMatch:
    entity: str  # normalised key in the entity store
    label: str
    score: float  # 1.0 exact, lower for partial matches


class MemoryOperators:
    """The agent's one way into memory: structured operators, and the reads (never writes)
    a tool may make of a store directly."""

    def __init__(self, memory: Memory):
        self.memory = memory

    def store(self, name: StoreName) -> RecordStore:
        """A store's reads (memory.store.RecordStore: filtered queries, rankings, first-seen lists)."""
        return self.memory.store(name)

    @property
    def kinds(self) -> Kinds:
        """WordNet's kinds of thing, for whether a named thing can be seen at all."""
        return self.memory.kinds

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """The memory's sentence vectors of these texts (the space its records live in)."""
        return self.memory.embedder.embed(texts)

    def pinned(self) -> AbstractContextManager:
        """Reads within the block see one commit: old memory or new, never half of a re-ingest."""
        return self.memory.pinned()

    def _sightings(self, namespace: str, before: datetime | None, entity: str | None = None,
                   latest: int | None = None, after: datetime | None = None):
        """Sightings (of one thing) in time order, those still going on at `after` or later
        when given; with `latest`, only that many of the last."""
        attrs = (("entity", entity),) if entity else ()
        flt = RecordFilter(namespace=namespace, kinds=(ENTITY_SIGHTING,), before=before, not_before=after, attrs=attrs)
        if latest is None:
            return self.memory.store("entity").query(flt)
        return order_by_time(self.memory.store("entity").query(flt, limit=latest, newest_first=True))

    def resolve_entity(self, mention: str, namespace: str, before: datetime | None) -> EntityMatch | None:
        """Find the remembered entity a phrase names: exact, then word-level overlap (in the
        singular), then a synonym by meaning (`SAME_THING_COSINE`), then a kind of thing the
        detector names more coarsely ("woman" -> person, "van" -> truck)."""
        wanted = normalise(mention)
        if not wanted:
            return None
        wanted_words = singular_words(wanted)
        best: EntityMatch | None = None
        labels: dict[str, str] = {}
        seen = RecordFilter(namespace=namespace, kinds=(ENTITY_SIGHTING,), before=before)
        for key, label in self.memory.store("entity").distinct(("entity", "label"), seen):
            if key in labels:
                continue
            labels[key] = label or key
            key_words = singular_words(key)
            if key == wanted:
                score = 1.0
            else:
                overlap = len(wanted_words & key_words)
                score = overlap / max(len(key_words | wanted_words), 1) if overlap else 0.0
            if score > 0 and (best is None or score > best.score):
                best = EntityMatch(key, labels[key], score)
        return best or self._by_meaning(wanted, labels)

    def _by_meaning(self, wanted: str, labels: dict[str, str]) -> EntityMatch | None:
        """The remembered entity whose name means the same as `wanted` ("mug" -> cup), else
        the closest one `wanted` is a kind of ("woman" -> person in red)."""
        if not labels:
            return None
        keys = list(labels)
        vectors = self.memory.embedder.embed([wanted, *keys])
        cosines = vectors[1:] @ vectors[0]
        i = int(cosines.argmax())
        if cosines[i] >= SAME_THING_COSINE:
            return EntityMatch(keys[i], labels[keys[i]], float(cosines[i]) * 0.5)
        # the nearest broader kind ("van": one step under truck, more under car), or narrower
        # one ("box": a crate, named so by the classifier, memory.second_opinion)
        kinds = self.memory.kinds
        ranked = [(steps, -cosines[j], j) for j in range(len(keys)) if cosines[j] >= KIND_OF_COSINE
                  and (steps := _steps_between(kinds, wanted, labels[keys[j]])) is not None]
        if not ranked:
            return None
        j = min(ranked)[2]
        return EntityMatch(keys[j], labels[keys[j]], float(cosines[j]) * 0.5)

    def last_seen(self, namespace: str, entity: str, before: datetime | None) -> MemoryRecord | None:
        sightings = self._sightings(namespace, before, entity, latest=RECENT)
        return sightings[-1] if sightings else None

    def last_seen_with_place(self, namespace: str, entity: str, before: datetime | None) -> MemoryRecord | None:
        recent = self._sightings(namespace, before, entity, latest=RECENT)
        placed = [r for r in recent if r.attrs.get("place")]
        if not placed and len(recent) == RECENT:  # none of the latest was placed: look further back
            placed = [r for r in self._sightings(namespace, before, entity) if r.attrs.get("place")]
        return placed[-1] if placed else None

    def recent(self, namespace: str, entity: str, before: datetime | None) -> list[MemoryRecord]:
        """The last `RECENT` sightings of a thing, in time order (the end of its trajectory)."""
        return self._sightings(namespace, before, entity, latest=RECENT)

    def trajectory(self, namespace: str, entity: str, before: datetime | None,
                   after: datetime | None = None) -> list[MemoryRecord]:
        """A thing's sightings in time order, within the window when `after` is given (read
        from its index by time: "this morning" does not read a year of sightings)."""
        return order_by_time(self._sightings(namespace, before, entity, after=after))

    def count_sightings(self, namespace: str, entity: str, before: datetime | None,
                        gap_seconds: float = 60.0) -> int:
        """Distinct sighting episodes: sightings in one place closer than the gap are one
        encounter; a move to another place is a new one."""
        count, last = 0, None
        for record in self.trajectory(namespace, entity, before):
            if (last is None or record.attrs.get("place") != last.attrs.get("place")
                    or (record.wall_start - last.wall_end).total_seconds() > gap_seconds):
                count += 1
            last = record
        return count

    def _turns_after(self, utterance: MemoryRecord, before: datetime | None, window_seconds: float,
                     limit: int | None = None) -> list[MemoryRecord]:
        """The turns of the same recording that start after this one (speech recognition may
        start the next a moment before it ends), within the window and before the question time."""
        horizon = utterance.wall_end + timedelta(seconds=window_seconds)
        later = self.memory.store("event").query(RecordFilter(
            namespace=utterance.namespace, kinds=(UTTERANCE,), video_ids=(utterance.video_id,),
            not_before=utterance.wall_start + timedelta(milliseconds=1), before=min(horizon, before) if before else horizon,
        ), limit=limit)
        return [r for r in later if r.id != utterance.id]

    def next_turn(self, utterance: MemoryRecord, before: datetime | None,
                  window_seconds: float = 60.0) -> MemoryRecord | None:
        """The turn right after this one in its recording, whoever takes it."""
        later = self._turns_after(utterance, before, window_seconds, limit=2)
        return later[0] if later else None

    def follow_up_turns(self, utterance: MemoryRecord, before: datetime | None,
                        window_seconds: float = 60.0) -> list[MemoryRecord]:
        """The same speaker's next turns shortly after, where corrections and answers live."""
        speaker = utterance.attrs.get("speaker")
        return [r for r in self._turns_after(utterance, before, window_seconds)
                if speaker and r.attrs.get("speaker") == speaker]

    def reply_to(self, utterance: MemoryRecord, before: datetime | None,
                 window_seconds: float = 60.0) -> MemoryRecord | None:
        """The next turn, when another voice takes it shortly after: the answer to a question."""
        later = self._turns_after(utterance, before, window_seconds, limit=3)
        speaker = utterance.attrs.get("speaker")
        return later[0] if later and speaker and later[0].attrs.get("speaker") not in (None, speaker) else None

    def around(self, record: MemoryRecord, before: datetime | None, seconds: float = 10.0,
               limit: int = 6) -> list[MemoryRecord]:
        """Records of the same recording and kind within `seconds` of this one (the rest of a
        screen's text, the turns either side of a line), before the question time."""
        horizon = record.wall_end + timedelta(seconds=seconds)
        near = self.memory.store("event").query(RecordFilter(
            namespace=record.namespace, kinds=(record.kind,), video_ids=(record.video_id,),
            not_before=record.wall_start - timedelta(seconds=seconds),
            before=min(horizon, before) if before else horizon), limit=limit + 1)
        return [r for r in near if r.id != record.id][:limit]

    def said_in(self, record: MemoryRecord, sentence: str, before: datetime | None,
                limit: int = 400) -> MemoryRecord | None:
        """The spoken turn a caption or segment restates a sentence of: the one of the same
        recording, within the record's span, whose words hold the sentence's; else None."""
        wanted = normalise(sentence)
        if not wanted:
            return None
        horizon = record.wall_end + timedelta(seconds=1)
        turns = self.memory.store("event").query(RecordFilter(
            namespace=record.namespace, kinds=(UTTERANCE,), video_ids=(record.video_id,),
            not_before=record.wall_start - timedelta(seconds=1),
            before=min(horizon, before) if before else horizon), limit=limit)
        return next((t for t in turns if wanted in normalise(t.text)), None)

    def speakers(self, namespace: str, before: datetime | None) -> set[str]:
        spoken = RecordFilter(namespace=namespace, kinds=(UTTERANCE,), before=before)
        return {name.lower() for (name,) in self.memory.store("event").distinct(("speaker_name",), spoken) if name}


def _steps_between(kinds: Kinds, wanted: str, label: str) -> int | None:
    """Hypernym steps from the asked word up to a remembered label, or from the label up to
    the word; None when neither is a kind of the other."""
    up, down = kinds.steps_up(wanted, label), kinds.steps_up(label, wanted)
    return min((s for s in (up, down) if s is not None), default=None)
