"""Regularities aggregated over events: where things usually are, where the wearer
usually is at an hour of the day, what usually follows what, who talks how often.

Behaviors are derived data: they are recomputed from the entity and event stores after
every ingest or forget, so deleting a video can never leave a stale aggregate behind.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from memory.records import BEHAVIOR, ENTITY_SIGHTING, PLACE_VISIT, UTTERANCE, MemoryRecord


class _Aggregate:
    def __init__(self):
        self.support: list[MemoryRecord] = []

    def add(self, record: MemoryRecord) -> None:
        self.support.append(record)

    @property
    def days(self) -> list[str]:
        return sorted({r.wall_start.date().isoformat() for r in self.support})


def _record(namespace: str, key: tuple, text: str, agg: _Aggregate) -> MemoryRecord:
    support = sorted(agg.support, key=lambda r: r.wall_start)
    return MemoryRecord(
        store="behavior", kind=BEHAVIOR, namespace=namespace, text=text,
        wall_start=support[0].wall_start, wall_end=support[-1].wall_end,
        attrs={"pattern": key[0], "key": list(key[1:]), "count": len(support), "days": agg.days,
               "support": [r.id for r in support if r.id is not None]},
    )


def aggregate_behaviors(records: Iterable[MemoryRecord], namespace: str) -> list[MemoryRecord]:
    groups: dict[tuple, _Aggregate] = defaultdict(_Aggregate)
    visits: list[MemoryRecord] = []
    for r in records:
        if r.kind == ENTITY_SIGHTING and r.attrs.get("place"):
            groups[("object_place", r.attrs["entity"], r.attrs["place"])].add(r)
        elif r.kind == PLACE_VISIT:
            visits.append(r)
            groups[("place_hour", r.attrs["place"], r.wall_start.hour)].add(r)
        elif r.kind == UTTERANCE and r.attrs.get("speaker_name"):
            groups[("speaker", r.attrs["speaker_name"])].add(r)
    visits.sort(key=lambda r: r.wall_start)
    for prev, nxt in zip(visits, visits[1:]):
        if prev.attrs["place"] != nxt.attrs["place"] and prev.wall_start.date() == nxt.wall_start.date():
            groups[("transition", prev.attrs["place"], nxt.attrs["place"])].add(nxt)

    out = []
    for key, agg in groups.items():
        n, d = len(agg.support), len(agg.days)
        pattern = key[0]
        if pattern == "object_place":
            text = f"{agg.support[0].attrs['label']} is kept in the {key[2]}: seen there {n} times on {d} day(s)"
        elif pattern == "place_hour":
            text = f"In the {key[1]} around {key[2]:02d}:00 on {d} day(s) ({n} visits)"
        elif pattern == "transition":
            text = f"After the {key[1]}, goes to the {key[2]} ({n} times on {d} day(s))"
        else:
            text = f"{key[1]} talks with the wearer: {n} utterances on {d} day(s)"
        out.append(_record(namespace, key, text, agg))
    return out
