"""Source identity for composed video: which source stream is where, and when."""
from __future__ import annotations

from pathlib import Path

from perception.config import PerceptionConfig
from perception.decode import VideoInfo
from perception.sources import SourceMap

MODEL_ID = "source-tracker-v1"


def observe_sources(path: Path, info: VideoInfo, config: PerceptionConfig) -> SourceMap | None:
    """The video's source map, or None when the stage is off or the video is not composed."""
    return None
