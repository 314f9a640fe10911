"""Memory records and the filter grammar every store understands.

A record is one remembered thing (a sighting, an utterance, a caption, a behavior) with
its provenance (source video, span on the source and on the wearer's clock, keyframes)
and its owner namespace. Stores index `text` both densely and lexically.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Literal

StoreName = Literal["entity", "event", "behavior"]
STORE_NAMES: tuple[StoreName, ...] = ("entity", "event", "behavior")

# Record kinds, by store. Kept as plain strings so later issues can add kinds freely.
WEARER = "me"  # the person wearing the glasses, as memory and questions name them ("I", "me", "my")
ENTITY_SIGHTING = "sighting"  # entity store: an object or person seen at a place and time
UTTERANCE = "utterance"  # event store: one speaker turn
TEXT_SIGHTING = "text"  # event store: one OCR line read on a keyframe
PLACE_VISIT = "visit"  # event store: a stay in one place
STAY = "stay"  # event store: time at a place nothing and nobody has named yet; a visit once named
CLIP_CAPTION = "clip"  # event store: clip-level caption
HOUR_SUMMARY = "hour"  # event store: hour roll-up
DAY_SUMMARY = "day"  # event store: day roll-up
RECORDING = "recording"  # event store: what one recording was (memory.recordings)
SEGMENT = "segment"  # event store: a stretch of one conversation, embedded by its event cue
PATTERN = "pattern"  # event store: what a person keeps doing or avoiding across a conversation's sessions
BEHAVIOR = "behavior"  # behavior store: a regularity aggregated over events
# Which store holds each kind (what a listing of memories by kind reads).
STORE_OF_KIND: dict[str, StoreName] = {
    ENTITY_SIGHTING: "entity", BEHAVIOR: "behavior",
    **{kind: "event" for kind in (UTTERANCE, TEXT_SIGHTING, PLACE_VISIT, STAY, CLIP_CAPTION, HOUR_SUMMARY,
                                  DAY_SUMMARY, RECORDING, SEGMENT, PATTERN)},
}


@dataclass
class MemoryRecord:
    store: StoreName
    kind: str
    namespace: str
    text: str
    wall_start: datetime
    wall_end: datetime
    video_id: str | None = None
    start: float = 0.0  # seconds on the source video
    end: float = 0.0
    keyframes: list[float] = field(default_factory=list)
    attrs: dict[str, Any] = field(default_factory=dict)
    id: int | None = None

    def with_id(self, record_id: int) -> MemoryRecord:
        return replace(self, id=record_id)


@dataclass(frozen=True)
class Tally:
    """The records sharing one combination of attr values (and hour of day, when grouped by
    it): how many, on which days, from when to when; what the earliest of them said for
    some other attrs; the ids of the newest few. What a regularity is made of, without
    reading its records."""

    key: tuple
    count: int
    days: tuple[str, ...]  # ISO dates, ascending
    first: datetime  # the earliest start
    last: datetime  # the latest end
    earliest: tuple  # values of the attrs asked for, from the earliest record
    newest: tuple[int, ...]  # ids, newest last


@dataclass(frozen=True)
class RecordFilter:
    """Conjunction of optional constraints; None means "any".

    `before` is strict: memory cut at question time t_q shows nothing observed at or after
    t_q. A record is shown when it was complete before t_q, or, for records that are
    sightings on keyframes (`SEEN_ON_KEYFRAMES`, the same text on every one), when it began
    before t_q, cut to its keyframes before t_q (`cut_at`): the scissors seen from 0 s to 8 s
    were seen at 5 s. Stores apply the cut to what they return.
    """

    namespace: str | None = None
    kinds: tuple[str, ...] | None = None
    video_ids: tuple[str, ...] | None = None
    before: datetime | None = None  # wall_end < before
    not_before: datetime | None = None  # wall_end >= not_before
    overlaps: tuple[datetime, datetime] | None = None  # [start, end) intersects the record
    attrs: tuple[tuple[str, Any], ...] = ()  # equality on attrs[key]
    attrs_in: tuple[tuple[str, tuple], ...] = ()  # attrs[key], or an item of it when a list, is one of these
    ids: tuple[int, ...] | None = None
    after_id: int | None = None  # id > after_id: the records added after that one
    # the text holds every word of at least one group (words as `text_words` reads them)
    mentions: tuple[tuple[str, ...], ...] | None = None
    hours: tuple[float, float] | None = None  # wall_start's time of day, in hours, is in [lo, hi)

    def matches(self, record: MemoryRecord) -> bool:
        """Reference semantics; SQL implementations must agree with this."""
        if self.namespace is not None and record.namespace != self.namespace:
            return False
        if self.kinds is not None and record.kind not in self.kinds:
            return False
        if self.video_ids is not None and record.video_id not in self.video_ids:
            return False
        if self.before is not None and not (record.wall_end < self.before or (
                record.kind in SEEN_ON_KEYFRAMES and record.wall_start < self.before)):
            return False
        if self.not_before is not None and record.wall_end < self.not_before:
            return False
        if self.overlaps is not None:
            lo, hi = self.overlaps
            if not (record.wall_start < hi and record.wall_end >= lo):
                return False
        if self.ids is not None and record.id not in self.ids:
            return False
        if self.after_id is not None and (record.id is None or record.id <= self.after_id):
            return False
        if self.mentions is not None:
            words = text_words(record.text)
            if not any(group <= words for group in mention_groups(self.mentions)):
                return False
        if self.hours is not None and not self.hours[0] <= hour_of_day(record.wall_start) < self.hours[1]:
            return False
        for key, values in self.attrs_in:
            held = record.attrs.get(key)
            if not any(item in values for item in (held if isinstance(held, list) else [held])):
                return False
        return all(record.attrs.get(key) == value for key, value in self.attrs)


def time_order(record: MemoryRecord) -> tuple[datetime, datetime, int]:
    """The one order of records in time: by start on the wearer's clock, then end, then id."""
    return record.wall_start, record.wall_end, record.id or 0


def order_by_time(records: Iterable[MemoryRecord]) -> list[MemoryRecord]:
    """Records in `time_order`."""
    return sorted(records, key=time_order)


def hour_of_day(when: datetime) -> float:
    """The time of day in hours, to the minute (13.5 is half past one)."""
    return when.hour + when.minute / 60


_TOKEN = re.compile(r"[^\W_]+")


def text_words(text: str) -> set[str]:
    """The words of a text as the stores' full-text index reads them (SQLite FTS5's
    unicode61): runs of letters and digits, lower case, accents dropped."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return set(_TOKEN.findall(folded.lower()))


def mention_groups(mentions: tuple[tuple[str, ...], ...]) -> list[frozenset[str]]:
    """`RecordFilter.mentions` as sets of index words; a group with no word is dropped."""
    groups = [frozenset(w for word in group for w in text_words(word)) for group in mentions]
    return [g for g in groups if g]


# Records made of sightings on keyframes, whose text holds at each of them: one that began
# before t_q is shown at t_q, cut to its keyframes before t_q.
SEEN_ON_KEYFRAMES: tuple[str, ...] = (ENTITY_SIGHTING, TEXT_SIGHTING, PLACE_VISIT, STAY)


def cut_at(record: MemoryRecord, before: datetime | None) -> MemoryRecord | None:
    """The record as known just before `before`: whole if it ended earlier; a keyframe
    sighting that goes on past it, cut to its keyframes before it; else None."""
    if before is None or record.wall_end < before:
        return record
    if record.kind not in SEEN_ON_KEYFRAMES or not record.wall_start < before:
        return None
    origin = record.wall_start - timedelta(seconds=record.start)
    seen = [k for k in record.keyframes if origin + timedelta(seconds=k) < before] or [record.start]
    return replace(record, end=seen[-1], wall_end=origin + timedelta(seconds=seen[-1]), keyframes=seen)
