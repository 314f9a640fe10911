"""Reads a video's OCR lines into places, object labels and text blocks per keyframe.

Without an object detector or a VLM, the visible words are the strongest cue: a sign
that names a place says where the wearer is; a short printed label names a thing.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from memory.config import MemoryConfig
from memory.kinds import Kinds
from memory.language import normalise
from perception.types import OcrLine, VideoObservation


def _near(a: OcrLine, b: OcrLine) -> bool:
    """Lines of one note or screen: stacked closely and overlapping horizontally."""
    height = max(a.box[3] - a.box[1], b.box[3] - b.box[1], 1.0)
    vertical_gap = max(a.box[1], b.box[1]) - min(a.box[3], b.box[3])
    horizontal_overlap = min(a.box[2], b.box[2]) - max(a.box[0], b.box[0])
    return vertical_gap <= 1.2 * height and horizontal_overlap > -0.5 * height


def group_blocks(lines: tuple[OcrLine, ...]) -> list[int]:
    """A block id per line (connected components of `_near`), so a note is read whole."""
    parent = list(range(len(lines)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(lines)):
        for j in range(i + 1, len(lines)):
            if _near(lines[i], lines[j]):
                parent[root(j)] = root(i)
    return [root(i) for i in range(len(lines))]


@dataclass(frozen=True)
class FrameText:
    """All text lines read on one keyframe, top to bottom, with the place they name."""

    time: float
    lines: tuple[OcrLine, ...]
    place: str | None  # a place named by a sign on this very frame
    blocks: tuple[int, ...] = ()  # block id per line

    def block_of(self, index: int) -> list[str]:
        """The lines of the note, screen or sign that line `index` belongs to."""
        return [line.text for line, b in zip(self.lines, self.blocks) if b == self.blocks[index]]


# WordNet's kinds a sign names a place by: a room ("meeting room"), a part of a building with a
# use ("desk area"), a piece of land ("car park"); not "structure" (a gate) nor "building" (a club)
PLACE_KINDS = ("room", "geographical_area")
# what a sign of several words names as a place ("DESK AREA", "BUS STOP"); a word alone of these
# kinds is most often no place ("OPEN", "CORNER", "END")
SPOT_KINDS = ("area", "topographic_point")


def names_a_place(kinds: Kinds | None, words: str) -> bool:
    """Whether WordNet calls the words a room or a piece of land ("bathroom", "garden", "car
    park"), or, said in several words, a spot ("bus stop"): a place, visited or not."""
    if kinds is None or not kinds.available or not words.replace(" ", "").isalpha():
        return False
    return any(kinds.is_a(words, kind) for kind in PLACE_KINDS + (SPOT_KINDS if " " in words else ()))


class SceneReader:
    def __init__(self, config: MemoryConfig, kinds: Kinds | None = None):
        """`kinds`: WordNet (memory.kinds); with it a short printed line is a thing's label only
        when it names something ("cup", "exit"), not a name or a word OCR ran together."""
        self.config = config
        self.kinds = kinds
        self._places = sorted({normalise(p) for p in config.places}, key=len, reverse=True)

    def place_named(self, text: str) -> str | None:
        """The place a sign names: one of the configured places in it, else, with WordNet, a
        sign that is itself a room or an area ("MEETING ROOM", "KITCHENETTE", "CAR PARK", "BUS STOP")."""
        words = normalise(text)
        if not words or len(words.split()) > self.config.max_label_words:
            return None
        wordnet = names_a_place(self.kinds, words)
        if words in self._places or wordnet and self.kinds.compound(words):  # "car park" is no park
            return words
        for place in self._places:
            if re.search(rf"\b{re.escape(place)}\b", words):
                return place
        return words if wordnet else None

    def is_object_label(self, line: OcrLine) -> bool:
        words = normalise(line.text)
        return (
            bool(words)
            and len(words.split()) <= self.config.max_label_words
            and not any(ch.isdigit() for ch in words)
            and sum(ch.isalpha() for ch in words) >= 3
            and self.place_named(line.text) is None
            and (self.kinds is None or not self.kinds.available or bool(self.kinds.senses(self.split_state(words)[0])))
        )

    def split_state(self, label: str) -> tuple[str, str | None]:
        """("pan dirty") -> ("pan", "dirty"): a trailing state word is a condition."""
        words = normalise(label).split()
        if len(words) > 1 and words[-1] in self.config.states:
            return " ".join(words[:-1]), words[-1]
        return " ".join(words), None

    def object_lines(self, frame: FrameText) -> list[OcrLine]:
        """Labels on things: short, wordy lines with nothing stacked above or below them in
        their block. A line with stacked neighbours belongs to a note, screen or receipt and
        is read as text instead; labels side by side on one row stay labels."""

        def stacked(a: OcrLine, b: OcrLine) -> bool:
            height = max(a.box[3] - a.box[1], b.box[3] - b.box[1], 1.0)
            return abs((a.box[1] + a.box[3]) - (b.box[1] + b.box[3])) / 2 > 0.5 * height

        return [line for i, line in enumerate(frame.lines)
                if self.is_object_label(line) and not any(
                    j != i and frame.blocks[j] == frame.blocks[i] and stacked(line, other)
                    for j, other in enumerate(frame.lines))]

    def frames(self, video: VideoObservation) -> list[FrameText]:
        by_time: dict[float, list[OcrLine]] = defaultdict(list)
        for clip in video.clips:
            for line in clip.ocr:
                if line.confidence >= self.config.min_text_confidence:
                    by_time[line.frame_time].append(line)
        frames = []
        for time in sorted(by_time):
            lines = tuple(sorted(by_time[time], key=lambda line: (line.box[1], line.box[0])))
            place = next((p for p in (self.place_named(line.text) for line in lines) if p), None)
            frames.append(FrameText(time=time, lines=lines, place=place, blocks=tuple(group_blocks(lines))))
        return frames


@dataclass(frozen=True)
class StayPlace:
    """A stretch of source time spent in one place of the namespace (memory.where)."""

    start: float
    end: float
    place_id: int
    name: str | None  # None while nothing and nobody has named the place


class PlaceTimeline:
    """Where the wearer is at a source time: the last place sign seen, for a while; where no
    sign speaks, the place the views say (`stays`), when it has a name."""

    def __init__(self, frames: list[FrameText], persistence: float, stays: Sequence[StayPlace] = ()):
        marks = [(f.time, f.place) for f in frames if f.place]
        self._times = [t for t, _ in marks]
        self._places = [p for _, p in marks]
        self.persistence = persistence
        self._stays = sorted(stays, key=lambda s: s.start)

    def sign_at(self, t: float) -> str | None:
        i = bisect_right(self._times, t + 1e-6) - 1
        if i < 0 or t - self._times[i] > self.persistence:
            return None
        return self._places[i]

    def stay_at(self, t: float) -> StayPlace | None:
        i = bisect_right([s.start for s in self._stays], t + 1e-6) - 1
        return self._stays[i] if i >= 0 and t <= self._stays[i].end + 1e-6 else None

    def at(self, t: float) -> str | None:
        stay = self.stay_at(t)
        return self.sign_at(t) or (stay.name if stay else None)

    def place_id_at(self, t: float) -> int | None:
        """The namespace place the views say, where no sign does (renaming it re-writes)."""
        stay = self.stay_at(t)
        return stay.place_id if stay and not self.sign_at(t) else None

    def visits(self) -> list[tuple[str | None, float, float, int | None]]:
        """Maximal runs of the same place: (name, first seen, last seen, place id). Sign runs,
        then the stays no sign run overlaps (an unnamed one has name None)."""
        runs: list[tuple[str | None, float, float, int | None]] = []
        for t, place in zip(self._times, self._places):
            if runs and runs[-1][0] == place and t - runs[-1][2] <= self.persistence:
                runs[-1] = (place, runs[-1][1], t, None)
            else:
                runs.append((place, t, t, None))
        signed = list(runs)
        for stay in self._stays:
            if not any(a <= stay.end and stay.start <= b + self.persistence for _, a, b, _ in signed):
                runs.append((stay.name, stay.start, stay.end, stay.place_id))
        return sorted(runs, key=lambda r: r[1])
