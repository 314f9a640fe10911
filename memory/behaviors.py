"""Regularities aggregated over events: where things usually are, where the wearer
usually is at an hour of the day, what usually follows what, who talks how often.

Behaviors are derived data: they are recomputed from the entity and event stores after
every ingest or forget, so deleting a video can never leave a stale aggregate behind. The
stores tally the groups where the records are (`RecordStore.tally`), so a refresh over a
year of memory holds its groups, not its records; a behavior cites the newest
`SUPPORT_KEPT` records it rests on, as evidence rather than an inventory.
"""
from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from memory.records import BEHAVIOR, ENTITY_SIGHTING, PLACE_VISIT, UTTERANCE, MemoryRecord, RecordFilter, Tally
from memory.store import RecordStore

SUPPORT_KEPT = 20


def aggregate_behaviors(entity: RecordStore, event: RecordStore, namespace: str) -> list[MemoryRecord]:
    """Every behavior of a namespace, from what its entity and event stores hold."""
    def scope(kind: str) -> RecordFilter:
        return RecordFilter(namespace=namespace, kinds=(kind,))

    out = []
    for t in entity.tally(("entity", "place"), scope(ENTITY_SIGHTING), earliest=("label",), newest=SUPPORT_KEPT):
        label = t.earliest[0] or t.key[0]
        out.append(_record(namespace, ("object_place", *t.key), t,
                           f"{label} is kept in the {t.key[1]}: seen there {t.count} times on {len(t.days)} day(s)"))
    for t in event.tally(("place",), scope(PLACE_VISIT), by_hour=True, newest=SUPPORT_KEPT):
        out.append(_record(namespace, ("place_hour", *t.key), t,
                           f"In the {t.key[0]} around {t.key[1]:02d}:00 on {len(t.days)} day(s) ({t.count} visits)"))
    for t in _transitions(event.timeline("place", scope(PLACE_VISIT))):
        out.append(_record(namespace, ("transition", *t.key), t,
                           f"After the {t.key[0]}, goes to the {t.key[1]} ({t.count} times on {len(t.days)} day(s))"))
    for t in event.tally(("speaker_name",), scope(UTTERANCE), newest=SUPPORT_KEPT):
        out.append(_record(namespace, ("speaker", *t.key), t,
                           f"{t.key[0]} talks with the wearer: {t.count} utterances on {len(t.days)} day(s)"))
    return out


def _transitions(visits: list[tuple[int, datetime, datetime, object]]) -> list[Tally]:
    """Moves from one place to another within a day, tallied by (from, to) over the visits
    arrived at."""
    arrivals: dict[tuple, list[tuple[int, datetime, datetime]]] = defaultdict(list)
    for (_, start0, _, place0), (i, start, end, place) in zip(visits, visits[1:]):
        if place0 and place and place0 != place and start0.date() == start.date():
            arrivals[(place0, place)].append((i, start, end))
    return [Tally(key, len(seen), tuple(sorted({s.date().isoformat() for _, s, _ in seen})),
                  min(s for _, s, _ in seen), max(e for _, _, e in seen), (),
                  tuple(sorted(i for i, _, _ in seen)[-SUPPORT_KEPT:]))
            for key, seen in arrivals.items()]


def _record(namespace: str, key: tuple, tally: Tally, text: str) -> MemoryRecord:
    return MemoryRecord(
        store="behavior", kind=BEHAVIOR, namespace=namespace, text=text, wall_start=tally.first,
        wall_end=tally.last,
        attrs={"pattern": key[0], "key": list(key[1:]), "count": tally.count, "days": list(tally.days),
               "support": list(tally.newest)},
    )
