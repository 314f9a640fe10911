"""Typed source-identity observations: for a video composed of other videos (split screen,
concatenation, interleaving, clip sequences), which source stream is where, and when.

Stream ids are perception's own labels (0, 1, ...), assigned by appearance continuity, not
by screen position: after a left/right swap the same stream keeps its id.
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


@dataclass
class SourceMap:
    layout: str  # single | split | sequence
    segments: list[SourceSegment] = field(default_factory=list)
    model_id: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_dict(d: dict[str, Any]) -> SourceMap:
        return SourceMap(d["layout"], [SourceSegment(**s) for s in d.get("segments", ())], d.get("model_id", ""))
