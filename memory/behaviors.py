"""Regularities aggregated over events: where things usually are, where the wearer
usually is at an hour of the day, what usually follows what, who talks how often.

Behaviors are derived data, kept in step with the entity and event stores after every
ingest or forget, so deleting a video can never leave a stale aggregate behind. The stores
tally the groups where the records are (`SqliteStore.tally`), so a refresh holds groups,
not records. An ingest that only adds records later than those held (the usual one: the
next video) folds the tallies of its own records into the behaviors held, in time
proportional to the video, not to the memory; anything else (a forget, a re-ingest, a
video from before the last one) recomputes them all. A behavior cites the newest
`SUPPORT_KEPT` records it rests on, as evidence rather than an inventory; its vector is its
gist's, without the counts that change with every day.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from datetime import datetime

from memory.records import (
    BEHAVIOR,
    ENTITY_SIGHTING,
    PLACE_VISIT,
    UTTERANCE,
    MemoryRecord,
    RecordFilter,
    Tally,
)
from memory.sqlite_store import SqliteStore

SUPPORT_KEPT = 20
Visit = tuple[int, datetime, datetime, object]  # (id, wall_start, wall_end, place), as `SqliteStore.timeline` gives


def aggregate_behaviors(entity: SqliteStore, event: SqliteStore, namespace: str) -> list[MemoryRecord]:
    """Every behavior of a namespace, from what its entity and event stores hold."""
    tallies = _tallies(entity, event, RecordFilter(namespace=namespace))
    tallies["transition"] = _transitions(event.timeline("place", RecordFilter(namespace=namespace, kinds=(PLACE_VISIT,))))
    return [_record(namespace, pattern, t) for pattern, found in tallies.items() for t in found]


def fold_behaviors(held: list[MemoryRecord], entity: SqliteStore, event: SqliteStore, namespace: str,
                   since: int) -> list[MemoryRecord] | None:
    """The behaviors `held` with the records added after id `since` folded in; None when
    they cannot be: a visit added before one already held may break a transition between
    two held visits, which only a recomputation sees."""
    visits = RecordFilter(namespace=namespace, kinds=(PLACE_VISIT,))
    added = event.timeline("place", replace(visits, after_id=since))
    latest = event.query(visits, limit=len(added) + 1, newest_first=True)
    if sorted(r.id for r in latest[:len(added)]) != sorted(v[0] for v in added):
        return None  # an added visit is not among the latest
    before = [(r.id, r.wall_start, r.wall_end, r.attrs.get("place")) for r in latest[len(added):]]
    tallies = _tallies(entity, event, RecordFilter(namespace=namespace, after_id=since))
    tallies["transition"] = _transitions(before + added)
    by_key = {behavior_key(b): b for b in held}
    out = dict(by_key)
    for pattern, found in tallies.items():
        for new in found:
            old = by_key.get((pattern, new.key))
            out[(pattern, new.key)] = _record(namespace, pattern, new if old is None else _combined(_tally_of(old), new))
    return list(out.values())


def behavior_key(behavior: MemoryRecord) -> tuple:
    """(pattern, key): which regularity a behavior record is."""
    return behavior.attrs.get("pattern"), tuple(behavior.attrs.get("key") or ())


def _tallies(entity: SqliteStore, event: SqliteStore, scope: RecordFilter) -> dict[str, list[Tally]]:
    """The tallied patterns among the records `scope` admits (transitions aside)."""
    def of(kind: str) -> RecordFilter:
        return RecordFilter(namespace=scope.namespace, kinds=(kind,), after_id=scope.after_id)

    return {
        "object_place": entity.tally(("entity", "place"), of(ENTITY_SIGHTING), earliest=("label",), newest=SUPPORT_KEPT),
        "place_hour": event.tally(("place",), of(PLACE_VISIT), by_hour=True, newest=SUPPORT_KEPT),
        "speaker": event.tally(("speaker_name",), of(UTTERANCE), newest=SUPPORT_KEPT),
    }


def _transitions(visits: list[Visit]) -> list[Tally]:
    """Moves from one place to another within a day, tallied by (from, to) over the visits
    arrived at; `visits` in time order."""
    arrivals: dict[tuple, list[tuple[int, datetime, datetime]]] = defaultdict(list)
    for (_, start0, _, place0), (i, start, end, place) in zip(visits, visits[1:]):
        if place0 and place and place0 != place and start0.date() == start.date():
            arrivals[(place0, place)].append((i, start, end))
    return [Tally(key, len(seen), tuple(sorted({s.date().isoformat() for _, s, _ in seen})),
                  min(s for _, s, _ in seen), max(e for _, _, e in seen), (),
                  tuple(sorted(i for i, _, _ in seen)[-SUPPORT_KEPT:]))
            for key, seen in arrivals.items()]


def _combined(old: Tally, new: Tally) -> Tally:
    return Tally(old.key, old.count + new.count, tuple(sorted(set(old.days) | set(new.days))),
                 min(old.first, new.first), max(old.last, new.last),
                 new.earliest if new.first < old.first or None in old.earliest else old.earliest,
                 tuple(sorted(set(old.newest) | set(new.newest))[-SUPPORT_KEPT:]))


def _tally_of(behavior: MemoryRecord) -> Tally:
    a = behavior.attrs
    return Tally(tuple(a.get("key") or ()), int(a["count"]), tuple(a["days"]), behavior.wall_start,
                 behavior.wall_end, (a.get("label"),), tuple(a.get("support") or ()))


def behavior_gist(behavior: MemoryRecord) -> str:
    """What a behavior says without its counts: the text its vector is made of, so that a
    day that only adds to the counts keeps the vector (an embedder's cache holds it) and an
    ingest embeds only regularities that are new."""
    return _text(behavior.attrs.get("pattern"), _tally_of(behavior), counted=False)


def _text(pattern: str, t: Tally, counted: bool = True) -> str:
    n, d = t.count, len(t.days)
    if pattern == "object_place":
        gist, counts = f"{t.earliest[0] or t.key[0]} is kept in the {t.key[1]}", f": seen there {n} times on {d} day(s)"
    elif pattern == "place_hour":
        gist, counts = f"In the {t.key[0]} around {t.key[1]:02d}:00", f" on {d} day(s) ({n} visits)"
    elif pattern == "transition":
        gist, counts = f"After the {t.key[0]}, goes to the {t.key[1]}", f" ({n} times on {d} day(s))"
    else:
        gist, counts = f"{t.key[0]} talks with the wearer", f": {n} utterances on {d} day(s)"
    return gist + counts if counted else gist


def _record(namespace: str, pattern: str, tally: Tally) -> MemoryRecord:
    attrs = {"pattern": pattern, "key": list(tally.key), "count": tally.count, "days": list(tally.days),
             "support": list(tally.newest)}
    if pattern == "object_place":
        attrs["label"] = tally.earliest[0]
    return MemoryRecord(store="behavior", kind=BEHAVIOR, namespace=namespace, text=_text(pattern, tally),
                        wall_start=tally.first, wall_end=tally.last, attrs=attrs)
