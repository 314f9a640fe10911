"""Typed observations that perception hands to memory.

These dataclasses are the contract between layers: memory, retrieval and the agent only
ever see these, never decoder frames or model objects.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any


@dataclass(frozen=True)
class Word:
    text: str
    start: float  # seconds on the source video
    end: float
    probability: float


@dataclass(frozen=True)
class AsrSegment:
    """One transcribed utterance; `speaker` is a per-video cluster label ("S1", "S2"...)."""

    start: float
    end: float
    text: str
    confidence: float
    words: tuple[Word, ...] = ()
    speaker: str | None = None


@dataclass(frozen=True)
class OcrLine:
    """A text line read on one keyframe; `box` is (x0, y0, x1, y1) in pixels."""

    text: str
    confidence: float
    frame_time: float  # seconds on the source video
    box: tuple[float, float, float, float]
    frame_size: tuple[int, int] = (0, 0)  # (width, height), for relative sizes


@dataclass(frozen=True)
class ObjectDetection:
    """A thing a detector found on one sampled frame; `box` is (x0, y0, x1, y1) in pixels.

    `track` numbers one thing followed across frames; `instance` numbers one thing across
    the whole video (tracks of the same class and look linked when one ends and another
    begins), per label, from 1. Both are None until perception.object_tracks assigns them.
    """

    label: str
    confidence: float
    frame_time: float
    box: tuple[float, float, float, float]
    frame_size: tuple[int, int] = (0, 0)
    colour: str | None = None  # the basic colour most of its pixels have
    appearance: tuple[float, ...] = ()  # a colour histogram (perception.appearance)
    track: int | None = None
    instance: int | None = None
    # a classifier's top names for the crop with their probabilities (perception.classifier)
    seen_as: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class FaceSighting:
    """A face found on one frame, with its 128-d descriptor (dlib's metric: faces of one
    person lie within 0.6 of each other). `person` labels one person within a video ("F1",
    "F2"...); None until perception.faces.cluster_faces assigns it."""

    frame_time: float
    box: tuple[float, float, float, float]
    frame_size: tuple[int, int]
    score: float
    descriptor: tuple[float, ...]
    person: str | None = None


@dataclass(frozen=True)
class ClipSpan:
    """Where a clip lies on the source video and on the wearer's clock."""

    video_id: str
    index: int
    start: float  # seconds on the source
    end: float
    wall_start: datetime  # the wearer's clock at `start`

    def wall(self, t: float) -> datetime:
        """Wearer's clock at source time `t`."""
        return self.wall_start + timedelta(seconds=t - self.start)

    @property
    def wall_end(self) -> datetime:
        return self.wall(self.end)


@dataclass
class ClipObservation:
    """Everything perception saw and heard in one clip."""

    span: ClipSpan
    keyframe_times: list[float] = field(default_factory=list)
    asr: list[AsrSegment] = field(default_factory=list)
    ocr: list[OcrLine] = field(default_factory=list)
    # One L2-normalised CLIP embedding per keyframe, or None when the channel is off.
    clip_embeddings: list[list[float]] | None = None
    objects: list[ObjectDetection] = field(default_factory=list)
    faces: list[FaceSighting] = field(default_factory=list)
    views: list[tuple[float, ...]] = field(default_factory=list)  # one descriptor per keyframe (perception.views)
    # What a vision-language model saw on the keyframes (perception.vlm), or None when the
    # channel is off. Model output: data to remember and search, never instructions.
    description: str | None = None


@dataclass
class VideoObservation:
    """A whole ingested video: its identity, clock and per-clip observations."""

    video_id: str
    path: str
    duration: float
    wall_start: datetime
    has_audio: bool
    clips: list[ClipObservation]
    channels: dict[str, str] = field(default_factory=dict)  # channel -> "on" or why it is off
    # Whole-video tracks of the skills' perception stages (perception.stages), by the kind
    # memory keeps them under: empty unless a configuration turns a skill on.
    tracks: dict[str, Any] = field(default_factory=dict)
    stage_seconds: dict[str, float] = field(default_factory=dict)  # perception's work, per stage
    # each speaker label's voice print (perception.speakers.voice_prints): unit GE2E vectors
    voices: dict[str, tuple[float, ...]] = field(default_factory=dict)
    # The model that made the clips' `clip_embeddings` (its model_id): vectors of different
    # models live in different spaces, so memory keeps and searches them per model.
    clip_model: str | None = None
    still: bool = False  # a photo: one picture, no time passing (memory calls it a photo)
