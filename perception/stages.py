"""Whole-video stages that a skill adds to perception (skills/: symbolic vision for game
video, source tracking for composed video). Perception runs and caches them, but never
imports a skill: the composition root hands the perceiver the stages of the skills a
configuration turns on, and with none (the default) nothing of theirs runs."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from .config import PerceptionConfig
from .decode import VideoInfo
from .ocr import TextReader


class Track(Protocol):
    """What a stage produces: a whole-video structure memory keeps as one JSON row."""

    def to_dict(self) -> dict[str, Any]: ...


class VideoStage(Protocol):
    name: str  # the channel and the cache stage ("symbolic"): PerceptionConfig.fingerprint knows its fields
    track: str  # the kind memory keeps its output under (memory.tracks), read back by the skill
    model_id: str  # bumped when the stage's output changes for the same video and settings
    declined: str  # why a video the stage passes over is not for it, for the channel's status

    def mode(self, config: PerceptionConfig) -> str:
        """"on", "off" or "auto" (the stage decides from the video whether it applies)."""
        ...

    def observe(self, path: Path, info: VideoInfo, config: PerceptionConfig,
                reader: Callable[[], TextReader | None]) -> Track | None:
        """The video's track, or None when it does not apply to this video; `reader` gives
        the perceiver's OCR backend (built on first call, None when OCR is off)."""
        ...

    def parse(self, payload: dict[str, Any]) -> Track:
        """A cached payload (`Track.to_dict`) back as the track."""
        ...
