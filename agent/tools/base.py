"""What every tool shares: its view of memory (cut strictly before t_q, narrowed to the
plan's time window) and the result it returns."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import Any

from agent.plan import TimeSlot
from agent.state import Evidence
from memory.language import STOP, normalise
from memory.records import (
    ENTITY_SIGHTING,
    PLACE_VISIT,
    RECORDING,
    TEXT_SIGHTING,
    UTTERANCE,
    MemoryRecord,
    RecordFilter,
    hour_of_day,
    order_by_time,
)
from retrieval.operators import MemoryOperators
from retrieval.search import HybridRetriever, SearchQuery

FINE_KINDS = (UTTERANCE, TEXT_SIGHTING, ENTITY_SIGHTING, PLACE_VISIT)
# The most records one read of a tool takes, newest first: "when did I last see my glasses"
# over a year of memory is answered from the latest thousands of moments, not every one.
RECALL = 2000


@dataclass
class ToolResult:
    """`answer` is short and natural; `value` is what options are compared with (a place,
    a number, a date, a list); `found` says whether memory held what the tool looked for."""

    tool: str
    answer: str
    support: list[Evidence]
    found: bool
    value: Any = None
    note: str = ""
    raw: list[float] | None = None  # per-option preference in [0, 1] when the tool can judge options
    names: list[str] = field(default_factory=list)  # people the supporting text mentions (not who spoke)
    by_act: bool = False  # support chosen by who asked or promised whom, not by the question's words


@dataclass
class ToolContext:
    retriever: HybridRetriever
    operators: MemoryOperators
    namespace: str
    at: datetime | None
    time: TimeSlot = field(default_factory=TimeSlot)
    people_in: Callable[[str], list[str]] = lambda text: []  # person names a text mentions (NER)
    # dates a remembered sentence names, resolved against when it was said
    dates_in: Callable[[str, datetime], list[tuple[str, datetime]]] = lambda text, said_at: []
    recall: int = RECALL
    _recording_visits: dict[str | None, list[MemoryRecord]] = field(default_factory=dict, init=False, repr=False)
    _days_in_hours: dict[tuple[float, float], date | None] = field(default_factory=dict, init=False, repr=False)

    def window(self) -> tuple[datetime | None, datetime | None]:
        """The plan's time slot as (after, before) on the wall clock; before never passes t_q.
        "After lunch" / "before dinner" with no day named is on the last day the wearer
        stayed somewhere in those hours: the meal a person means, not every day's."""
        at, t = self.at, self.time
        if t.start is not None or t.end is not None:
            return t.start, min(x for x in (t.end, at) if x is not None) if (t.end or at) else None
        if at is None:
            return None, at
        if t.day_offset is not None:
            day = (at + timedelta(days=t.day_offset)).date()
        elif t.hours and t.relation in ("after", "before"):
            day = self._latest_day_in_hours(t.hours)  # "after lunch": the last lunch, not every day's
            if day is None:
                return None, at
        else:
            return None, at
        midnight = datetime.combine(day, datetime.min.time())
        lo, hi = (0.0, 24.0) if t.relation in ("after", "before") else (t.hours or (0.0, 24.0))
        return midnight + timedelta(hours=lo), min(midnight + timedelta(hours=hi), at)

    def hours_of_day(self) -> tuple[float, float] | None:
        """The span of the day the plan asks about: a meal's or a part's hours, or, "after
        lunch" / "before dinner", the rest of the day once they are over / until they begin."""
        hours, relation = self.time.hours, self.time.relation
        if hours and relation == "after":
            return hours[1], 24.0
        if hours and relation == "before":
            return 0.0, hours[0]
        return hours

    def _latest_day_in_hours(self, hours: tuple[float, float]) -> date | None:
        """The last day before t_q with a stay begun in these hours (read once per context)."""
        if hours not in self._days_in_hours:
            last = self.operators.store("event").query(self.filter((PLACE_VISIT,), hours=hours), limit=1,
                                                              newest_first=True)
            self._days_in_hours[hours] = last[0].wall_start.date() if last else None
        return self._days_in_hours[hours]

    def records(self, kinds: tuple[str, ...], store: str = "event", after: datetime | None = None,
                before: datetime | None = None, mentions: Sequence[str] | None = None,
                hours: tuple[float, float] | None = None, places: Sequence[str] = (),
                limit: int | None = None) -> list[MemoryRecord]:
        """This namespace's records of these kinds in the window (begun in `hours`, at one of
        `places`, when given), the newest `recall` (or `limit`) of them in time order; with
        `mentions`, only those whose text has all the words of one of the phrases (found
        through the text index)."""
        flt = self.filter(kinds, after, before, mentions, hours)
        if places:
            flt = replace(flt, attrs_in=(("place", tuple(places)),))
        return self.newest(self.operators.store(store), flt, limit)

    def remembers_before(self, moment: datetime) -> bool:
        """Whether a recording of this namespace began before `moment`: a span that ends before
        the first is no time anything was seen or heard, only one someone told of."""
        flt = RecordFilter(namespace=self.namespace, kinds=(RECORDING,), before=moment)
        return bool(self.operators.store("event").query(flt, limit=1, newest_first=True))

    def newest(self, store, flt: RecordFilter, limit: int | None = None) -> list[MemoryRecord]:
        """The newest `recall` (or `limit`) records `flt` keeps, in time order: a tool's read
        costs the same after a day of memory and after a year."""
        return order_by_time(store.query(flt, limit=min(limit or self.recall, self.recall), newest_first=True))

    def filter(self, kinds: tuple[str, ...], after: datetime | None = None, before: datetime | None = None,
               mentions: Sequence[str] | None = None, hours: tuple[float, float] | None = None) -> RecordFilter:
        """This namespace's records of these kinds, never at or after t_q; with `hours`, only
        those begun in that span of the day."""
        cut = min(before, self.at) if before and self.at else (before or self.at)
        return RecordFilter(namespace=self.namespace, kinds=kinds, before=cut, not_before=after, hours=hours,
                            mentions=None if mentions is None else tuple(tuple(m.split()) for m in mentions))

    def visits(self, after: datetime | None = None, before: datetime | None = None,
               place: str | None = None) -> list[MemoryRecord]:
        """Stays in the window (the newest `recall`), at `place` when given (filtered in the
        store, not here)."""
        return self.newest(self.operators.store("event"), self._stays_filter(after, before, place))

    def latest_visit(self, before: datetime | None, place: str | None = None) -> MemoryRecord | None:
        """The last stay (at `place` when given) over by `before`, read without the others."""
        last = self.operators.store("event").query(self._stays_filter(None, before, place), limit=1,
                                                          newest_first=True)
        return last[0] if last else None

    def _stays_filter(self, after: datetime | None, before: datetime | None, place: str | None) -> RecordFilter:
        flt = self.filter((PLACE_VISIT,), after, before)
        return flt if place is None else replace(flt, attrs=(("place", place),))

    def visits_in_recording(self, video_id: str | None) -> list[MemoryRecord]:
        """One recording's stays before t_q, read once per tool call (stays and their ends need them)."""
        if video_id not in self._recording_visits:
            flt = replace(self.filter((PLACE_VISIT,)), video_ids=(video_id,))
            self._recording_visits[video_id] = order_by_time(self.operators.store("event").query(flt))
        return self._recording_visits[video_id]

    def known_places(self) -> list[str]:
        """Places visited before t_q, in the order first visited."""
        return [place for (place,) in self.operators.store("event").distinct(("place",), self.filter((PLACE_VISIT,)))
                if place]

    def stay_at(self, record: MemoryRecord) -> MemoryRecord | None:
        """The stay (place visit) a moment happened in: the same recording's latest visit
        that began at or before it."""
        visits = [v for v in self.visits_in_recording(record.video_id) if v.wall_start <= record.wall_start]
        return visits[-1] if visits else None

    def left_at(self, stay: MemoryRecord) -> datetime:
        """When a stay ended: where the same recording next shows another place, else its last sighting."""
        later = [v for v in self.visits_in_recording(stay.video_id) if v.wall_start >= stay.wall_end
                 and v.attrs.get("place") != stay.attrs.get("place")]
        return later[0].wall_start if later else stay.wall_end

    def places_in(self, text: str) -> list[str]:
        """Places memory knows that a phrase names, longest first, none inside another."""
        words = f" {normalise(text)} "
        found = [p for p in sorted(self.known_places(), key=len, reverse=True) if f" {p} " in words]
        return [p for p in found if not any(p != q and p in q for q in found)]

    def search(self, text: str, kinds: tuple[str, ...] | None = FINE_KINDS, k: int = 8,
               after: datetime | None = None, before: datetime | None = None, attrs=()) -> list[Evidence]:
        lo, hi = self.window()
        hits = self.retriever.search(SearchQuery(
            text=text, namespace=self.namespace, kinds=kinds, k=k, attrs=attrs,
            after=after or lo, before=min(x for x in (before, hi) if x is not None) if (before or hi) else None))
        # Ranked by the fused score; each keeps its cosine to the query (0 when only BM25 found it).
        return [Evidence(h.record, h.dense or 0.0, "search") for h in hits]

    def locate(self, phrase: str, exclude: set[int] = frozenset(), latest: bool = False) -> MemoryRecord | None:
        """The remembered moment a phrase describes: a visit when it names a place the
        wearer went to ("the cafe"; the first in the window, or the latest), else the fine
        record sharing most words with it."""
        places = self.places_in(phrase)
        if places and len([w for w in normalise(phrase).split() if w not in STOP]) <= 2:  # "I was at the gym"
            visits = [v for v in self.visits(*self.window(), place=places[0]) if v.id not in exclude]
            return (visits[-1] if latest else visits[0]) if visits else None
        hits = self.search(phrase, k=6, before=self.at)
        terms = set(normalise(phrase).split()) - STOP
        shared = {e.record.id: len(terms & set(normalise(e.record.text).split())) for e in hits}
        hits.sort(key=lambda e: (-shared[e.record.id], -e.score))
        # A moment that shares no word with the phrase is not the moment it describes.
        return next((e.record for e in hits if e.record.id not in exclude and shared[e.record.id]), None)


def in_hours(when: datetime, hours: tuple[float, float] | None) -> bool:
    """Whether a moment falls in a span of the day (a meal, a part of the day); None is any time."""
    return hours is None or hours[0] <= hour_of_day(when) < hours[1]


def evidence(records: Sequence[MemoryRecord], why: str) -> list[Evidence]:
    return [Evidence(r, 1.0, why) for r in records]


def moment_phrase(moment: datetime, at: datetime | None) -> str:
    """A moment as a person says it: the weekday within the week before the question, the
    date as well further back."""
    if at is not None and timedelta(0) <= at - moment < timedelta(days=6):
        return f"{moment:%A} at {moment:%H:%M}"
    return f"{moment:%A} {moment.day} {moment:%B %Y} at {moment:%H:%M}"
