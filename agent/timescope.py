"""When a question is about: relative days ("today", "last night"), parts of the day
("for lunch", "in the afternoon") and anchors ("on the day Bob asked me for the slides").

Parsing is rules (deterministic, auditable); resolving an anchor is a retrieval, done by
the caller, which turns the scope into a wall-clock window under the question time.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

# Hours of the wearer's day that meals and day parts name (start, end).
DAY_PARTS: dict[str, tuple[float, float]] = {
    "breakfast": (5.0, 10.5), "lunch": (11.0, 14.5), "dinner": (17.5, 21.5), "supper": (17.5, 21.5),
    "morning": (5.0, 12.0), "afternoon": (12.0, 18.0), "evening": (18.0, 24.0), "night": (18.0, 24.0),
}
_RELATIVE = (
    (re.compile(r"\blast night\b", re.I), -1, "night"),
    (re.compile(r"\byesterday\b", re.I), -1, None),
    (re.compile(r"\btonight\b", re.I), 0, "night"),
    (re.compile(r"\bthis (morning|afternoon|evening)\b", re.I), 0, "group1"),
    (re.compile(r"\btoday(?:'s)?\b", re.I), 0, None),
)
_ANCHOR = re.compile(r"\bon the day (?:when |that )?(.+?)\s*\??$", re.I)
_PART = re.compile(r"\b(?:for|at|during|in the|after|before|have|had|eat|ate)\s+(breakfast|lunch|dinner|supper|morning|afternoon|evening)\b", re.I)


@dataclass(frozen=True)
class TimeScope:
    day_offset: int | None = None  # 0 = the question's day, -1 = the day before
    part: str | None = None  # a key of DAY_PARTS
    anchor: str | None = None  # an event whose day the question is about
    body: str = ""  # the question without the anchor clause

    @property
    def hours(self) -> tuple[float, float] | None:
        return DAY_PARTS.get(self.part) if self.part else None


def parse_scope(question: str) -> TimeScope:
    body, anchor = question, None
    if (m := _ANCHOR.search(question)) is not None:
        anchor, body = m.group(1), question[: m.start()].rstrip(" ,") + "?"
    day, part = None, None
    for pattern, offset, named in _RELATIVE:
        if (m := pattern.search(body)) is not None:
            day = offset
            part = m.group(1).lower() if named == "group1" else named
            break
    if part is None and (m := _PART.search(body)) is not None and not re.search(r"\bafter\s+" + m.group(1), body, re.I):
        part = m.group(1).lower()
    return TimeScope(day, part, anchor, body)


def day_window(day: datetime, hours: tuple[float, float] | None) -> tuple[datetime, datetime]:
    midnight = datetime.combine(day.date(), datetime.min.time())
    lo, hi = hours or (0.0, 24.0)
    return midnight + timedelta(hours=lo), midnight + timedelta(hours=hi)


def in_hours(when: datetime, hours: tuple[float, float]) -> bool:
    h = when.hour + when.minute / 60
    return hours[0] <= h < hours[1]
