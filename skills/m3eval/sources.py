"""Typed source-identity observations: for a video composed of other videos (split screen,
concatenation, interleaving, clip sequences), which source stream is where, and when, and
which on-screen text each stream showed.

Stream ids are perception's own labels (0, 1, ...), assigned by appearance continuity, not
by screen position: after a left/right swap the same stream keeps its id. Ids follow the
order of first appearance (left before right at the same moment).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class SourceSegment:
    start: float  # seconds on the composed video
    end: float
    stream: int
    region: str = "full"  # full | left | right


@dataclass(frozen=True)
class SourceText:
    """One OCR line read inside one region, attributed to the stream shown there."""

    t: float  # seconds on the composed video
    stream: int
    region: str  # full | left | right
    text: str
    confidence: float = 1.0
    y: float = 0.5  # vertical centre of the line, 0 = top of the region, 1 = bottom
    segment: int = -1  # index into SourceMap.segments


@dataclass
class SourceMap:
    layout: str  # single | split | sequence
    segments: list[SourceSegment] = field(default_factory=list)
    model_id: str = ""
    texts: list[SourceText] = field(default_factory=list)
    duration: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_dict(d: dict[str, Any]) -> SourceMap:
        return SourceMap(
            d["layout"], [SourceSegment(**s) for s in d.get("segments", ())], d.get("model_id", ""),
            [SourceText(**x) for x in d.get("texts", ())], float(d.get("duration", 0.0)),
        )

    @property
    def streams(self) -> list[int]:
        """Stream ids in order of first appearance (left before right at a tie)."""
        order = sorted(self.segments, key=lambda s: (s.start, s.region != "left"))
        return list(dict.fromkeys(s.stream for s in order))

    def stream_at(self, t: float, region: str = "full") -> int | None:
        for s in self.segments:
            if s.region == region and s.start <= t < s.end:
                return s.stream
        return None

    def sequence(self) -> list[SourceSegment]:
        """Full-frame segments in time order (clips of a sequence)."""
        return sorted((s for s in self.segments if s.region == "full"), key=lambda s: s.start)
