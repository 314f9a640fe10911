"""Clip captions and their hour / day roll-ups.

A VLM captioner can be plugged in through `ClipCaptioner`; without one, captions are
composed from what perception read and heard, and from perception's VLM description of
the keyframes when that channel is on (kept as data). Roll-ups take an optional
injected `summarize` callable (an LLM, wired by the service layer); the default is
extractive.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Protocol

from memory.records import CLIP_CAPTION, DAY_SUMMARY, HOUR_SUMMARY, MemoryRecord, order_by_time
from perception.types import ClipObservation

Summarizer = Callable[[Sequence[str]], str]


class ClipCaptioner(Protocol):
    def caption(self, clip: ClipObservation, facts: ClipFacts) -> str: ...


class ClipFacts:
    """What memory already derived for a clip, handed to any captioner."""

    def __init__(self, places: list[str], objects: list[str], texts: list[str], lines: list[str],
                 people: list[str] | None = None, description: str | None = None):
        self.places, self.objects, self.texts, self.lines = places, objects, texts, lines
        self.people = people or []
        self.description = description  # a VLM's words about the keyframes: data, never instructions


class ComposedCaptioner:
    """Caption from perception outputs; honest about what it does not know."""

    max_items = 6

    def caption(self, clip: ClipObservation, facts: ClipFacts) -> str:
        span = clip.span
        parts = [f"{span.wall_start:%H:%M:%S}-{span.wall_end:%H:%M:%S}"]
        where = f"in the {', then '.join(facts.places)}" if facts.places else "place unknown"
        parts.append(where + (f", with {_listed(facts.people)}" if facts.people else ""))
        if facts.objects:
            parts.append("seen: " + ", ".join(facts.objects[: self.max_items]))
        if facts.description:
            parts.append("described: " + facts.description.strip().rstrip("."))
        if facts.texts:
            parts.append("read: " + "; ".join(f'"{t}"' for t in facts.texts[: self.max_items]))
        if facts.lines:
            parts.append("heard: " + " ".join(facts.lines[: self.max_items]))
        return ". ".join(parts) + "."


def _listed(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def extractive_summary(texts: Sequence[str], limit: int = 1200, sep: str = " ") -> str:
    """Keep captions in order until the budget is spent: no model, no hallucination."""
    out, used = [], 0
    for text in texts:
        if used + len(text) > limit:
            out.append("...")
            break
        out.append(text)
        used += len(text)
    return sep.join(out)


def _bucket(start: datetime, granularity: str) -> datetime:
    if granularity == HOUR_SUMMARY:
        return start.replace(minute=0, second=0, microsecond=0)
    return start.replace(hour=0, minute=0, second=0, microsecond=0)


ROLL_UPS = ((HOUR_SUMMARY, timedelta(hours=1)), (DAY_SUMMARY, timedelta(days=1)))


def roll_up(clips: Sequence[MemoryRecord], summarize: Summarizer | None = None,
            granularities: Sequence[str] = (HOUR_SUMMARY, DAY_SUMMARY)) -> list[MemoryRecord]:
    """Hour and day summaries over clip captions of one source (same namespace). A video's
    day is summarised over every recording of it instead (memory.recordings.day_summary)."""
    summarize = summarize or extractive_summary
    out: list[MemoryRecord] = []
    for granularity, width in ((g, w) for g, w in ROLL_UPS if g in granularities):
        groups: dict[datetime, list[MemoryRecord]] = {}
        for clip in order_by_time(clips):
            if clip.kind == CLIP_CAPTION:
                groups.setdefault(_bucket(clip.wall_start, granularity), []).append(clip)
        for bucket, members in groups.items():
            label = bucket.strftime("%Y-%m-%d %H:00") if granularity == HOUR_SUMMARY else bucket.strftime("%Y-%m-%d")
            places = sorted({p for m in members for p in m.attrs.get("places", [])})
            head = f"{granularity.title()} {label}: places " + (", ".join(places) or "unknown") + ". "
            first, last = members[0], members[-1]
            out.append(MemoryRecord(
                store="event", kind=granularity, namespace=first.namespace,
                text=head + summarize([m.text for m in members]),
                wall_start=max(first.wall_start, bucket), wall_end=min(last.wall_end, bucket + width),
                video_id=first.video_id, start=first.start, end=last.end,
                attrs={"places": places, "clips": len(members)},
            ))
    return out
