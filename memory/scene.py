"""Reads a video's OCR lines into places, object labels and text blocks per keyframe.

Without an object detector or a VLM, the visible words are the strongest cue: a sign
that names a place says where the wearer is; a short printed label names a thing.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass

from memory.config import MemoryConfig
from perception.types import OcrLine, VideoObservation

_NON_WORD = re.compile(r"[^a-z0-9 ]+")


def normalise(text: str) -> str:
    return " ".join(_NON_WORD.sub(" ", text.lower()).split())


@dataclass(frozen=True)
class FrameText:
    """All text lines read on one keyframe, top to bottom, with the place they name."""

    time: float
    lines: tuple[OcrLine, ...]
    place: str | None  # a place named by a sign on this very frame

    @property
    def block(self) -> list[str]:
        return [line.text for line in self.lines]


class SceneReader:
    def __init__(self, config: MemoryConfig):
        self.config = config
        self._places = sorted({normalise(p) for p in config.places}, key=len, reverse=True)

    def place_named(self, text: str) -> str | None:
        words = normalise(text)
        if not words or len(words.split()) > self.config.max_label_words:
            return None
        for place in self._places:
            if words == place or re.search(rf"\b{re.escape(place)}\b", words):
                return place
        return None

    def is_object_label(self, line: OcrLine) -> bool:
        words = normalise(line.text)
        return (
            bool(words)
            and len(words.split()) <= self.config.max_label_words
            and not any(ch.isdigit() for ch in words)
            and sum(ch.isalpha() for ch in words) >= 3
            and self.place_named(line.text) is None
        )

    def frames(self, video: VideoObservation) -> list[FrameText]:
        by_time: dict[float, list[OcrLine]] = defaultdict(list)
        for clip in video.clips:
            for line in clip.ocr:
                if line.confidence >= self.config.min_text_confidence:
                    by_time[line.frame_time].append(line)
        frames = []
        for time in sorted(by_time):
            lines = tuple(sorted(by_time[time], key=lambda l: (l.box[1], l.box[0])))
            place = next((p for p in (self.place_named(l.text) for l in lines) if p), None)
            frames.append(FrameText(time=time, lines=lines, place=place))
        return frames


class PlaceTimeline:
    """Where the wearer is at a source time: the last place sign seen, for a while."""

    def __init__(self, frames: list[FrameText], persistence: float):
        marks = [(f.time, f.place) for f in frames if f.place]
        self._times = [t for t, _ in marks]
        self._places = [p for _, p in marks]
        self.persistence = persistence

    def at(self, t: float) -> str | None:
        i = bisect_right(self._times, t + 1e-6) - 1
        if i < 0 or t - self._times[i] > self.persistence:
            return None
        return self._places[i]

    def visits(self) -> list[tuple[str, float, float]]:
        """Maximal runs of the same place: (place, first seen, last seen)."""
        runs: list[tuple[str, float, float]] = []
        for t, place in zip(self._times, self._places):
            if runs and runs[-1][0] == place and t - runs[-1][2] <= self.persistence:
                runs[-1] = (place, runs[-1][1], t)
            else:
                runs.append((place, t, t))
        return runs
