"""Symbolic vision: shapes, colours, sizes, positions, static structure, the on-screen
clock and tones, from pixels (OpenCV) rather than CLIP, which is weak at exact size and
count (seed 003). Runs on synthetic and game-like video only."""
from __future__ import annotations

from pathlib import Path

from perception.config import PerceptionConfig
from perception.decode import VideoInfo
from perception.ocr import TextReader
from perception.symbols import SymbolTrack

MODEL_ID = "opencv-symbolic-v1"


def observe_symbols(path: Path, info: VideoInfo, config: PerceptionConfig,
                    reader: TextReader | None) -> SymbolTrack | None:
    """The video's symbolic track, or None when the stage is off or (symbolic="auto") the
    video does not look synthetic."""
    return None
